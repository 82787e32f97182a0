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
use crate::msg::node::NodeCmd;
use crate::msg::table::{TableAsk, TableCmd, TableRequest};
use crate::outbound::Outbox;
use crate::sessions::Session;

pub(super) fn reply_error(outbox: &Outbox, id: Option<RequestId>, code: ErrorCode, message: &str) {
    outbox.refuse(id, code, message);
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
    if let Some(what) = new_work(&frame.msg)
        && let Some(retry) = state.hosting.pressure.shedding_games()
    {
        state.hosting.pressure.shed(what);
        let mut body = ErrorBody::new(
            ErrorCode::Unavailable,
            "the server is busy; games in progress go first: try again shortly",
        );
        body.retry_after_ms = Some(retry.as_millis() as u64);
        outbox.refuse_with(id, body);
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
            if !state.hosting.lobby.try_send(cmd) {
                let why = "the lobby is busy; try again";
                cs.session
                    .outbox
                    .refuse_with(id, crate::pressure::busy(why));
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
        | ClientMsg::LogoutEverywhere
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
        msg @ (ClientMsg::CreateTournament { .. }
        | ClientMsg::Tournaments
        | ClientMsg::Tournament { .. }
        | ClientMsg::JoinTournament { .. }
        | ClientMsg::WithdrawTournament { .. }
        | ClientMsg::StartTournament { .. }
        | ClientMsg::WatchTournament { .. }
        | ClientMsg::UnwatchTournament { .. }
        | ClientMsg::TournamentExport { .. }
        | ClientMsg::TournamentResult { .. }
        | ClientMsg::EndTournament { .. }
        | ClientMsg::PairTournament { .. }) => {
            let cmd = crate::msg::tournament::TournamentCmd {
                session: cs.session.clone(),
                id,
                msg,
            };
            let sent = match &state.node {
                Some(node) => node.try_send(NodeCmd::Tournament(Box::new(cmd))),
                None => {
                    let cmd = crate::msg::tournament::DirectorCmd::Request(Box::new(cmd));
                    state.hosting.tournaments.try_send(cmd)
                }
            };
            if !sent {
                let why = "the tournament director is busy; try again";
                cs.session
                    .outbox
                    .refuse_with(id, crate::pressure::busy(why));
            }
        }
        ClientMsg::BecomeBot => super::bots::become_bot(state, &cs.ranked, &cs.session, id),
        ClientMsg::SetBotFilters { filters } => {
            super::bots::set_filters(state, &cs.ranked, &cs.session, id, filters)
        }
        ClientMsg::Moderate(req) => crate::moderation::actions::handle(state, &cs.session, id, req),
        msg @ (ClientMsg::Block { .. } | ClientMsg::Unblock { .. } | ClientMsg::Report { .. }) => {
            crate::moderation::players::handle(state, &cs.session, id, msg)
        }
    }
}

/// Whether `msg` starts new work (a game that is not running yet), which
/// an overloaded server refuses; its name for the metrics.
fn new_work(msg: &ClientMsg) -> Option<&'static str> {
    match msg {
        ClientMsg::CreateRoom { .. } => Some("create_room"),
        ClientMsg::Challenge { .. } => Some("challenge"),
        ClientMsg::Queue { .. } => Some("queue"),
        _ => None,
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
            rated,
        } => LobbyCmd::Challenge {
            session,
            id,
            player,
            config,
            chat,
            rated,
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
    let outbox = &cs.session.outbox;
    let (table, request) = match msg {
        ClientMsg::Watch { table, since } => {
            if !cs.watching.contains(&table)
                && cs.watching.len() >= state.hosting.settings.limits.max_watch as usize
            {
                let why = "watching too many tables";
                reply_error(outbox, id, ErrorCode::LimitReached, why);
                return;
            }
            (table, TableRequest::Watch { since })
        }
        ClientMsg::Unwatch { table } => {
            cs.watching.retain(|t| *t != table);
            (table, TableRequest::Unwatch)
        }
        ClientMsg::Act { table, action } => (table, TableRequest::Act { action }),
        ClientMsg::Snapshot { table } => (table, TableRequest::Snapshot),
        ClientMsg::Chat { table, text } => (table, TableRequest::Chat { text }),
        ClientMsg::Rematch { table } => (table, TableRequest::Rematch),
        other => {
            let why = format!("{} is not a table's message", other.type_name());
            reply_error(outbox, id, ErrorCode::BadRequest, &why);
            return;
        }
    };
    let watch = request.is_watch();
    let session = cs.session.clone();
    if to_table(state, &table, session, id, request, received)
        && watch
        && !cs.watching.contains(&table)
    {
        cs.watching.push(table);
    }
}

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
            reply_error(&outbox, id, ErrorCode::NotFound, &why);
            return false;
        }
    };
    if !sent {
        outbox.refuse_with(id, crate::pressure::busy(busy));
    }
    sent
}
