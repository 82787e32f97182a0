//! This node's hold on a table: its lease (`super::super::lease`).

use std::time::Instant;

use tengen_store::Lease;

/// This node's hold on the table.
#[derive(Default)]
pub(crate) struct Tenure {
    /// The lease, once taken (renewed by the node's lease keeper).
    pub(crate) lease: Option<Lease>,
    /// When to try taking a lost lease again (the store was out of reach).
    pub(crate) retry_at: Option<Instant>,
    /// Another node runs the game now: this table writes nothing more and
    /// closes.
    pub(crate) stepped_down: bool,
}
