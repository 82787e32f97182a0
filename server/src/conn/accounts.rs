//! A connection's side of accounts and ranked play: who a `hello` makes
//! you, and the requests `register`, `login`, `logout` (and
//! `logout_everywhere`; ending the other sessions is `crate::signout`'s), `queue`
//! (`become_bot` is `super::bots`'s),
//! `unqueue`, `leaderboard`, `profile`, `history`, `game_record`,
//! `analyze_game` (the search itself is `crate::analysis`'s) and
//! `my_tables` (the session registry's answer).
//!
//! The connection task never waits: each of these requests that needs the
//! store or a password hash runs as its own task (at most
//! [`MAX_IN_FLIGHT`] per connection, more refused as `rate_limited`;
//! `register` and `login` have their own bucket instead),
//! which answers straight into the connection's outbox. A login or logout
//! changes who the session is: the task records it in the session registry,
//! then queues the change for the connection (applied before the
//! connection reads its next frame, see [`ConnRanked::apply`]), and only
//! then replies, so every request sent after the reply is handled as the
//! new identity. Tables and rooms the session already sits in keep the
//! name they knew; rated rooms and the queue check the identity when
//! seating.

use std::sync::{Arc, Mutex};
use std::time::Instant;

use tengen_protocol::{
    ClientMsg, Envelope, ErrorBody, ErrorCode, Hello, Player, RatingFamily, RequestId, ServerFrame,
    ServerMsg, SessionId,
};
use tengen_rules::game::GameConfig;
use tokio::sync::Semaphore;

use crate::AppState;
use crate::accounts::{ConnAttempts, too_many, unix_ms};
use crate::addresses::{AddrKey, Client};
use crate::cluster::wire::RemoteMatchCmd;
use crate::msg::matchmaker::MatchCmd;
use crate::msg::node::NodeCmd;
use crate::msg::table::TableRequest;
use crate::sessions::Session;

/// Requests of this module one connection may have running at once.
pub const MAX_IN_FLIGHT: usize = 4;

/// Who a new session is, from its `hello`.
pub enum Identity {
    /// A guest with this name.
    Guest(String),
    /// An account (its name as registered, and whether it is a bot),
    /// opened with this login token.
    Account {
        name: String,
        token: String,
        bot: bool,
    },
}

impl Identity {
    pub fn player(&self) -> Player {
        match self {
            Identity::Guest(name) => Player {
                name: name.clone(),
                guest: true,
                bot: false,
            },
            Identity::Account { name, bot, .. } => Player {
                name: name.clone(),
                guest: false,
                bot: *bot,
            },
        }
    }
}

/// Who `hello` makes the new session: the account of `hello.token` (a bad
/// or expired token is refused), or a guest named as asked, unless an
/// account has that name (then `guest-<conn>`).
pub async fn identify(state: &AppState, hello: &Hello, conn: u64) -> Result<Identity, ErrorBody> {
    if let Some(token) = &hello.token {
        let (name, bot) = state.accounts.check_token(token).await?;
        if bot {
            load_filters(state, &name).await;
        }
        return Ok(Identity::Account {
            name,
            token: token.clone(),
            bot,
        });
    }
    Ok(Identity::Guest(match &hello.name {
        Some(wanted) => state.accounts.guest_name(wanted, conn).await,
        None => format!("guest-{conn}"),
    }))
}

/// The session is `player`'s account from now on, and the connection
/// holds `token` from its next frame.
fn signed_in(
    st: &AppState,
    sid: &SessionId,
    changes: &Mutex<Vec<Change>>,
    player: Player,
    token: &str,
) {
    let player = st
        .hosting
        .sessions
        .sign(sid, player, Some(token.to_owned()));
    queue_change(
        changes,
        Change {
            player,
            token: Some(token.to_owned()),
        },
    );
}

/// Queues `change` for the connection (see [`ConnRanked::apply`]).
pub(super) fn queue_change(changes: &Mutex<Vec<Change>>, change: Change) {
    if let Ok(mut changes) = changes.lock() {
        changes.push(change);
    }
}

/// A change of identity, for the connection to apply.
pub(super) struct Change {
    pub player: Player,
    pub token: Option<String>,
}

/// A connection's state for this module.
pub struct ConnRanked {
    attempts: ConnAttempts,
    /// Who the connection is from (the login and registration limits are
    /// per address).
    client: Client,
    /// The login token this connection presented or received (what
    /// `logout` revokes).
    pub(super) token: Option<String>,
    /// Identity changes of finished logins and logouts, for the connection
    /// to apply before its next frame (at most one per request in flight).
    /// A shared slot rather than a channel: a channel's buffer would cost
    /// every connection about 2 KB, most of them never logging in.
    pub(super) changes: Arc<Mutex<Vec<Change>>>,
    in_flight: Arc<Semaphore>,
}

impl ConnRanked {
    pub fn new(state: &AppState, identity: &Identity, client: Client) -> ConnRanked {
        ConnRanked {
            attempts: ConnAttempts::new(state.accounts.settings()),
            client,
            token: match identity {
                Identity::Account { token, .. } => Some(token.clone()),
                Identity::Guest(_) => None,
            },
            changes: Arc::default(),
            in_flight: Arc::new(Semaphore::new(MAX_IN_FLIGHT)),
        }
    }

    /// Applies the identity changes finished logins and logouts queued.
    /// Call before handling each frame.
    pub fn apply(&mut self, session: &mut Session) {
        let changes = match self.changes.lock() {
            Ok(mut changes) => std::mem::take(&mut *changes),
            Err(_) => return,
        };
        for c in changes {
            session.player = c.player;
            self.token = c.token;
        }
    }
}

pub(super) fn refuse(session: &Session, id: Option<RequestId>, body: ErrorBody) {
    crate::metrics::error(body.code.as_str());
    session.outbox.send_msg(&ServerFrame::error(id, body));
}

fn reply(session: &Session, id: Option<RequestId>, msg: ServerMsg) {
    session.outbox.send_msg(&Envelope::with_id(id, msg));
}

/// Runs `work` as its own task, answering its result; refused at once
/// when the connection has [`MAX_IN_FLIGHT`] running.
pub(super) fn spawn<F>(rc: &ConnRanked, session: &Session, id: Option<RequestId>, work: F)
where
    F: std::future::Future<Output = Result<ServerMsg, ErrorBody>> + Send + 'static,
{
    let Ok(permit) = rc.in_flight.clone().try_acquire_owned() else {
        return refuse(session, id, ErrorBody::rate_limited(100));
    };
    run(session, id, Some(permit), work);
}

/// Runs a `register` or `login` that its connection's attempts allowed
/// ([`ConnAttempts`]: 5 at once, then one per 12 s). That bucket bounds
/// how many run at once, so they take no [`MAX_IN_FLIGHT`] permit: the
/// whole burst the protocol promises is taken at once.
fn spawn_attempt<F>(session: &Session, id: Option<RequestId>, work: F)
where
    F: std::future::Future<Output = Result<ServerMsg, ErrorBody>> + Send + 'static,
{
    run(session, id, None, work);
}

fn run<F>(
    session: &Session,
    id: Option<RequestId>,
    permit: Option<tokio::sync::OwnedSemaphorePermit>,
    work: F,
) where
    F: std::future::Future<Output = Result<ServerMsg, ErrorBody>> + Send + 'static,
{
    let session = session.clone();
    tokio::spawn(async move {
        match work.await {
            Ok(msg) => reply(&session, id, msg),
            Err(body) => refuse(&session, id, body),
        }
        drop(permit);
    });
}

/// Bounds a store read by the accounts' store wait.
/// Loads a bot's stored filters into this node's book (at a login).
async fn load_filters(state: &AppState, name: &str) {
    let wait = state.accounts.settings().store_wait;
    let store = state.accounts.store().clone();
    crate::bot_filters::load(&state.hosting.bot_filters, store.as_ref(), wait, name).await;
}

pub(super) async fn read<T>(
    state: &AppState,
    f: impl std::future::Future<Output = Result<T, tengen_store::StoreError>>,
) -> Result<T, ErrorBody> {
    match tokio::time::timeout(state.accounts.settings().store_wait, f).await {
        Ok(Ok(v)) => Ok(v),
        Ok(Err(e)) => Err(crate::accounts::store_refusal(&e)),
        Err(_) => Err(ErrorBody::new(
            ErrorCode::Unavailable,
            "the store did not answer in time; try again",
        )),
    }
}

/// One request of this module: the server's state, the connection's side
/// of accounts, who asked and the request's id.
struct Ask<'a> {
    state: &'a AppState,
    rc: &'a mut ConnRanked,
    session: &'a Session,
    id: Option<RequestId>,
}

impl<'a> Ask<'a> {
    fn parts(
        self,
    ) -> (
        &'a AppState,
        &'a mut ConnRanked,
        &'a Session,
        Option<RequestId>,
    ) {
        (self.state, self.rc, self.session, self.id)
    }
}

/// Handles one of this module's requests. Never waits.
pub fn handle(
    state: &AppState,
    rc: &mut ConnRanked,
    session: &Session,
    id: Option<RequestId>,
    msg: ClientMsg,
) {
    let ask = |rc| Ask {
        state,
        rc,
        session,
        id,
    };
    match msg {
        msg @ (ClientMsg::Register { .. }
        | ClientMsg::Login { .. }
        | ClientMsg::Logout
        | ClientMsg::LogoutEverywhere) => identity_request(ask(rc), msg),
        ClientMsg::Queue { config, bots } => queue(ask(rc), config, bots),
        ClientMsg::Unqueue => {
            let cmd = RemoteMatchCmd::Unqueue { id, reply: true };
            if !to_matchmaker(state, session.clone(), cmd) {
                refuse(session, id, matchmaker_busy());
            }
        }
        ClientMsg::MyTables => my_tables(state, session, id),
        // The explorer, puzzles and the trainer (`crate::study`).
        msg if crate::study::requests::is_study(&msg) => {
            let (st, player) = (state.clone(), session.player.clone());
            spawn(rc, session, id, async move {
                crate::study::requests::answer(&st, &player, msg).await
            });
        }
        msg => records_request(ask(rc), msg),
    }
}

/// The most `my_tables` lists (an account's sessions are bounded by the
/// connection cap and their seats by `max_seats`; the reply by this).
pub const MAX_MY_TABLES: usize = 50;

/// `my_tables`: where the account's sessions sit, from the session
/// registry (no store read, no task). Guests have no account to ask for.
fn my_tables(state: &AppState, session: &Session, id: Option<RequestId>) {
    if session.player.guest {
        let why = "only an account's tables can be listed: log in first";
        return refuse(session, id, ErrorBody::new(ErrorCode::LoginRequired, why));
    }
    let tables = state
        .hosting
        .sessions
        .tables_of(&session.player.name, MAX_MY_TABLES);
    reply(session, id, ServerMsg::MyTables { tables });
}

/// `register`, `login` and `logout`: the store's answer comes back to the
/// connection as a change of who it is, applied before its next frame.
fn identity_request(ask: Ask<'_>, msg: ClientMsg) {
    let (state, rc, session, id) = ask.parts();
    match msg {
        ClientMsg::Register { name, password } => {
            if let Err(wait) = rc.attempts.take(Instant::now()) {
                return refuse(session, id, too_many(wait));
            }
            let in_use = state.hosting.sessions.guest_uses(&name);
            let from = rc.client.limited.then(|| AddrKey::of(rc.client.ip));
            let (st, sid, tx) = (state.clone(), session.id.clone(), rc.changes.clone());
            spawn_attempt(session, id, async move {
                let li = st.accounts.register(&name, &password, in_use, from).await?;
                signed_in(&st, &sid, &tx, li.player.clone(), &li.token);
                Ok(ServerMsg::Registered(li))
            });
        }
        ClientMsg::Login { name, password } => {
            if let Err(wait) = rc.attempts.take(Instant::now()) {
                return refuse(session, id, too_many(wait));
            }
            let (st, sid, tx) = (state.clone(), session.id.clone(), rc.changes.clone());
            let queued_as = session.clone();
            let from = AddrKey::of(rc.client.ip);
            spawn_attempt(session, id, async move {
                let li = st.accounts.login(&name, &password, from).await?;
                if li.player.bot {
                    load_filters(&st, &li.player.name).await;
                }
                unqueue_quietly(&st, queued_as);
                signed_in(&st, &sid, &tx, li.player.clone(), &li.token);
                Ok(ServerMsg::LoggedIn(li))
            });
        }
        msg @ (ClientMsg::Logout | ClientMsg::LogoutEverywhere) => {
            if session.player.guest {
                return refuse(
                    session,
                    id,
                    ErrorBody::new(ErrorCode::LoginRequired, "you are not logged in"),
                );
            }
            let everywhere = matches!(msg, ClientMsg::LogoutEverywhere);
            // The session's own login token (a resumed session's too).
            let token = state
                .hosting
                .sessions
                .login(&session.id)
                .or(rc.token.clone());
            let (st, tx, s) = (state.clone(), rc.changes.clone(), session.clone());
            spawn(rc, session, id, async move {
                let name = s.player.name.clone();
                if everywhere {
                    st.accounts.logout_everywhere(&name).await?;
                }
                if let Some(t) = &token {
                    st.accounts.logout(t).await?;
                }
                unqueue_quietly(&st, s.clone());
                let player = as_guest(&st, &s, &tx);
                let (sessions, m) = (&st.hosting.sessions, &st.hosting.moderation);
                match (everywhere, &token) {
                    (true, _) => crate::signout::logged_out_everywhere(sessions, m, &name),
                    (false, Some(t)) => crate::signout::logged_out(sessions, m, &name, t),
                    (false, None) => {}
                }
                Ok(ServerMsg::LoggedOut { player })
            });
        }
        other => refuse(session, id, not_ours(&other)),
    }
}

/// Makes session `s` a guest again (`guest-<conn>`), for the connection
/// from its next frame; the guest as registered.
fn as_guest(st: &AppState, s: &Session, changes: &Mutex<Vec<Change>>) -> Player {
    let guest = Player {
        name: format!("guest-{}", s.outbox.conn),
        guest: true,
        bot: false,
    };
    let player = st.hosting.sessions.sign(&s.id, guest, None);
    queue_change(
        changes,
        Change {
            player: player.clone(),
            token: None,
        },
    );
    player
}

/// `queue`: an account's rating in the rule family, then a place in the
/// matchmaker's queue for `config` (`bots`: a person accepts a bot).
fn queue(ask: Ask<'_>, config: GameConfig, bots: bool) {
    let (state, rc, session, id) = ask.parts();
    if session.player.guest {
        return refuse(
            session,
            id,
            ErrorBody::new(
                ErrorCode::LoginRequired,
                "the rated queue is for accounts: log in first",
            ),
        );
    }
    if let Err(e) = config.validate() {
        return refuse(
            session,
            id,
            ErrorBody::new(ErrorCode::InvalidConfig, e.to_string()),
        );
    }
    let (st, s) = (state.clone(), session.clone());
    let Ok(permit) = rc.in_flight.clone().try_acquire_owned() else {
        return refuse(session, id, ErrorBody::rate_limited(100));
    };
    tokio::spawn(async move {
        let family = RatingFamily::of(config.rule_set);
        let store = st.accounts.store();
        let name = &s.player.name;
        // The stored account says whether it is a bot (this session may
        // predate `become_bot` on another connection), and the stored
        // standing whether a fair-play wait runs (the truth on every node).
        let m = &st.hosting.moderation;
        let found = async {
            Ok((
                store.rating(name, family.as_str()).await?,
                store.account(name).await?,
                crate::moderation::fairplay::barred_in_store(m, store.as_ref(), name).await?,
            ))
        };
        let (rating, bot) = match read(&st, found).await {
            Ok((_, _, Some(playbanned))) => return refuse(&s, id, playbanned),
            Ok((r, a, None)) => (
                r.map_or(crate::ratings::START.0, |r| r.rating),
                a.is_some_and(|a| a.bot),
            ),
            Err(body) => return refuse(&s, id, body),
        };
        let cmd = RemoteMatchCmd::Queue {
            id,
            config,
            account: s.player.name.clone(),
            rating,
            waited_ms: 0,
            kind: crate::msg::matchmaker::QueueKind {
                bot,
                accepts_bots: bots,
            },
        };
        if !to_matchmaker(&st, s.clone(), cmd) {
            refuse(&s, id, matchmaker_busy());
        }
        drop(permit);
    });
}

/// Leaderboards, profiles, histories and game records: store reads, each
/// its own task.
fn records_request(ask: Ask<'_>, msg: ClientMsg) {
    let (state, rc, session, id) = ask.parts();
    match msg {
        ClientMsg::Leaderboard { family, bots } => {
            let st = state.clone();
            spawn(rc, session, id, async move {
                let store = st.accounts.store();
                let board = read(
                    &st,
                    crate::records::leaderboard(store.as_ref(), family, bots, unix_ms()),
                )
                .await?;
                Ok(ServerMsg::Leaderboard(board))
            });
        }
        ClientMsg::Profile { player } => {
            let st = state.clone();
            spawn(rc, session, id, async move {
                let store = st.accounts.store();
                match read(
                    &st,
                    crate::records::profile(store.as_ref(), &player, unix_ms()),
                )
                .await?
                {
                    Some(p) => Ok(ServerMsg::Profile(Box::new(p))),
                    None => Err(ErrorBody::new(
                        ErrorCode::NotFound,
                        format!("no account {player}"),
                    )),
                }
            });
        }
        ClientMsg::History { player, before } => {
            let st = state.clone();
            spawn(rc, session, id, async move {
                let store = st.accounts.store();
                let (games, more) = read(
                    &st,
                    crate::records::history(store.as_ref(), &player, before),
                )
                .await?;
                Ok(ServerMsg::History {
                    player,
                    games,
                    more,
                })
            });
        }
        // A finished game's record is the store's; a game the store does
        // not hold yet is asked of its table (here or on another node),
        // which renders its record so far.
        ClientMsg::GameRecord { game, format } => {
            let st = state.clone();
            let session = session.clone();
            let Ok(permit) = rc.in_flight.clone().try_acquire_owned() else {
                return refuse(&session, id, ErrorBody::rate_limited(100));
            };
            tokio::spawn(async move {
                let store = st.accounts.store();
                let wait = st.accounts.settings().store_wait;
                let found = tokio::time::timeout(
                    wait,
                    crate::records::export(store.as_ref(), &game, format),
                )
                .await;
                drop(permit);
                match found {
                    Ok(Ok(r)) => reply(&session, id, ServerMsg::GameRecord(r)),
                    Ok(Err(e)) if e.code == ErrorCode::NotFound => {
                        let ask = TableRequest::Record { format };
                        super::to_table::to_table(&st, &game, session, id, ask, Instant::now());
                    }
                    Ok(Err(e)) => refuse(&session, id, e),
                    Err(_) => refuse(
                        &session,
                        id,
                        ErrorBody::new(
                            ErrorCode::Unavailable,
                            "the store did not answer in time; try again",
                        ),
                    ),
                }
            });
        }
        ClientMsg::AnalyzeGame { game, vct } => {
            let st = state.clone();
            spawn(rc, session, id, async move {
                let store = st.accounts.store();
                let wait = st.accounts.settings().store_wait;
                let found = st.analysis.analyze(store.as_ref(), &game, vct, wait);
                found.await.map(ServerMsg::GameAnalysis)
            });
        }
        other => refuse(session, id, not_ours(&other)),
    }
}

/// A message routed here by mistake (the router sends only this module's).
fn not_ours(msg: &ClientMsg) -> ErrorBody {
    let why = format!("{} is not an account request", msg.type_name());
    ErrorBody::new(ErrorCode::Internal, why)
}

fn matchmaker_busy() -> ErrorBody {
    crate::pressure::busy("the matchmaker is busy; try again")
}

/// Hands a queue command to the matchmaker: this node's, or with several
/// nodes the one they share (through the node actor). `false`: its
/// mailbox is full.
fn to_matchmaker(state: &AppState, session: Session, cmd: RemoteMatchCmd) -> bool {
    match &state.node {
        Some(node) => node.try_send(NodeCmd::Match { session, cmd }),
        None => state
            .matchmaker
            .try_send(MatchCmd::from_remote(session, cmd)),
    }
}

/// Takes `session` out of the rated queue without a reply (a login or
/// logout changes who it is), wherever the matchmaker runs.
fn unqueue_quietly(state: &AppState, session: Session) {
    let cmd = RemoteMatchCmd::Unqueue {
        id: None,
        reply: false,
    };
    match &state.node {
        Some(node) => {
            node.notify(NodeCmd::Match { session, cmd });
        }
        None => {
            let _ = state
                .matchmaker
                .try_send(MatchCmd::from_remote(session, cmd));
        }
    }
}
