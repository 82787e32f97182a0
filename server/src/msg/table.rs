//! What connections, the lobby and the node tell a table, its mailbox,
//! and the directory of live tables on this node.

use std::collections::HashMap;
use std::sync::{Arc, RwLock};
use std::time::Instant;

use serde::{Deserialize, Serialize};

use tengen_protocol::{RequestId, SessionId, TableId};
use tengen_rules::game::Action;

use crate::sessions::Session;

/// What a client asks of a table: the same value whether the client's
/// socket is on this node or on another one (then it crosses the bus in
/// [`crate::cluster::wire::Body::ToTable`]). The table answers `id`.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub enum TableRequest {
    /// Subscribe (as a player if the session sits here, else a spectator)
    /// and get a snapshot, or, resuming from `since`, what followed it if
    /// the table still keeps it.
    Watch {
        since: Option<u64>,
    },
    /// Stop receiving this table's events.
    Unwatch,
    Act {
        action: Action,
    },
    Snapshot,
    Chat {
        text: String,
    },
    /// The opponent is away past the grace: claim the win, or call a draw.
    ClaimAbsence {
        draw: bool,
    },
    /// The game's record so far in `format` (a running game's, which the
    /// store does not hold yet), for a player or a spectator.
    Record {
        format: tengen_protocol::RecordFormat,
    },
    Rematch,
    DeclineRematch,
    /// A moderator aborts the game (`reason` goes to everyone there);
    /// `close_room`: the room is closing too, so everyone is sent away and
    /// the table closes. Made only by the server after a role check,
    /// never from a client's message.
    Arbiter {
        reason: String,
        close_room: bool,
    },
}

impl TableRequest {
    /// Whether this request subscribes the connection.
    pub fn is_watch(&self) -> bool {
        matches!(self, TableRequest::Watch { .. })
    }
}

/// A client's request of a table, with who asks: answered to
/// `session.outbox` (a relay when the client is on another node).
pub struct TableAsk {
    pub session: Session,
    pub id: Option<RequestId>,
    pub request: TableRequest,
    /// When the client's frame arrived (lag compensation counts from it).
    pub received: Instant,
    /// The client's node and connection, when it is on another node (a
    /// spectator there gets what all spectators get through the node's
    /// fan, `crate::cluster::fan`).
    pub via: Option<Via>,
}

/// What a table is told: its clients' requests, and the notices of the
/// connections, the lobby and the server around it.
pub enum TableCmd {
    /// A client's request (boxed: the largest command, and every table's
    /// mailbox holds room for 32 of its commands from the start).
    Request(Box<TableAsk>),
    /// The connection `conn` of `session` ended: if it is a player's, its
    /// grace for coming back starts.
    Away { session: SessionId, conn: u64 },
    /// The connection `conn` ended: it gets no more of this table's events
    /// (and no reply).
    Gone { conn: u64 },
    /// The lobby started this table's rematch: tell the spectators.
    RematchStarted { rematch: TableId },
    /// Another node took this table's `lease` (from the lease keeper).
    LeaseLost { lease: tengen_store::Lease },
    /// `player` withdrew from the tournament whose game this table plays:
    /// they lose it by abandonment now (the tournament has forfeited it
    /// already), so their opponent is free for the next game.
    Withdrawn { player: String },
    /// The server is stopping: give the lease up and stop, writing
    /// nothing more (another node, or the next start, takes the game on
    /// from its log).
    Handover,
}

/// A table's mailbox: its players', spectators' and the lobby's commands.
pub type TableHandle = crate::mailbox::Mailbox<TableCmd>;

/// Every live table by id. The lock is held only to copy a handle out or
/// to insert and remove one, never across an await.
#[derive(Clone, Default)]
pub struct Directory(Arc<RwLock<HashMap<TableId, TableHandle>>>);

impl Directory {
    pub fn get(&self, id: &TableId) -> Option<TableHandle> {
        self.0.read().ok()?.get(id).cloned()
    }

    pub(crate) fn insert(&self, id: TableId, h: TableHandle) {
        if let Ok(mut m) = self.0.write() {
            m.insert(id, h);
        }
    }

    pub(crate) fn remove(&self, id: &TableId) {
        if let Ok(mut m) = self.0.write() {
            m.remove(id);
        }
    }

    /// Every table's mailbox.
    pub fn handles(&self) -> Vec<TableHandle> {
        self.0
            .read()
            .map(|m| m.values().cloned().collect())
            .unwrap_or_default()
    }

    /// How many tables are live.
    pub fn len(&self) -> usize {
        self.0.read().map_or(0, |m| m.len())
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// Which message of which fan: the fan's id, the message's number, and
/// (in message 0) the fan it follows with the count that one sent.
#[derive(Clone, Copy, Debug)]
pub struct FanHead {
    pub fan: u64,
    pub n: u64,
    pub prev: Option<(u64, u64)>,
}

/// How a table sends what all its spectators get to those of another
/// node, once per node (`crate::cluster::fan` does it over the bus).
/// Never waits: false when the message could not be queued (its receiver
/// then sees the gap).
pub trait FanOut: Send + Sync {
    /// Message `head` of `table`'s fan to `node`: each part's frames for
    /// each of its connections there.
    fn frames(
        &self,
        node: &str,
        table: &TableId,
        head: FanHead,
        parts: Vec<(Vec<u64>, Vec<crate::outbound::Frame>)>,
    ) -> bool;

    /// Fan `fan` of `table` has sent `n` messages, to `node`'s
    /// connections `to`.
    fn mark(&self, node: &str, table: &TableId, fan: u64, n: u64, to: Vec<u64>) -> bool;
}

/// A shared [`FanOut`].
pub type FanLink = Arc<dyn FanOut>;

/// A connection of another node speaking to a table here: its node, its
/// id there, and how to reach that node's spectators.
#[derive(Clone)]
pub struct Via {
    pub node: String,
    pub conn: u64,
    pub link: FanLink,
}
