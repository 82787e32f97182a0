//! A quick bot: good enough to play whole games against people and other
//! bots at once, never breaking a rule.
//!
//! It looks one move ahead, in this order: make a five; stop the opponent's
//! five; make a four that cannot be stopped (two five points); stop the
//! opponent from making one (block its open threes); otherwise take the
//! point with the best local shape. As black in renju it never chooses a
//! forbidden point (the referee, [`Board::forbidden`], says which), unless
//! that point makes a five, which wins. Every rule question goes to
//! `tengen-rules`; nothing here re-implements one.
//!
//! It is deterministic for a given `seed`, so tests and load runs repeat.
//!
//! [`choose_stone`] answers "where do I play"; [`decide`] answers any
//! prompt the referee sends (stones, swaps, fifth-move offers, Taraguchi's
//! option, Swap2's choice, claims, draw offers) from what a client knows,
//! a [`Situation`], so a bot can play every rule set and opening through.

mod decide;
mod eval;
mod stone;
mod twin;

pub use decide::{SWAP2_TAKE_BLACK, Situation, TASTE, decide};
pub use stone::{Rules, choose_stone, quick_stone};
