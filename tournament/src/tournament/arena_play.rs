//! A `Tournament` whose system is an arena (`System::Arena`): the entry
//! list and withdrawals are the tournament's, the pairing and scoring the
//! [`Arena`]'s. Why apart: an arena has no rounds, so none of the round
//! machinery applies; these are the calls that replace it, each a typed
//! refusal that changes nothing when it does not apply.

use super::state::{System, Tournament, TournamentError};
use crate::arena::{Arena, ArenaGame, Window};
use crate::matches::Recorded;
use crate::model::{GameResult, PlayerId};

impl Tournament {
    /// Starts an arena at `now_ms`: its window runs for the system's
    /// seconds from then, every entrant in it.
    pub fn start_arena(&mut self, now_ms: u64) -> Result<(), TournamentError> {
        let System::Arena { secs } = self.settings.system else {
            return Err(TournamentError::BadSettings("not an arena"));
        };
        let window = Window {
            start_ms: now_ms,
            end_ms: now_ms.saturating_add(u64::from(secs) * 1000),
        };
        let mut arena = Arena::new(window, self.settings.points)?;
        let mut next = self.clone();
        next.seed(0)?;
        for e in &next.entrants {
            arena.join(e.id);
        }
        next.arena = Some(arena);
        *self = next;
        Ok(())
    }

    fn arena_mut(&mut self) -> Result<&mut Arena, TournamentError> {
        self.arena.as_mut().ok_or(TournamentError::NotStarted)
    }

    /// Pairs the free players in `waiting` (see `arena::pair_waiting`;
    /// `patient`: those who may have a rematch).
    pub fn pair_arena(
        &mut self,
        now_ms: u64,
        waiting: &[PlayerId],
        patient: &[PlayerId],
    ) -> Result<Vec<ArenaGame>, TournamentError> {
        Ok(self.arena_mut()?.pair_waiting(now_ms, waiting, patient)?)
    }

    /// Records an arena game's result (the same one again changes
    /// nothing).
    pub fn record_arena(
        &mut self,
        game: u64,
        result: GameResult,
    ) -> Result<Recorded, TournamentError> {
        Ok(self.arena_mut()?.record(game, result)?)
    }

    /// Closes the arena if its window is over and its last game done;
    /// whether it is finished.
    pub fn close_arena(&mut self, now_ms: u64) -> Result<bool, TournamentError> {
        Ok(self.arena_mut()?.close_if_over(now_ms))
    }
}
