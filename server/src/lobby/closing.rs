//! A moderator closes a room: it goes from the lobby at once (and from
//! every node's view with the next update), and everyone in it is told
//! why with `room_closed`. A room with a table hands the rest to the
//! table (`TableRequest::Arbiter` with `close_room`): it aborts a running
//! game through its own finish path, tells its players and spectators,
//! and closes. A room on another node is closed there: the command goes
//! to that node's lobby like a `join_room` does (`super::remote`).

use tengen_protocol::{Envelope, ErrorCode, RequestId, RoomId, ServerMsg, SessionId};

use super::{Lobby, reply};
use crate::cluster::wire::LobbyRemoteCmd;
use crate::msg::table::{TableAsk, TableCmd, TableRequest};
use crate::sessions::Session;

impl Lobby {
    /// Closes `room_id` for a moderator (`session`, answered `moderated`).
    pub(super) fn close(
        &mut self,
        session: Session,
        id: Option<RequestId>,
        room_id: RoomId,
        reason: String,
    ) {
        let Some(room) = self.rooms.get(&room_id) else {
            let cmd = LobbyRemoteCmd::Close {
                id,
                room: room_id,
                reason,
            };
            return self.route(session, cmd);
        };
        let table = room
            .info
            .table
            .as_ref()
            .and_then(|t| self.hosting.directory.get(t));
        // The table tells its players and spectators; without one (a room
        // still waiting, or a table already gone), the lobby tells the
        // seated players itself.
        if let Some(t) = &table {
            let ask = TableAsk {
                session: Session {
                    id: SessionId::from_u64(0),
                    player: session.player.clone(),
                    outbox: crate::outbound::detached(),
                },
                id: None,
                request: TableRequest::Arbiter {
                    reason: reason.clone(),
                    close_room: true,
                },
                received: std::time::Instant::now(),
                via: None,
            };
            if !t.try_send(TableCmd::Request(Box::new(ask))) {
                let why = "the room's table is busy; nothing was done, try again";
                return super::refuse(&session, id, ErrorCode::Unavailable, why.into());
            }
        }
        let Some(room) = self.take_room(&room_id) else {
            return;
        };
        self.pending.gone(&room_id, room.public);
        if table.is_none() {
            let push = Envelope::push(ServerMsg::RoomClosed {
                room: room_id.clone(),
                reason,
            });
            for s in room.seats.iter().flatten() {
                s.outbox.send_msg(&push);
            }
        }
        reply(
            &session,
            id,
            ServerMsg::Moderated {
                action: "close_room".into(),
                target: room_id.to_string(),
            },
        );
    }
}
