//! What a client receives, message by message, while a game's node fails
//! or the shared Redis does: two `tengen-server` processes (nodes A and B,
//! leases of 2 s) on one real `redis-server`, a game played on A, players
//! and spectators reconnecting through B, and new spectators arriving at
//! B every 50 ms throughout.
//!
//! The promises (protocol/README.md, "Reconnecting"): a resume or `watch`
//! that reaches a node while the table moves is answered `unavailable`
//! with `retry_after_ms`, never `not_found` while the table is live; every
//! `welcome` that resumes a seated session lists its tables; an outage of
//! Redis alone never moves a game; and a game that was over when its node
//! died never comes back (its record is stored).

use crate::common;

use std::time::{Duration, Instant};

use common::proc::{self, DataDir, Proc};
use common::redis::store;
use common::scripted::{Game, new_game, ply};
use tengen_client::{ClientError, Connection};
use tengen_protocol::{ClientMsg, Encoding, ErrorCode, PauseReason, ServerMsg, TableId, Welcome};
use tengen_rules::game::Action;
use tengen_store::testing::RedisServer;
use tengen_store::{RedisStore, Store};
use tokio::task::JoinHandle;

const LEASE: &str = "2";

/// One scenario at a time: each runs two nodes and a Redis, and on a
/// loaded machine four such clusters at once starve each other's lease
/// renewals.
static ONE_AT_A_TIME: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());

struct Cluster {
    _turn: tokio::sync::MutexGuard<'static, ()>,
    redis: RedisServer,
    a: Proc,
    b: Proc,
    check: RedisStore,
    _dirs: [DataDir; 2],
}

impl Drop for Cluster {
    fn drop(&mut self) {
        for p in [&mut self.a, &mut self.b] {
            let _ = p.child.kill();
            let _ = p.child.wait();
        }
    }
}

async fn cluster(prefix: &str) -> Cluster {
    let turn = ONE_AT_A_TIME.lock().await;
    let redis = RedisServer::start();
    let dirs = [DataDir::new("fo-a"), DataDir::new("fo-b")];
    let start =
        |dir: &DataDir, name: &str| proc::start_node(&dir.0, &redis.url(), prefix, name, LEASE);
    let a = start(&dirs[0], "node-a");
    let b = start(&dirs[1], "node-b");
    let check = store(&redis, prefix).await;
    Cluster {
        _turn: turn,
        redis,
        a,
        b,
        check,
        _dirs: dirs,
    }
}

/// How a table request was answered.
#[derive(Debug, PartialEq)]
enum Answer {
    Snapshot(u64),
    Replayed(u64),
    /// `unavailable` with `retry_after_ms`.
    Retry(u64),
    /// `unavailable` without `retry_after_ms` (a broken promise).
    UnavailableBare,
    NotFound,
    /// The connection was closed with this code before the reply.
    Closed(u16),
    Other(String),
}

async fn watch(c: &mut Connection, table: &TableId, since: Option<u64>) -> Answer {
    let msg = ClientMsg::Watch {
        table: table.clone(),
        since,
    };
    match c.request(msg).await {
        Ok(ServerMsg::TableSnapshot(s)) => Answer::Snapshot(s.seq),
        Ok(ServerMsg::Replayed { seq, .. }) => Answer::Replayed(seq),
        Err(ClientError::Refused(e)) => match (e.code, e.retry_after_ms) {
            (ErrorCode::Unavailable, Some(ms)) => Answer::Retry(ms),
            (ErrorCode::Unavailable, None) => Answer::UnavailableBare,
            (ErrorCode::NotFound, _) => Answer::NotFound,
            (code, _) => Answer::Other(code.as_str().to_string()),
        },
        Err(ClientError::Closed { code, .. }) => Answer::Closed(code),
        other => Answer::Other(format!("{other:?}")),
    }
}

/// `watch` with `since` on `c` until it is answered other than
/// `unavailable` (each `unavailable` must say when to try again, and is
/// waited out); the answers in order.
async fn watch_until_back(c: &mut Connection, table: &TableId, since: u64) -> Vec<Answer> {
    let t0 = Instant::now();
    let mut answers = Vec::new();
    loop {
        let a = watch(c, table, Some(since)).await;
        let Answer::Retry(ms) = a else {
            answers.push(a);
            return answers;
        };
        answers.push(a);
        assert!(t0.elapsed() < Duration::from_secs(30), "{answers:?}");
        tokio::time::sleep(Duration::from_millis(ms)).await;
    }
}

/// A fresh spectator at `url` watching `table` from `since` until it is
/// back: the answers.
async fn spectator_returns(url: &str, table: &TableId, since: u64) -> Vec<Answer> {
    let (mut c, _) = Connection::connect(url, Encoding::Json, Some("late"))
        .await
        .unwrap();
    watch_until_back(&mut c, table, since).await
}

/// Resumes `token` at `url`, again after each `unavailable` (which must
/// carry `retry_after_ms`): the refusals' retry times, and the welcome.
async fn resume(url: &str, name: &str, token: &str) -> (Vec<u64>, Connection, Welcome) {
    let t0 = Instant::now();
    let mut refused = Vec::new();
    loop {
        match Connection::connect_resuming(url, Encoding::Json, Some(name), Some(token)).await {
            Ok((c, w)) => return (refused, c, w),
            Err(ClientError::Refused(e)) if e.code == ErrorCode::Unavailable => {
                let ms = e
                    .retry_after_ms
                    .unwrap_or_else(|| panic!("unavailable without retry_after_ms: {e:?}"));
                refused.push(ms);
                assert!(t0.elapsed() < Duration::from_secs(30), "{refused:?}");
                tokio::time::sleep(Duration::from_millis(ms)).await;
            }
            Err(e) => panic!("resume at {url}: {e:?}"),
        }
    }
}

/// Player `k` of `g` resumes at `url` (after any `unavailable`): the
/// welcome has `resumed` and lists the table, and `watch` with `since`
/// (after any `unavailable`) is `replayed` at the player's last seq.
async fn back_at(g: &mut Game, k: usize, url: &str) {
    let (refused, mut conn, w) = resume(url, &g.name[k], &g.token[k]).await;
    assert!(w.resumed, "{w:?}");
    assert_eq!(w.tables, vec![g.table.clone()], "{w:?} after {refused:?}");
    let back = watch_until_back(&mut conn, &g.table, g.seq).await;
    assert_eq!(back.last(), Some(&Answer::Replayed(g.seq)), "{back:?}");
    g.conn[k] = conn;
}

/// New spectators arriving at a node every 50 ms, each watching the table
/// once (and leaving).
struct Arrivals {
    started: Instant,
    stop: tokio::sync::watch::Sender<bool>,
    task: JoinHandle<Vec<Answer>>,
}

fn arrivals(url: String, table: TableId) -> Arrivals {
    let (stop, mut stopped) = tokio::sync::watch::channel(false);
    let task = tokio::spawn(async move {
        let mut each = Vec::new();
        let mut tick = tokio::time::interval(Duration::from_millis(50));
        loop {
            tokio::select! {
                _ = tick.tick() => {}
                _ = stopped.wait_for(|s| *s) => break,
            }
            let (url, table) = (url.clone(), table.clone());
            each.push(tokio::spawn(async move {
                match Connection::connect(&url, Encoding::Json, Some("tv")).await {
                    Ok((mut c, _)) => watch(&mut c, &table, None).await,
                    Err(e) => Answer::Other(format!("connect: {e:?}")),
                }
            }));
        }
        let mut answers = Vec::new();
        for a in each {
            answers.push(a.await.unwrap());
        }
        answers
    });
    Arrivals {
        started: Instant::now(),
        stop,
        task,
    }
}

impl Arrivals {
    /// Stops the arrivals after a game that was over when its node died:
    /// every spectator is told to retry while the table moves (or, reaching
    /// a node just before it died, closed with 1012), then `not_found` once
    /// the game is stored and the table gone; never a bare `unavailable`,
    /// a snapshot of a table that cannot come back, or silence.
    async fn check_over(self) {
        tokio::time::sleep_until((self.started + Duration::from_secs(2)).into()).await;
        let _ = self.stop.send(true);
        let answers = self.task.await.unwrap();
        for a in &answers {
            match a {
                Answer::Retry(_) | Answer::NotFound | Answer::Closed(1012) => {}
                other => panic!("a spectator arriving got {other:?}; all: {answers:?}"),
            }
        }
        assert!(answers.len() >= 20, "{answers:?}");
        assert!(answers.contains(&Answer::NotFound), "{answers:?}");
    }

    /// Stops the arrivals and checks every answer: the table's snapshot,
    /// or `unavailable` with a time to try again (or, for a watch that
    /// reached a node just before it died, 1012: reconnect). Never
    /// `not_found`: the table was live throughout.
    async fn check(self) -> (usize, usize) {
        // At least two seconds of them, however fast the game came back.
        tokio::time::sleep_until((self.started + Duration::from_secs(2)).into()).await;
        let _ = self.stop.send(true);
        let answers = self.task.await.unwrap();
        let (mut seen, mut retry) = (0, 0);
        for a in &answers {
            match a {
                Answer::Snapshot(_) => seen += 1,
                Answer::Retry(_) => retry += 1,
                Answer::Closed(1012) => {}
                other => panic!("a spectator arriving got {other:?}; all: {answers:?}"),
            }
        }
        eprintln!(
            "{} arrivals: {seen} snapshots, {retry} told to retry",
            answers.len()
        );
        assert!(answers.len() >= 20, "{answers:?}");
        (seen, retry)
    }
}

/// A game on node A, `plies` played, with a spectator at node B.
async fn game_on_a(c: &Cluster, plies: usize) -> (Game, Connection) {
    let mut g = new_game(&c.a.url(), 0).await;
    for _ in 0..plies {
        assert!(!g.play_next().await);
    }
    let (mut spec, _) = Connection::connect(&c.b.url(), Encoding::Json, Some("carol"))
        .await
        .unwrap();
    assert_eq!(
        watch(&mut spec, &g.table, None).await,
        Answer::Snapshot(g.seq)
    );
    (g, spec)
}

/// Reads `c` until the server closes it; the close code (1006: the
/// connection ended without a close frame).
async fn closed_with(c: &mut Connection) -> u16 {
    loop {
        match c.next().await {
            Ok(_) => continue,
            Err(ClientError::Closed { code, .. }) => return code,
            Err(ClientError::Ws(_)) => return 1006,
            Err(e) => panic!("{e:?}"),
        }
    }
}

/// The next ply of the script, tried again while the table answers
/// `unavailable` (its store was down).
async fn play_on(g: &mut Game) {
    let (black, point) = ply(g.played);
    let seat = g.seat_for(black).index();
    let t0 = Instant::now();
    loop {
        let act = ClientMsg::Act {
            table: g.table.clone(),
            action: Action::place(point.parse().unwrap()),
        };
        match g.conn[seat].request(act).await {
            Ok(ServerMsg::Acted { seq, .. }) => {
                g.played += 1;
                g.seq = seq;
                return;
            }
            Err(ClientError::Refused(e)) if e.code == ErrorCode::Unavailable => {
                assert!(t0.elapsed() < Duration::from_secs(20), "{e:?}");
                tokio::time::sleep(Duration::from_millis(200)).await;
            }
            other => panic!("{point}: {other:?}"),
        }
    }
}

/// The node holding `table`'s lease (the test's own connection to Redis
/// may need a moment after a restart).
async fn lease_holder(c: &Cluster, table: &TableId) -> Option<String> {
    let t0 = Instant::now();
    loop {
        match c.check.lease(table.as_str()).await {
            Ok(lease) => return lease.map(|l| l.node),
            Err(e) => assert!(t0.elapsed() < Duration::from_secs(5), "{e}"),
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// Node A is killed (SIGKILL) mid-game. The players' connections to A
/// end (1006). Both resume at node B at once: refused with `unavailable`
/// and `retry_after_ms` until B has taken the game over, then welcomed
/// with `resumed` and the table listed; their `watch` with `since` is
/// `replayed` at their last seq, and they play on. The spectator routed
/// through B is closed with 1012 and comes back with `since`
/// (`unavailable` meanwhile, never `not_found`).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn owner_killed() {
    owner_fails("fo-kill", "-KILL", 1006).await;
}

/// Node A is stopped (SIGTERM) mid-game: the same, but A closes its
/// players' connections with 1012 and gives its game up at once.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn owner_stopped() {
    owner_fails("fo-term", "-TERM", 1012).await;
}

async fn owner_fails(prefix: &str, signal: &str, players_closed: u16) {
    let c = cluster(prefix).await;
    let (mut g, mut spec) = game_on_a(&c, 4).await;
    let tv = arrivals(c.b.url(), g.table.clone());
    proc::signal(&c.a.child, signal);
    let t0 = Instant::now();
    for k in 0..2 {
        assert_eq!(closed_with(&mut g.conn[k]).await, players_closed);
        let (refused, mut conn, w) = resume(&c.b.url(), &g.name[k], &g.token[k]).await;
        if k == 0 && signal == "-KILL" {
            assert!(
                !refused.is_empty(),
                "a resume right after the kill is refused"
            );
        }
        assert!(w.resumed, "{w:?}");
        assert_eq!(w.tables, vec![g.table.clone()], "{w:?}");
        assert_eq!(
            watch(&mut conn, &g.table, Some(g.seq)).await,
            Answer::Replayed(g.seq)
        );
        if k == 0 {
            // Alone back: the clocks stand still until the other comes.
            let f = conn
                .next_matching(|m| matches!(m, ServerMsg::TablePaused { .. }))
                .await
                .unwrap();
            let ServerMsg::TablePaused { paused, .. } = f.msg else {
                unreachable!()
            };
            assert_eq!(paused, Some(PauseReason::Restored));
        }
        g.conn[k] = conn;
    }
    eprintln!("both players back at B {:?} after {signal}", t0.elapsed());
    assert_eq!(closed_with(&mut spec).await, 1012);
    let back = spectator_returns(&c.b.url(), &g.table, g.seq).await;
    assert_eq!(back.last(), Some(&Answer::Replayed(g.seq)), "{back:?}");
    play_on(&mut g).await;
    tv.check().await;
    assert_eq!(lease_holder(&c, &g.table).await.as_deref(), Some("node-b"));
}

/// Node A is frozen (SIGSTOP) longer than the lease: B takes the game
/// over. When A wakes it finds its lease gone and closes its players with
/// 1012; they resume at A, which welcomes them with the table listed
/// (its commands now go to B), and `watch` with `since` is `replayed`.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn owner_loses_its_table() {
    let c = cluster("fo-lost").await;
    let (mut g, _spec) = game_on_a(&c, 4).await;
    proc::signal(&c.a.child, "-STOP");
    let t0 = Instant::now();
    while lease_holder(&c, &g.table).await.as_deref() != Some("node-b") {
        assert!(t0.elapsed() < Duration::from_secs(10), "B never took it");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    proc::signal(&c.a.child, "-CONT");
    for k in 0..2 {
        assert_eq!(closed_with(&mut g.conn[k]).await, 1012);
        back_at(&mut g, k, &c.a.url()).await;
    }
    play_on(&mut g).await;
    assert_eq!(lease_holder(&c, &g.table).await.as_deref(), Some("node-b"));
}

/// Redis restarts (down 1.5 s). The players at node A stay connected and
/// play on (their actions `unavailable` while Redis is down); the game
/// stays on A. The spectator routed through B is closed with 1012 (B's
/// bus lost its subscriptions) and comes back with `since`; spectators
/// arriving at B get the snapshot or `unavailable`, never `not_found`.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn redis_restarts() {
    redis_outage("fo-bounce", Duration::from_millis(1500)).await;
}

/// Redis is down 6 s, three lease terms: every lease lapses, yet the game
/// stays on node A (B waits a grace beyond the lease before taking a
/// table, so A takes its lease back first). A player resuming at A or at
/// B is welcomed with the table listed, and plays on.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn redis_down_longer_than_the_lease() {
    let (c, mut g) = redis_outage("fo-down", Duration::from_secs(6)).await;
    // A player drops and resumes at A, the other at B.
    for (k, node) in [(0, &c.a), (1, &c.b)] {
        back_at(&mut g, k, &node.url()).await;
    }
    play_on(&mut g).await;
    assert_eq!(lease_holder(&c, &g.table).await.as_deref(), Some("node-a"));
}

async fn redis_outage(prefix: &str, down: Duration) -> (Cluster, Game) {
    let mut c = cluster(prefix).await;
    let (mut g, mut spec) = game_on_a(&c, 4).await;
    let tv = arrivals(c.b.url(), g.table.clone());
    c.redis.kill();
    tokio::time::sleep(down).await;
    c.redis.restart();
    let restarted = Instant::now();
    assert_eq!(closed_with(&mut spec).await, 1012);
    let back = spectator_returns(&c.b.url(), &g.table, g.seq).await;
    assert_eq!(back.last(), Some(&Answer::Replayed(g.seq)), "{back:?}");
    // The players never left A: they play on there.
    play_on(&mut g).await;
    // Longer than B's grace (lease 2 s + store timeout 3 s): the game
    // never moved.
    while restarted.elapsed() < Duration::from_secs(7) {
        assert_eq!(lease_holder(&c, &g.table).await.as_deref(), Some("node-a"));
        tokio::time::sleep(Duration::from_millis(250)).await;
    }
    tv.check().await;
    play_on(&mut g).await;
    (c, g)
}

/// Node A is killed right after a game's last move (before or after it
/// stored the finished game: `wait_for_record`). Either way the finished
/// table never comes back: the players' resumes at B are `unavailable`
/// until A's lease lapses, then open fresh sessions (no `resumed`, no
/// tables), the table is `not_found`, and the record is stored; spectators
/// arriving at B every 50 ms meanwhile are told the same.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn finished_game_then_killed() {
    for wait_for_record in [false, true] {
        let c = cluster(&format!("fo-over-{wait_for_record}")).await;
        let mut g = new_game(&c.a.url(), 0).await;
        while !g.play_next().await {}
        if wait_for_record {
            let t0 = Instant::now();
            while c.check.game(g.table.as_str()).await.unwrap().is_none() {
                assert!(t0.elapsed() < Duration::from_secs(5));
                tokio::time::sleep(Duration::from_millis(20)).await;
            }
        }
        proc::signal(&c.a.child, "-KILL");
        let tv = arrivals(c.b.url(), g.table.clone());
        for k in 0..2 {
            let (_, mut conn, w) = resume(&c.b.url(), &g.name[k], &g.token[k]).await;
            assert!(!w.resumed, "{w:?}");
            assert!(w.tables.is_empty(), "{w:?}");
            // `unavailable` while the taking node stores the record, then
            // gone.
            let answers = watch_until_back(&mut conn, &g.table, g.seq).await;
            assert_eq!(answers.last(), Some(&Answer::NotFound), "{answers:?}");
        }
        let t0 = Instant::now();
        while c.check.game(g.table.as_str()).await.unwrap().is_none() {
            assert!(t0.elapsed() < Duration::from_secs(10), "no record");
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        assert!(
            c.check
                .live_table(g.table.as_str())
                .await
                .unwrap()
                .is_none()
        );
        tv.check_over().await;
    }
}
