//! A connection's messages after `hello`: each decoded, checked and handed
//! to its owner (the lobby, a table here or on another node, the
//! matchmaker, accounts), never waiting on any of them.

use std::time::Instant;

use tengen_protocol::{
    ClientFrame, ClientMsg, Envelope, ErrorBody, ErrorCode, RequestId, ServerFrame, ServerMsg,
    decode_client,
};

use super::state::ConnState;
use crate::AppState;
use crate::msg::lobby::{LobbyCmd, NewRoom};
use crate::msg::node::NodeCmd;
use crate::msg::table::TableRequest;
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
    let msg = match shown_names(frame.msg) {
        Ok(msg) => msg,
        Err(why) => return reply_error(outbox, id, ErrorCode::InvalidName, &why),
    };
    match msg {
        ClientMsg::Hello(_) => reply_error(
            outbox,
            id,
            ErrorCode::BadRequest,
            "hello was already received",
        ),
        // A room or an event named like an account: the store is asked
        // first, off this task; the request goes on from there.
        msg @ (ClientMsg::CreateRoom { .. } | ClientMsg::CreateTournament { .. })
            if named_like_an_account(&msg) =>
        {
            let (state, session) = (state.clone(), cs.session.clone());
            tokio::spawn(async move {
                let own = (!session.player.guest).then_some(session.player.name.as_str());
                let store = state.accounts.store().clone();
                let like = crate::names::account_like(&*store, shown_name(&msg), own);
                match tokio::time::timeout(state.hosting.settings.store_timeout, like).await {
                    Ok(Ok(None)) => {}
                    Ok(Ok(Some(other))) => {
                        let why = format!("that name looks like the account {other}'s");
                        return reply_error(&session.outbox, id, ErrorCode::InvalidName, &why);
                    }
                    _ => {
                        let why = "the store is unavailable; try again";
                        return reply_error(&session.outbox, id, ErrorCode::Unavailable, why);
                    }
                }
                match msg {
                    ClientMsg::CreateTournament { .. } => to_director(&state, session, id, msg),
                    msg => to_lobby(&state, &session, id, lobby_create(session.clone(), id, msg)),
                }
            });
        }
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
            to_lobby(state, &cs.session, id, cmd);
        }
        msg @ (ClientMsg::Watch { .. }
        | ClientMsg::Unwatch { .. }
        | ClientMsg::Act { .. }
        | ClientMsg::Snapshot { .. }
        | ClientMsg::Chat { .. }
        | ClientMsg::Rematch { .. }
        | ClientMsg::DeclineRematch { .. }
        | ClientMsg::ClaimAbsence { .. }) => table_request(state, cs, id, msg, received),
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
        | ClientMsg::MyTables
        | ClientMsg::Explore { .. }
        | ClientMsg::NextPuzzle { .. }
        | ClientMsg::Puzzle { .. }
        | ClientMsg::DailyPuzzle
        | ClientMsg::PuzzleMove { .. }
        | ClientMsg::GamePuzzles { .. }
        | ClientMsg::TrainerNext
        | ClientMsg::TrainerAnswer { .. }) => {
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
        | ClientMsg::PairTournament { .. }) => to_director(state, cs.session.clone(), id, msg),
        ClientMsg::BecomeBot => super::bots::become_bot(state, &cs.ranked, &cs.session, id),
        ClientMsg::PlayComputer {
            config,
            level,
            colour,
        } => crate::computer::play(
            &state.computer,
            &state.hosting.lobby,
            &cs.session,
            id,
            config,
            level,
            colour,
        ),
        ClientMsg::SetBotFilters { filters } => {
            super::bots::set_filters(state, &cs.ranked, &cs.session, id, filters)
        }
        ClientMsg::Moderate(req) => crate::moderation::actions::handle(state, &cs.session, id, req),
        msg @ (ClientMsg::Block { .. } | ClientMsg::Unblock { .. } | ClientMsg::Report { .. }) => {
            crate::moderation::players::handle(state, &cs.session, id, msg)
        }
    }
}

/// The lobby gets `cmd` (or the client hears it is busy).
fn to_lobby(state: &AppState, session: &Session, id: Option<RequestId>, cmd: LobbyCmd) {
    if !state.hosting.lobby.try_send(cmd) {
        let why = "the lobby is busy; try again";
        session.outbox.refuse_with(id, crate::pressure::busy(why));
    }
}

/// The tournament director gets `msg` (here, or through the node actor,
/// which finds the node running the event).
fn to_director(state: &AppState, session: Session, id: Option<RequestId>, msg: ClientMsg) {
    let outbox = session.outbox.clone();
    let cmd = crate::msg::tournament::TournamentCmd { session, id, msg };
    let sent = match &state.node {
        Some(node) => node.try_send(NodeCmd::Tournament(Box::new(cmd))),
        None => {
            let cmd = crate::msg::tournament::DirectorCmd::Request(Box::new(cmd));
            state.hosting.tournaments.try_send(cmd)
        }
    };
    if !sent {
        let why = "the tournament director is busy; try again";
        outbox.refuse_with(id, crate::pressure::busy(why));
    }
}

/// The names in `msg` that others will see (a room's, a tournament's),
/// as shown (`crate::names`), or why one cannot be: with a character that
/// hides or turns text around, or looking like a guest name of the
/// server's (`guest-<n>`).
fn shown_names(mut msg: ClientMsg) -> Result<ClientMsg, String> {
    use tengen_protocol::limits::MAX_ROOM_NAME_CHARS;
    let name = match &mut msg {
        ClientMsg::CreateRoom { name: Some(n), .. } => n,
        ClientMsg::CreateTournament { tournament } => &mut tournament.name,
        _ => return Ok(msg),
    };
    let shown = crate::names::shown("name", name, MAX_ROOM_NAME_CHARS)?;
    if crate::names::guest_number_like(&shown) {
        return Err("that name looks like a guest's (guest-<n>)".into());
    }
    *name = shown;
    Ok(msg)
}

/// The room's or tournament's name in `msg` (empty for any other).
fn shown_name(msg: &ClientMsg) -> &str {
    match msg {
        ClientMsg::CreateRoom { name: Some(n), .. } => n,
        ClientMsg::CreateTournament { tournament } => &tournament.name,
        _ => "",
    }
}

/// Whether `msg` names a room or a tournament as an account could be
/// named (then the accounts are looked up before it goes on).
fn named_like_an_account(msg: &ClientMsg) -> bool {
    crate::names::may_look_like_an_account(shown_name(msg))
}

/// Whether `msg` starts new work (a game that is not running yet), which
/// an overloaded server refuses; its name for the metrics.
fn new_work(msg: &ClientMsg) -> Option<&'static str> {
    match msg {
        ClientMsg::CreateRoom { .. } => Some("create_room"),
        ClientMsg::Challenge { .. } => Some("challenge"),
        ClientMsg::Queue { .. } => Some("queue"),
        ClientMsg::PlayComputer { .. } => Some("play_computer"),
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
        msg @ ClientMsg::CreateRoom { .. } => lobby_create(session, id, msg),
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

/// The lobby's command for `create_room` (a list for anything else).
fn lobby_create(session: Session, id: Option<RequestId>, msg: ClientMsg) -> LobbyCmd {
    match msg {
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
        ClientMsg::DeclineRematch { table } => (table, TableRequest::DeclineRematch),
        ClientMsg::ClaimAbsence { table, draw } => (table, TableRequest::ClaimAbsence { draw }),
        other => {
            let why = format!("{} is not a table's message", other.type_name());
            reply_error(outbox, id, ErrorCode::BadRequest, &why);
            return;
        }
    };
    let watch = request.is_watch();
    let session = cs.session.clone();
    if super::to_table::to_table(state, &table, session, id, request, received)
        && watch
        && !cs.watching.contains(&table)
    {
        cs.watching.push(table);
    }
}
