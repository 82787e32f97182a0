//! What connections, the lobby and the node tell a table, its mailbox,
//! and the directory of live tables on this node.

use std::collections::HashMap;
use std::sync::{Arc, RwLock};
use std::time::Instant;

use tengen_protocol::{RequestId, SessionId, TableId};
use tengen_rules::game::Action;

use crate::outbound::Outbox;
use crate::sessions::Session;

/// What connections ask of a table.
pub enum TableCmd {
    /// Subscribe (as a player if the session sits here, else a spectator)
    /// and get a snapshot.
    Watch {
        session: Session,
        id: Option<RequestId>,
        /// Resuming from this `seq`: replay what follows, if still kept.
        since: Option<u64>,
    },
    /// The connection `conn` of `session` ended: if it is a player's, the
    /// abandonment countdown starts.
    Away { session: SessionId, conn: u64 },
    Chat {
        session: Session,
        id: Option<RequestId>,
        text: String,
    },
    Rematch {
        session: Session,
        id: Option<RequestId>,
    },
    /// The lobby started this table's rematch: tell the spectators.
    RematchStarted { rematch: TableId },
    /// Stop receiving this table's events (`outbox: None` when the
    /// connection is gone and wants no reply).
    Unwatch {
        conn: u64,
        id: Option<RequestId>,
        outbox: Option<Outbox>,
    },
    Act {
        session: SessionId,
        action: Action,
        id: Option<RequestId>,
        outbox: Outbox,
        received: Instant,
    },
    Snapshot {
        session: Session,
        id: Option<RequestId>,
    },
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
