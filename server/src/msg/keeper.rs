//! What tables tell this node's lease keeper, and its mailbox.

use tengen_protocol::TableId;
use tengen_store::{Lease, Result};

/// What the lease keeper (`crate::keeper`) is told.
pub enum KeeperCmd {
    /// A table here holds `lease` now: keep it renewed.
    Hold { table: TableId, lease: Lease },
    /// The table gave its lease up (released, stepped down, or closed).
    Let { table: TableId },
    /// A renewal of `asked` ended: for each, whether it is still held.
    Renewed {
        asked: Vec<(TableId, Lease)>,
        held: Result<Vec<bool>>,
    },
}

/// The lease keeper's mailbox: every message a notice (none may be lost,
/// and there is one per table taking or giving up a lease at most).
pub type KeeperHandle = crate::mailbox::Mailbox<KeeperCmd>;
