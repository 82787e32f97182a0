//! Tournament requests across nodes: one node directs every tournament
//! (the holder of the `tournaments` lease); a connection on another node
//! has its tournament requests sent there over the bus, and the director
//! answers (and pushes `tournament_update`, and seats its games) through
//! that node's relay of the connection, as a table does.

use tengen_protocol::{ClientMsg, ErrorCode, RequestId};

use super::{Node, refuse};
use crate::cluster::wire::{Body, RemoteSession};
use crate::msg::tournament::{DirectorCmd, TournamentCmd};
use crate::sessions::Session;

impl Node {
    /// A local connection's tournament request: to this node's director,
    /// or to the directing node's.
    pub(super) fn route_tournament(&mut self, cmd: TournamentCmd) {
        match self.director.clone() {
            Some(node) if node != self.hosting.settings.node => {
                let body = Body::ToDirector {
                    conn: cmd.session.outbox.conn,
                    session: self.remote_session(&cmd.session),
                    id: cmd.id,
                    msg: cmd.msg,
                };
                let busy = "the tournament director cannot be reached";
                self.send_routed(&node, &cmd.session, cmd.id, body, busy);
            }
            _ => self.to_director(cmd),
        }
    }

    /// Another node's connection asks this node's director.
    pub(super) fn host_tournament(
        &mut self,
        from: String,
        conn: u64,
        who: RemoteSession,
        id: Option<RequestId>,
        msg: ClientMsg,
    ) {
        let outbox = self.relay_for(&from, conn, &who);
        let session = Session {
            id: who.id,
            player: who.player,
            outbox,
        };
        self.to_director(TournamentCmd { session, id, msg });
    }

    fn to_director(&self, cmd: TournamentCmd) {
        let (outbox, id) = (cmd.session.outbox.clone(), cmd.id);
        if !self
            .hosting
            .tournaments
            .try_send(DirectorCmd::Request(Box::new(cmd)))
        {
            refuse(
                &outbox,
                id,
                ErrorCode::Unavailable,
                "the tournament director is busy; try again",
            );
        }
    }
}
