//! What the store has confirmed of a table (the table's store side is
//! `super::super::durable`).

use std::time::Instant;

/// What the store has of the table.
#[derive(Default)]
pub(crate) struct Durability {
    /// Whether the store has the table (its metadata).
    pub(crate) created: bool,
    /// How many of the game's entries the store has confirmed.
    pub(crate) logged: usize,
    /// Whether the finished game's record is stored.
    pub(crate) finish_stored: bool,
    /// Whether the store failed the last write.
    pub(crate) store_down: bool,
    /// When to try the store again.
    pub(crate) retry_at: Option<Instant>,
}
