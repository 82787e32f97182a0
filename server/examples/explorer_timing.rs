//! What adding one finished game to the opening explorer costs with many
//! games indexed already (BENCHMARKS.md).
//!
//! Fills a fresh data directory with `N` generated finished games
//! (default 1,000,000: random games of four opening rules, each also
//! played under the other seven symmetries; `tengen_study::sample`), each
//! stored as a finished game and indexed, many at once as the server's
//! tables would; then indexes `M` more (default 1,000) one after the
//! other and reports the time each took (the store's write included: a
//! journalled, synced group commit), and the data file's size. The same
//! `M` are timed after the first 1,000 games too, so the two figures show
//! whether the cost grows with the games indexed.
//!
//! `cargo run --release -p tengen-server --example explorer_timing -- 1000000 1000 [DIR]`

use std::sync::Arc;
use std::time::{Duration, Instant};

use rand::SeedableRng;
use rand::rngs::StdRng;
use tengen_server::study::{Finished, index_game};
use tengen_store::{EmbeddedStore, FinishedGame, Store};
use tengen_study::explorer::DEFAULT_DEPTH;
use tengen_study::sample;

fn finished(g: sample::SampleGame) -> Finished {
    Finished {
        id: g.id,
        record: g.record,
        players: g.players,
        finished_ms: g.finished_ms,
    }
}

/// Stores and indexes `games`, 64 at a time.
async fn fill(store: &Arc<EmbeddedStore>, games: Vec<Finished>) {
    let mut tasks = tokio::task::JoinSet::new();
    let per = games.len().div_ceil(64).max(1);
    let mut games = games.into_iter();
    loop {
        let chunk: Vec<Finished> = games.by_ref().take(per).collect();
        if chunk.is_empty() {
            break;
        }
        let store = store.clone();
        tasks.spawn(async move {
            for g in chunk {
                let stored = FinishedGame {
                    id: g.id.clone(),
                    players: g.players.names.to_vec(),
                    finished_ms: g.finished_ms,
                    record: g.record.to_json().into_bytes(),
                    ratings: Vec::new(),
                };
                store.finish_game(&stored).await.expect("stored");
                index_game(store.as_ref(), &g, DEFAULT_DEPTH, Default::default())
                    .await
                    .expect("indexed");
            }
        });
    }
    while let Some(t) = tasks.join_next().await {
        t.expect("a filler panicked");
    }
}

/// Indexes `games` one after the other: each one's time.
async fn timed(store: &Arc<EmbeddedStore>, games: &[Finished]) -> Vec<Duration> {
    let mut took = Vec::with_capacity(games.len());
    for g in games {
        let t = Instant::now();
        assert!(
            index_game(store.as_ref(), g, DEFAULT_DEPTH, Default::default())
                .await
                .expect("indexed")
        );
        took.push(t.elapsed());
    }
    took.sort();
    took
}

fn summary(took: &[Duration]) -> String {
    let at = |q: f64| took[((took.len() - 1) as f64 * q) as usize];
    let mean = took.iter().sum::<Duration>() / took.len() as u32;
    format!(
        "mean {:.2} ms, median {:.2} ms, p99 {:.2} ms",
        mean.as_secs_f64() * 1e3,
        at(0.5).as_secs_f64() * 1e3,
        at(0.99).as_secs_f64() * 1e3
    )
}

#[tokio::main(flavor = "multi_thread")]
async fn main() {
    let args: Vec<String> = std::env::args().collect();
    let n: usize = args
        .get(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(1_000_000);
    let m: usize = args.get(2).and_then(|a| a.parse().ok()).unwrap_or(1_000);
    let dir = match args.get(3) {
        Some(d) => std::path::PathBuf::from(d),
        None => std::env::temp_dir().join(format!("tengen-explorer-{}", std::process::id())),
    };
    let store = Arc::new(EmbeddedStore::open(&dir).expect("a fresh data directory"));
    let mut rng = StdRng::seed_from_u64(1);
    // The games timed: generated first, indexed last.
    let probe: Vec<Finished> = sample::games(&mut rng, m)
        .map(|mut g| {
            g.id = format!("probe-{}", g.id);
            finished(g)
        })
        .collect();
    let early = 1_000.min(n);
    let mut games = sample::games(&mut rng, n).map(finished);
    let started = Instant::now();
    fill(&store, games.by_ref().take(early).collect()).await;
    // The same games, timed against the first 1,000 and then against N.
    let small = timed(&store, &probe).await;
    let again: Vec<Finished> = probe
        .iter()
        .map(|g| Finished {
            id: format!("again-{}", g.id),
            ..g.clone()
        })
        .collect();
    let mut done = early;
    while done < n {
        let batch: Vec<Finished> = games.by_ref().take(50_000).collect();
        done += batch.len();
        fill(&store, batch).await;
        eprintln!("{done} games stored and indexed ({:?})", started.elapsed());
    }
    let large = timed(&store, &again).await;
    let size = std::fs::metadata(store.path())
        .map(|m| m.len())
        .unwrap_or(0);
    println!("indexing one finished game, {m} games one after the other, depth {DEFAULT_DEPTH}:");
    println!("  with {early} games indexed: {}", summary(&small));
    println!("  with {n} games indexed: {}", summary(&large));
    println!(
        "filled in {:.0} s; data file {:.2} GiB ({:.1} KiB a game)",
        started.elapsed().as_secs_f64(),
        size as f64 / (1u64 << 30) as f64,
        size as f64 / 1024.0 / (n + 2 * m) as f64
    );
    drop(store);
    if args.get(3).is_none() {
        let _ = std::fs::remove_dir_all(&dir);
    }
}
