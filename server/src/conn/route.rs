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
use crate::msg::lobby::{LobbyCmd, NewRoom};
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
        msg @ (ClientMsg::LobbySubscribe
        | ClientMsg::LobbyUnsubscribe
        | ClientMsg::ListRooms
        | ClientMsg::CreateRoom { .. }
        | ClientMsg::JoinRoom { .. }
        | ClientMsg::LeaveRoom { .. }
        | ClientMsg::CancelRoom { .. }
        | ClientMsg::Challenge { .. }
        | ClientMsg::DeclineChallenge { .. }) => {
            let cmd = lobby_cmd(cs, id, msg);
            if !state.lobby.try_send(cmd) {
                let why = "the lobby is busy; try again";
                reply_error(&cs.session.outbox, id, ErrorCode::Unavailable, why);
            }
        }
        msg @ (ClientMsg::Watch { .. }
        | ClientMsg::Unwatch { .. }
        | ClientMsg::Act { .. }
        | ClientMsg::Snapshot { .. }
        | ClientMsg::Chat { .. }
        | ClientMsg::Rematch { .. }) => table_request(state, cs, id, msg, received),
        msg @ (ClientMsg::Register { .. }
        | ClientMsg::Login { .. }
        | ClientMsg::Logout
        | ClientMsg::Queue { .. }
        | ClientMsg::Unqueue
        | ClientMsg::Leaderboard { .. }
        | ClientMsg::Profile { .. }
        | ClientMsg::History { .. }
        | ClientMsg::GameRecord { .. }
        | ClientMsg::AnalyzeGame { .. }
        | ClientMsg::MyTables) => {
            super::accounts::handle(state, &mut cs.ranked, &cs.session, id, msg)
        }
    }
}

/// The lobby's command for one of the lobby's messages (noting a lobby
/// subscription on the connection).
fn lobby_cmd(cs: &mut ConnState, id: Option<RequestId>, msg: ClientMsg) -> LobbyCmd {
    let session = cs.session.clone();
    match msg {
        ClientMsg::LobbySubscribe => {
            cs.lobby_subscribed = true;
            LobbyCmd::Subscribe { session, id }
        }
        ClientMsg::LobbyUnsubscribe => {
            cs.lobby_subscribed = false;
            LobbyCmd::Unsubscribe { session, id }
        }
        ClientMsg::CreateRoom {
            config,
            public,
            name,
            chat,
            rated,
        } => {
            let room = NewRoom {
                config,
                public,
                name,
                chat,
                rated,
            };
            LobbyCmd::Create { session, id, room }
        }
        ClientMsg::JoinRoom { room } => LobbyCmd::Join { session, id, room },
        ClientMsg::LeaveRoom { room } => LobbyCmd::Leave { session, id, room },
        ClientMsg::CancelRoom { room } => LobbyCmd::Cancel { session, id, room },
        ClientMsg::Challenge {
            player,
            config,
            chat,
        } => LobbyCmd::Challenge {
            session,
            id,
            player,
            config,
            chat,
        },
        ClientMsg::DeclineChallenge { room } => LobbyCmd::DeclineChallenge { session, id, room },
        // `ListRooms`, and nothing else reaches here (see `handle`).
        _ => LobbyCmd::List { session, id },
    }
}

/// One of a table's messages, handed to the table (here or through the
/// node actor on another node); `watch` within the connection's limit.
fn table_request(
    state: &AppState,
    cs: &mut ConnState,
    id: Option<RequestId>,
    msg: ClientMsg,
    received: Instant,
) {
    let session = &cs.session;
    let outbox = &session.outbox;
    let (table, cmd) = match msg {
        ClientMsg::Watch { table, since } => {
            if !cs.watching.contains(&table)
                && cs.watching.len() >= state.settings.limits.max_watch as usize
            {
                let why = "watching too many tables";
                reply_error(outbox, id, ErrorCode::LimitReached, why);
                return;
            }
            let session = session.clone();
            (table, TableCmd::Watch { session, id, since })
        }
        ClientMsg::Unwatch { table } => {
            cs.watching.retain(|t| *t != table);
            let outbox = Some(outbox.clone());
            let conn = session.outbox.conn;
            (table, TableCmd::Unwatch { conn, id, outbox })
        }
        ClientMsg::Act { table, action } => {
            let cmd = TableCmd::Act {
                session: session.id.clone(),
                action,
                id,
                outbox: outbox.clone(),
                received,
            };
            (table, cmd)
        }
        ClientMsg::Snapshot { table } => {
            let session = session.clone();
            (table, TableCmd::Snapshot { session, id })
        }
        ClientMsg::Chat { table, text } => {
            let session = session.clone();
            (table, TableCmd::Chat { session, id, text })
        }
        ClientMsg::Rematch { table } => {
            let session = session.clone();
            (table, TableCmd::Rematch { session, id })
        }
        other => {
            let why = format!("{} is not a table's message", other.type_name());
            reply_error(outbox, id, ErrorCode::BadRequest, &why);
            return;
        }
    };
    let watch = matches!(cmd, TableCmd::Watch { .. });
    if to_table(state, &cs.session, id, &table, cmd) && watch && !cs.watching.contains(&table) {
        cs.watching.push(table);
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
