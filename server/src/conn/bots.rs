//! A connection's side of bot accounts: `become_bot`, which makes the
//! logged-in account a bot for good, and `set_bot_filters` (kept with the
//! account in the store, so they outlive a restart and reach every node,
//! and loaded into `crate::bot_filters` when the bot logs in on a node,
//! where the lobby checks them on each challenge). Its own module because bot accounts
//! are a concern of their own (the account's flag, every player view
//! marking it, the matchmaker keeping people who did not opt in away from
//! bots), not one more login request.
//!
//! The store refuses an account with a finished game (`already_played`);
//! the session registry refuses one seated at a table now, whose game the
//! store cannot know of yet. Like a login, the change of who the session
//! is goes to the registry and the connection before the reply, so every
//! room or queue entry made after `became_bot` shows the bot.

use tengen_protocol::{BotFilters, ErrorBody, ErrorCode, RequestId, ServerMsg};

use super::accounts::{Change, ConnRanked, queue_change, read, refuse, spawn};
use crate::AppState;
use crate::sessions::Session;

/// `become_bot`: guests cannot; an account seated at a table cannot; a
/// bot asking again is told it is one.
pub fn become_bot(state: &AppState, rc: &ConnRanked, session: &Session, id: Option<RequestId>) {
    let me = &session.player;
    if me.guest {
        let why = "only an account can become a bot: register or log in first";
        return refuse(session, id, ErrorBody::new(ErrorCode::LoginRequired, why));
    }
    if !state.hosting.sessions.tables_of(&me.name, 1).is_empty() {
        let why = "an account seated at a table has played: it stays a person's";
        return refuse(session, id, ErrorBody::new(ErrorCode::AlreadyPlayed, why));
    }
    let (st, s, tx, token) = (
        state.clone(),
        session.clone(),
        rc.changes.clone(),
        rc.token.clone(),
    );
    spawn(rc, session, id, async move {
        st.accounts.become_bot(&s.player.name).await?;
        let mut bot = s.player.clone();
        bot.bot = true;
        let player = st.hosting.sessions.set_player(&s.id, bot);
        queue_change(
            &tx,
            Change {
                player: player.clone(),
                token,
            },
        );
        Ok(ServerMsg::BecameBot { player })
    });
}

/// `set_bot_filters`: only a bot account has filters. They are stored
/// with the account first, then put in force on this node.
pub fn set_filters(
    state: &AppState,
    rc: &ConnRanked,
    session: &Session,
    id: Option<RequestId>,
    mut f: BotFilters,
) {
    let me = &session.player;
    if me.guest {
        let why = "only a bot account has challenge filters: log in first";
        return refuse(session, id, ErrorBody::new(ErrorCode::LoginRequired, why));
    }
    if !me.bot {
        let why = "only a bot account has challenge filters: become_bot first";
        return refuse(session, id, ErrorBody::new(ErrorCode::BadRequest, why));
    }
    // The cap the server allows, said in the reply.
    let most = state.hosting.settings.bot_max_games.max(1);
    f.max_games = f.max_games.map(|n| n.clamp(1, most));
    let Ok(text) = serde_json::to_string(&f) else {
        let why = "the filters cannot be encoded";
        return refuse(session, id, ErrorBody::new(ErrorCode::Internal, why));
    };
    let (st, name) = (state.clone(), me.name.clone());
    spawn(rc, session, id, async move {
        let store = st.accounts.store().clone();
        read(&st, store.set_bot_filters(&name, &text)).await?;
        if !st.hosting.bot_filters.set(&name, f.clone()) {
            let why = "too many bots have filters on this server";
            return Err(ErrorBody::new(ErrorCode::LimitReached, why));
        }
        Ok(ServerMsg::BotFiltersSet { filters: f })
    });
}
