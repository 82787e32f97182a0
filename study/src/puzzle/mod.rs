//! Puzzles from the wins players missed: finding them in a finished game
//! ([`mine`]), and judging a try move by move ([`Attempt`]).
//!
//! A puzzle is a position from a game where the side to move had a forced
//! win (a VCF, or a VCT of at most a few moves) and played something
//! else. It is kept once for all eight orientations ([`puzzle_id`]). Every
//! winning first move is accepted, and so is every winning move after it:
//! the referee's solver judges each move (`first_move_wins`), with fours
//! only for a VCF puzzle, and the defender's replies are the server's
//! (the forced block after a four; after a three, the defence that leaves
//! the longest win). Renju's forbidden points count throughout: black
//! cannot play one, and a black block on one is no block.

pub(crate) mod attempt;
pub(crate) mod mine;

pub use attempt::{Attempt, Defence, Judged, StepError, defence, five_points};
pub use mine::{MineBudget, Mined, Mining, mine, themes_of};

use blake2::digest::consts::U8;
use blake2::{Blake2b, Digest};
use serde::{Deserialize, Serialize};
use tengen_protocol::{PuzzleRef, PuzzleTheme};
use tengen_rules::game::RuleSet;
use tengen_rules::{Color, Point};

use crate::canon::Canonical;

/// The store's document family of puzzles (and their indexes).
pub const SPACE: &str = "puzzles";

/// A puzzle as stored, its rating with it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Puzzle {
    pub id: String,
    pub rule_set: RuleSet,
    pub size: u8,
    pub black: Vec<Point>,
    pub white: Vec<Point>,
    pub to_move: Color,
    /// Threes allowed (a VCT puzzle), or fours only (a VCF).
    pub threats: bool,
    /// The solver's winning line: attacker and defender in turn.
    pub line: Vec<Point>,
    pub themes: Vec<PuzzleTheme>,
    /// Where it comes from: the game, and the move that missed the win.
    pub game: String,
    pub move_number: u32,
    pub rating: f64,
    pub deviation: f64,
    pub volatility: f64,
    /// Rated tries, and how many solved it.
    pub plays: u32,
    pub solved: u32,
}

impl Puzzle {
    pub fn encode(&self) -> Vec<u8> {
        rmp_serde::to_vec_named(self).expect("a puzzle always encodes")
    }

    pub fn decode(bytes: &[u8]) -> Option<Puzzle> {
        rmp_serde::from_slice(bytes).ok()
    }

    /// As a game lists it.
    pub fn reference(&self) -> PuzzleRef {
        PuzzleRef {
            puzzle: self.id.clone(),
            move_number: self.move_number,
            to_move: self.to_move,
            themes: self.themes.clone(),
            rating: self.rating.round().max(0.0) as u32,
        }
    }
}

/// A puzzle's id: 16 hex digits of a digest of its position in canonical
/// form, the side to move and the rule set, so that the same position in
/// any orientation is one puzzle.
pub fn puzzle_id(
    rule_set: RuleSet,
    size: u8,
    black: &[Point],
    white: &[Point],
    to_move: Color,
) -> String {
    let form = Canonical::of(size, black, white);
    let mut h = Blake2b::<U8>::new();
    h.update(b"tengen-puzzle-1");
    h.update(rule_set.name().as_bytes());
    h.update([u8::from(to_move == Color::White)]);
    h.update(form.bytes());
    h.finalize().iter().map(|b| format!("{b:02x}")).collect()
}

/// The rating a new puzzle starts with: 1000, and 100 for each attacker
/// move of its solution, 300 more for threes (a VCT), within 800 to 2500;
/// with the deviation of a new player, the tries soon move it.
pub fn initial_rating(attacker_moves: usize, threats: bool) -> f64 {
    let r = 1000.0 + 100.0 * attacker_moves as f64 + if threats { 300.0 } else { 0.0 };
    r.clamp(800.0, 2500.0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use tengen_rules::opening::Symmetry;

    #[test]
    fn ids_are_one_for_every_orientation_and_differ_by_side_and_rules() {
        let p = |s: &str| -> Point { s.parse().unwrap() };
        let (b, w) = (vec![p("H8"), p("H9"), p("J7")], vec![p("A1"), p("B2")]);
        let id = puzzle_id(RuleSet::Renju, 15, &b, &w, Color::White);
        assert_eq!(id.len(), 16);
        for s in Symmetry::ALL {
            let m = |v: &[Point]| -> Vec<Point> {
                v.iter()
                    .map(|&q| crate::canon::map_point(s, 15, q))
                    .collect()
            };
            assert_eq!(
                puzzle_id(RuleSet::Renju, 15, &m(&b), &m(&w), Color::White),
                id
            );
        }
        assert_ne!(puzzle_id(RuleSet::Renju, 15, &b, &w, Color::Black), id);
        assert_ne!(puzzle_id(RuleSet::Gomoku, 15, &b, &w, Color::White), id);
    }
}
