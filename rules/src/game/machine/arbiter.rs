//! An arbiter's word: a moderator ends a game as aborted, whatever its
//! state. Its own file because it is the one input that no rule of play
//! allows or forbids: the referee checks only that the game still runs
//! (and that time does not go backwards), then records it, so that a
//! replay of the record ends the same way.

use super::Game;
use crate::game::config::Millis;
use crate::game::error::GameError;
use crate::game::event::{Event, Outcome, ResultReason};
use crate::game::record::Input;

impl Game {
    /// An arbiter aborts the game at `now`: it ends with no winner
    /// ([`Outcome::Aborted`], [`ResultReason::Arbiter`]), at any move.
    /// Refused with [`GameError::GameOver`] once the game is over, and
    /// with [`GameError::TimeUp`] when a flag is due (the caller ticks
    /// first: the flag fell before the arbiter spoke).
    pub fn declare_arbiter_abort(&mut self, now: Millis) -> Result<Vec<Event>, GameError> {
        self.precheck(now)?;
        let mut ev = self.begin(None, now);
        self.finish(Outcome::Aborted, ResultReason::Arbiter, now, &mut ev);
        self.log(now, Input::ArbiterAborted);
        Ok(ev)
    }
}
