//! Forced wins: VCF (victory by continuous fours) and VCT (victory by
//! continuous threes and fours) solvers, and the post-game analysis of a
//! record built on them.
//!
//! Why this lives in the referee crate: a forced win is only worth showing
//! if it is a win under the room's exact rules, and the rules live here. The
//! solvers never re-implement them: every "does this win" goes to
//! [`Board::makes_five`] (exactly five for black in renju and for both in
//! standard gomoku, five or more otherwise) and every "may black play here"
//! to the renju forbidden-move judge ([`Board::forbidden`]). So black never
//! plays a forbidden point in a solution, a black defence on a forbidden
//! point is no defence (a white four whose only defence is forbidden wins),
//! and a black overline is no win.
//!
//! Like the rest of the crate this is pure: no I/O and no clock. Work is
//! bounded by a [`Budget`] (a node count and a depth), so a search gives the
//! same answer on every machine, and a caller that wants a time limit picks
//! the node count for it.
//!
//! - [`vcf`] and [`vct`] solve one position for one attacker;
//! - [`analyze_moves`] and [`analyze_record`] run them on every position of
//!   a game.
//!
//! Lengths are counted in attacker moves, as renju problems count them: a
//! solution ends with the attacker's move that wins (a five) or that leaves
//! a win the defender cannot stop (a four with two winning points, or a
//! white four whose only defence is forbidden for black). The five after
//! such a move is not part of the line.

mod record;
mod region;
mod threats;
mod vcf;
mod vct;

pub use record::{AnalysisError, MoveAnalysis, analyze_moves, analyze_record};

use crate::board::{Board, Variant};
use crate::point::{Color, Point};

/// How much work a search may do.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budget {
    /// Moves the search may try (attacker and defender moves both count).
    pub nodes: u64,
    /// The longest solution looked for, in attacker moves.
    pub max_depth: u8,
}

impl Budget {
    /// A VCF budget that finishes in well under a second on any position
    /// a game reaches: a million nodes, any length.
    pub const VCF_DEFAULT: Budget = Budget {
        nodes: 1_000_000,
        max_depth: u8::MAX,
    };
    /// A VCT budget for interactive use: a million nodes, solutions of up to
    /// seven attacker moves.
    pub const VCT_DEFAULT: Budget = Budget {
        nodes: 1_000_000,
        max_depth: 7,
    };

    pub const fn new(nodes: u64, max_depth: u8) -> Budget {
        Budget { nodes, max_depth }
    }
}

/// What a search found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// A forced win: the attacker's and the defender's moves in turn,
    /// starting and ending with the attacker's (see the module doc).
    Win(Vec<Point>),
    /// No such win within the budget's depth: the search was complete.
    /// With an unbounded depth ([`Budget::VCF_DEFAULT`]) this is a proof
    /// that there is none.
    None,
    /// The node budget ran out first.
    Unknown,
}

impl Outcome {
    /// The winning line, if any.
    pub fn line(&self) -> Option<&[Point]> {
        match self {
            Outcome::Win(line) => Some(line),
            _ => None,
        }
    }

    /// The solution's length in attacker moves (`None` without a win).
    pub fn attacker_moves(&self) -> Option<usize> {
        self.line().map(|l| l.len().div_ceil(2))
    }
}

/// The shortest VCF of `attacker` in `board` (the attacker to move) under
/// `variant`. Only the first solution of the shortest length is returned.
///
/// A position where the defender already threatens five is searched too:
/// the attacker must then win at once or block with a four.
pub fn vcf(board: &Board, attacker: Color, variant: Variant, budget: Budget) -> Outcome {
    vcf::solve(board, attacker, variant, budget)
}

/// The shortest VCT of `attacker` in `board` (the attacker to move) under
/// `variant`: a line of moves each of which is a four, or a threat the
/// defender must answer because the attacker would otherwise have a VCF.
///
/// Every defence is considered: after a threat, the defender's candidate
/// replies are all the moves that break the attacker's VCF (found by
/// replaying it after each legal defender move), which includes every
/// counter-four. Every VCF is a VCT, so the VCT found is never longer than
/// the VCF.
pub fn vct(board: &Board, attacker: Color, variant: Variant, budget: Budget) -> Outcome {
    vct::solve(board, attacker, variant, budget)
}
