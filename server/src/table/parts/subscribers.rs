//! Who watches a table besides its players, and when their coalesced
//! count goes out (the table's fan-out is `super::super::fanout`).

use std::collections::HashMap;
use std::time::Instant;

use tengen_protocol::Encoding;

use crate::msg::table::FanLink;
use crate::outbound::Outbox;

/// A spectator on another node: its node, its connection there, how it
/// reads, and how its node is reached.
pub(crate) struct Remote {
    pub(crate) node: String,
    pub(crate) conn: u64,
    pub(crate) encoding: Encoding,
    pub(crate) link: FanLink,
}

/// What the table sends to one other node's spectators at once: the
/// fan's id, its next message number, the fan it follows (with the count
/// that one sent, told in its first message), and how many more ticks its
/// count is announced.
pub(crate) struct Fan {
    pub(crate) id: u64,
    pub(crate) n: u64,
    pub(crate) prev: Option<(u64, u64)>,
    pub(crate) marks_left: u8,
    pub(crate) link: FanLink,
}

/// Who watches besides the players, and when their count goes out.
#[derive(Default)]
pub(crate) struct Subscribers {
    /// Spectators' outboxes by connection.
    pub(crate) spectators: HashMap<u64, Outbox>,
    /// Who each spectator is (for the blocks in spectators' chat); may
    /// keep a spectator gone since, pruned with the chat rates.
    pub(crate) who: HashMap<u64, tengen_protocol::Player>,
    /// The spectators on other nodes, by their relay's connection here
    /// (each in `spectators` too): they get what all spectators get
    /// through their node's fan, not their relay.
    pub(crate) remote: HashMap<u64, Remote>,
    /// One fan per node with spectators of this table.
    pub(crate) fans: HashMap<String, Fan>,
    /// When the fans next say how many messages they sent.
    pub(crate) mark_due: Option<Instant>,
    /// When the coalesced spectator count goes out, if it changed.
    pub(crate) count_due: Option<Instant>,
    /// The spectators and present players last added to the node's
    /// gauges (`tengen_spectators`, `tengen_table_players`).
    pub(crate) counted: (usize, usize),
}
