//! Replaying a record: every entry fed to a fresh machine, the recorded
//! clocks and result checked against the replayed ones.

use super::Game;
use crate::game::event::Event;
use crate::game::record::{GameRecord, RECORD_VERSION, ReplayError};

impl GameRecord {
    /// Rebuilds the game by feeding every entry to a fresh machine, and
    /// checks the recorded clocks and result against the replayed ones.
    pub fn replay(&self) -> Result<Game, ReplayError> {
        self.replay_with(|_, _| {})
    }

    /// [`GameRecord::replay`], calling `seen` with each entry's index and
    /// the events it produced (for viewers that print the game as it goes).
    pub fn replay_with(&self, mut seen: impl FnMut(usize, &[Event])) -> Result<Game, ReplayError> {
        if self.version != RECORD_VERSION {
            return Err(ReplayError::Version(self.version));
        }
        let mut game = Game::new(self.config.clone(), self.opener, self.start)?;
        for (index, entry) in self.entries.iter().enumerate() {
            let at = entry.at;
            let events = game
                .feed(&entry.input, at)
                .map_err(|error| ReplayError::Refused { index, at, error })?;
            if events.is_empty() {
                return Err(ReplayError::IdleTick { index, at });
            }
            let last = game.entries().last().expect("an accepted input is logged");
            if last.clocks != entry.clocks {
                return Err(ReplayError::ClocksDiffer { index });
            }
            seen(index, &events);
        }
        if game.result() != self.result.as_ref() {
            return Err(ReplayError::ResultDiffers);
        }
        Ok(game)
    }
}
