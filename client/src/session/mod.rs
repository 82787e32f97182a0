//! A server session that outlives its connections: [`Session`] wraps a
//! [`Connection`] and, when the connection drops, reconnects by itself with
//! the resume token, follows its tables again and hands its user every
//! table event exactly once and in order.
//!
//! Why it is called a session: the server keeps a *session* (seats, the
//! resume token) alive for minutes after its connection is lost
//! (`protocol/README.md`, "Reconnecting"). A `Connection` is one socket; a
//! `Session` is the thing a player actually cares about, which survives
//! many sockets.
//!
//! What it remembers to do that: the URL, encoding and identity (guest
//! name, login token: a session the server no longer has is opened as the
//! account again); the latest
//! `welcome.resume_token`; for each table it follows (any table whose
//! `table_snapshot` or `table_event` it delivered) the last `seq`
//! delivered; and whether the lobby was subscribed. After a drop it calls
//! [`Connection::reconnect`] (backoff with jitter, bounded by
//! [`Session::give_up_after`]), sends `watch { table, since }` for each
//! followed table (and for each table of `welcome.tables` it did not know)
//! and `lobby_subscribe` again, then carries on. The replayed events pass
//! the same filter as any other: an event at or below the table's last
//! delivered `seq` is dropped, so nothing arrives twice; a `table_snapshot`
//! answering a resume (the gap was older than the table keeps) is delivered
//! as an ordinary snapshot push (`id: None`), which a `TableView` takes as
//! a reset. The user sees [`Delivery::Lost`], then
//! [`Delivery::Reconnected`], then the missed events, then one
//! [`Delivery::Rewatched`] per table, and nothing else changes.
//!
//! When it does not reconnect: a close whose code says not to
//! ([`CloseCode::should_reconnect`]: 1000, 1002, 1003, 1008, 1009, 4001,
//! 4003) ends the session with [`SessionError::Closed`]. 4005 in
//! particular means another connection resumed this session with the same
//! token: reconnecting would take it back, the other side would take it
//! back again, and two clients would evict each other forever; the session
//! lives on elsewhere, so this one stops. A close without a code (1005,
//! 1006: the socket just ended) and WebSocket/IO errors are drops.
//!
//! Requests in flight when the connection drops: [`Session::request`]
//! returns [`SessionError::Dropped`]. The server may or may not have acted
//! on it, and nothing is re-sent behind the caller's back (re-sending an
//! `act` that did take effect would be refused at best and play a second
//! move at worst). The caller reads on ([`Session::next`]) until
//! [`Delivery::Rewatched`] for the table, looks at the state, and retries
//! if the action is still wanted. Request ids count on across connections,
//! so a reply can never be mistaken for one to a request of an earlier
//! connection (those replies simply never come).
//!
//! A silent link (a half-open TCP connection, no error) is noticed by the
//! read timeout: when nothing arrives for [`Session::read_timeout`] the
//! session pings the server, and when nothing arrives for another one it
//! treats the connection as dropped.
//!
//! Why no background task: like `Connection`, a `Session` is one value
//! owned by one task. Every method can be cancelled (dropped inside a
//! `tokio::select!`) without losing anything: the reconnection in progress
//! (a boxed future) and the deliveries read so far are kept in the value,
//! and the next call resumes them. That is what lets the terminal client's
//! board keep redrawing and reading keys while a reconnection is under way.

use std::collections::{BTreeMap, HashMap, VecDeque};
use std::future::Future;
use std::pin::Pin;
use std::time::Duration;

use tengen_protocol::{
    ClientMsg, CloseCode, Encoding, Envelope, ErrorBody, RequestId, ServerFrame, ServerMsg,
    TableId, Welcome,
};
use tokio::time::Instant;

use crate::conn::{ClientError, Connection, Identity};

mod types;
pub use types::{Delivery, SessionError, Stats};

/// What one of the session's own requests was for.
#[derive(Clone, Debug)]
enum Internal {
    Watch(TableId),
    Lobby,
    Ping,
}

/// A reconnection under way: reconnects, then sends the session's own
/// requests; kept in the session so that a cancelled call loses nothing.
type Attempt = Pin<Box<dyn Future<Output = Result<Back, ClientError>> + Send>>;

/// A finished reconnection.
struct Back {
    conn: Connection,
    welcome: Welcome,
    sent: Vec<(RequestId, Internal)>,
    next_id: RequestId,
}

enum Link {
    Up(Box<Connection>),
    Down { since: Instant, attempt: Attempt },
    Ended(SessionErrorKind),
}

/// A final error, kept to answer every later call.
#[derive(Clone, Debug)]
enum SessionErrorKind {
    Closed { code: u16, reason: String },
    GaveUp(String),
}

impl SessionErrorKind {
    fn error(&self) -> SessionError {
        match self.clone() {
            SessionErrorKind::Closed { code, reason } => SessionError::Closed { code, reason },
            SessionErrorKind::GaveUp(why) => SessionError::GaveUp(why),
        }
    }
}

/// Whether a connection that ended with `code` should be resumed.
fn reconnectable(code: u16) -> bool {
    match CloseCode::from_code(code) {
        Some(c) => c.should_reconnect(),
        // No code at all: the socket ended without a close frame.
        None => matches!(code, 1005 | 1006),
    }
}

/// Whether a `hello` refusal is about the login token.
fn stale_login(e: &ErrorBody) -> bool {
    matches!(
        e.code,
        tengen_protocol::ErrorCode::TokenExpired | tengen_protocol::ErrorCode::BadCredentials
    )
}

/// A server session over as many connections as it takes.
pub struct Session {
    link: Link,
    url: String,
    encoding: Encoding,
    who: Identity,
    token: Option<String>,
    welcome: Welcome,
    /// Followed tables and the last `seq` delivered of each.
    following: BTreeMap<TableId, u64>,
    lobby: bool,
    internal: HashMap<RequestId, Internal>,
    out: VecDeque<Delivery>,
    next_id: RequestId,
    /// A liveness ping of ours awaits an answer.
    pinged: bool,
    stats: Stats,
    /// How long to keep trying to reconnect after a drop (default 60 s).
    pub give_up_after: Duration,
    /// How long a request waits for its reply, and how long a quiet link
    /// waits before it is pinged (then, as long again, before it counts as
    /// dropped). Default 10 s.
    pub read_timeout: Duration,
}

impl Session {
    /// Connects to `url` and says hello as `name`.
    pub async fn connect(
        url: &str,
        encoding: Encoding,
        name: Option<&str>,
    ) -> Result<(Session, Welcome), ClientError> {
        Session::connect_as(url, encoding, &Identity::guest(name)).await
    }

    /// Connects to `url` and says hello as `who` (a login token makes the
    /// session an account's, on this connection and on any later one the
    /// server could not resume).
    pub async fn connect_as(
        url: &str,
        encoding: Encoding,
        who: &Identity,
    ) -> Result<(Session, Welcome), ClientError> {
        let (conn, welcome) = Connection::connect_as(url, encoding, who, None).await?;
        let mut session = Session::adopt(conn, &welcome, url, who.name.as_deref());
        session.set_login(who.login.clone());
        Ok((session, welcome))
    }

    /// Wraps a connection that has said hello (`welcome` is its answer),
    /// made to `url` as `name`. Tables whose snapshot was read from the
    /// connection already are followed with [`Session::follow`].
    pub fn adopt(
        mut conn: Connection,
        welcome: &Welcome,
        url: &str,
        name: Option<&str>,
    ) -> Session {
        conn.pace(&welcome.limits);
        Session {
            encoding: conn.encoding(),
            link: Link::Up(Box::new(conn)),
            url: url.to_string(),
            who: Identity::guest(name),
            token: welcome.resume_token.clone(),
            welcome: welcome.clone(),
            following: BTreeMap::new(),
            lobby: false,
            internal: HashMap::new(),
            out: VecDeque::new(),
            // Ids below this may have been used by the adopted connection.
            next_id: 1 << 20,
            pinged: false,
            stats: Stats::default(),
            give_up_after: Duration::from_secs(60),
            read_timeout: Duration::from_secs(10),
        }
    }

    /// The login token to say hello with when the server cannot resume the
    /// session (a resumable session wins over it). A token the server
    /// refuses then (expired, revoked) is dropped and the session goes on
    /// as a guest.
    pub fn set_login(&mut self, login: Option<String>) {
        self.who.login = login;
    }

    /// Follows `table`, of which everything up to `seq` has been seen
    /// (a snapshot read before [`Session::adopt`]).
    pub fn follow(&mut self, table: TableId, seq: u64) {
        self.following.insert(table, seq);
    }

    /// Stops following `table` (nothing is sent: its events, if any still
    /// come, are delivered and follow it again).
    pub fn forget(&mut self, table: &TableId) {
        self.following.remove(table);
    }

    /// The last `seq` delivered of `table`, if followed.
    pub fn last_seq(&self, table: &TableId) -> Option<u64> {
        self.following.get(table).copied()
    }

    /// Whether a connection is up now (false while reconnecting or ended).
    pub fn is_connected(&self) -> bool {
        matches!(self.link, Link::Up(_))
    }

    /// Whether the session has ended for good.
    pub fn is_ended(&self) -> bool {
        matches!(self.link, Link::Ended(_))
    }

    /// The latest `welcome` (after a reconnection, the new one's).
    pub fn welcome(&self) -> &Welcome {
        &self.welcome
    }

    /// The resume token in use.
    pub fn token(&self) -> Option<&str> {
        self.token.as_deref()
    }

    pub fn stats(&self) -> Stats {
        self.stats
    }

    /// Sends `msg` without waiting; its reply comes through
    /// [`Session::next`] as a frame with the returned id. Reconnects first
    /// if the connection is down.
    pub async fn send(&mut self, msg: ClientMsg) -> Result<RequestId, SessionError> {
        self.ensure_up().await?;
        let id = self.next_id;
        self.next_id += 1;
        match &msg {
            ClientMsg::LobbySubscribe => self.lobby = true,
            ClientMsg::LobbyUnsubscribe => self.lobby = false,
            _ => {}
        }
        let Link::Up(conn) = &mut self.link else {
            unreachable!("ensure_up leaves the link up");
        };
        match conn.send_frame(&Envelope::with_id(Some(id), msg)).await {
            Ok(()) => Ok(id),
            Err(e) => {
                self.lost(e)?;
                Err(SessionError::Dropped)
            }
        }
    }

    /// Sends `msg` and waits for its reply (an `error` reply is
    /// [`ClientError::Refused`]); what arrives meanwhile is kept for
    /// [`Session::next`]. A drop meanwhile is [`SessionError::Dropped`].
    pub async fn request(&mut self, msg: ClientMsg) -> Result<ServerMsg, SessionError> {
        let id = self.send(msg).await?;
        let wait = self.read_timeout;
        let deadline = Instant::now() + wait;
        loop {
            let Link::Up(conn) = &mut self.link else {
                return Err(SessionError::Dropped);
            };
            match tokio::time::timeout_at(deadline, conn.next()).await {
                Err(_) | Ok(Err(ClientError::Timeout(_))) => {
                    return Err(SessionError::Client(ClientError::Timeout(wait)));
                }
                Ok(Ok(frame)) if frame.id == Some(id) => {
                    self.pinged = false;
                    return match frame.msg {
                        ServerMsg::Error(e) => Err(SessionError::Client(ClientError::Refused(e))),
                        msg => {
                            self.note(&msg);
                            Ok(msg)
                        }
                    };
                }
                Ok(Ok(frame)) => self.absorb(frame),
                Ok(Err(e)) => {
                    self.lost(e)?;
                    return Err(SessionError::Dropped);
                }
            }
        }
    }

    /// The next delivery: frames in arrival order (table events once
    /// each), and the news of a drop and of the reconnection, which
    /// happens here. Waits as long as it takes.
    pub async fn next(&mut self) -> Result<Delivery, SessionError> {
        loop {
            if let Some(d) = self.out.pop_front() {
                return Ok(d);
            }
            self.ensure_up().await?;
            if !self.out.is_empty() {
                continue;
            }
            let wait = self.read_timeout;
            let Link::Up(conn) = &mut self.link else {
                unreachable!("ensure_up leaves the link up");
            };
            conn.timeout = wait;
            match conn.next().await {
                Ok(frame) => self.absorb(frame),
                Err(ClientError::Timeout(_)) if self.pinged => {
                    self.lost(ClientError::Timeout(wait * 2))?;
                }
                Err(ClientError::Timeout(_)) => {
                    let id = self.next_id;
                    self.next_id += 1;
                    self.internal.insert(id, Internal::Ping);
                    self.pinged = true;
                    if let Err(e) = conn
                        .send_frame(&Envelope::with_id(Some(id), ClientMsg::Ping))
                        .await
                    {
                        self.lost(e)?;
                    }
                }
                Err(e @ ClientError::Decode(_)) => return Err(SessionError::Client(e)),
                Err(e) => self.lost(e)?,
            }
        }
    }

    /// Closes the connection politely (no reconnection follows).
    pub async fn close(self) -> Result<(), ClientError> {
        match self.link {
            Link::Up(c) => c.close().await,
            _ => Ok(()),
        }
    }

    /// Bookkeeping for a message about to be delivered; false for a table
    /// event already delivered.
    fn note(&mut self, msg: &ServerMsg) -> bool {
        match msg {
            ServerMsg::TableEvent(e) => {
                if self
                    .following
                    .get(&e.table)
                    .is_some_and(|&last| e.seq <= last)
                {
                    self.stats.duplicates += 1;
                    return false;
                }
                self.following.insert(e.table.clone(), e.seq);
            }
            ServerMsg::TableSnapshot(s) => {
                self.following.insert(s.table.clone(), s.seq);
            }
            ServerMsg::Unwatched { table } => {
                self.following.remove(table);
            }
            _ => {}
        }
        true
    }

    /// Takes a frame read from the connection: the session's own replies
    /// are handled here, the rest queued for delivery.
    fn absorb(&mut self, frame: ServerFrame) {
        self.pinged = false;
        if let Some(what) = frame.id.and_then(|id| self.internal.remove(&id)) {
            self.own_reply(what, frame.msg);
            return;
        }
        if self.note(&frame.msg) {
            self.out.push_back(Delivery::Frame(frame));
        }
    }

    fn own_reply(&mut self, what: Internal, msg: ServerMsg) {
        match (what, msg) {
            (Internal::Ping, _) => {}
            (Internal::Watch(table), ServerMsg::Replayed { seq, .. }) => {
                self.stats.replays += 1;
                let seq = self.following.get(&table).copied().unwrap_or(seq);
                self.out.push_back(Delivery::Rewatched {
                    table,
                    seq,
                    replayed: true,
                });
            }
            (Internal::Watch(table), ServerMsg::Error(error)) => {
                self.following.remove(&table);
                self.out.push_back(Delivery::TableLost { table, error });
            }
            (Internal::Watch(table), msg) => {
                if matches!(msg, ServerMsg::TableSnapshot(_)) {
                    self.stats.snapshots += 1;
                }
                self.note(&msg);
                self.out.push_back(Delivery::Frame(ServerFrame::push(msg)));
                let seq = self.following.get(&table).copied().unwrap_or(0);
                self.out.push_back(Delivery::Rewatched {
                    table,
                    seq,
                    replayed: false,
                });
            }
            // The lobby's list again: the user replaces theirs.
            (Internal::Lobby, msg) => self.out.push_back(Delivery::Frame(ServerFrame::push(msg))),
        }
    }

    /// The connection failed with `e`: reconnect, or end the session.
    fn lost(&mut self, e: ClientError) -> Result<(), SessionError> {
        if let ClientError::Closed { code, reason } = &e
            && !reconnectable(*code)
        {
            let end = SessionErrorKind::Closed {
                code: *code,
                reason: reason.clone(),
            };
            self.link = Link::Ended(end.clone());
            return Err(end.error());
        }
        self.internal.clear();
        self.pinged = false;
        self.out.push_back(Delivery::Lost {
            reason: e.to_string(),
        });
        let Some(attempt) = self.attempt(self.give_up_after) else {
            let end = SessionErrorKind::GaveUp("the server gave no resume token".into());
            self.link = Link::Ended(end);
            return Ok(());
        };
        self.link = Link::Down {
            since: Instant::now(),
            attempt,
        };
        Ok(())
    }

    /// A reconnection: `Connection::reconnect` within `budget`, then a
    /// `watch` with `since` for each followed table (and each table of
    /// `welcome.tables` not followed yet), and the lobby subscription.
    fn attempt(&self, budget: Duration) -> Option<Attempt> {
        let token = self.token.clone()?;
        let (url, who, encoding) = (self.url.clone(), self.who.clone(), self.encoding);
        let tables: Vec<(TableId, u64)> = self
            .following
            .iter()
            .map(|(t, s)| (t.clone(), *s))
            .collect();
        let lobby = self.lobby;
        let mut next_id = self.next_id;
        Some(Box::pin(async move {
            let (mut conn, welcome) =
                match Connection::reconnect_as(&url, encoding, &who, &token, budget).await {
                    // A login token refused: the session was not resumable
                    // anyway, so go on as a guest rather than not at all.
                    Err(ClientError::Refused(e)) if who.login.is_some() && stale_login(&e) => {
                        let guest = Identity::guest(who.name.as_deref());
                        Connection::reconnect_as(&url, encoding, &guest, &token, budget).await?
                    }
                    other => other?,
                };
            conn.pace(&welcome.limits);
            let mut plan: Vec<(TableId, Option<u64>)> =
                tables.iter().map(|(t, s)| (t.clone(), Some(*s))).collect();
            for t in &welcome.tables {
                if !tables.iter().any(|(f, _)| f == t) {
                    plan.push((t.clone(), None));
                }
            }
            let mut sent = Vec::new();
            for (table, since) in plan {
                let msg = ClientMsg::Watch {
                    table: table.clone(),
                    since,
                };
                conn.send_frame(&Envelope::with_id(Some(next_id), msg))
                    .await?;
                sent.push((next_id, Internal::Watch(table)));
                next_id += 1;
            }
            if lobby {
                conn.send_frame(&Envelope::with_id(Some(next_id), ClientMsg::LobbySubscribe))
                    .await?;
                sent.push((next_id, Internal::Lobby));
                next_id += 1;
            }
            Ok(Back {
                conn,
                welcome,
                sent,
                next_id,
            })
        }))
    }

    /// Drives a reconnection under way to its end.
    async fn ensure_up(&mut self) -> Result<(), SessionError> {
        loop {
            let (since, result) = match &mut self.link {
                Link::Up(_) => return Ok(()),
                Link::Ended(end) => return Err(end.error()),
                Link::Down { since, attempt } => (*since, attempt.as_mut().await),
            };
            match result {
                Ok(back) => {
                    let resumed = back.welcome.resumed;
                    if let Some(t) = &back.welcome.resume_token {
                        self.token = Some(t.clone());
                    }
                    self.welcome = back.welcome;
                    self.internal.extend(back.sent);
                    self.next_id = back.next_id;
                    self.link = Link::Up(Box::new(back.conn));
                    self.stats.reconnects += 1;
                    self.out.push_back(Delivery::Reconnected { resumed });
                }
                Err(e) => {
                    let left = self.give_up_after.saturating_sub(since.elapsed());
                    let retry = !matches!(e, ClientError::Refused(_)) && !left.is_zero();
                    match self.attempt(left).filter(|_| retry) {
                        Some(attempt) => self.link = Link::Down { since, attempt },
                        None => self.link = Link::Ended(SessionErrorKind::GaveUp(e.to_string())),
                    }
                }
            }
        }
    }
}
