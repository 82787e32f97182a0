//! Sustained append rate and restore time of the embedded store, with
//! fsync durability (every append is answered after its group's commit),
//! or of the Redis store with `--redis URL` (durable as that Redis's
//! `appendfsync` makes it; the keys go under a fresh prefix `bench-…`,
//! left behind: use a scratch Redis).
//!
//! ```text
//! cargo run --release -p tengen-store --example append_rate -- \
//!     [--tables 2000] [--seconds 10] [--game-len 0] [--restore-tables 5000] \
//!     [--restore-entries 60] [--dir PATH] [--redis URL] [--wait-replicas N]
//! ```
//!
//! `--redis` takes the store's URLs, `redis+cluster://` and
//! `redis+sentinel://` too; `--wait-replicas N` sets how many replicas
//! every acknowledged write waits for (`WAIT`; by default 1 on a cluster
//! or behind Sentinel, 0 on one node), to measure what that costs.
//!
//! Phase 1: `--tables` live tables, each a tokio task appending one
//! ~120-byte entry at a time and awaiting it, for `--seconds`; prints the
//! accepted appends per second, the mean group-commit size and the append
//! latency percentiles. With `--game-len N`, a table's game ends after N
//! entries (`finish_game` with the log as its record, then a new table),
//! so the live logs stay the size of real games; without it, every log
//! grows for the whole run. Phase 2: `--restore-tables` tables of
//! `--restore-entries` entries each are written, the store is closed and
//! reopened, and the open and `live_tables()` are timed (the page cache is
//! warm); then the same after a crash (a child process writes the tables
//! and exits without closing the store, so the open repairs the file).
//! The data lives in a temporary directory unless `--dir` is given
//! (on the disk to measure). With `--redis`, phase 2 times `live_tables()`
//! on a new connection (there is no file to reopen or repair).

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use tengen_store::{EmbeddedStore, FinishedGame, RedisOptions, RedisStore, Store};

#[path = "common/flags.rs"]
mod flags;
#[path = "common/prefix.rs"]
mod prefix;

struct Args {
    tables: usize,
    seconds: f64,
    restore_tables: usize,
    restore_entries: usize,
    game_len: u64,
    dir: Option<PathBuf>,
    redis: Option<String>,
}

fn args() -> Args {
    let mut args = Args {
        tables: 2000,
        seconds: 10.0,
        restore_tables: 5000,
        restore_entries: 60,
        game_len: 0,
        dir: None,
        redis: None,
    };
    for flag in flags::parse() {
        let number = || flag.number::<f64>();
        match flag.name.as_str() {
            "--tables" => args.tables = number() as usize,
            "--seconds" => args.seconds = number(),
            "--restore-tables" => args.restore_tables = number() as usize,
            "--restore-entries" => args.restore_entries = number() as usize,
            "--game-len" => args.game_len = number() as u64,
            "--dir" => args.dir = Some(PathBuf::from(&flag.value)),
            "--redis" => args.redis = Some(flag.value),
            "--wait-replicas" => {
                let _ = WAIT_REPLICAS.set(number() as u32);
            }
            _ => flag.unknown(),
        }
    }
    args
}

/// `--wait-replicas`, when given.
static WAIT_REPLICAS: std::sync::OnceLock<u32> = std::sync::OnceLock::new();

/// A log entry like the server's, about 120 bytes.
fn entry(table: usize, seq: u64) -> Vec<u8> {
    let e = format!(
        r#"{{"seq":{seq},"table":"t{table:05}","by":"player-{table}","action":{{"place":{{"x":{},"y":{}}}}},"clock_ms":[291234,287765]}}"#,
        seq % 15,
        (seq / 15) % 15
    );
    e.into_bytes()
}

fn percentile(sorted: &[u32], p: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let i = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    f64::from(sorted[i]) / 1000.0
}

/// The store under test: the embedded store in `dir`, or Redis under a
/// fresh prefix. The embedded one is also returned for its commit counts.
async fn open(dir: &Path, redis: Option<&str>) -> (Arc<dyn Store>, Option<Arc<EmbeddedStore>>) {
    match redis {
        Some(url) => {
            let prefix = prefix::fresh("bench");
            let store = RedisStore::connect(
                url,
                RedisOptions {
                    prefix,
                    wait_replicas: WAIT_REPLICAS.get().copied(),
                    ..RedisOptions::default()
                },
            )
            .await
            .expect("connect to Redis");
            if let Ok(p) = store.persistence().await {
                println!("{}: {p}", store.describe());
            }
            (Arc::new(store), None)
        }
        None => {
            let store = Arc::new(EmbeddedStore::open(dir).expect("open"));
            (store.clone(), Some(store))
        }
    }
}

async fn append_rate(dir: &Path, tables: usize, seconds: f64, game_len: u64, redis: Option<&str>) {
    let (store, embedded) = open(dir, redis).await;
    let stats = || {
        embedded
            .as_ref()
            .map(|e| e.write_stats())
            .unwrap_or_default()
    };
    let mut creates = Vec::new();
    for t in 0..tables {
        let store = store.clone();
        creates.push(tokio::spawn(async move {
            store
                .create_table(&format!("t{t:05}-0"), b"{}")
                .await
                .expect("create");
        }));
    }
    for c in creates {
        c.await.unwrap();
    }
    let appended = Arc::new(AtomicU64::new(0));
    let before = stats();
    let start = Instant::now();
    let deadline = start + Duration::from_secs_f64(seconds);
    let mut tasks = Vec::new();
    for t in 0..tables {
        let store = store.clone();
        let appended = appended.clone();
        tasks.push(tokio::spawn(async move {
            let mut id = format!("t{t:05}-0");
            let mut latencies_us = Vec::new();
            let mut finished = 0;
            let mut at = 0;
            while Instant::now() < deadline {
                if at == game_len {
                    // The game ends: its record replaces its log, and the
                    // table starts another.
                    let game = FinishedGame {
                        id: id.clone(),
                        players: vec![format!("player-{t}a"), format!("player-{t}b")],
                        finished_ms: 1_700_000_000_000 + finished,
                        record: (0..at).flat_map(|i| entry(t, i)).collect(),
                        ratings: vec![],
                    };
                    store.finish_game(&game).await.expect("finish");
                    finished += 1;
                    id = format!("t{t:05}-{finished}");
                    store.create_table(&id, b"{}").await.expect("create");
                    at = 0;
                }
                let e = entry(t, at);
                let sent = Instant::now();
                store.append(&id, at, &[e]).await.expect("append");
                latencies_us.push(sent.elapsed().as_micros() as u32);
                appended.fetch_add(1, Ordering::Relaxed);
                at += 1;
            }
            (latencies_us, finished)
        }));
    }
    // The rate every 5 s, to show whether it holds as the data grows.
    let monitor = {
        let appended = appended.clone();
        let embedded = embedded.clone();
        tokio::spawn(async move {
            let mut last = (
                appended.load(Ordering::Relaxed),
                embedded
                    .as_ref()
                    .map(|e| e.write_stats())
                    .unwrap_or_default(),
            );
            let mut tick = tokio::time::interval(Duration::from_secs(5));
            tick.tick().await;
            loop {
                tick.tick().await;
                let now = (
                    appended.load(Ordering::Relaxed),
                    embedded
                        .as_ref()
                        .map(|e| e.write_stats())
                        .unwrap_or_default(),
                );
                let group = match embedded {
                    Some(_) => format!(
                        ", mean group {:.0}",
                        (now.1.requests - last.1.requests) as f64
                            / (now.1.batches - last.1.batches).max(1) as f64
                    ),
                    None => String::new(),
                };
                println!(
                    "  {:>4.0} s: {:.0} appends/s{group}",
                    start.elapsed().as_secs_f64(),
                    (now.0 - last.0) as f64 / 5.0,
                );
                last = now;
            }
        })
    };
    let mut latencies = Vec::new();
    let mut games = 0;
    for task in tasks {
        let (mine, finished) = task.await.unwrap();
        latencies.extend(mine);
        games += finished;
    }
    let elapsed = start.elapsed().as_secs_f64();
    monitor.abort();
    let after = stats();
    latencies.sort_unstable();
    let commits = match embedded {
        Some(_) => {
            let batches = after.batches - before.batches;
            let requests = after.requests - before.requests;
            format!(
                "{batches} commits, mean group {:.1} writes; ",
                requests as f64 / batches.max(1) as f64
            )
        }
        None => String::new(),
    };
    println!(
        "append: {tables} tables, {elapsed:.1} s: {} appends, {:.0} appends/s ({games} games finished); {commits}append latency p50 {:.2} ms, p99 {:.2} ms, max {:.2} ms",
        latencies.len(),
        latencies.len() as f64 / elapsed,
        percentile(&latencies, 0.50),
        percentile(&latencies, 0.99),
        percentile(&latencies, 1.0),
    );
    if embedded.is_some() {
        let size = |name: &str| std::fs::metadata(dir.join(name)).map_or(0, |m| m.len());
        println!(
            "files after the run: database {:.1} MB, journal {:.1} MB",
            size(tengen_store::embedded::DB_FILE) as f64 / 1e6,
            size(tengen_store::embedded::JOURNAL_FILE) as f64 / 1e6,
        );
    }
}

/// Writes `tables` tables of `entries` entries each into the store in `dir`.
async fn fill(store: Arc<dyn Store>, tables: usize, entries: usize) -> Arc<dyn Store> {
    let start = Instant::now();
    let mut tasks = Vec::new();
    for t in 0..tables {
        let store = store.clone();
        tasks.push(tokio::spawn(async move {
            let id = format!("t{t:05}");
            let meta = br#"{"rules":"renju","clock":[600000,5000]}"#;
            store.create_table(&id, meta).await.expect("create");
            let log: Vec<_> = (0..entries as u64).map(|i| entry(t, i)).collect();
            for (at, chunk) in (0..).step_by(10).zip(log.chunks(10)) {
                store.append(&id, at, chunk).await.expect("append");
            }
        }));
    }
    for task in tasks {
        task.await.unwrap();
    }
    println!(
        "restore: wrote {tables} tables x {entries} entries in {:.1} s",
        start.elapsed().as_secs_f64()
    );
    store
}

/// Times `live_tables()` and checks that it gives back the `tables`
/// tables of `entries` entries written: the tables and entries it gave,
/// and the time it took.
async fn live_tables(
    store: &impl Store,
    tables: usize,
    entries: usize,
) -> (usize, usize, Duration) {
    let start = Instant::now();
    let live = store.live_tables().await.expect("live_tables");
    let read = start.elapsed();
    let total: usize = live.iter().map(|t| t.entries.len()).sum();
    assert_eq!(live.len(), tables, "tables restored");
    assert_eq!(total, tables * entries, "entries restored");
    (live.len(), total, read)
}

/// Reopens the store in `dir` and times the open and `live_tables()`.
async fn reopen(dir: &Path, tables: usize, entries: usize, how: &str) {
    let size = std::fs::metadata(dir.join(tengen_store::embedded::DB_FILE))
        .map(|m| m.len())
        .unwrap_or(0);
    let start = Instant::now();
    let store = EmbeddedStore::open(dir).expect("reopen");
    let opened = start.elapsed();
    let (live, total, read) = live_tables(&store, tables, entries).await;
    println!(
        "restore after {how}: file {:.1} MiB; open {:.1} ms; live_tables() {} tables, {total} entries in {:.1} ms",
        size as f64 / (1 << 20) as f64,
        opened.as_secs_f64() * 1000.0,
        live,
        read.as_secs_f64() * 1000.0
    );
}

/// Redis: fills a prefix and times `live_tables()` on a new connection.
async fn restore_redis(url: &str, tables: usize, entries: usize) {
    let (store, _) = open(Path::new(""), Some(url)).await;
    let prefix = store.describe();
    let prefix = prefix
        .rsplit("prefix ")
        .next()
        .unwrap_or_default()
        .to_owned();
    drop(fill(store, tables, entries).await);
    let start = Instant::now();
    let store = RedisStore::connect(
        url,
        RedisOptions {
            prefix,
            ..RedisOptions::default()
        },
    )
    .await
    .expect("reconnect");
    let opened = start.elapsed();
    let (live, total, read) = live_tables(&store, tables, entries).await;
    println!(
        "restore from Redis: connect {:.1} ms; live_tables() {} tables, {total} entries in {:.1} ms",
        opened.as_secs_f64() * 1000.0,
        live,
        read.as_secs_f64() * 1000.0
    );
}

async fn restore(dir: &Path, tables: usize, entries: usize) {
    let embedded = Arc::new(EmbeddedStore::open(&dir.join("clean")).expect("open"));
    drop(fill(embedded, tables, entries).await);
    reopen(&dir.join("clean"), tables, entries, "a clean close").await;

    // The same after a crash: a child process fills a store and exits
    // without closing it, so the open has to repair the file.
    let crashed = dir.join("crashed");
    let status = std::process::Command::new(std::env::current_exe().unwrap())
        .args(["--restore-tables", &tables.to_string()])
        .args(["--restore-entries", &entries.to_string()])
        .env(CRASH_DIR, &crashed)
        .status()
        .expect("the filling child");
    assert!(status.success(), "the filling child failed");
    reopen(&crashed, tables, entries, "a crash").await;
}

/// Set in the child that fills a store and exits without closing it.
const CRASH_DIR: &str = "APPEND_RATE_CRASH_DIR";

#[tokio::main]
async fn main() {
    let args = args();
    if let Ok(dir) = std::env::var(CRASH_DIR) {
        let embedded = Arc::new(EmbeddedStore::open(Path::new(&dir)).expect("open"));
        let store = fill(embedded, args.restore_tables, args.restore_entries).await;
        std::mem::forget(store);
        std::process::exit(0);
    }
    let temp = tempfile::tempdir_in(args.dir.as_deref().unwrap_or(&std::env::temp_dir()))
        .expect("a temporary directory");
    if args.tables > 0 {
        let game_len = if args.game_len == 0 {
            u64::MAX
        } else {
            args.game_len
        };
        append_rate(
            &temp.path().join("append"),
            args.tables,
            args.seconds,
            game_len,
            args.redis.as_deref(),
        )
        .await;
    }
    if args.restore_tables > 0
        && let Some(url) = &args.redis
    {
        restore_redis(url, args.restore_tables, args.restore_entries).await;
    } else if args.restore_tables > 0 {
        restore(
            &temp.path().join("restore"),
            args.restore_tables,
            args.restore_entries,
        )
        .await;
    }
}
