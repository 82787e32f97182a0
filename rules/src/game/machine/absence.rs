//! A player who is away (docs/rules.md §4): what the server may declare
//! once the grace for coming back is over. The connection is the
//! server's to watch and the grace its to time; the referee records the
//! declaration and ends the game with it, so a record replays the same.
//!
//! The absent player's clock runs on meanwhile, like any clock: nothing
//! here ends a game by itself. When the grace is over the opponent may
//! claim the win ([`Game::declare_abandoned`]) or call a draw
//! ([`Game::declare_draw_called`]), or wait; where nobody can claim, the
//! server gives the win. Two players away in an untimed game are drawn
//! ([`Game::declare_both_away`]); in a timed one the clocks decide.

use super::Game;
use crate::game::action::Seat;
use crate::game::config::Millis;
use crate::game::error::GameError;
use crate::game::event::{Event, Outcome, ResultReason};
use crate::game::record::Input;

impl Game {
    /// `seat` was away past the grace and its opponent called the game a
    /// draw.
    pub fn declare_draw_called(
        &mut self,
        seat: Seat,
        now: Millis,
    ) -> Result<Vec<Event>, GameError> {
        self.precheck(now)?;
        let mut ev = self.begin(None, now);
        self.finish(
            Outcome::Draw,
            ResultReason::DrawCalled { seat },
            now,
            &mut ev,
        );
        self.log(now, Input::DrawCalled { seat });
        Ok(ev)
    }

    /// Both players were away past the grace (an untimed game, where no
    /// clock would ever end it): drawn.
    pub fn declare_both_away(&mut self, now: Millis) -> Result<Vec<Event>, GameError> {
        self.precheck(now)?;
        let mut ev = self.begin(None, now);
        self.finish(Outcome::Draw, ResultReason::BothAway, now, &mut ev);
        self.log(now, Input::BothAway);
        Ok(ev)
    }
}
