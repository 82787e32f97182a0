//! Caps against floods and slow peers, over real sockets on loopback
//! (loopback counted: `limit_loopback`), with short deadlines set in the
//! settings: per-address connections and handshakes (HTTP 429 before the
//! upgrade), the HTTP and `hello` deadlines, a slowloris trickle, a client
//! that never reads, a silent peer (pinged, then closed as idle), a trusted
//! proxy's forwarded clients, registrations per address, and failed logins slowed,
//! locked per (account, address) while the owner, from another address,
//! still logs in.

use crate::common;

use std::net::SocketAddr;
use std::time::{Duration, Instant};

use common::server_with;
use futures_util::{SinkExt, StreamExt};
use serde_json::{Value, json};
use tengen_server::{Server, Settings};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpSocket, TcpStream};
use tokio_tungstenite::tungstenite::{self, Message};

type Ws = tokio_tungstenite::WebSocketStream<TcpStream>;

/// A server whose per-address caps apply to loopback, tuned by `tune`.
async fn capped(tune: impl FnOnce(&mut Settings)) -> Server {
    server_with(|s| {
        s.caps.limit_loopback = true;
        tune(s)
    })
    .await
}

/// A TCP connection to `server` from the loopback address `from`.
async fn tcp_from(server: &Server, from: &str, recv_buffer: Option<u32>) -> TcpStream {
    let socket = TcpSocket::new_v4().unwrap();
    socket
        .bind(SocketAddr::new(from.parse().unwrap(), 0))
        .unwrap();
    if let Some(size) = recv_buffer {
        socket.set_recv_buffer_size(size).unwrap();
    }
    socket.connect(server.addr()).await.unwrap()
}

/// A WebSocket upgrade from `from`: the socket, or the HTTP refusal.
async fn ws_from(
    server: &Server,
    from: &str,
) -> Result<Ws, tungstenite::http::Response<Option<Vec<u8>>>> {
    let tcp = tcp_from(server, from, None).await;
    let url = format!("ws://{}/ws", server.addr());
    match tokio_tungstenite::client_async(url, tcp).await {
        Ok((ws, _)) => Ok(ws),
        Err(tungstenite::Error::Http(response)) => Err(*response),
        Err(e) => panic!("{e}"),
    }
}

async fn send(ws: &mut Ws, v: Value) {
    ws.send(Message::text(v.to_string())).await.unwrap();
}

/// The next reply (a JSON message) on `ws`.
async fn reply(ws: &mut Ws) -> Value {
    loop {
        let m = tokio::time::timeout(Duration::from_secs(10), ws.next())
            .await
            .expect("a reply in time")
            .expect("open")
            .unwrap();
        if let Message::Text(t) = m {
            return serde_json::from_str(&t).unwrap();
        }
    }
}

/// A connection from `from` past `hello`.
async fn hello_from(server: &Server, from: &str, name: &str) -> Ws {
    let mut ws = ws_from(server, from).await.expect("upgraded");
    send(
        &mut ws,
        json!({"type":"hello","version":1,"name":name,"id":1}),
    )
    .await;
    assert_eq!(reply(&mut ws).await["type"], "welcome");
    ws
}

/// How long until the server closes `tcp` (EOF or reset), at most `max`.
async fn closed_within(tcp: &mut TcpStream, max: Duration) -> Duration {
    let t0 = Instant::now();
    let mut buf = [0u8; 4096];
    loop {
        match tokio::time::timeout_at((t0 + max).into(), tcp.read(&mut buf)).await {
            Err(_) => panic!("still open after {max:?}"),
            Ok(Ok(0)) | Ok(Err(_)) => return t0.elapsed(),
            Ok(Ok(_)) => {}
        }
    }
}

/// The `/metrics` page (from 127.0.0.10: not the address under test).
async fn metrics(server: &Server) -> String {
    let mut tcp = tcp_from(server, "127.0.0.10", None).await;
    tcp.write_all(b"GET /metrics HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        .await
        .unwrap();
    let mut page = String::new();
    tcp.read_to_string(&mut page).await.unwrap();
    page
}

fn retry_after(r: &tungstenite::http::Response<Option<Vec<u8>>>) -> u64 {
    r.headers()["retry-after"]
        .to_str()
        .unwrap()
        .parse()
        .unwrap()
}

#[tokio::test]
async fn connections_per_address_beyond_the_cap_get_429_before_the_upgrade() {
    let server = capped(|s| s.caps.max_connections_per_address = 2).await;
    let a = ws_from(&server, "127.0.0.1").await.expect("first");
    let _b = ws_from(&server, "127.0.0.1").await.expect("second");
    let refused = ws_from(&server, "127.0.0.1")
        .await
        .expect_err("third refused");
    assert_eq!(refused.status(), 429);
    assert!(retry_after(&refused) >= 1);
    // Another address is not affected; a closed connection frees a place.
    let _c = ws_from(&server, "127.0.0.2")
        .await
        .expect("another address");
    drop(a);
    tokio::time::sleep(Duration::from_millis(200)).await;
    ws_from(&server, "127.0.0.1").await.expect("a place again");
    let metrics = metrics(&server).await;
    assert!(
        metrics.contains("tengen_caps_hit_total{cap=\"address_connections\"}"),
        "counted"
    );
}

/// An upgrade from `from` saying it forwards `client`.
async fn ws_forwarding(server: &Server, from: &str, client: &str) -> Result<Ws, u16> {
    use tokio_tungstenite::tungstenite::client::IntoClientRequest;
    let tcp = tcp_from(server, from, None).await;
    let mut request = format!("ws://{}/ws", server.addr())
        .into_client_request()
        .unwrap();
    let xff = format!("203.0.113.50, {client}");
    request
        .headers_mut()
        .insert("x-forwarded-for", xff.parse().unwrap());
    match tokio_tungstenite::client_async(request, tcp).await {
        Ok((ws, _)) => Ok(ws),
        Err(tungstenite::Error::Http(response)) => Err(response.status().as_u16()),
        Err(e) => panic!("{e}"),
    }
}

#[tokio::test]
async fn behind_a_trusted_proxy_each_forwarded_client_is_counted() {
    let server = capped(|s| {
        s.caps.max_connections_per_address = 1;
        s.caps.trusted_proxies = vec!["127.0.0.1".parse().unwrap()];
    })
    .await;
    // Each (peer, forwarded client) in turn, and whether it gets through:
    // the proxy's own address is not counted; the last hop names the
    // client (the first, client-supplied, does not); an IPv6 /64 is one
    // address; from an untrusted peer the header is ignored (both of the
    // last two are 127.0.0.2 itself).
    let steps = [
        ("127.0.0.1", "198.51.100.1", true),
        ("127.0.0.1", "198.51.100.2", true),
        ("127.0.0.1", "2001:db8::1", true),
        ("127.0.0.1", "198.51.100.1", false),
        ("127.0.0.1", "2001:db8::2", false),
        ("127.0.0.2", "198.51.100.8", true),
        ("127.0.0.2", "198.51.100.9", false),
    ];
    let mut open = Vec::new();
    for (from, client, passes) in steps {
        match ws_forwarding(&server, from, client).await {
            Ok(ws) => {
                assert!(passes, "{from} for {client} got through");
                open.push(ws);
            }
            Err(status) => {
                assert!(!passes, "{from} for {client} refused");
                assert_eq!(status, 429);
            }
        }
    }
}

#[tokio::test]
async fn handshakes_per_minute_beyond_the_rate_get_429_with_the_wait() {
    let server = capped(|s| s.caps.handshakes_per_minute = 3).await;
    for _ in 0..3 {
        drop(
            ws_from(&server, "127.0.0.3")
                .await
                .expect("within the rate"),
        );
    }
    let refused = ws_from(&server, "127.0.0.3").await.expect_err("refused");
    assert_eq!(refused.status(), 429);
    // A third of a minute until the bucket holds one again.
    let wait = retry_after(&refused);
    assert!((15..=20).contains(&wait), "{wait}");
    ws_from(&server, "127.0.0.4")
        .await
        .expect("another address");
}

#[tokio::test]
async fn permessage_deflate_is_never_negotiated() {
    let server = capped(|_| {}).await;
    let mut tcp = tcp_from(&server, "127.0.0.1", None).await;
    let request = format!(
        "GET /ws HTTP/1.1\r\nHost: {}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\
         Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\
         Sec-WebSocket-Extensions: permessage-deflate; client_max_window_bits\r\n\r\n",
        server.addr()
    );
    tcp.write_all(request.as_bytes()).await.unwrap();
    let mut head = vec![0u8; 1024];
    let n = tcp.read(&mut head).await.unwrap();
    let head = String::from_utf8_lossy(&head[..n]).to_ascii_lowercase();
    assert!(head.starts_with("http/1.1 101"), "{head}");
    assert!(!head.contains("sec-websocket-extensions"), "{head}");
}

#[tokio::test]
async fn a_request_never_completed_is_closed_on_time() {
    let server = capped(|s| {
        s.caps.handshake_timeout = Duration::from_millis(400);
        s.caps.write_timeout = Duration::from_millis(400);
    })
    .await;
    // Silent.
    let mut silent = tcp_from(&server, "127.0.0.1", None).await;
    let took = closed_within(&mut silent, Duration::from_secs(3)).await;
    assert!(took >= Duration::from_millis(350), "{took:?}");
    // Slowloris: a byte of the request every 100 ms, for ever.
    let mut slow = tcp_from(&server, "127.0.0.1", None).await;
    let t0 = Instant::now();
    let request = b"GET /ws HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nX-Pad: aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa";
    for byte in request {
        if slow.write_all(&[*byte]).await.is_err() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
        if t0.elapsed() > Duration::from_secs(3) {
            break;
        }
    }
    let took = t0.elapsed() + closed_within(&mut slow, Duration::from_secs(3)).await;
    assert!(took < Duration::from_secs(2), "trickled for {took:?}");
    // A served request gets a deadline again for its next one (the
    // handshake and write timeouts).
    let mut idle = tcp_from(&server, "127.0.0.1", None).await;
    idle.write_all(b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
        .await
        .unwrap();
    closed_within(&mut idle, Duration::from_secs(3)).await;
}

#[tokio::test]
async fn no_hello_or_a_trickled_hello_is_closed_on_time() {
    let server = capped(|s| s.caps.hello_timeout = Duration::from_millis(500)).await;
    let mut ws = ws_from(&server, "127.0.0.1").await.unwrap();
    let t0 = Instant::now();
    let code = loop {
        match tokio::time::timeout(Duration::from_secs(5), ws.next()).await {
            Ok(Some(Ok(Message::Close(Some(f))))) => break u16::from(f.code),
            Ok(Some(Ok(_))) => {}
            other => panic!("{other:?}"),
        }
    };
    assert_eq!(code, 4001);
    assert!(t0.elapsed() < Duration::from_secs(2));
    // A hello frame's bytes trickled one per 100 ms (a masked text frame,
    // by hand): cut off at the hello deadline.
    let mut tcp = tcp_from(&server, "127.0.0.1", None).await;
    let (ws, _) = tokio_tungstenite::client_async(format!("ws://{}/ws", server.addr()), tcp)
        .await
        .unwrap();
    tcp = ws.into_inner();
    let payload = br#"{"type":"hello","version":1,"name":"trickler","id":1}"#;
    let mut frame = vec![0x81, 0x80 | payload.len() as u8, 0, 0, 0, 0];
    frame.extend_from_slice(payload);
    let t0 = Instant::now();
    for byte in &frame {
        if tcp.write_all(&[*byte]).await.is_err() || t0.elapsed() > Duration::from_secs(3) {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let took = t0.elapsed() + closed_within(&mut tcp, Duration::from_secs(3)).await;
    assert!(took < Duration::from_secs(2), "trickled for {took:?}");
}

#[tokio::test]
async fn a_client_that_never_reads_is_cut_off() {
    let server = capped(|s| {
        s.caps.write_timeout = Duration::from_millis(500);
        s.outbound_queue = 1_000_000;
        s.limits.rate_per_sec = 100_000;
        s.limits.rate_burst = 100_000;
    })
    .await;
    // A small receive window, and then never a read: the server's writes
    // back up until one makes no progress for the write timeout.
    let tcp = tcp_from(&server, "127.0.0.1", Some(4096)).await;
    let (mut ws, _) = tokio_tungstenite::client_async(format!("ws://{}/ws", server.addr()), tcp)
        .await
        .unwrap();
    send(
        &mut ws,
        json!({"type":"hello","version":1,"name":"stall","id":1}),
    )
    .await;
    let t0 = Instant::now();
    let mut sent = 0u64;
    // Pings, each answered with a pong nobody reads, until the server
    // drops the socket (our writes then fail) or 20 s pass.
    while t0.elapsed() < Duration::from_secs(20) {
        let ping = Message::text(json!({"type":"ping","id":sent}).to_string());
        if ws.feed(ping).await.is_err() {
            break;
        }
        sent += 1;
        if sent.is_multiple_of(500) && ws.flush().await.is_err() {
            break;
        }
    }
    assert!(
        t0.elapsed() < Duration::from_secs(20),
        "never cut off ({sent} pings)"
    );
    let metrics = metrics(&server).await;
    let line = metrics
        .lines()
        .find(|l| l.starts_with("tengen_caps_hit_total{cap=\"write_timeout\"}"))
        .unwrap();
    assert_ne!(line.split(' ').nth(1), Some("0"), "{line}");
}

async fn register_from(server: &Server, from: &str, name: &str) -> Value {
    let mut ws = hello_from(server, from, &format!("{name}-g")).await;
    send(
        &mut ws,
        json!({"type":"register","name":name,"password":"long enough","id":2}),
    )
    .await;
    reply(&mut ws).await
}

#[tokio::test]
async fn registrations_per_address_per_hour() {
    let server = capped(|s| s.accounts.registrations_per_hour = 2).await;
    for name in ["reg-a", "reg-b"] {
        assert_eq!(
            register_from(&server, "127.0.0.5", name).await["type"],
            "registered"
        );
    }
    let r = register_from(&server, "127.0.0.5", "reg-c").await;
    assert_eq!(r["code"], "rate_limited", "{r}");
    // Half an hour until the next of two an hour.
    let wait = r["retry_after_ms"].as_u64().unwrap();
    assert!((1_790_000..=1_800_000).contains(&wait), "{wait}");
    assert_eq!(
        register_from(&server, "127.0.0.6", "reg-c").await["type"],
        "registered"
    );
}

async fn login(ws: &mut Ws, name: &str, password: &str, id: u64) -> Value {
    send(
        ws,
        json!({"type":"login","name":name,"password":password,"id":id}),
    )
    .await;
    reply(ws).await
}

#[tokio::test]
async fn failed_logins_slow_then_lock_the_address_and_the_owner_still_logs_in() {
    let server = capped(|s| {
        s.accounts.login_free_failures = 1;
        s.accounts.login_delay = Duration::from_millis(300);
        s.accounts.login_lock_after = 3;
        s.accounts.login_lock = Duration::from_secs(600);
        s.accounts.conn_burst = 100;
    })
    .await;
    assert_eq!(
        register_from(&server, "127.0.0.7", "owner").await["type"],
        "registered"
    );
    let mut guesser = hello_from(&server, "127.0.0.8", "guesser").await;
    assert_eq!(
        login(&mut guesser, "owner", "guess1", 2).await["code"],
        "bad_credentials"
    );
    assert_eq!(
        login(&mut guesser, "owner", "guess2", 3).await["code"],
        "bad_credentials"
    );
    // The second failure is past the free one: a delay.
    let r = login(&mut guesser, "owner", "guess3", 4).await;
    assert_eq!(r["code"], "rate_limited", "{r}");
    let wait = r["retry_after_ms"].as_u64().unwrap();
    assert!((1..=300).contains(&wait), "{wait}");
    tokio::time::sleep(Duration::from_millis(wait)).await;
    assert_eq!(
        login(&mut guesser, "owner", "guess3", 5).await["code"],
        "bad_credentials"
    );
    // Three failures: locked, even with the right password.
    let r = login(&mut guesser, "owner", "long enough", 6).await;
    assert_eq!(r["code"], "rate_limited", "{r}");
    assert!(r["retry_after_ms"].as_u64().unwrap() > 590_000, "{r}");
    // The owner, from another address, is not locked out.
    let mut owner = hello_from(&server, "127.0.0.9", "owner-g").await;
    let r = login(&mut owner, "owner", "long enough", 2).await;
    assert_eq!(r["type"], "logged_in", "{r}");
}

#[tokio::test]
async fn a_silent_peer_is_pinged_then_closed_when_idle_and_a_ponging_one_stays() {
    let server = capped(|s| {
        s.limits.idle_timeout_ms = 1_000;
        s.ping_interval = Duration::from_millis(200);
    })
    .await;
    let mut silent = hello_from(&server, "127.0.0.1", "silent").await;
    let mut alive = hello_from(&server, "127.0.0.2", "alive").await;
    let t0 = Instant::now();
    // `alive` reads all along, so the client library answers each ping
    // with a pong: the server hears from it, though it sends nothing else.
    // `silent` reads nothing (and so answers nothing) for 2.5 s.
    let mut alive_pings = 0;
    while t0.elapsed() < Duration::from_millis(2_500) {
        match tokio::time::timeout(Duration::from_millis(100), alive.next()).await {
            Err(_) => {}
            Ok(Some(Ok(Message::Ping(_)))) => alive_pings += 1,
            Ok(other) => panic!("alive got {other:?}"),
        }
    }
    assert!(alive_pings >= 8, "a ping every 200 ms: {alive_pings}");
    send(&mut alive, json!({"type":"ping","id":2})).await;
    assert_eq!(reply(&mut alive).await["type"], "pong", "still open");
    // `silent` was pinged, then closed for idleness (4004). Read from the
    // socket itself: the client library would answer the first ping it
    // read, fail on the closed socket and drop the frames after it.
    let tcp = silent.get_mut();
    let mut bytes = Vec::new();
    let _ = tokio::time::timeout(Duration::from_secs(5), tcp.read_to_end(&mut bytes)).await;
    let (mut pings, mut close, mut at) = (0, None, 0);
    // Unmasked server frames, each shorter than 126 bytes here.
    while at + 2 <= bytes.len() {
        let (opcode, len) = (bytes[at] & 0x0f, usize::from(bytes[at + 1] & 0x7f));
        let payload = &bytes[at + 2..(at + 2 + len).min(bytes.len())];
        match opcode {
            0x9 => pings += 1,
            0x8 => close = Some(u16::from_be_bytes([payload[0], payload[1]])),
            _ => {}
        }
        at += 2 + len;
    }
    assert!(pings >= 3, "pinged before it was closed: {pings}");
    assert_eq!(close, Some(4004));
}
