//! What a [`Session`](super::Session) hands its user: deliveries, errors
//! and counters.

use tengen_protocol::{ErrorBody, ServerFrame, TableId};

use crate::conn::ClientError;

/// Why a [`Session`] call failed.
#[derive(Debug, thiserror::Error)]
pub enum SessionError {
    /// The connection dropped while this request was in flight; the session
    /// reconnects on the next call. The server may or may not have acted on
    /// the request: check the state (after [`Delivery::Rewatched`]) before
    /// retrying.
    #[error(
        "the connection dropped with the request in flight; it may or may not have taken effect"
    )]
    Dropped,
    /// The server closed the connection with a code that says not to
    /// reconnect (4005: the session was resumed elsewhere). Final.
    #[error("the server ended the connection ({code}: {reason}); not reconnecting")]
    Closed { code: u16, reason: String },
    /// Reconnecting failed for [`Session::give_up_after`] (or the server
    /// refused the handshake). Final.
    #[error("could not reconnect: {0}")]
    GaveUp(String),
    /// Any other failure of one call (a refusal, no reply in time, an
    /// undecodable frame); the session itself goes on.
    #[error(transparent)]
    Client(ClientError),
}

/// What [`Session::next`] hands over.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Delivery {
    /// A server frame: a push, or the reply to a request made with
    /// [`Session::send`]. `table_event`s come exactly once per `seq`, in
    /// order; a `table_snapshot` that answers a resume comes as a push
    /// (`id: None`) and replaces the table's state.
    Frame(ServerFrame),
    /// The connection dropped (`reason`); the session is reconnecting.
    Lost { reason: String },
    /// A new connection is up. `resumed: false` means the server no longer
    /// had the session (expired, or the server restarted): seats are lost
    /// and the tables are followed again as a spectator.
    Reconnected { resumed: bool },
    /// `table` is followed again on the new connection and every event up
    /// to `seq` has been delivered; `replayed`: the missed events were
    /// replayed (else a snapshot came).
    Rewatched {
        table: TableId,
        seq: u64,
        replayed: bool,
    },
    /// `table` could not be followed again (it has closed): the server's
    /// refusal. The session stops following it.
    TableLost { table: TableId, error: ErrorBody },
}

/// Counters, for tests and diagnostics.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// Connections made after a drop.
    pub reconnects: u32,
    /// Table events dropped as already delivered.
    pub duplicates: u64,
    /// Resumes answered by replaying events.
    pub replays: u32,
    /// Resumes answered by a snapshot (a gap older than the table keeps).
    pub snapshots: u32,
}
