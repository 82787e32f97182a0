//! An arena event on the server: the engine's arena (`Tournament` with
//! `System::Arena`) pairs and scores; this is the part that needs a clock
//! and a store. Why apart from `event`: an arena has no rounds, so its
//! games, its pairing of free players and its end follow their own rules:
//!
//! - Each arena game is a tournament game `round 1, board id + 1, game 0`
//!   (so it travels to a table, and its result back, exactly like a
//!   round's board).
//! - Pairing happens at the start, after every result, after a
//!   withdrawal, and on the director's games tick: every free player
//!   (entered, not withdrawn, not playing) is offered to the engine,
//!   which meets the top scorer with the closest score below who was not
//!   their last opponent. A player who has waited [`REMATCH_AFTER_MS`]
//!   (since their last game ended, or since the start) may meet their last
//!   opponent again if that one has waited as long: two players left
//!   alone are not stuck, and are not paired over and over at once.
//! - When the window ends nothing more is paired; the games being played
//!   finish and count; then the arena closes and the standings are final.
//!
//! - Absence: a game already paired waits for an absent player like any
//!   tournament game (`games`: the event's `wait_secs`, then a loss by
//!   forfeit); the player who lost it so is then *paused*: not paired
//!   again until they make a tournament request (`watch_tournament`,
//!   `tournament`, ...: what a client does when it comes back), so an
//!   absent player does not pile up forfeits, nor keep others waiting.
//!
//! When each free player became free, and who is paused, are part of the
//! stored event, so a restart neither pairs anyone twice (the engine
//! refuses a busy player) nor resets their patience.

use tengen_protocol::TournamentGame;
use tengen_tournament::{GameResult, PlayerId, Recorded};

use super::event::{Event, engine_error};
use tengen_protocol::ErrorBody;

/// How long a free player waits before a rematch with their last
/// opponent is allowed.
pub const REMATCH_AFTER_MS: u64 = 5_000;

impl Event {
    /// Whether this event is an arena.
    pub fn is_arena(&self) -> bool {
        self.spec.system == tengen_protocol::TournamentSystem::Arena
    }

    /// The arena's games still being played, as tournament games with
    /// their players (the opener first).
    pub(super) fn arena_due(&self) -> Vec<(TournamentGame, [String; 2])> {
        let Some(arena) = self.engine.arena() else {
            return Vec::new();
        };
        arena
            .games()
            .iter()
            .filter(|g| g.result.is_none())
            .map(|g| {
                let at = TournamentGame {
                    tournament: self.id.clone(),
                    round: 1,
                    board: g.id as u32 + 1,
                    game: 0,
                };
                let names = [
                    self.name_of(g.first).to_owned(),
                    self.name_of(g.second).to_owned(),
                ];
                (at, names)
            })
            .collect()
    }

    /// Records arena game `board - 1` (round 1, game 0).
    pub(super) fn arena_record(
        &mut self,
        round: usize,
        board: usize,
        game: usize,
        result: GameResult,
    ) -> Result<Recorded, ErrorBody> {
        if round != 1 || game != 0 || board == 0 {
            return Err(ErrorBody::new(
                tengen_protocol::ErrorCode::NotFound,
                "an arena's games are round 1, game 0",
            ));
        }
        self.engine
            .record_arena(board as u64 - 1, result)
            .map_err(engine_error)
    }

    /// Pauses the players of a game lost by absence (`absent` by seat).
    pub(super) fn arena_pause(&mut self, players: &[String; 2], absent: [bool; 2]) {
        for (name, away) in players.iter().zip(absent) {
            if let Some(id) = self.id_of(name).filter(|_| away)
                && !self.paused.contains(&id.0)
            {
                self.paused.push(id.0);
            }
        }
    }

    /// Whether `name` is paused here.
    pub(super) fn arena_paused(&self, name: &str) -> bool {
        self.id_of(name)
            .is_some_and(|id| self.paused.contains(&id.0))
    }

    /// Takes `name` back into the pairing (they made a request), and
    /// pairs them if someone is free.
    pub(super) fn arena_resume(&mut self, name: &str) -> Result<(), ErrorBody> {
        if let Some(id) = self.id_of(name) {
            self.paused.retain(|p| *p != id.0);
        }
        self.pair_due();
        Ok(())
    }

    /// Pairs the free players and closes the arena when its time is over;
    /// whether anything changed.
    pub fn arena_step(&mut self, now: u64) -> bool {
        let Some(arena) = self.engine.arena() else {
            return false;
        };
        if arena.closed() {
            return false;
        }
        let free: Vec<PlayerId> = arena
            .free()
            .into_iter()
            .filter(|p| !self.paused.contains(&p.0))
            .collect();
        let mut changed = false;
        let before = self.free_since.len();
        self.free_since
            .retain(|(p, _)| free.contains(&PlayerId(*p)));
        changed |= before != self.free_since.len();
        for p in &free {
            if !self.free_since.iter().any(|(q, _)| *q == p.0) {
                self.free_since.push((p.0, now));
                changed = true;
            }
        }
        if !arena.window().open_at(now) {
            return match self.engine.close_arena(now) {
                Ok(closed) => changed | closed,
                Err(_) => changed,
            };
        }
        let patient: Vec<PlayerId> = self
            .free_since
            .iter()
            .filter(|(_, since)| now >= since + REMATCH_AFTER_MS)
            .map(|(p, _)| PlayerId(*p))
            .collect();
        match self.engine.pair_arena(now, &free, &patient) {
            Ok(games) if !games.is_empty() => {
                self.free_since
                    .retain(|(p, _)| !games.iter().any(|g| g.first.0 == *p || g.second.0 == *p));
                true
            }
            Ok(_) => changed,
            Err(e) => {
                tracing::warn!(tournament = %self.id, error = %e, "arena not paired");
                changed
            }
        }
    }
}
