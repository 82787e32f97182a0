//! The moves the simulated players play: one precomputed legal game, replayed
//! by every table.
//!
//! A load generator must not spend the cores it shares with the server on
//! choosing moves, and its games must never go wrong (a refused move would be
//! an error of ours, not the server's). So every game replays one free-style
//! 15x15 script, built once and checked through the referee: both colours
//! fill a pattern in which no colour ever has more than two in a row in any
//! direction (`(x + 2y) mod 4 < 2` is black's half, ordered from the centre
//! outwards), and black's last five stones lie on the top row, where nothing
//! else stands, so the last move makes the first five. Its length is chosen:
//! short games exercise the lobby and table start-up, long ones (fan-out) keep
//! one table busy for the whole run.

use tengen_rules::Point;
use tengen_rules::game::{Action, Event, Game, GameConfig, RuleSet, Seat};

/// A free-style game of a chosen odd length that black wins with its last
/// move.
#[derive(Clone, Debug)]
pub struct Script {
    moves: Vec<Point>,
}

/// Why a script could not be built.
#[derive(Debug, thiserror::Error)]
pub enum ScriptError {
    #[error("a game of {0} moves is out of range (odd, from 9 to {MAX_MOVES})")]
    Length(usize),
    #[error("the referee refused the script at move {0}: {1}")]
    Refused(usize, String),
    #[error("the script did not end with black's five at its last move")]
    NoFive,
}

/// The longest script (both colours' halves of the pattern run out beyond).
pub const MAX_MOVES: usize = 201;
const SIZE: u8 = 15;

impl Script {
    /// The configuration every simulated room uses.
    pub fn config() -> GameConfig {
        GameConfig::free(RuleSet::Freestyle)
    }

    /// A game of `len` moves (odd, 9..=[`MAX_MOVES`]), checked by the referee.
    pub fn new(len: usize) -> Result<Script, ScriptError> {
        if len.is_multiple_of(2) || !(9..=MAX_MOVES).contains(&len) {
            return Err(ScriptError::Length(len));
        }
        let top = SIZE - 1;
        let c = (SIZE / 2) as i32;
        let mut cells: Vec<(u8, u8)> = (0..SIZE)
            .flat_map(|y| (0..SIZE).map(move |x| (x, y)))
            .filter(|&(_, y)| y != top)
            .collect();
        cells.sort_by_key(|&(x, y)| {
            let (dx, dy) = (x as i32 - c, y as i32 - c);
            (dx * dx + dy * dy, y, x)
        });
        let black_half = |&(x, y): &(u8, u8)| (x as u32 + 2 * y as u32) % 4 < 2;
        let mut black = cells.iter().copied().filter(black_half);
        let mut white = cells.iter().copied().filter(|p| !black_half(p));
        let black_moves = len.div_ceil(2);
        let mut moves = Vec::with_capacity(len);
        for n in 0..len {
            let (x, y) = if n % 2 == 1 {
                white.next().ok_or(ScriptError::Length(len))?
            } else if n / 2 < black_moves - 5 {
                black.next().ok_or(ScriptError::Length(len))?
            } else {
                ((n / 2 - (black_moves - 5)) as u8, top)
            };
            moves.push(Point::new(x, y));
        }
        let script = Script { moves };
        script.check()?;
        Ok(script)
    }

    /// Replays the script through the referee: every move legal, the only
    /// five at the last move.
    fn check(&self) -> Result<(), ScriptError> {
        let mut game = Game::new(Self::config(), Seat::First, 0)
            .map_err(|e| ScriptError::Refused(0, e.to_string()))?;
        let mut seat = Seat::First;
        for (i, &p) in self.moves.iter().enumerate() {
            let events = game
                .apply(seat, Action::place(p), 0)
                .map_err(|e| ScriptError::Refused(i + 1, e.to_string()))?;
            let over = events.iter().any(|e| matches!(e, Event::GameOver { .. }));
            if over != (i + 1 == self.moves.len()) {
                return Err(ScriptError::NoFive);
            }
            seat = seat.other();
        }
        Ok(())
    }

    pub fn len(&self) -> usize {
        self.moves.len()
    }

    pub fn is_empty(&self) -> bool {
        self.moves.is_empty()
    }

    /// The point of move `number` (from 1).
    pub fn point(&self, number: u32) -> Option<Point> {
        self.moves.get((number as usize).checked_sub(1)?).copied()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_length_is_a_legal_game_won_at_its_last_move() {
        for len in (9..=MAX_MOVES).step_by(2) {
            let s = Script::new(len).unwrap_or_else(|e| panic!("{len}: {e}"));
            assert_eq!(s.len(), len);
        }
    }

    #[test]
    fn even_or_out_of_range_lengths_are_refused() {
        for len in [0, 7, 8, 40, MAX_MOVES + 2] {
            assert!(matches!(Script::new(len), Err(ScriptError::Length(_))));
        }
    }
}
