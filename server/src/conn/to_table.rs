//! Where a client's table request goes: the table's mailbox when it runs
//! on this node, else the node actor, which finds the node running it. A
//! module of its own because both the router and the record request (a
//! game the store does not hold yet is asked of its table) send there.

use std::time::Instant;

use tengen_protocol::{ErrorBody, ErrorCode, RequestId, TableId};

use crate::AppState;
use crate::msg::node::NodeCmd;
use crate::msg::table::{TableAsk, TableCmd, TableRequest};
use crate::sessions::Session;

/// The one place that decides where a client's table request goes: the
/// table's mailbox when it runs here, else the node actor, which finds
/// the node running it. Answers `not_found` or `unavailable` itself.
pub(super) fn to_table(
    state: &AppState,
    table: &TableId,
    session: Session,
    id: Option<RequestId>,
    request: TableRequest,
    received: Instant,
) -> bool {
    let outbox = session.outbox.clone();
    let ask = TableAsk {
        session,
        id,
        request,
        received,
        via: None,
    };
    let (sent, busy) = match (state.hosting.directory.get(table), &state.node) {
        (Some(handle), _) => {
            let sent = handle.try_send(TableCmd::Request(Box::new(ask)));
            (sent, "the table is busy; try again")
        }
        // Several nodes: the table may run on another one.
        (None, Some(node)) => {
            let cmd = NodeCmd::Route {
                table: table.clone(),
                ask,
            };
            (node.try_send(cmd), "the server is busy; try again")
        }
        // Stopping: the tables have handed their games over (to this
        // server's next start, or another node) and the connection closes
        // with 1012 in a moment; the game is not gone, so not `not_found`.
        (None, None) if *state.shutdown.borrow() => {
            outbox.refuse_with(id, restarting(&state.hosting.settings));
            return false;
        }
        (None, None) => {
            let why = format!("no table {table}");
            outbox.refuse(id, ErrorCode::NotFound, &why);
            return false;
        }
    };
    if !sent {
        outbox.refuse_with(id, crate::pressure::busy(busy));
    }
    sent
}

/// The refusal of a table request while the server stops: `unavailable`,
/// to be tried again (after the reconnection the close asks for) once the
/// game runs again.
fn restarting(settings: &crate::settings::Settings) -> ErrorBody {
    let mut body = ErrorBody::new(
        ErrorCode::Unavailable,
        "the server is restarting; try again",
    );
    body.retry_after_ms = Some(settings.failover_retry().as_millis() as u64);
    body
}
