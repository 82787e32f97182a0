//! What a player does about other players: `block` and `unblock` (the
//! list is kept in the account's standing; the matchmaker never pairs
//! the two, a challenge between them is refused with `blocked`, and the
//! blocked player's table chat never reaches the blocker), and `report`
//! (a player, perhaps a game, with a reason and a short text, queued for
//! the moderators: `moderate` `reports`, `close_report`).

use tengen_protocol::{ClientMsg, Envelope, ErrorBody, ErrorCode, RequestId, ServerMsg};
use tengen_store::{Report, Store, name_key};

use super::actions::{Ctx, refuse, store_failed};
use super::state::unix_ms;
use crate::AppState;
use crate::sessions::Session;

/// The most players one account blocks.
pub const MAX_BLOCKS: usize = 500;
/// The most open reports one account may have queued.
pub const MAX_OPEN_REPORTS: usize = 10;

/// Starts handling `block`, `unblock` or `report` (a task of its own,
/// within the node's moderation bound).
pub fn handle(state: &AppState, session: &Session, id: Option<RequestId>, msg: ClientMsg) {
    let Ok(permit) = state.hosting.moderation.permits.clone().try_acquire_owned() else {
        session
            .outbox
            .refuse(id, ErrorCode::Unavailable, "the server is busy; try again");
        return;
    };
    let (state, session) = (state.clone(), session.clone());
    tokio::spawn(async move {
        let reply = run(&state, &session, msg).await;
        match reply {
            Ok(msg) => session.outbox.send_msg(&Envelope::with_id(id, msg)),
            Err(body) => session.outbox.refuse_with(id, body),
        };
        drop(permit);
    });
}

async fn run(state: &AppState, session: &Session, msg: ClientMsg) -> Result<ServerMsg, ErrorBody> {
    if session.player.guest {
        return Err(refuse(ErrorCode::LoginRequired, "log in first"));
    }
    let ctx = Ctx {
        m: &state.hosting.moderation,
        store: &*state.hosting.store,
        sessions: &state.hosting.sessions,
        by: &session.player.name,
    };
    match msg {
        ClientMsg::Block { player } => block(&ctx, &player, true).await,
        ClientMsg::Unblock { player } => block(&ctx, &player, false).await,
        ClientMsg::Report {
            player,
            game,
            reason,
            text,
        } => {
            let player = ctx.account(&player).await?;
            let report = Report {
                id: format!("{:016x}", rand::random::<u64>()),
                at_ms: unix_ms(),
                by: ctx.by.to_owned(),
                player,
                game: game.map(String::from),
                reason: reason.as_str().to_owned(),
                text,
                closed: None,
            };
            queue_report(ctx.store, &report).await?;
            Ok(ServerMsg::Reported { report: report.id })
        }
        other => Err(refuse(
            ErrorCode::BadRequest,
            format!("{} is not a player's moderation message", other.type_name()),
        )),
    }
}

/// Adds or removes `player` in the sender's blocks; the list after.
async fn block(ctx: &Ctx<'_>, player: &str, on: bool) -> Result<ServerMsg, ErrorBody> {
    let key = name_key(player);
    if on {
        ctx.account(player).await?;
        if key == name_key(ctx.by) {
            return Err(refuse(ErrorCode::BadRequest, "you cannot block yourself"));
        }
    }
    let mut full = false;
    ctx.change(ctx.by, |s| {
        s.blocks.retain(|b| *b != key);
        if on {
            full = s.blocks.len() >= MAX_BLOCKS;
            if !full {
                s.blocks.push(key.clone());
            }
        }
    })
    .await?;
    if full {
        let why = format!("you block {MAX_BLOCKS} players already");
        return Err(refuse(ErrorCode::LimitReached, why));
    }
    let players = ctx.m.book.get(ctx.by).map(|s| s.blocks).unwrap_or_default();
    Ok(ServerMsg::Blocks { players })
}

/// Stores a report unless its author has too many open ones.
async fn queue_report(store: &dyn Store, report: &Report) -> Result<(), ErrorBody> {
    let open = store
        .reports()
        .await
        .map_err(store_failed)?
        .iter()
        .filter(|r| r.closed.is_none() && name_key(&r.by) == name_key(&report.by))
        .count();
    if open >= MAX_OPEN_REPORTS {
        let why = format!("you have {MAX_OPEN_REPORTS} reports waiting for a moderator");
        return Err(refuse(ErrorCode::LimitReached, why));
    }
    store.put_report(report).await.map_err(store_failed)
}
