//! A game watched from other nodes costs Redis one publish per event per
//! node with spectators, not one per spectator; every spectator still sees
//! every event once, in order; and a node that learns it missed part of a
//! table's fan sends its spectators of that table off to resume.
//!
//! Three `tengen-server` processes share a real `redis-server`: the game
//! runs on node A, 20 spectators watch from node B and 20 from node C.
//! What the nodes publish is read from Redis itself: `INFO commandstats`
//! (every `PUBLISH`), and `MONITOR` to tell a table's frames from the
//! lobby's heartbeats and the fans' marks.

use crate::common;

use std::time::Duration;

use common::proc::{DataDir, Proc, stop};
use common::scripted::{self, new_game};
use tengen_client::Connection;
use tengen_protocol::{ClientMsg, Encoding, ServerMsg, TableId};
use tengen_server::cluster::wire::{Body, NodeMsg};
use tengen_store::testing::RedisServer;
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
use tokio::net::TcpStream;

const LEASE: &str = "2";
const PER_NODE: usize = 20;

fn node(redis: &RedisServer, dir: &DataDir, prefix: &str, name: &str) -> Proc {
    common::proc::start_node(&dir.0, &redis.url(), prefix, name, LEASE)
}

/// `n` spectators of `table` at `url`, each watching from the start (half
/// of them in MessagePack when `mixed`).
async fn spectators(
    url: &str,
    table: &TableId,
    tag: &str,
    n: usize,
    mixed: bool,
) -> Vec<Connection> {
    let mut all = Vec::new();
    for i in 0..n {
        let encoding = if mixed && i % 2 == 1 {
            Encoding::MsgPack
        } else {
            Encoding::Json
        };
        let (mut c, _) = Connection::connect(url, encoding, Some(&format!("{tag}{i}")))
            .await
            .unwrap();
        c.timeout = Duration::from_secs(10);
        match c
            .request(ClientMsg::Watch {
                table: table.clone(),
                since: Some(0),
            })
            .await
        {
            Ok(ServerMsg::Replayed { .. }) => {}
            other => panic!("{tag}{i} watches: {other:?}"),
        }
        all.push(c);
    }
    all
}

/// The `seq`s of the table events `c` gets until it has `last`.
async fn seqs_until(c: &mut Connection, last: u64) -> Vec<u64> {
    let mut seqs = Vec::new();
    while seqs.last() != Some(&last) {
        let f = tokio::time::timeout(Duration::from_secs(10), c.next())
            .await
            .expect("the spectator hears every event")
            .unwrap();
        if let ServerMsg::TableEvent(te) = f.msg {
            seqs.push(te.seq);
        }
    }
    seqs
}

/// `PUBLISH` calls so far, from `INFO commandstats` (sharded ones too).
async fn publish_calls(redis: &RedisServer) -> u64 {
    let client = redis::Client::open(redis.url()).unwrap();
    let mut conn = client.get_multiplexed_async_connection().await.unwrap();
    let info: String = redis::cmd("INFO")
        .arg("commandstats")
        .query_async(&mut conn)
        .await
        .unwrap();
    info.lines()
        .filter(|l| l.starts_with("cmdstat_publish:") || l.starts_with("cmdstat_spublish:"))
        .filter_map(|l| {
            l.split("calls=")
                .nth(1)?
                .split(',')
                .next()?
                .parse::<u64>()
                .ok()
        })
        .sum()
}

/// A `MONITOR` of `redis`, read line by line.
struct Monitor {
    lines: tokio::io::Lines<BufReader<TcpStream>>,
}

impl Monitor {
    async fn start(redis: &RedisServer) -> Monitor {
        let mut s = TcpStream::connect(("127.0.0.1", redis.port()))
            .await
            .unwrap();
        s.write_all(b"MONITOR\r\n").await.unwrap();
        let mut lines = BufReader::new(s).lines();
        assert_eq!(lines.next_line().await.unwrap().as_deref(), Some("+OK"));
        Monitor { lines }
    }

    /// Every `PUBLISH` seen until an `ECHO` of `marker`: (channel, the
    /// payload as `MONITOR` escapes it).
    async fn publishes_until(&mut self, marker: &str) -> Vec<(String, String)> {
        let mut seen = Vec::new();
        loop {
            let line = tokio::time::timeout(Duration::from_secs(10), self.lines.next_line())
                .await
                .expect("the monitor keeps up")
                .unwrap()
                .expect("the monitor stays open");
            if line.contains("\"ECHO\"") && line.contains(marker) {
                return seen;
            }
            // +TIME [DB ADDR] "PUBLISH" "CHANNEL" "PAYLOAD"
            if let Some(rest) = line.split_once("\"PUBLISH\" \"").map(|(_, r)| r)
                && let Some((channel, payload)) = rest.split_once("\" \"")
            {
                seen.push((channel.to_owned(), payload.to_owned()));
            }
        }
    }
}

async fn echo(redis: &RedisServer, marker: &str) {
    let client = redis::Client::open(redis.url()).unwrap();
    let mut conn = client.get_multiplexed_async_connection().await.unwrap();
    let _: String = redis::cmd("ECHO")
        .arg(marker)
        .query_async(&mut conn)
        .await
        .unwrap();
}

/// What a node message published on the bus is, by its body's tag (a
/// MessagePack string as `MONITOR` escapes it).
fn kind(payload: &str) -> &'static str {
    for (tag, name) in [("\\xa3Fan\\x", "fan"), ("\\xa6Frames", "frames")] {
        if payload.contains(tag) {
            return name;
        }
    }
    "other"
}

/// Game on A, 20 spectators on B and 20 on C (C's half in MessagePack):
/// each move's events cost one publish per node with spectators (2), not
/// one per spectator (40), as Redis counts them; and every spectator gets
/// every event, in order, to the end of the game.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_move_costs_one_publish_per_node_with_spectators() {
    let redis = RedisServer::start();
    let dirs = [
        DataDir::new("node-a"),
        DataDir::new("node-b"),
        DataDir::new("node-c"),
    ];
    let a = node(&redis, &dirs[0], "fan", "node-a");
    let b = node(&redis, &dirs[1], "fan", "node-b");
    let c = node(&redis, &dirs[2], "fan", "node-c");
    let mut g = new_game(&a.url(), 0).await;
    assert!(!g.play_next().await);
    let mut on_b = spectators(&b.url(), &g.table, "bea", PER_NODE, false).await;
    let mut on_c = spectators(&c.url(), &g.table, "cid", PER_NODE, true).await;
    // The spectator count (coalesced) goes out before the window.
    tokio::time::sleep(Duration::from_secs(2)).await;

    let mut monitor = Monitor::start(&redis).await;
    echo(&redis, "window-start").await;
    let _ = monitor.publishes_until("window-start").await;
    let before = publish_calls(&redis).await;
    let seq_before = g.seq;
    const MOVES: usize = 6;
    for _ in 0..MOVES {
        assert!(!g.play_next().await);
    }
    // Every spectator has every event so far, in order (so every publish
    // of the moves is done).
    for s in on_b.iter_mut().chain(on_c.iter_mut()) {
        assert_eq!(seqs_until(s, g.seq).await, (1..=g.seq).collect::<Vec<_>>());
    }
    let after = publish_calls(&redis).await;
    echo(&redis, "window-end").await;
    let seen = monitor.publishes_until("window-end").await;

    let events = g.seq - seq_before;
    assert_eq!(events, MOVES as u64, "one event per move here");
    let count = |k: &str, to: Option<&str>| {
        seen.iter()
            .filter(|(ch, p)| {
                kind(p) == k && to.is_none_or(|n| ch.ends_with(&format!(":node:{n}")))
            })
            .count() as u64
    };
    // The table's frames for B and C: one fan message per event per node,
    // none through a spectator's own relay.
    assert_eq!(count("fan", Some("node-b")), events, "{seen:?}");
    assert_eq!(count("fan", Some("node-c")), events, "{seen:?}");
    assert_eq!(count("frames", None), 0, "{seen:?}");
    // Redis's own count: the monitor's window holds the counted one, and
    // what it saw besides the fans is no table's frames (the lobby's
    // heartbeats, the fans' and relays' marks). So the moves cost at most
    // events × nodes with spectators, exactly that many here.
    let unrelated = seen.len() as u64 - 2 * events;
    let total = after - before;
    eprintln!(
        "window: {total} publishes counted by Redis, {} seen, {unrelated} unrelated, {events} events",
        seen.len()
    );
    assert!(
        total <= seen.len() as u64,
        "{total} counted, {} seen",
        seen.len()
    );
    assert!(
        total >= 2 * events && total - unrelated.min(total) <= 2 * events,
        "{total} publishes ({unrelated} unrelated) for {events} events: {seen:?}"
    );
    assert!(
        total < (PER_NODE as u64) * events,
        "not one per spectator: {total} for {events} events"
    );

    // A spectator at B asks for a snapshot (it comes in the fan, after
    // the events it includes), then stops watching: it gets nothing more.
    let mut gone = on_b.remove(0);
    match gone
        .request(ClientMsg::Snapshot {
            table: g.table.clone(),
        })
        .await
    {
        Ok(ServerMsg::TableSnapshot(s)) => assert_eq!(s.seq, g.seq),
        other => panic!("a snapshot through B: {other:?}"),
    }
    match gone
        .request(ClientMsg::Unwatch {
            table: g.table.clone(),
        })
        .await
    {
        Ok(ServerMsg::Unwatched { table }) => assert_eq!(table, g.table),
        other => panic!("an unwatch through B: {other:?}"),
    }
    while !g.play_next().await {}
    for s in on_b.iter_mut().chain(on_c.iter_mut()) {
        let rest = scripted::seqs_to_game_over(s).await;
        assert_eq!(
            rest,
            (seq_before + MOVES as u64 + 1..=g.seq).collect::<Vec<_>>(),
            "every event once, in order"
        );
    }
    // Every other spectator has had the game's end by now.
    while let Ok(f) = tokio::time::timeout(Duration::from_millis(300), gone.next()).await {
        let f = f.unwrap();
        assert!(
            !matches!(f.msg, ServerMsg::TableEvent(_)),
            "nothing after unwatched: {f:?}"
        );
    }
    stop([a, b, c]);
}

/// Redis's escaping in `MONITOR` undone.
fn unescape(s: &str) -> Vec<u8> {
    let b = s.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        if b[i] != b'\\' || i + 1 == b.len() {
            out.push(b[i]);
            i += 1;
            continue;
        }
        match b[i + 1] {
            b'x' => {
                out.push(u8::from_str_radix(&s[i + 2..i + 4], 16).unwrap());
                i += 4;
                continue;
            }
            b'n' => out.push(b'\n'),
            b'r' => out.push(b'\r'),
            b't' => out.push(b'\t'),
            b'a' => out.push(7),
            b'b' => out.push(8),
            c => out.push(c),
        }
        i += 2;
    }
    out
}

/// A game on A with white playing through B and a spectator on B (the
/// client library's `Session`, which resumes by itself), and two moves;
/// then `forge` makes, from the last fan message A published to B (its
/// fan id and number), a message that tells B it missed something,
/// published as A would. B sends the spectator off to resume (1012), and
/// the table replays what it missed: it sees every event once, in order,
/// to the end of the game, which white plays on its connection at B
/// (never closed: a player's frames do not come through the fan).
async fn a_lost_fan_message_is_resynced(
    prefix: &str,
    forge: impl FnOnce(&TableId, u64, u64) -> Body,
) {
    let redis = RedisServer::start();
    let dirs = [DataDir::new("node-a"), DataDir::new("node-b")];
    let a = node(&redis, &dirs[0], prefix, "node-a");
    let b = node(&redis, &dirs[1], prefix, "node-b");
    let mut monitor = Monitor::start(&redis).await;
    let mut g = new_game(&a.url(), 0).await;
    assert!(!g.play_next().await);
    // White plays through B: a player there is none of the fan's.
    scripted::move_player(&mut g, false, &b.url()).await;
    let spectator = scripted::spectate(&b.url(), &g.table).await;
    assert!(!g.play_next().await);
    assert!(!g.play_next().await);
    echo(&redis, "forge").await;
    let last = monitor
        .publishes_until("forge")
        .await
        .into_iter()
        .filter(|(ch, p)| ch.ends_with(":node:node-b") && kind(p) == "fan")
        .filter_map(|(_, p)| NodeMsg::decode(&unescape(&p)))
        .filter_map(|m| match m.body {
            Body::Fan { fan, n, .. } => Some((fan, n)),
            _ => None,
        })
        .next_back();
    let (fan, n) = last.expect("A published the table's frames to B in a fan");
    let forged = NodeMsg {
        from: "node-a".into(),
        body: forge(&g.table, fan, n),
    };
    let client = redis::Client::open(redis.url()).unwrap();
    let mut conn = client.get_multiplexed_async_connection().await.unwrap();
    let _: i64 = redis::cmd("PUBLISH")
        .arg(format!("{prefix}:node:node-b"))
        .arg(forged.encode().to_vec())
        .query_async(&mut conn)
        .await
        .unwrap();
    tokio::time::sleep(Duration::from_secs(1)).await;
    scripted::finish_resynced(&mut g, spectator).await;
    stop([a, b]);
}

/// A fan message numbered one past the next: B missed one.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_skipped_fan_number_resyncs_the_nodes_spectators() {
    a_lost_fan_message_is_resynced("fanskip", |table, fan, n| Body::Fan {
        table: table.clone(),
        fan,
        n: n + 2,
        prev: None,
        parts: Vec::new(),
    })
    .await;
}

/// A new fan saying the one before it sent more than B got: B missed the
/// old one's last message.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_fan_before_short_of_its_count_resyncs_the_nodes_spectators() {
    a_lost_fan_message_is_resynced("fanprev", |table, fan, n| Body::Fan {
        table: table.clone(),
        fan: fan ^ 1,
        n: 0,
        prev: Some((fan, n + 2)),
        parts: Vec::new(),
    })
    .await;
}

/// A mark naming more messages than B got: B missed the last one.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_mark_ahead_of_the_fan_resyncs_the_nodes_spectators() {
    a_lost_fan_message_is_resynced("fanmark", |table, fan, n| Body::FanMark {
        table: table.clone(),
        fan,
        n: n + 2,
        to: Vec::new(),
    })
    .await;
}

/// A spectator's `watch` at another node is answered in a fan message,
/// not through a relay: that is its node's answer too, so a quiet spell
/// longer than the wait for an answer (the lease term, 3 s at least) does
/// not close the spectator for an unanswered request.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_spectator_at_another_node_outlasts_the_wait_for_an_answer() {
    let redis = RedisServer::start();
    let dirs = [DataDir::new("node-a"), DataDir::new("node-b")];
    let a = node(&redis, &dirs[0], "quiet", "node-a");
    let b = node(&redis, &dirs[1], "quiet", "node-b");
    let mut g = new_game(&a.url(), 0).await;
    assert!(!g.play_next().await);
    let mut on_b = spectators(&b.url(), &g.table, "bea", 3, false).await;
    // Past the wait (3 s) and the tick that checks it (lease / 3).
    tokio::time::sleep(Duration::from_secs(5)).await;
    assert!(!g.play_next().await);
    for s in on_b.iter_mut() {
        assert_eq!(seqs_until(s, g.seq).await, (1..=g.seq).collect::<Vec<_>>());
    }
    stop([a, b]);
}
