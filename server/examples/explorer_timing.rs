//! What one finished game costs the opening explorer's index as the
//! store grows, and what a view of the explorer's first position costs
//! (BENCHMARKS.md).
//!
//! At each size asked for (`--sizes`: stored games, 10,000, 100,000 and
//! 1,000,000 unless told), `--probe` more finished games (1,000) are
//! indexed one after the other as the server's indexer does it
//! (`index_game`: the players' ratings read for an unrated game between
//! accounts, then one tally written by the store's writer thread,
//! journalled and synced, a group commit): the wall time of each (mean,
//! p50, p99, max), the store calls, and the counter rows, distinct keys
//! and latest-game pushes each wrote. Then `--reads` views of renju's
//! empty board under RIF (`explore`, as a client's request makes them),
//! all time and over twelve months. The sizes side by side show whether
//! the update grows with the games stored.
//!
//! The games (`tengen_study::sample::games_shaped`): renju under RIF,
//! Soosõrv-8 and the free opening and gomoku under Swap2, resigned or
//! drawn after 20 to 60 moves unless a five came first, each under one of
//! the eight symmetries drawn at random (`--all-symmetries`: the stored
//! ones under all eight, as the tests' games), time controls of every
//! speed, 2,000 accounts (a guest in every ninth game), four in five
//! rated, finished over two years.
//!
//! Between sizes the store is filled faster than game by game: each game
//! stored as a finished game (`Store::import`, as a restore writes one),
//! its tally made by `game_tally` (what `index_game` writes), the tallies
//! of `--batch` games merged into one (counters summed, each key's newest
//! latest games kept, keys in order) and written as one tally, and every
//! game's own token marked applied: the store holds what indexing each
//! game alone would have left. The timed games take the ordinary path,
//! after `--warm` untimed ones. `--fill-cpus` and `--measure-cpus` move
//! the process between the fill and the timed part (`taskset -a`).
//!
//! `cargo run --release -p tengen-server --example explorer_timing -- --dir DIR --fill-cpus 0,1 --measure-cpus 1 [--json]`

use std::collections::{BTreeMap, HashSet, VecDeque};
use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::{Context, anyhow, bail};
use clap::Parser;
use rand::SeedableRng;
use rand::rngs::StdRng;
use serde_json::json;
use tengen_protocol::ExplorerFilter;
use tengen_rules::game::{Opening, RuleSet};
use tengen_server::study::{Finished, Stated, explore, game_tally, index_game};
use tengen_store::{
    CountAdd, EmbeddedStore, FinishedGame, Item, ListPush, Store, StudyItem, Tally,
};
use tengen_study::explorer::{self, DEFAULT_DEPTH};
use tengen_study::sample::{self, SampleGame, Shape};
use tokio::sync::mpsc;

#[derive(Parser)]
struct Args {
    /// Stored games at which to measure, ascending, comma separated.
    #[arg(long, value_delimiter = ',', default_values_t = [10_000usize, 100_000, 1_000_000])]
    sizes: Vec<usize>,
    /// Games indexed one after the other and timed at each size.
    #[arg(long, default_value_t = 1_000)]
    probe: usize,
    /// Games indexed the same way, untimed, before them.
    #[arg(long, default_value_t = 100)]
    warm: usize,
    /// Views of the empty board timed at each size (each filter).
    #[arg(long, default_value_t = 1_000)]
    reads: usize,
    /// Games merged into one tally while filling.
    #[arg(long, default_value_t = 50_000)]
    batch: usize,
    /// Each generated game played under all eight symmetries, as the
    /// tests' games are (eight games sharing every position), instead of
    /// each game its own under one of them.
    #[arg(long)]
    all_symmetries: bool,
    /// CPUs the fill runs on (`taskset -a` on this process), e.g. `0,1`.
    #[arg(long)]
    fill_cpus: Option<String>,
    /// CPUs the timed part runs on, e.g. `1`.
    #[arg(long)]
    measure_cpus: Option<String>,
    /// redb's cache, in MiB (the server's `--store-cache-mb`).
    #[arg(long, default_value_t = (tengen_store::embedded::DEFAULT_CACHE_BYTES >> 20) as u64)]
    cache_mb: u64,
    /// How many moves deep games are indexed.
    #[arg(long, default_value_t = DEFAULT_DEPTH)]
    depth: u32,
    /// The data directory: a new or empty one, kept. Without it, a
    /// temporary one, removed at the end.
    #[arg(long)]
    dir: Option<PathBuf>,
    /// One JSON object instead of the table.
    #[arg(long)]
    json: bool,
}

fn shape(all_symmetries: bool) -> Shape {
    Shape {
        moves: 20..=60,
        players: 2_000,
        days: 730,
        all_symmetries,
        timed: true,
    }
}

/// Moves every thread of this process (and those it starts later) onto
/// `cpus`.
fn pin(cpus: Option<&str>) -> anyhow::Result<()> {
    let Some(cpus) = cpus else { return Ok(()) };
    let pid = std::process::id().to_string();
    let status = std::process::Command::new("taskset")
        .args(["-a", "-p", "-c", cpus, &pid])
        .stdout(std::process::Stdio::null())
        .status()
        .context("taskset")?;
    if !status.success() {
        bail!("taskset -a -p -c {cpus} failed");
    }
    Ok(())
}

fn finished(g: SampleGame) -> Finished {
    Finished {
        id: g.id,
        record: g.record,
        players: g.players,
        finished_ms: g.finished_ms,
    }
}

/// A batch of the fill: the games to store, their tokens, their tallies
/// merged.
struct Batch {
    games: Vec<Item>,
    applied: Vec<StudyItem>,
    tally: Tally,
}

/// Tallies merged into one that leaves what applying each in turn would:
/// counters summed by key and field, each key's pushes in order with the
/// newest `keep` kept; keys in order, so that the B-tree is written in
/// order.
#[derive(Default)]
struct Merged {
    counts: BTreeMap<(Vec<u8>, u32), Vec<i64>>,
    pushes: BTreeMap<Vec<u8>, VecDeque<Vec<u8>>>,
}

impl Merged {
    fn add(&mut self, tally: Tally) {
        for c in tally.counts {
            let sum = self.counts.entry((c.key, c.field)).or_default();
            if sum.len() < c.values.len() {
                sum.resize(c.values.len(), 0);
            }
            for (s, v) in sum.iter_mut().zip(&c.values) {
                *s += v;
            }
        }
        for p in tally.pushes {
            let list = self.pushes.entry(p.key).or_default();
            list.push_back(p.item);
            if list.len() > tally.keep as usize {
                list.pop_front();
            }
        }
    }

    fn into_tally(self, token: String) -> Tally {
        Tally {
            token,
            counts: self
                .counts
                .into_iter()
                .map(|((key, field), values)| CountAdd { key, field, values })
                .collect(),
            pushes: self
                .pushes
                .into_iter()
                .flat_map(|(key, items)| {
                    items.into_iter().map(move |item| ListPush {
                        key: key.clone(),
                        item,
                    })
                })
                .collect(),
            keep: explorer::LATEST,
        }
    }
}

/// The filler's thread: for each count asked for, that many more games
/// as a [`Batch`]. Idle between requests, so that nothing else runs
/// while games are timed.
fn filler(
    depth: u32,
    shape: Shape,
    asks: std::sync::mpsc::Receiver<usize>,
    batches: mpsc::Sender<Batch>,
) -> anyhow::Result<()> {
    let mut rng = StdRng::seed_from_u64(1);
    let mut games = sample::games_shaped(&mut rng, usize::MAX, shape).map(finished);
    let mut made = 0usize;
    while let Ok(n) = asks.recv() {
        let mut items = Vec::with_capacity(n);
        let mut applied = Vec::with_capacity(n);
        let mut merged = Merged::default();
        for g in games.by_ref().take(n) {
            let tally = game_tally(&g, &g.players, depth, Stated::default())
                .with_context(|| format!("game {} has no tally", g.id))?;
            applied.push(StudyItem::Applied {
                space: explorer::SPACE.into(),
                token: g.id.clone(),
            });
            merged.add(tally);
            items.push(Item::Game(FinishedGame {
                id: g.id,
                players: g.players.names.to_vec(),
                finished_ms: g.finished_ms,
                record: g.record.to_json().into_bytes(),
                ratings: Vec::new(),
            }));
        }
        made += 1;
        let tally = merged.into_tally(format!("fill-{made}"));
        let batch = Batch {
            games: items,
            applied,
            tally,
        };
        if batches.blocking_send(batch).is_err() {
            break;
        }
    }
    Ok(())
}

async fn write(store: &EmbeddedStore, batch: Batch) -> anyhow::Result<()> {
    for games in batch.games.chunks(1_000) {
        store.import(games).await?;
    }
    for tokens in batch.applied.chunks(50_000) {
        store.import_study(tokens).await?;
    }
    if !store.tally(explorer::SPACE, &batch.tally).await? {
        bail!("a fill batch was applied twice");
    }
    Ok(())
}

/// Mean, p50, p99 and max, in milliseconds.
struct Summary {
    mean: f64,
    p50: f64,
    p99: f64,
    max: f64,
}

fn summary(mut took: Vec<Duration>) -> Summary {
    took.sort();
    let ms = |d: Duration| d.as_secs_f64() * 1e3;
    let at = |q: f64| ms(took[((took.len() - 1) as f64 * q).round() as usize]);
    Summary {
        mean: ms(took.iter().sum::<Duration>()) / took.len() as f64,
        p50: at(0.5),
        p99: at(0.99),
        max: ms(*took.last().expect("at least one")),
    }
}

impl Summary {
    fn json(&self) -> serde_json::Value {
        let r = |v: f64| (v * 1e3).round() / 1e3;
        json!({"mean": r(self.mean), "p50": r(self.p50), "p99": r(self.p99), "max": r(self.max)})
    }
}

/// What one size gave.
struct Measured {
    stored: usize,
    fill_s: f64,
    file_bytes: u64,
    update: Summary,
    writes_per_game: f64,
    rating_reads_per_game: f64,
    rows: f64,
    keys: f64,
    pushes: f64,
    root: Summary,
    root_months: Summary,
    root_games: u64,
}

impl Measured {
    /// What both the progress line and the table show: the update's mean,
    /// p50, p99 and max, the root view's p50 and p99 over all time and
    /// over twelve months (ms), and the data file (GiB).
    fn figures(&self) -> [f64; 9] {
        let (u, r, m) = (&self.update, &self.root, &self.root_months);
        let gib = self.file_bytes as f64 / (1u64 << 30) as f64;
        [u.mean, u.p50, u.p99, u.max, r.p50, r.p99, m.p50, m.p99, gib]
    }
}

/// Indexes `probe` one after the other: each one's time.
async fn timed(
    store: &EmbeddedStore,
    probe: &[Finished],
    depth: u32,
) -> anyhow::Result<Vec<Duration>> {
    let mut took = Vec::with_capacity(probe.len());
    for g in probe {
        let t = Instant::now();
        let added = index_game(store, g, depth, Stated::default()).await?;
        took.push(t.elapsed());
        if !added {
            bail!("game {} was indexed already", g.id);
        }
    }
    Ok(took)
}

/// `reads` views of renju's empty board under RIF with `filter`: each
/// one's time, and the games the view counts.
async fn views(
    store: &EmbeddedStore,
    depth: u32,
    reads: usize,
    filter: &ExplorerFilter,
) -> anyhow::Result<(Vec<Duration>, u64)> {
    let mut took = Vec::with_capacity(reads);
    let mut games = 0;
    for _ in 0..reads.max(1) {
        let t = Instant::now();
        let view = explore(
            store,
            depth,
            RuleSet::Renju,
            Opening::Rif,
            None,
            Vec::new(),
            filter.clone(),
        )
        .await
        .map_err(|e| anyhow!("the view was refused: {}", e.message))?;
        took.push(t.elapsed());
        games = view.stats.games;
    }
    Ok((took, games))
}

#[tokio::main(flavor = "multi_thread")]
async fn main() -> anyhow::Result<()> {
    let args = Args::parse();
    let (probe, warm) = (args.probe.max(1), args.warm);
    let mut last = 0;
    for &s in &args.sizes {
        if s < last + warm {
            bail!("--sizes must grow by at least --probe + --warm games each");
        }
        last = s + probe;
    }
    let temporary = args.dir.is_none();
    let dir = args.dir.clone().unwrap_or_else(|| {
        std::env::temp_dir().join(format!("tengen-explorer-{}", std::process::id()))
    });
    if dir.read_dir().is_ok_and(|mut d| d.next().is_some()) {
        bail!("{} is not empty", dir.display());
    }
    let store = Arc::new(EmbeddedStore::open_with_cache(
        &dir,
        (args.cache_mb as usize) << 20,
    )?);

    // The games indexed at each size: their own stream, made first.
    let mut rng = StdRng::seed_from_u64(2);
    let mut extra: Vec<Finished> =
        sample::games_shaped(&mut rng, args.sizes.len() * (warm + probe), shape(false))
            .map(|mut g| {
                g.id = format!("probe-{}", g.id);
                finished(g)
            })
            .collect();

    let (ask, asks) = std::sync::mpsc::channel();
    let (batches_tx, mut batches) = mpsc::channel(1);
    let (depth, fill_shape) = (args.depth, shape(args.all_symmetries));
    let filling = std::thread::spawn(move || filler(depth, fill_shape, asks, batches_tx));

    let mut stored = 0usize;
    let mut results = Vec::new();
    for &size in &args.sizes {
        pin(args.fill_cpus.as_deref())?;
        let started = Instant::now();
        let want = size - warm - stored;
        let chunks: Vec<usize> = (0..want.div_ceil(args.batch))
            .map(|i| args.batch.min(want - i * args.batch))
            .collect();
        if let Some(&first) = chunks.first() {
            ask.send(first)?;
        }
        for (i, &n) in chunks.iter().enumerate() {
            let batch = batches.recv().await.context("the filler stopped")?;
            if let Some(&next) = chunks.get(i + 1) {
                ask.send(next)?;
            }
            write(&store, batch).await?;
            stored += n;
            eprintln!(
                "{stored} games stored and indexed ({:.0} s)",
                started.elapsed().as_secs_f64()
            );
        }
        let fill_s = started.elapsed().as_secs_f64();
        pin(args.measure_cpus.as_deref())?;
        let now: Vec<Finished> = extra.drain(..warm + probe).collect();
        timed(&store, &now[..warm], depth).await?;
        stored += warm;

        let (probe_games, after) = (&now[warm..], store.write_stats());
        let (mut rows, mut keys, mut pushes, mut reads) = (0, 0, 0, 0);
        for g in probe_games {
            let t = game_tally(g, &g.players, depth, Stated::default())?;
            rows += t.counts.len();
            pushes += t.pushes.len();
            keys += t
                .counts
                .iter()
                .map(|c| &c.key)
                .chain(t.pushes.iter().map(|p| &p.key))
                .collect::<HashSet<_>>()
                .len();
            if g.players.ratings.is_none() && g.players.accounts.iter().all(Option::is_some) {
                reads += 2;
            }
        }
        let update = summary(timed(&store, probe_games, depth).await?);
        let writes = store.write_stats().requests - after.requests;
        let measured_at = stored;
        stored += probe;

        let (root, root_games) =
            views(&store, depth, args.reads, &ExplorerFilter::default()).await?;
        let months = ExplorerFilter {
            since: Some("2026-01".into()),
            until: Some("2026-12".into()),
            ..Default::default()
        };
        let (root_months, _) = views(&store, depth, args.reads, &months).await?;
        let n = probe as f64;
        let m = Measured {
            stored: measured_at,
            fill_s,
            file_bytes: std::fs::metadata(store.path()).map_or(0, |m| m.len()),
            update,
            writes_per_game: writes as f64 / n,
            rating_reads_per_game: reads as f64 / n,
            rows: rows as f64 / n,
            keys: keys as f64 / n,
            pushes: pushes as f64 / n,
            root: summary(root),
            root_months: summary(root_months),
            root_games,
        };
        let [mean, p50, p99, max, root50, root99, months50, months99, gib] = m.figures();
        eprintln!(
            "{} stored: update mean {mean:.3} / p50 {p50:.3} / p99 {p99:.3} / max {max:.3} ms; root view p50 {root50:.3} / p99 {root99:.3} ms, 12 months p50 {months50:.3} / p99 {months99:.3} ms; {gib:.2} GiB; {:.1} rows, {:.1} keys, {:.1} pushes a game",
            m.stored, m.rows, m.keys, m.pushes
        );
        results.push(m);
    }
    drop(ask);
    filling
        .join()
        .map_err(|_| anyhow!("the filler panicked"))??;

    if args.json {
        let sizes: Vec<serde_json::Value> = results
            .iter()
            .map(|m| {
                json!({
                    "stored_games": m.stored,
                    "fill_seconds": (m.fill_s * 10.0).round() / 10.0,
                    "data_file_bytes": m.file_bytes,
                    "update_ms": m.update.json(),
                    "store_writes_per_game": m.writes_per_game,
                    "rating_reads_per_game": m.rating_reads_per_game,
                    "counter_rows_per_game": m.rows,
                    "keys_per_game": m.keys,
                    "latest_pushes_per_game": m.pushes,
                    "root_view_ms": m.root.json(),
                    "root_view_12_months_ms": m.root_months.json(),
                    "root_games": m.root_games,
                })
            })
            .collect();
        let out = json!({
            "depth": depth,
            "cache_mb": args.cache_mb,
            "all_symmetries": args.all_symmetries,
            "probe": probe,
            "warm": warm,
            "reads": args.reads,
            "batch": args.batch,
            "sizes": sizes,
        });
        println!("{}", serde_json::to_string_pretty(&out)?);
    } else {
        println!(
            "indexing one finished game, {probe} games one after the other (after {warm} untimed), depth {depth}; {} views of renju/RIF's empty board:",
            args.reads
        );
        println!(
            "{:>10} | {:>34} | {:>22} | {:>22} | {:>9} | {:>8}",
            "stored",
            "update mean / p50 / p99 / max, ms",
            "root view p50 / p99",
            "12 months p50 / p99",
            "data file",
            "filled"
        );
        for m in &results {
            let [mean, p50, p99, max, root50, root99, months50, months99, gib] = m.figures();
            println!(
                "{:>10} | {mean:>7.3} / {p50:>7.3} / {p99:>7.3} / {max:>7.3} | {root50:>9.3} / {root99:>9.3} | {months50:>9.3} / {months99:>9.3} | {gib:>5.2} GiB | {:>6.0} s",
                m.stored, m.fill_s
            );
        }
        for m in &results {
            println!(
                "{} stored: a game wrote {:.1} counter rows under {:.1} keys and pushed {:.1} latest games, in {:.2} store writes and {:.2} rating reads; the root counts {} games",
                m.stored,
                m.rows,
                m.keys,
                m.pushes,
                m.writes_per_game,
                m.rating_reads_per_game,
                m.root_games
            );
        }
    }
    drop(store);
    if temporary {
        let _ = std::fs::remove_dir_all(&dir);
    }
    Ok(())
}
