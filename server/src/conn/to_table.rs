//! Where a client's table request goes: the table's mailbox when it runs
//! on this node, else the node actor, which finds the node running it. A
//! module of its own because both the router and the record request (a
//! game the store does not hold yet is asked of its table) send there.

use std::time::Instant;

use tengen_protocol::{ErrorCode, RequestId, TableId};

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
