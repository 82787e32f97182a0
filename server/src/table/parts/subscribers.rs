//! Who watches a table besides its players, and when their coalesced
//! count goes out (the table's fan-out is `super::super::fanout`).

use std::collections::HashMap;
use std::time::Instant;

use crate::outbound::Outbox;

/// Who watches besides the players, and when their count goes out.
#[derive(Default)]
pub(crate) struct Subscribers {
    /// Spectators' outboxes by connection.
    pub(crate) spectators: HashMap<u64, Outbox>,
    /// Who each spectator is (for the blocks in spectators' chat); may
    /// keep a spectator gone since, pruned with the chat rates.
    pub(crate) who: HashMap<u64, tengen_protocol::Player>,
    /// When the coalesced spectator count goes out, if it changed.
    pub(crate) count_due: Option<Instant>,
    /// The spectators and present players last added to the node's
    /// gauges (`tengen_spectators`, `tengen_table_players`).
    pub(crate) counted: (usize, usize),
}
