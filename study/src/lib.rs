//! Studying the games a Tengen server holds.
//!
//! - [`explorer`]: the opening explorer's index: what a finished game adds
//!   to it (counters under position keys, at a cost that does not depend
//!   on how many games are indexed), and a position's view read back;
//! - [`puzzle`]: puzzles from the wins players missed, found by the
//!   referee's VCF/VCT solver, and a try judged move by move;
//! - [`trainer`]: forbidden-point exercises from real games, and the
//!   referee's judgement of an answer;
//! - [`canon`]: positions up to the board's eight symmetries, which all
//!   three share.
//!
//! Like the referee, the crate is pure: no I/O, no async, no clock reads.
//! The server stores what it computes (as the store's plain counters and
//! opaque documents) and runs it off its actors.

pub mod canon;
pub mod explorer;
pub mod puzzle;
#[cfg(feature = "sample")]
pub mod sample;
pub mod trainer;
