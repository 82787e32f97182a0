//! One task per WebSocket: the handshake, then read, decode, rate-limit and
//! route.
//!
//! The first data frame must be `hello`, within the hello timeout
//! (`CapSettings::hello_timeout`, the protocol's 10 s by default); its frame type (text or binary) fixes the connection's encoding.
//! After `welcome`, the socket's write half belongs to a writer task
//! ([`crate::outbound`]) and this task only reads. It never waits on another
//! actor: lobby and table commands are handed over with `try_send` to
//! bounded mailboxes, and the actors answer straight into this connection's
//! outbox. Everything bad a client can send gets a typed `error` reply and
//! changes nothing; floods (close 1008), oversize messages (1009), silence
//! (4004) and a full outbox (4002) end the connection.

use std::net::SocketAddr;
use std::time::{Duration, Instant};

use axum::extract::ws::{CloseFrame, Message, Utf8Bytes, WebSocket};
use futures_util::{SinkExt, StreamExt};
use tengen_protocol::{
    ClientMsg, CloseCode, Encoding, Envelope, ErrorBody, ErrorCode, PROTOCOL_VERSION, RequestId,
    SUPPORTED_VERSIONS, ServerFrame, ServerInfo, ServerMsg, Welcome, decode_client,
};
use tokio::time::timeout;
use tracing::Instrument;

use crate::AppState;
use crate::addresses::Client;
use crate::admission::Ticket;
use crate::msg::lobby::LobbyCmd;
use crate::msg::matchmaker::MatchCmd;
use crate::msg::node::NodeCmd;
use crate::msg::table::TableCmd;
use crate::outbound::{self, Frame, Outbox, WriterEnd};
use crate::sessions::Session;

mod accounts;
mod bots;
mod bucket;
mod route;
mod state;
mod to_table;

use bucket::Bucket;
use route::handle;
use state::ConnState;

/// What this server offers beyond the base protocol (`welcome.features`).
const FEATURES: [&str; 12] = [
    "resume",
    "chat",
    "rematch",
    "accounts",
    "queue",
    "analysis",
    "bots",
    "tournaments",
    "computer",
    "explorer",
    "puzzles",
    "trainer",
];

/// A connection's task, holding its place under the connection cap
/// (`ticket`) until it ends. Not an `async fn`: the socket is split before
/// the future is made, so the task keeps the two halves and not the whole
/// socket besides (an `async fn` keeps its arguments for its whole life).
pub fn run(
    socket: WebSocket,
    state: AppState,
    peer: SocketAddr,
    client: Client,
    ticket: Ticket,
) -> impl std::future::Future<Output = ()> + Send {
    let conn = crate::outbound::next_conn_id();
    let span = tracing::debug_span!("conn", conn, %peer, client = %client.ip);
    let (sink, stream) = socket.split();
    serve(sink, stream, state, conn, Live::new(ticket, client)).instrument(span)
}

/// A connection that is open: counted in the connections gauge and
/// holding its places under the caps while it lives; and who it is from.
struct Live {
    _ticket: Ticket,
    client: Client,
}

impl Live {
    fn new(ticket: Ticket, client: Client) -> Live {
        metrics::gauge!(crate::metrics::CONNECTIONS).increment(1.0);
        Live {
            _ticket: ticket,
            client,
        }
    }
}

impl Drop for Live {
    fn drop(&mut self) {
        metrics::gauge!(crate::metrics::CONNECTIONS).decrement(1.0);
    }
}

type WsSink = futures_util::stream::SplitSink<WebSocket, Message>;
type WsStream = futures_util::stream::SplitStream<WebSocket>;

/// The connection's life. A function returning an `async move` block, not
/// an `async fn`: an `async fn`'s future keeps each argument twice (as
/// passed, and moved into the body), about 400 bytes a connection here.
#[allow(clippy::manual_async_fn)]
fn serve(
    mut sink: WsSink,
    mut stream: WsStream,
    state: AppState,
    conn: u64,
    live: Live,
) -> impl std::future::Future<Output = ()> + Send {
    async move {
        // Moved whole into the block, so that it lives (and counts the
        // connection) until the end.
        let live = live;
        // The handshake's future is large (identity, seats, failover) and runs
        // once: boxed, it is freed when it ends, and the connection's task
        // keeps only what the rest of its life needs.
        // Its replies are writes too: a peer that sends but never reads is
        // cut off when the hello deadline and a write's timeout have passed.
        let caps = &state.hosting.settings.caps;
        let within = caps.hello_timeout + caps.write_timeout;
        let handshake = Box::pin(handshake(&mut sink, &mut stream, &state, conn));
        let Ok(Some(hello)) = timeout(within, handshake).await else {
            return;
        };
        let (outbox, mut writer, mut conn_state) = welcome(&state, hello, sink, conn, live.client);
        read_loop(&state, &mut conn_state, &mut stream, &outbox, &mut writer).await;
        forget(&state, &conn_state, conn);
        if !writer.is_finished() {
            outbox.close(CloseCode::Normal);
            // The writer's own write timeout bounds this; never wait past it.
            let within = state.hosting.settings.caps.write_timeout + Duration::from_secs(1);
            if timeout(within, &mut writer).await.is_err() {
                writer.abort();
            }
        }
        // The closing handshake: read (and drop) what the peer still sends
        // until its close frame or end of stream, briefly. Closing the socket
        // on unread data would reset the connection, and the peer could lose
        // the close frame (and the error before it) that says why.
        let _ = timeout(Duration::from_secs(1), async {
            while let Some(Ok(m)) = stream.next().await {
                if matches!(m, Message::Close(_)) {
                    break;
                }
            }
        })
        .await;
    }
}

/// After a good `hello`: the connection's outbox, its writer task and
/// what it keeps between frames.
fn welcome(
    state: &AppState,
    hello: Hello,
    sink: WsSink,
    conn: u64,
    client: Client,
) -> (Outbox, tokio::task::JoinHandle<WriterEnd>, ConnState) {
    let (outbox, inbox) =
        outbound::channel(conn, hello.encoding, state.hosting.settings.outbound_queue);
    let session = open_session(state, hello.body, hello.id, &hello.identity, &outbox);
    tracing::debug!(conn, session = %session.id, encoding = ?hello.encoding, "welcome");
    let write_timeout = state.hosting.settings.caps.write_timeout;
    let writer = tokio::spawn(inbox.drain(sink, write_timeout));
    let conn_state = ConnState {
        ranked: accounts::ConnRanked::new(state, &hello.identity, client),
        session,
        encoding: hello.encoding,
        watching: Vec::new(),
        lobby_subscribed: false,
    };
    (outbox, writer, conn_state)
}

/// A good `hello`: what it said, who it makes the connection, and the
/// encoding its frame type fixed.
struct Hello {
    body: tengen_protocol::Hello,
    id: Option<RequestId>,
    encoding: Encoding,
    identity: accounts::Identity,
}

/// Reads frames until a good `hello`, within the hello timeout. Frames
/// before it are answered (`hello_required`, or why they could not be
/// read) in their own encoding. `None`: the connection ended or was closed.
async fn handshake(
    sink: &mut WsSink,
    stream: &mut WsStream,
    state: &AppState,
    conn: u64,
) -> Option<Hello> {
    let deadline = tokio::time::Instant::now() + state.hosting.settings.caps.hello_timeout;
    let mut before_hello = 0u32;
    loop {
        let Data { bytes, encoding } =
            match tokio::time::timeout_at(deadline, next_data(stream)).await {
                Ok(Ok(Some(d))) => d,
                Ok(Ok(None)) => return None,
                Ok(Err(code)) => {
                    let _ = sink.send(close(code)).await;
                    return None;
                }
                Err(_) => {
                    crate::metrics::error("hello_timeout");
                    crate::metrics::cap_hit(crate::metrics::Cap::HelloTimeout);
                    let within = state.hosting.settings.caps.write_timeout;
                    let _ = timeout(within, sink.send(close(CloseCode::HelloTimeout))).await;
                    return None;
                }
            };
        before_hello += 1;
        if before_hello > state.hosting.settings.limits.rate_burst {
            crate::metrics::error("rate_limited");
            metrics::counter!(crate::metrics::RATE_LIMITED, "what" => "messages").increment(1);
            let _ = sink.send(close(CloseCode::PolicyViolation)).await;
            return None;
        }
        let (reply, close_with) = match read_hello(state, &bytes, encoding, conn).await {
            Ok(hello) => return Some(hello),
            Err(refusal) => refusal,
        };
        if let ServerMsg::Error(e) = &reply.msg {
            crate::metrics::error(e.code.as_str());
        }
        let frame = match Frame::encode(&reply, encoding) {
            Frame::Text(t) => Message::Text(t),
            Frame::Binary(b) => Message::Binary(b),
        };
        if sink.send(frame).await.is_err() {
            return None;
        }
        if let Some(code) = close_with {
            let _ = sink.send(close(code)).await;
            return None;
        }
    }
}

/// A frame before `welcome`: the good `hello` it is, or the refusal to
/// send (with the close code when the refusal ends the connection).
async fn read_hello(
    state: &AppState,
    bytes: &[u8],
    encoding: Encoding,
    conn: u64,
) -> Result<Hello, (ServerFrame, Option<CloseCode>)> {
    let Envelope { msg, id } = decode_client(bytes, encoding).map_err(|e| (e.reply(), None))?;
    let h = match msg {
        ClientMsg::Hello(h) => h,
        other => {
            let why = format!("send hello first, not {}", other.type_name());
            let body = ErrorBody::new(ErrorCode::HelloRequired, why);
            return Err((ServerFrame::error(id, body), None));
        }
    };
    if !SUPPORTED_VERSIONS.contains(h.version) {
        let body = ErrorBody::unsupported_version(h.version, SUPPORTED_VERSIONS);
        return Err((
            ServerFrame::error(id, body),
            Some(CloseCode::UnsupportedVersion),
        ));
    }
    if let Err(why) = ClientMsg::Hello(h.clone()).validate() {
        let body = ErrorBody::new(ErrorCode::BadRequest, why);
        return Err((ServerFrame::error(id, body), None));
    }
    // A guest's name as others will see it (`crate::names`).
    let mut h = h;
    if let Some(wanted) = &h.name {
        let shown = crate::names::shown("name", wanted, tengen_protocol::limits::MAX_NAME_CHARS)
            .and_then(|n| match crate::names::one_script(&n) {
                true => Ok(n),
                false => Err("name mixes scripts (letters of one script, or Chinese, Japanese or Korean with Latin)".into()),
            });
        match shown {
            Ok(n) => h.name = Some(n),
            Err(why) => {
                let body = ErrorBody::new(ErrorCode::BadRequest, why);
                return Err((ServerFrame::error(id, body), None));
            }
        }
    }
    // Accounts: the login token's account, or a guest name no account has
    // (`accounts`); then, with several nodes, the seats of a resumed session.
    let refuse = |body| (ServerFrame::error(id, body), None);
    let identity = accounts::identify(state, &h, conn).await.map_err(refuse)?;
    claim_seats(state, h.resume.as_deref())
        .await
        .map_err(refuse)?;
    Ok(Hello {
        body: h,
        id,
        encoding,
        identity,
    })
}

/// Opens (or resumes, or takes over) the session `hello` asks for, with
/// `outbox` as its connection now, and queues `welcome`.
fn open_session(
    state: &AppState,
    hello: tengen_protocol::Hello,
    hello_id: Option<RequestId>,
    identity: &accounts::Identity,
    outbox: &outbound::Outbox,
) -> Session {
    let login = match identity {
        accounts::Identity::Account { token, .. } => Some(token.clone()),
        accounts::Identity::Guest(_) => None,
    };
    let opened = state.hosting.sessions.open_as(
        hello.resume.as_deref(),
        identity.player(),
        login,
        outbox.clone(),
    );
    if let Some(previous) = &opened.previous {
        previous.close(CloseCode::SessionTakenOver);
    }
    let session = Session {
        id: opened.id.clone(),
        player: opened.player.clone(),
        outbox: outbox.clone(),
    };
    if opened.previous.is_some() {
        // A takeover: the session's waiting rooms stay, answered here now.
        state.hosting.lobby.notify(LobbyCmd::Resumed {
            session: session.clone(),
        });
    }
    outbox.send_msg(&Envelope::with_id(
        hello_id,
        ServerMsg::Welcome(Welcome {
            version: PROTOCOL_VERSION,
            server: ServerInfo {
                name: "tengen".into(),
                version: env!("CARGO_PKG_VERSION").into(),
            },
            session: session.id.clone(),
            player: session.player.clone(),
            limits: state.hosting.settings.limits,
            features: FEATURES.iter().map(|f| f.to_string()).collect(),
            resume_token: (!opened.token.is_empty()).then_some(opened.token),
            resumed: opened.resumed,
            tables: opened.tables,
        }),
    ));
    session
}

/// After `welcome`: reads, rate-limits and routes every frame until the
/// connection ends, goes idle, floods, or the server stops. Also asks the
/// writer for a ping every `ping_interval`.
///
/// One timer serves both the pings and the idle timeout, and a frame read
/// only notes the time: a timer set again for every frame (a `timeout`
/// around each read) was a timer-wheel insertion and removal per move.
/// When the timer fires it looks at what is due: the connection has been
/// silent for the idle timeout (it is closed), or a ping is (it is asked
/// for); then it is set for whichever comes next.
async fn read_loop(
    state: &AppState,
    conn_state: &mut ConnState,
    stream: &mut WsStream,
    outbox: &outbound::Outbox,
    writer: &mut tokio::task::JoinHandle<outbound::WriterEnd>,
) {
    let limits = state.hosting.settings.limits;
    let idle = Duration::from_millis(limits.idle_timeout_ms);
    let ping_every = state.hosting.settings.ping_interval;
    let mut bot_rate = conn_state.session.player.bot;
    let mut bucket = Bucket::for_player(&limits, bot_rate);
    let mut refused_in_row = 0u32;
    let mut shutdown = state.shutdown.clone();
    let mut stopping = std::pin::pin!(shutdown.wait_for(|s| *s));
    let mut last_read = Instant::now();
    // The first ping at once: the lag estimate starts early.
    let mut next_ping = last_read;
    let mut timer = std::pin::pin!(tokio::time::sleep_until(next_ping.into()));
    loop {
        let read = tokio::select! {
            // A frame read after the stop began would find its table
            // handed over: the close comes first.
            biased;
            _ = &mut stopping => {
                outbox.close(CloseCode::ServiceRestart);
                return;
            }
            _ = &mut *writer => return,
            () = &mut timer => {
                let now = Instant::now();
                if now >= last_read + idle {
                    crate::metrics::error("idle_timeout");
                    crate::metrics::cap_hit(crate::metrics::Cap::IdleTimeout);
                    outbox.close(CloseCode::IdleTimeout);
                    return;
                }
                if now >= next_ping {
                    outbox.ping();
                    next_ping = now + ping_every;
                }
                timer.as_mut().reset(next_ping.min(last_read + idle).into());
                continue;
            }
            read = stream.next() => read,
        };
        let now = Instant::now();
        last_read = now;
        let msg = match read {
            None => return,
            Some(Err(e)) => {
                if let Some(code) = read_error_close(e) {
                    outbox.close(code);
                }
                return;
            }
            Some(Ok(m)) => m,
        };
        let bytes = match data(msg) {
            Ok(Data { bytes, encoding }) if encoding == conn_state.encoding => bytes,
            Ok(_) => {
                crate::metrics::error("unsupported_data");
                outbox.close(CloseCode::UnsupportedData);
                return;
            }
            Err(Message::Close(_)) => return,
            Err(Message::Pong(p)) => {
                outbox.record_pong(&p);
                continue;
            }
            Err(_) => continue,
        };
        if !bucket.take(now) {
            // Dropped with a reply; flooding on regardless ends it.
            refused_in_row += 1;
            if refused_in_row > limits.rate_burst {
                crate::metrics::error("flood");
                outbox.close(CloseCode::PolicyViolation);
                return;
            }
            crate::metrics::error("rate_limited");
            metrics::counter!(crate::metrics::RATE_LIMITED, "what" => "messages").increment(1);
            let id = decode_client(&bytes, conn_state.encoding)
                .ok()
                .and_then(|f| f.id);
            outbox.send_msg(&ServerFrame::error(
                id,
                ErrorBody::rate_limited(bucket.retry_after_ms()),
            ));
            continue;
        }
        refused_in_row = 0;
        conn_state.ranked.apply(&mut conn_state.session);
        if conn_state.session.player.bot != bot_rate {
            bot_rate = conn_state.session.player.bot;
            bucket = Bucket::for_player(&limits, bot_rate);
        }
        handle(state, conn_state, &bytes, now);
    }
}

/// The connection ended: the lobby, the matchmaker and the tables forget
/// it; the tables where its session sits start the abandonment countdown.
fn forget(state: &AppState, conn_state: &ConnState, conn: u64) {
    let session = &conn_state.session.id;
    let away = state.hosting.sessions.closed(session, conn);
    state.hosting.lobby.notify(LobbyCmd::Gone {
        session: session.clone(),
        conn,
        holder: away.is_some(),
    });
    let _ = state.matchmaker.try_send(MatchCmd::Gone {
        session: session.clone(),
        conn,
    });
    for t in away.unwrap_or_default() {
        if let Some(h) = state.hosting.directory.get(&t) {
            let _ = h.try_send(TableCmd::Away {
                session: session.clone(),
                conn,
            });
        }
    }
    for t in &conn_state.watching {
        if let Some(h) = state.hosting.directory.get(t) {
            let _ = h.try_send(TableCmd::Gone { conn });
        }
    }
    // Tables on other nodes: their relays of this connection go.
    if let Some(node) = &state.node {
        node.notify(NodeCmd::ConnGone { conn });
    }
}

/// Several nodes: a `hello` resuming a session may find its tables
/// anywhere ([`crate::table::failover::claim_seats`]): here, on another
/// node that answers (the session is brought back here and its commands
/// are routed there), or moving (taken over here if nobody holds it and
/// the store has been steady). While one of them moves (its node is gone
/// or does not answer a probe, and its lease has not lapsed, or it waits
/// to be taken over) the `hello` is refused with `unavailable` and a time
/// to try again.
async fn claim_seats(state: &AppState, token: Option<&str>) -> Result<(), ErrorBody> {
    let (Some(token), Some(node)) = (token, &state.node) else {
        return Ok(());
    };
    let hosting = state.hosting.clone();
    let claim = async {
        let seats = crate::table::failover::claim_seats(token, &hosting).await?;
        for s in &seats {
            if !crate::msg::node::probe(node, &s.node, state.hosting.settings.probe_wait()).await {
                return Err(crate::table::failover::Moving {
                    node: Some(s.node.clone()),
                    soon: false,
                });
            }
        }
        for s in &seats {
            s.seat(&state.hosting.sessions, token);
        }
        Ok(())
    };
    let claimed = match tokio::time::timeout(state.hosting.settings.store_timeout * 2, claim).await
    {
        Ok(claimed) => claimed,
        // Too slow to tell: a known session is resumed as it is.
        Err(_) if state.hosting.sessions.token_known(token) => Ok(()),
        Err(_) => Err(crate::table::failover::Moving {
            node: None,
            soon: false,
        }),
    };
    match claimed {
        Ok(()) => Ok(()),
        Err(moving) => {
            crate::metrics::error("seat_elsewhere");
            let retry = match moving.soon {
                true => state.hosting.settings.takeover_retry(),
                false => state.hosting.settings.failover_retry(),
            };
            let why = match moving.node {
                Some(n) => format!("your game is moving from node {n}; try again"),
                None => "your game may be moving between nodes; try again".to_string(),
            };
            let mut body = ErrorBody::new(ErrorCode::Unavailable, why);
            body.retry_after_ms = Some(retry.as_millis() as u64);
            Err(body)
        }
    }
}

struct Data {
    bytes: bytes::Bytes,
    encoding: Encoding,
}

/// How a connection whose socket failed while reading is closed: 1009 for
/// a message over the limit (tungstenite refuses it unread), 1002 for a
/// broken WebSocket protocol (an unmasked client frame, a reserved opcode,
/// bad continuation, nonzero reserved bits), nothing for a plain I/O
/// failure (there is no one left to tell).
fn read_error_close(e: axum::Error) -> Option<CloseCode> {
    use tungstenite::Error as WsError;
    use tungstenite::error::CapacityError;
    let inner = e.into_inner();
    let code = match inner.downcast_ref::<WsError>()? {
        WsError::Capacity(CapacityError::MessageTooLong { .. }) => CloseCode::MessageTooBig,
        WsError::Capacity(_) | WsError::Protocol(_) | WsError::Utf8(_) => CloseCode::ProtocolError,
        _ => return None,
    };
    crate::metrics::error(match code {
        CloseCode::MessageTooBig => "message_too_big",
        _ => "ws_protocol_error",
    });
    Some(code)
}

/// The next text or binary frame (control frames skipped); `Err` with the
/// close code to send when the socket broke the WebSocket protocol (or the
/// size limit), `Ok(None)` when it just ended.
async fn next_data(stream: &mut WsStream) -> Result<Option<Data>, CloseCode> {
    loop {
        let Some(read) = stream.next().await else {
            return Ok(None);
        };
        match read.map(data) {
            Ok(Ok(d)) => return Ok(Some(d)),
            Ok(Err(Message::Close(_))) => return Ok(None),
            Ok(Err(_)) => continue,
            Err(e) => return read_error_close(e).map_or(Ok(None), Err),
        }
    }
}

/// A text or binary frame's payload and the encoding its type says; any
/// other frame given back.
fn data(msg: Message) -> Result<Data, Message> {
    let (bytes, text) = match msg {
        Message::Text(t) => (bytes::Bytes::from(t), true),
        Message::Binary(b) => (b, false),
        other => return Err(other),
    };
    Ok(Data {
        bytes,
        encoding: Encoding::of_frame(text),
    })
}

fn close(code: CloseCode) -> Message {
    Message::Close(Some(CloseFrame {
        code: code.code(),
        reason: Utf8Bytes::from_static(code.reason()),
    }))
}
