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

mod outcome;
mod record;
mod region;
mod solve;
mod threats;
mod vcf;
mod vct;

pub use outcome::{Budget, Outcome};
pub use record::{
    AnalysisError, Analyzer, MoveAnalysis, analyze_moves, analyze_record, first_move_wins,
};
pub use solve::{vcf, vct};
