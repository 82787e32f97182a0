//! What the rest of the server tells this node's actor (several nodes on
//! one Redis), its mailbox, and what a tick's store work found.

use tengen_protocol::TableId;
use tengen_store::Lease;

use crate::cluster::wire::{LobbyNews, LobbyRemoteCmd, RemoteMatchCmd};
use crate::msg::table::TableAsk;
use crate::sessions::Session;

/// What the rest of the server asks of this node's actor.
pub enum NodeCmd {
    /// A local connection's command for a table this node does not run.
    Route { table: TableId, ask: TableAsk },
    /// A local connection ended.
    ConnGone { conn: u64 },
    /// The lookup of the node running `table` ended.
    Resolved {
        table: TableId,
        owner: Result<Option<String>, String>,
    },
    /// The relay of `(node, conn)` here ended.
    RelayEnded { node: String, conn: u64 },
    /// A local connection's `queue` or `unqueue`, for the matchmaker of
    /// the node holding the `matchmaker` lease.
    Match {
        session: Session,
        cmd: RemoteMatchCmd,
    },
    /// A local connection's tournament request, for the director of the
    /// node holding the `tournaments` lease.
    Tournament(Box<crate::msg::tournament::TournamentCmd>),
    /// A local connection's lobby command for a room of `node`.
    RouteLobby {
        node: String,
        session: Session,
        cmd: LobbyRemoteCmd,
    },
    /// The lobby's news for the other nodes: to every node on the lobby
    /// topic (`to: None`), or to one node.
    PublishLobby { to: Option<String>, news: LobbyNews },
    /// A tick's store work ended ((`crate::cluster::node`)).
    Ticked(Box<Ticked>),
    /// Ask `node` whether it is there: `reply` is answered when it says so
    /// (and dropped unanswered if it never does).
    Probe {
        node: String,
        reply: tokio::sync::oneshot::Sender<()>,
    },
}

/// Whether `node` answers a probe through `handle` within `wait` (false
/// when this node's actor is too busy to ask).
pub async fn probe(handle: &NodeHandle, node: &str, wait: std::time::Duration) -> bool {
    let (reply, answer) = tokio::sync::oneshot::channel();
    let cmd = NodeCmd::Probe {
        node: node.to_owned(),
        reply,
    };
    if !handle.try_send(cmd) {
        return false;
    }
    matches!(tokio::time::timeout(wait, answer).await, Ok(Ok(())))
}

/// The node actor's mailbox: routed commands from connections, relay
/// frames from the bus; a connection's end comes as a notice.
pub type NodeHandle = crate::mailbox::Mailbox<NodeCmd>;

/// What a tick's store work found.
#[derive(Debug)]
pub struct Ticked {
    /// This node's liveness lease now (`None` inside: not held); `None`
    /// when the store could not tell (the lease is kept as it was).
    pub alive: Option<Option<Lease>>,
    /// The `matchmaker` lease this node holds now and the node that runs
    /// the matchmaker; `None` when the store could not tell.
    pub lead: Option<(Option<Lease>, Option<String>)>,
    /// Nodes whose liveness lease is gone.
    pub dead: Vec<String>,
    /// The node directing the tournaments (`None` inside: nobody);
    /// `None` when the store could not tell.
    pub director: Option<Option<String>>,
}
