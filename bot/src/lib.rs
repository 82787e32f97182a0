//! Tengen's built-in bot: a player with a ladder of levels, from one a
//! beginner can beat to one that uses all the time it is given.
//!
//! The strongest level plays a forced win wherever the referee's solvers
//! find one (a VCF, or a VCT of up to seven moves), defends wherever the
//! opponent has one and a defence exists (the moves after which the
//! solvers find none), and otherwise searches: iterative deepening over a
//! principal-variation alpha-beta search with a transposition table,
//! threat-based move generation and a quiescence search of fours, on a
//! pattern evaluation ([`line`], [`position`], [`search`]). The opening
//! decisions of renju's and gomoku's opening rules (swaps, fifth-move
//! offers, which offer to keep, Swap2's choices) come from the search's
//! values ([`decide`]).
//!
//! The crate is pure, like the referee it depends on: no I/O, no async,
//! no clock reads. The caller passes a closure that says how long the
//! move has taken so far ([`think::Clock`]) and the time the move may
//! take ([`TimeBudget`]); node budgets bound the rest. Every rule
//! question (a five, a forbidden point, equivalent offers) is the
//! referee's (`tengen-rules`); the shapes the search reads are built from
//! the referee's five rule ([`tengen_rules::Variant::wins`]).

pub mod decide;
pub mod level;
pub mod line;
pub mod position;
pub mod search;
pub mod think;
pub mod tt;

pub use decide::{Bot, Situation};
pub use level::Level;
pub use think::{Choice, Reason, TimeBudget, choose_stone};
