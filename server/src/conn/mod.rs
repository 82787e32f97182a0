//! One task per WebSocket: the handshake, then read, decode, rate-limit and
//! route.
//!
//! The first data frame must be `hello`, within the protocol's hello
//! timeout; its frame type (text or binary) fixes the connection's encoding.
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
    ClientMsg, CloseCode, Encoding, Envelope, ErrorBody, ErrorCode, HELLO_TIMEOUT_MS,
    PROTOCOL_VERSION, SUPPORTED_VERSIONS, ServerFrame, ServerInfo, ServerMsg, Welcome,
    decode_client,
};
use tokio::time::timeout;
use tracing::Instrument;

use crate::AppState;
use crate::msg::lobby::LobbyCmd;
use crate::msg::table::TableCmd;
use crate::outbound::{self, Frame};
use crate::sessions::Session;

mod accounts;
mod bucket;
mod route;
mod state;

use bucket::Bucket;
use route::handle;
use state::ConnState;

/// What this server offers beyond the base protocol (`welcome.features`).
const FEATURES: [&str; 5] = ["resume", "chat", "rematch", "accounts", "queue"];

pub async fn run(socket: WebSocket, state: AppState, peer: SocketAddr) {
    let conn = crate::outbound::next_conn_id();
    metrics::gauge!(crate::metrics::CONNECTIONS).increment(1.0);
    let span = tracing::debug_span!("conn", conn, %peer);
    serve(socket, state, conn).instrument(span).await;
    metrics::gauge!(crate::metrics::CONNECTIONS).decrement(1.0);
}

async fn serve(socket: WebSocket, state: AppState, conn: u64) {
    let (mut sink, mut stream) = socket.split();
    let hello_wait = Duration::from_millis(HELLO_TIMEOUT_MS);

    // ---- handshake: hello within the hello timeout ----
    // Frames before it are answered (`hello_required`, or why they could not
    // be read) in their own encoding; the hello's frame type fixes the
    // connection's encoding.
    let deadline = tokio::time::Instant::now() + hello_wait;
    let mut before_hello = 0u32;
    let (hello, hello_id, encoding, identity) = loop {
        let Data { bytes, encoding } =
            match tokio::time::timeout_at(deadline, next_data(&mut stream)).await {
                Ok(Ok(Some(d))) => d,
                Ok(Ok(None)) => return,
                Ok(Err(code)) => {
                    let _ = sink.send(close(code)).await;
                    return;
                }
                Err(_) => {
                    crate::metrics::error("hello_timeout");
                    let _ = sink.send(close(CloseCode::HelloTimeout)).await;
                    return;
                }
            };
        before_hello += 1;
        if before_hello > state.settings.limits.rate_burst {
            crate::metrics::error("rate_limited");
            let _ = sink.send(close(CloseCode::PolicyViolation)).await;
            return;
        }
        let (reply, close_with) = match decode_client(&bytes, encoding) {
            Ok(Envelope {
                msg: ClientMsg::Hello(h),
                id,
            }) => {
                if !SUPPORTED_VERSIONS.contains(h.version) {
                    (
                        ServerFrame::error(
                            id,
                            ErrorBody::unsupported_version(h.version, SUPPORTED_VERSIONS),
                        ),
                        Some(CloseCode::UnsupportedVersion),
                    )
                } else if let Err(why) = ClientMsg::Hello(h.clone()).validate() {
                    (
                        ServerFrame::error(id, ErrorBody::new(ErrorCode::BadRequest, why)),
                        None,
                    )
                } else {
                    // Accounts: the login token's account, or a guest name
                    // no account has (`accounts`).
                    match accounts::identify(&state, &h, conn).await {
                        Ok(who) => match claim_seats(&state, h.resume.as_deref()).await {
                            Ok(()) => break (h, id, encoding, who),
                            Err(body) => (ServerFrame::error(id, body), None),
                        },
                        Err(body) => (ServerFrame::error(id, body), None),
                    }
                }
            }
            Ok(other) => (
                ServerFrame::error(
                    other.id,
                    ErrorBody::new(
                        ErrorCode::HelloRequired,
                        format!("send hello first, not {}", other.msg.type_name()),
                    ),
                ),
                None,
            ),
            Err(e) => (e.reply(), None),
        };
        if let ServerMsg::Error(e) = &reply.msg {
            crate::metrics::error(e.code.as_str());
        }
        let frame = match Frame::encode(&reply, encoding) {
            Frame::Text(t) => Message::Text(t),
            Frame::Binary(b) => Message::Binary(b),
        };
        if sink.send(frame).await.is_err() {
            return;
        }
        if let Some(code) = close_with {
            let _ = sink.send(close(code)).await;
            return;
        }
    };

    let (outbox, inbox) = outbound::channel(conn, encoding, state.settings.outbound_queue);
    let opened = state
        .sessions
        .open_as(hello.resume.as_deref(), identity.player(), outbox.clone());
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
        state.lobby.notify(LobbyCmd::Resumed {
            session: session.clone(),
        });
    }
    let ping_every = state.settings.ping_interval;
    let mut writer = tokio::spawn(inbox.drain(sink, ping_every));
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
            limits: state.settings.limits,
            features: FEATURES.iter().map(|f| f.to_string()).collect(),
            resume_token: (!opened.token.is_empty()).then_some(opened.token),
            resumed: opened.resumed,
            tables: opened.tables,
        }),
    ));
    tracing::debug!(conn, session = %session.id, ?encoding, "welcome");

    // ---- the read loop ----
    let limits = state.settings.limits;
    let idle = Duration::from_millis(limits.idle_timeout_ms);
    let mut bucket = Bucket::new(limits.rate_per_sec, limits.rate_burst);
    let mut refused_in_row = 0u32;
    let mut conn_state = ConnState {
        ranked: accounts::ConnRanked::new(&state, &identity),
        session,
        encoding,
        watching: Vec::new(),
        lobby_subscribed: false,
    };
    let mut shutdown = state.shutdown.clone();
    loop {
        tokio::select! {
            _ = shutdown.wait_for(|s| *s) => {
                outbox.close(CloseCode::ServiceRestart);
                break;
            }
            _ = &mut writer => break,
            read = timeout(idle, stream.next()) => {
                let msg = match read {
                    Err(_) => {
                        crate::metrics::error("idle_timeout");
                        outbox.close(CloseCode::IdleTimeout);
                        break;
                    }
                    Ok(None) => break,
                    Ok(Some(Err(e))) => {
                        if let Some(code) = read_error_close(e) {
                            outbox.close(code);
                        }
                        break;
                    }
                    Ok(Some(Ok(m))) => m,
                };
                let (bytes, frame_encoding) = match msg {
                    Message::Text(t) => (bytes::Bytes::from(t), Encoding::Json),
                    Message::Binary(b) => (b, Encoding::MsgPack),
                    Message::Close(_) => break,
                    Message::Pong(p) => {
                        outbox.record_pong(&p);
                        continue;
                    }
                    Message::Ping(_) => continue,
                };
                if frame_encoding != encoding {
                    crate::metrics::error("unsupported_data");
                    outbox.close(CloseCode::UnsupportedData);
                    break;
                }
                if !bucket.take(Instant::now()) {
                    // Dropped with a reply; flooding on regardless ends it.
                    refused_in_row += 1;
                    if refused_in_row > limits.rate_burst {
                        crate::metrics::error("flood");
                        outbox.close(CloseCode::PolicyViolation);
                        break;
                    }
                    crate::metrics::error("rate_limited");
                    let id = tengen_protocol::decode_client(&bytes, encoding).ok().and_then(|f| f.id);
                    outbox.send_msg(&ServerFrame::error(
                        id,
                        ErrorBody::rate_limited(bucket.retry_after_ms()),
                    ));
                    continue;
                }
                refused_in_row = 0;
                conn_state.ranked.apply(&mut conn_state.session);
                handle(&state, &mut conn_state, &bytes, Instant::now());
            }
        }
    }
    // Let the lobby and the tables forget this connection; the tables where
    // the session sits start its abandonment countdown.
    let away = state.sessions.closed(&conn_state.session.id, conn);
    state.lobby.notify(LobbyCmd::Gone {
        session: conn_state.session.id.clone(),
        conn,
        holder: away.is_some(),
    });
    let _ = state
        .matchmaker
        .try_send(crate::msg::matchmaker::MatchCmd::Gone {
            session: conn_state.session.id.clone(),
            conn,
        });
    for t in away.unwrap_or_default() {
        if let Some(h) = state.tables.get(&t) {
            let _ = h.try_send(TableCmd::Away {
                session: conn_state.session.id.clone(),
                conn,
            });
        }
    }
    for t in &conn_state.watching {
        if let Some(h) = state.tables.get(t) {
            let _ = h.try_send(TableCmd::Unwatch {
                conn,
                id: None,
                outbox: None,
            });
        }
    }
    // Tables on other nodes: their relays of this connection go.
    if let Some(node) = &state.node {
        node.notify(crate::msg::node::NodeCmd::ConnGone { conn });
    }
    if !writer.is_finished() {
        outbox.close(CloseCode::Normal);
        let _ = timeout(Duration::from_secs(5), writer).await;
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

/// Several nodes: a `hello` resuming a session this node does not know may
/// be a player whose node died. Their tables are taken over here if their
/// leases lapsed ([`crate::table::restore::claim_seats`]); while another node still
/// holds one, the hello is refused with `unavailable` and a time to try
/// again (the player's node may be gone without its lease having lapsed).
async fn claim_seats(state: &AppState, token: Option<&str>) -> Result<(), ErrorBody> {
    let Some(token) = token else { return Ok(()) };
    if state.settings.takeover_every.is_none() || state.sessions.token_known(token) {
        return Ok(());
    }
    let hosting = state.hosting();
    let claim = crate::table::restore::claim_seats(token, &hosting);
    match tokio::time::timeout(state.settings.store_timeout * 2, claim).await {
        Ok(Ok(())) | Err(_) => Ok(()),
        Ok(Err(node)) => {
            crate::metrics::error("seat_elsewhere");
            let retry = (state.settings.lease_ttl / 2).max(Duration::from_millis(250));
            let mut body = ErrorBody::new(
                ErrorCode::Unavailable,
                format!(
                    "your game is held by node {node}; if that node is gone, it moves here within {:.0} s: try again",
                    state.settings.lease_ttl.as_secs_f64().ceil()
                ),
            );
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
async fn next_data(
    stream: &mut futures_util::stream::SplitStream<WebSocket>,
) -> Result<Option<Data>, CloseCode> {
    loop {
        let Some(read) = stream.next().await else {
            return Ok(None);
        };
        match read {
            Ok(Message::Text(t)) => {
                return Ok(Some(Data {
                    bytes: bytes::Bytes::from(t),
                    encoding: Encoding::Json,
                }));
            }
            Ok(Message::Binary(b)) => {
                return Ok(Some(Data {
                    bytes: b,
                    encoding: Encoding::MsgPack,
                }));
            }
            Ok(Message::Close(_)) => return Ok(None),
            Err(e) => return read_error_close(e).map_or(Ok(None), Err),
            Ok(_) => continue,
        }
    }
}

fn close(code: CloseCode) -> Message {
    Message::Close(Some(CloseFrame {
        code: code.code(),
        reason: Utf8Bytes::from_static(code.reason()),
    }))
}
