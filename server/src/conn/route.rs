//! A connection's messages after `hello`: each decoded, checked and handed
//! to its owner (the lobby, a table here or on another node, the
//! matchmaker, accounts), never waiting on any of them.

use std::time::Instant;

use tengen_protocol::{
    ClientFrame, ClientMsg, Envelope, ErrorBody, ErrorCode, RequestId, ServerFrame, ServerMsg,
    TableId, decode_client,
};

use super::state::ConnState;
use crate::AppState;
use crate::msg::lobby::LobbyCmd;
use crate::msg::table::TableCmd;
use crate::outbound::Outbox;
use crate::sessions::Session;

pub(super) fn reply_error(outbox: &Outbox, id: Option<RequestId>, code: ErrorCode, message: &str) {
    crate::metrics::error(code.as_str());
    outbox.send_msg(&ServerFrame::error(id, ErrorBody::new(code, message)));
}

/// Decodes one frame and routes it. Never waits.
pub(super) fn handle(state: &AppState, cs: &mut ConnState, bytes: &[u8], received: Instant) {
    let outbox = &cs.session.outbox;
    let frame: ClientFrame = match decode_client(bytes, cs.encoding) {
        Ok(f) => f,
        Err(e) => {
            crate::metrics::error(e.code().as_str());
            outbox.send_msg(&ServerFrame::error(
                e.id(),
                ErrorBody::new(e.code(), e.to_string()),
            ));
            return;
        }
    };
    let id = frame.id;
    metrics::counter!(crate::metrics::MESSAGES_IN, "type" => frame.msg.type_name()).increment(1);
    if let Err(why) = frame.msg.validate() {
        reply_error(outbox, id, ErrorCode::BadRequest, &why);
        return;
    }
    let session = &cs.session;
    let to_lobby = |cmd: LobbyCmd| {
        if !state.lobby.try_send(cmd) {
            reply_error(
                outbox,
                id,
                ErrorCode::Unavailable,
                "the lobby is busy; try again",
            );
        }
    };
    match frame.msg {
        ClientMsg::Hello(_) => reply_error(
            outbox,
            id,
            ErrorCode::BadRequest,
            "hello was already received",
        ),
        ClientMsg::Ping => {
            let time_ms = std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| d.as_millis() as u64);
            outbox.send_msg(&Envelope::with_id(id, ServerMsg::Pong { time_ms }));
        }
        ClientMsg::LobbySubscribe => {
            cs.lobby_subscribed = true;
            to_lobby(LobbyCmd::Subscribe {
                session: session.clone(),
                id,
            });
        }
        ClientMsg::LobbyUnsubscribe => {
            cs.lobby_subscribed = false;
            to_lobby(LobbyCmd::Unsubscribe {
                session: session.clone(),
                id,
            });
        }
        ClientMsg::ListRooms => to_lobby(LobbyCmd::List {
            session: session.clone(),
            id,
        }),
        ClientMsg::CreateRoom {
            config,
            public,
            name,
            chat,
            rated,
        } => to_lobby(LobbyCmd::Create {
            session: session.clone(),
            id,
            room: crate::msg::lobby::NewRoom {
                config,
                public,
                name,
                chat,
                rated,
            },
        }),
        ClientMsg::JoinRoom { room } => to_lobby(LobbyCmd::Join {
            session: session.clone(),
            id,
            room,
        }),
        ClientMsg::LeaveRoom { room } => to_lobby(LobbyCmd::Leave {
            session: session.clone(),
            id,
            room,
        }),
        ClientMsg::CancelRoom { room } => to_lobby(LobbyCmd::Cancel {
            session: session.clone(),
            id,
            room,
        }),
        ClientMsg::Watch { table, since } => {
            if !cs.watching.contains(&table)
                && cs.watching.len() >= state.settings.limits.max_watch as usize
            {
                reply_error(
                    outbox,
                    id,
                    ErrorCode::LimitReached,
                    "watching too many tables",
                );
                return;
            }
            let cmd = TableCmd::Watch {
                session: session.clone(),
                id,
                since,
            };
            if to_table(state, session, id, &table, cmd) && !cs.watching.contains(&table) {
                cs.watching.push(table);
            }
        }
        ClientMsg::Unwatch { table } => {
            cs.watching.retain(|t| *t != table);
            let cmd = TableCmd::Unwatch {
                conn: outbox.conn,
                id,
                outbox: Some(outbox.clone()),
            };
            to_table(state, session, id, &table, cmd);
        }
        ClientMsg::Act { table, action } => {
            let cmd = TableCmd::Act {
                session: session.id.clone(),
                action,
                id,
                outbox: outbox.clone(),
                received,
            };
            to_table(state, session, id, &table, cmd);
        }
        ClientMsg::Snapshot { table } => {
            let cmd = TableCmd::Snapshot {
                session: session.clone(),
                id,
            };
            to_table(state, session, id, &table, cmd);
        }
        ClientMsg::Chat { table, text } => {
            let cmd = TableCmd::Chat {
                session: session.clone(),
                id,
                text,
            };
            to_table(state, session, id, &table, cmd);
        }
        ClientMsg::Challenge {
            player,
            config,
            chat,
        } => to_lobby(LobbyCmd::Challenge {
            session: session.clone(),
            id,
            player,
            config,
            chat,
        }),
        ClientMsg::DeclineChallenge { room } => to_lobby(LobbyCmd::DeclineChallenge {
            session: session.clone(),
            id,
            room,
        }),
        ClientMsg::Rematch { table } => {
            let cmd = TableCmd::Rematch {
                session: session.clone(),
                id,
            };
            to_table(state, session, id, &table, cmd);
        }
        msg @ (ClientMsg::Register { .. }
        | ClientMsg::Login { .. }
        | ClientMsg::Logout
        | ClientMsg::Queue { .. }
        | ClientMsg::Unqueue
        | ClientMsg::Leaderboard { .. }
        | ClientMsg::Profile { .. }
        | ClientMsg::History { .. }
        | ClientMsg::GameRecord { .. }) => {
            super::accounts::handle(state, &mut cs.ranked, &cs.session, id, msg)
        }
    }
}

/// Hands `cmd` to a table's mailbox; answers `not_found` or `unavailable`.
pub(super) fn to_table(
    state: &AppState,
    session: &Session,
    id: Option<RequestId>,
    table: &TableId,
    cmd: TableCmd,
) -> bool {
    let outbox = &session.outbox;
    let Some(handle) = state.tables.get(table) else {
        // Several nodes: the table may run on another one.
        if let (Some(node), Some(remote)) = (&state.node, remote_cmd(&cmd)) {
            let session = session.clone();
            let cmd = crate::msg::node::NodeCmd::Route {
                table: table.clone(),
                session,
                cmd: remote,
            };
            if node.try_send(cmd) {
                return true;
            }
            reply_error(
                outbox,
                id,
                ErrorCode::Unavailable,
                "the server is busy; try again",
            );
            return false;
        }
        reply_error(
            outbox,
            id,
            ErrorCode::NotFound,
            &format!("no table {table}"),
        );
        return false;
    };
    if !handle.try_send(cmd) {
        reply_error(
            outbox,
            id,
            ErrorCode::Unavailable,
            "the table is busy; try again",
        );
        return false;
    }
    true
}

/// What a table command says to a table on another node.
pub(super) fn remote_cmd(cmd: &TableCmd) -> Option<crate::cluster::wire::RemoteCmd> {
    use crate::cluster::wire::RemoteCmd;
    Some(match cmd {
        TableCmd::Watch { id, since, .. } => RemoteCmd::Watch {
            id: *id,
            since: *since,
        },
        TableCmd::Unwatch { id, .. } => RemoteCmd::Unwatch { id: *id },
        TableCmd::Act { id, action, .. } => RemoteCmd::Act {
            id: *id,
            action: *action,
        },
        TableCmd::Snapshot { id, .. } => RemoteCmd::Snapshot { id: *id },
        TableCmd::Chat { id, text, .. } => RemoteCmd::Chat {
            id: *id,
            text: text.clone(),
        },
        TableCmd::Rematch { id, .. } => RemoteCmd::Rematch { id: *id },
        _ => return None,
    })
}
