//! What connections, the lobby and the node tell the matchmaker, its
//! mailbox, and the pairing it hands the lobby.

use std::time::{Duration, Instant};

use tengen_protocol::{RequestId, SessionId};
use tengen_rules::game::{GameConfig, Seat};

pub use crate::cluster::wire::QueueKind;
use crate::cluster::wire::RemoteMatchCmd;
use crate::sessions::Session;

/// One player waiting.
#[derive(Clone)]
pub struct Waiter {
    pub session: Session,
    /// The account's name as registered.
    pub account: String,
    pub rating: f64,
    pub since: Instant,
    /// A bot, or whether this person takes one.
    pub kind: QueueKind,
}

/// Two players the matchmaker paired, for the lobby to seat.
pub struct Pairing {
    pub config: GameConfig,
    /// By seat (first, second).
    pub seats: [Waiter; 2],
    pub opener: Seat,
}

/// What connections and the lobby tell the matchmaker.
pub enum MatchCmd {
    /// Wait for `config` (the reply `queued` is sent here).
    Queue {
        waiter: Waiter,
        config: GameConfig,
        id: Option<RequestId>,
    },
    /// Leave the queue; `id`: reply `unqueued` (none when the server
    /// removes the player itself, after a logout).
    Unqueue {
        session: Session,
        id: Option<RequestId>,
        reply: bool,
    },
    /// A connection closed: its session's entry goes.
    Gone { session: SessionId, conn: u64 },
    /// The lobby could not seat a pairing: these players wait on, as
    /// long as they had.
    Requeue { config: GameConfig, waiter: Waiter },
}

/// The matchmaker's mailbox: queue commands from connections and nodes.
pub type MatchmakerHandle = crate::mailbox::Mailbox<MatchCmd>;

impl MatchCmd {
    /// A queue command as it crosses nodes (`RemoteMatchCmd`), as a
    /// matchmaker takes it: the wait so far carried as an age.
    pub fn from_remote(session: Session, cmd: RemoteMatchCmd) -> MatchCmd {
        match cmd {
            RemoteMatchCmd::Queue {
                id,
                config,
                account,
                rating,
                waited_ms,
                kind,
            } => {
                let now = Instant::now();
                let since = now
                    .checked_sub(Duration::from_millis(waited_ms))
                    .unwrap_or(now);
                MatchCmd::Queue {
                    waiter: Waiter {
                        session,
                        account,
                        rating,
                        since,
                        kind,
                    },
                    config,
                    id,
                }
            }
            RemoteMatchCmd::Unqueue { id, reply } => MatchCmd::Unqueue { session, id, reply },
        }
    }
}
