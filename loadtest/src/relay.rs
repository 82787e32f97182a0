//! The bare relay that `--baseline` measures the server against: the same
//! WebSocket stack (axum, tungstenite) with the same buffer sizes and the
//! same writer (a bounded queue per connection, `feed` every queued frame,
//! one `flush`), and no game logic. A connection's `hello` names its group
//! (`g<slot>`); after it every data frame is forwarded, as it is, to every
//! member of the group (the sender included, as the server echoes a move to
//! its mover). Connections named `idle` get a `pong` for each frame instead.
//! `/metrics` reports the relay's resident memory like the server's does.
//!
//! It runs as its own process (`tengen-loadtest relay --listen ADDR`), so a
//! baseline run has the same shape as a server run: one process serving,
//! others loading.
//!
//! With `--journal-dir DIR` (what `--baseline-durable` starts) it is the
//! *durable* relay: each data frame is appended to a [`Journal`] in `DIR`
//! and forwarded only once the journal has synced it, as the server
//! broadcasts a move only once its store has. `/metrics` then also counts
//! the journal's syncs, frames and bytes (`relay_journal_*_total`).

use std::collections::HashMap;
use std::net::SocketAddr;
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use anyhow::Context;
use axum::Router;
use axum::extract::State;
use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::response::IntoResponse;
use axum::routing::get;
use axum::serve::ListenerExt;
use futures_util::{SinkExt, StreamExt};
use tengen_protocol::{
    ClientMsg, Encoding, Envelope, Limits, MAX_WS_MESSAGE_BYTES, PROTOCOL_VERSION, Player,
    ServerFrame, ServerInfo, ServerMsg, SessionId, Welcome, decode_client, encode_server,
};
use tokio::net::TcpListener;
use tokio::sync::mpsc;

use crate::journal::Journal;

/// The server's sizes (server/src/settings.rs, server/src/outbound/), mirrored.
const READ_BUFFER: usize = 8 * 1024;
const WRITE_BUFFER: usize = 8 * 1024;
const MAX_WRITE_BUFFER: usize = 2 * 1024 * 1024;
const QUEUE: usize = 256;
const BATCH: usize = 64;

type Group = Arc<Mutex<Vec<(u64, mpsc::Sender<Message>)>>>;

#[derive(Clone, Default)]
struct Relay {
    groups: Arc<Mutex<HashMap<String, Group>>>,
    next: Arc<AtomicU64>,
    journal: Option<Journal>,
}

/// Serves until the process is killed; prints `listening on ADDR` first
/// (once the journal, if any, is ready).
pub async fn serve(listen: SocketAddr, journal_dir: Option<&Path>) -> anyhow::Result<()> {
    let journal = match journal_dir {
        Some(dir) => {
            // 64 MiB of zeros written and synced: not on a runtime thread.
            let d = dir.to_path_buf();
            let opened = tokio::task::spawn_blocking(move || Journal::open(&d)).await?;
            Some(
                opened
                    .with_context(|| format!("opening the relay's journal in {}", dir.display()))?,
            )
        }
        None => None,
    };
    let listener = TcpListener::bind(listen).await?;
    println!("listening on {}", listener.local_addr()?);
    // Sockets send at once, as the server's do: the yardstick takes the
    // socket settings of what it measures. (Setting it on an accepted
    // socket does not fail on Linux; a failure would only leave Nagle on.)
    let listener = listener.tap_io(|tcp| {
        let _ = tcp.set_nodelay(true);
    });
    let relay = Relay {
        journal,
        ..Relay::default()
    };
    let app = Router::new()
        .route(tengen_protocol::WS_PATH, get(upgrade))
        .route("/metrics", get(metrics))
        .with_state(relay);
    axum::serve(listener, app).await?;
    Ok(())
}

async fn metrics(State(relay): State<Relay>) -> String {
    let mut page = format!(
        "process_resident_memory_bytes {}\n",
        crate::memory::own_rss().unwrap_or(0)
    );
    if let Some(j) = &relay.journal {
        let c = j.counters();
        for (name, n) in [
            ("syncs", &c.syncs),
            ("frames", &c.frames),
            ("bytes", &c.bytes),
        ] {
            page.push_str(&format!(
                "relay_journal_{name}_total {}\n",
                n.load(Ordering::Relaxed)
            ));
        }
    }
    page
}

async fn upgrade(ws: WebSocketUpgrade, State(relay): State<Relay>) -> impl IntoResponse {
    ws.read_buffer_size(READ_BUFFER)
        .write_buffer_size(WRITE_BUFFER)
        .max_write_buffer_size(MAX_WRITE_BUFFER)
        .max_message_size(MAX_WS_MESSAGE_BYTES)
        .max_frame_size(MAX_WS_MESSAGE_BYTES)
        .on_upgrade(move |socket| conn(socket, relay))
}

fn encode(frame: &ServerFrame, encoding: Encoding) -> Message {
    let bytes = encode_server(frame, encoding);
    match encoding {
        Encoding::Json => Message::Text(String::from_utf8(bytes).unwrap_or_default().into()),
        Encoding::MsgPack => Message::Binary(bytes.into()),
    }
}

fn data(msg: &Message) -> Option<(&[u8], Encoding)> {
    match msg {
        Message::Text(t) => Some((t.as_bytes(), Encoding::Json)),
        Message::Binary(b) => Some((b, Encoding::MsgPack)),
        _ => None,
    }
}

async fn conn(socket: WebSocket, relay: Relay) {
    let (mut sink, mut stream) = socket.split();
    // hello: its name is the group, its frame type the encoding.
    let (name, encoding) = loop {
        let Some(Ok(msg)) = stream.next().await else {
            return;
        };
        let Some((bytes, encoding)) = data(&msg) else {
            continue;
        };
        let Ok(Envelope {
            msg: ClientMsg::Hello(h),
            id,
        }) = decode_client(bytes, encoding)
        else {
            return;
        };
        let n = relay.next.fetch_add(1, Ordering::Relaxed);
        let name = h.name.unwrap_or_else(|| "idle".into());
        let welcome = Envelope::with_id(
            id,
            ServerMsg::Welcome(Welcome {
                version: PROTOCOL_VERSION,
                server: ServerInfo {
                    name: "tengen-relay".into(),
                    version: env!("CARGO_PKG_VERSION").into(),
                },
                session: SessionId::from_u64(n),
                player: Player {
                    name: name.clone(),
                    guest: true,
                    bot: false,
                },
                limits: Limits::default(),
                features: Vec::new(),
                resume_token: None,
                resumed: false,
                tables: Vec::new(),
            }),
        );
        if sink.send(encode(&welcome, encoding)).await.is_err() {
            return;
        }
        break (name, encoding);
    };
    let me = relay.next.fetch_add(1, Ordering::Relaxed);
    let (tx, mut rx) = mpsc::channel::<Message>(QUEUE);
    let writer = tokio::spawn(async move {
        while let Some(m) = rx.recv().await {
            if sink.feed(m).await.is_err() {
                return;
            }
            let mut n = 1;
            while n < BATCH {
                let Ok(m) = rx.try_recv() else { break };
                if sink.feed(m).await.is_err() {
                    return;
                }
                n += 1;
            }
            if sink.flush().await.is_err() {
                return;
            }
        }
    });
    let idle = name == "idle";
    let group: Group = relay
        .groups
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .entry(name.clone())
        .or_default()
        .clone();
    if !idle {
        group
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push((me, tx.clone()));
    }
    while let Some(Ok(msg)) = stream.next().await {
        if matches!(msg, Message::Close(_)) {
            break;
        }
        let Some((bytes, frame_encoding)) = data(&msg) else {
            continue;
        };
        if idle {
            let id = decode_client(bytes, frame_encoding).ok().and_then(|e| e.id);
            let pong = Envelope::with_id(id, ServerMsg::Pong { time_ms: 0 });
            if tx.try_send(encode(&pong, encoding)).is_err() {
                break;
            }
            continue;
        }
        if let Some(j) = &relay.journal
            && j.append(bytes.to_vec()).await.is_err()
        {
            break;
        }
        let members = group.lock().unwrap_or_else(|e| e.into_inner());
        for (_, m) in members.iter() {
            let _ = m.try_send(msg.clone());
        }
    }
    group
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .retain(|(id, _)| *id != me);
    drop(tx);
    let _ = writer.await;
}
