//! What an online backup costs the moves: the embedded store's append
//! latency with no backup, then while backups are taken back to back.
//!
//! ```text
//! cargo run --release -p tengen-store --example backup_pause -- \
//!     [--games 5000] [--record-kib 20] [--tables 400] [--every-ms 200] \
//!     [--seconds 10] [--dir PATH]
//! ```
//!
//! The store first holds `--games` finished games of `--record-kib` each
//! (the bulk a backup copies). Then `--tables` live tables each append one
//! move-sized entry every `--every-ms` (awaiting each, as a table does),
//! for `--seconds` without a backup and `--seconds` with backups one after
//! another into `DIR/backups` (the same disk, the usual case). Prints the
//! append latency's p50 / p99 / max for both phases and each backup's
//! time. The data lives in `--dir` (on the disk to measure; a temporary
//! directory by default) and is removed at the end.

use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use tengen_store::{EmbeddedStore, FinishedGame, Store};

#[path = "common/flags.rs"]
mod flags;

struct Args {
    games: usize,
    record_kib: usize,
    tables: usize,
    every_ms: u64,
    seconds: f64,
    dir: Option<PathBuf>,
}

fn args() -> Args {
    let mut args = Args {
        games: 5000,
        record_kib: 20,
        tables: 400,
        every_ms: 200,
        seconds: 10.0,
        dir: None,
    };
    for flag in flags::parse() {
        let number = || flag.number::<f64>();
        match flag.name.as_str() {
            "--games" => args.games = number() as usize,
            "--record-kib" => args.record_kib = number() as usize,
            "--tables" => args.tables = number() as usize,
            "--every-ms" => args.every_ms = number() as u64,
            "--seconds" => args.seconds = number(),
            "--dir" => args.dir = Some(PathBuf::from(&flag.value)),
            _ => flag.unknown(),
        }
    }
    args
}

/// Appends paced like moves, for `seconds`: every append's latency (µs).
async fn appends(
    store: Arc<EmbeddedStore>,
    tables: usize,
    every: Duration,
    seconds: f64,
    round: usize,
) -> Vec<u32> {
    let deadline = Instant::now() + Duration::from_secs_f64(seconds);
    let mut tasks = Vec::new();
    for t in 0..tables {
        let store = store.clone();
        tasks.push(tokio::spawn(async move {
            let id = format!("r{round}-t{t:05}");
            store.create_table(&id, b"{}").await.expect("create");
            // Spread the tables over the period.
            tokio::time::sleep(every * t as u32 / tables as u32).await;
            let mut tick = tokio::time::interval(every);
            let mut out = Vec::new();
            let mut at = 0;
            while Instant::now() < deadline {
                tick.tick().await;
                let e = format!(r#"{{"seq":{at},"action":{{"place":{{"x":7,"y":7}}}},"clock_ms":[291234,287765]}}"#);
                let sent = Instant::now();
                store.append(&id, at, &[e.into_bytes()]).await.expect("append");
                out.push(sent.elapsed().as_micros() as u32);
                at += 1;
            }
            store.discard_table(&id).await.expect("discard");
            out
        }));
    }
    let mut all = Vec::new();
    for t in tasks {
        all.extend(t.await.unwrap());
    }
    all.sort_unstable();
    all
}

fn report(what: &str, sorted: &[u32]) {
    let at =
        |p: f64| f64::from(sorted[((sorted.len() as f64 - 1.0) * p).round() as usize]) / 1000.0;
    println!(
        "{what}: {} appends, p50 {:.2} ms, p99 {:.2} ms, p99.9 {:.2} ms, max {:.2} ms",
        sorted.len(),
        at(0.5),
        at(0.99),
        at(0.999),
        at(1.0)
    );
}

#[tokio::main]
async fn main() {
    let a = args();
    let tmp = tempfile::tempdir_in(a.dir.clone().unwrap_or_else(std::env::temp_dir))
        .expect("temporary directory");
    let store = Arc::new(EmbeddedStore::open(&tmp.path().join("data")).expect("open"));
    for i in 0..a.games {
        let game = FinishedGame {
            id: format!("g{i:07}"),
            players: vec![format!("a{}", i % 97), format!("b{}", i % 89)],
            finished_ms: 1_700_000_000_000 + i as u64,
            record: vec![(i % 251) as u8; a.record_kib << 10],
            ratings: Vec::new(),
        };
        store.finish_game(&game).await.expect("finish");
    }
    println!("{} finished games of {} KiB stored", a.games, a.record_kib);
    let every = Duration::from_millis(a.every_ms);

    report(
        "without backups",
        &appends(store.clone(), a.tables, every, a.seconds, 0).await,
    );

    let backups = tmp.path().join("backups");
    std::fs::create_dir(&backups).expect("backups directory");
    let stop = Arc::new(AtomicBool::new(false));
    let taker = {
        let (store, stop, backups) = (store.clone(), stop.clone(), backups.clone());
        tokio::spawn(async move {
            let mut n = 0;
            while !stop.load(Ordering::Relaxed) {
                let dest = backups.join(format!("b{n}"));
                let b = store.backup(&dest).await.expect("backup");
                println!("  backup {n}: {} MB in {} ms", b.bytes >> 20, b.took_ms);
                // Kept until the end: removing one (with online discard) is
                // itself a burst of disk work the moves would wait behind.
                n += 1;
            }
        })
    };
    let during = appends(store.clone(), a.tables, every, a.seconds, 1).await;
    stop.store(true, Ordering::Relaxed);
    taker.await.unwrap();
    report("during backups", &during);
}
