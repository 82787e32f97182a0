//! The Tengen referee.
//!
//! Everything the server needs to know about gomoku and renju rules lives
//! here, and nowhere else: board and notation ([`Point`], [`Board`]), the
//! five rules of each [`Variant`], renju's forbidden moves
//! ([`Board::forbidden`], [`Board::forbidden_points`]), the game state
//! machine with its clocks and records ([`game`]), and forced wins (VCF and
//! VCT solvers, post-game analysis: [`analysis`]).
//!
//! The crate is pure: no I/O, no async, no clock reads. Anything that depends
//! on time takes the time as an argument, so every rule can be tested
//! exhaustively and replayed exactly.

pub mod analysis;
mod board;
mod forbidden;
pub mod game;
mod lines;
pub mod opening;
mod pattern;
mod point;

pub use board::{Board, BoardError, Variant};
pub use forbidden::Forbidden;
pub use point::{Color, MAX_SIZE, Point, PointError, STANDARD_SIZE};
