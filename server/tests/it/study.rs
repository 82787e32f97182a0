//! The opening explorer, puzzles and the trainer through the real server.
//!
//! - The explorer's acceptance: generated games (four opening rules, each
//!   game under all eight symmetries, accounts and guests, ratings, six
//!   months) indexed in a real store, then every position's counts and
//!   results, and each next move's, compared with a count made from the
//!   raw records another way (`tengen_study::sample::Reference`); also a
//!   player's own explorer and a period. 10,000 games on the embedded
//!   store (`TENGEN_EXPLORER_GAMES` to change), fewer on Redis.
//! - Games played to the end over WebSockets reach the explorer and the
//!   miner by themselves: a missed VCF becomes a puzzle linked from its
//!   game, solved and failed by real clients with their ratings moved; a
//!   foul becomes a trainer position, judged; imports count once.

use crate::common;

use std::sync::Arc;
use std::time::Instant;

use rand::SeedableRng;
use rand::rngs::StdRng;
use tengen_protocol::{ExplorerFilter, ExplorerView};
use tengen_rules::Color;
use tengen_rules::game::{Opening, RuleSet};
use tengen_server::study::{Finished, explore, index_game};
use tengen_store::{EmbeddedStore, Store};
use tengen_study::sample::{self, Reference, SampleGame};

const DEPTH: u32 = 14;

fn finished(g: SampleGame) -> Finished {
    Finished {
        id: g.id,
        record: g.record,
        players: g.players,
        finished_ms: g.finished_ms,
    }
}

/// Indexes `n` generated games into `store` (many at once, as the server's
/// tables would), then checks every position against the reference: all
/// games, one player's (as black), and a period.
async fn explorer_counts(store: Arc<dyn Store>, n: usize) {
    let mut rng = StdRng::seed_from_u64(2026);
    let games: Vec<Finished> = sample::games(&mut rng, n).map(finished).collect();
    let started = Instant::now();
    let mut tasks = tokio::task::JoinSet::new();
    for chunk in games.chunks(games.len().div_ceil(16)) {
        let (store, chunk) = (store.clone(), chunk.to_vec());
        tasks.spawn(async move {
            for g in &chunk {
                assert!(
                    index_game(store.as_ref(), g, DEPTH, None).await.unwrap(),
                    "{}",
                    g.id
                );
            }
        });
    }
    while let Some(t) = tasks.join_next().await {
        t.unwrap();
    }
    eprintln!("indexed {} games in {:?}", games.len(), started.elapsed());
    // A game indexed again changes nothing.
    assert!(
        !index_game(store.as_ref(), &games[0], DEPTH, None)
            .await
            .unwrap()
    );

    let rules = |g: &Finished| format!("{}/{}", g.record.config.rule_set, g.record.config.opening);
    let check = async |filter: ExplorerFilter, admit: &dyn Fn(&Finished) -> bool| {
        let mut reference = Reference::new(DEPTH);
        for g in games.iter().filter(|g| admit(g)) {
            assert!(reference.add(&rules(g), &g.record));
        }
        let kinds: std::collections::HashMap<String, (RuleSet, Opening)> = games
            .iter()
            .map(|g| {
                (
                    rules(g),
                    (g.record.config.rule_set, g.record.config.opening),
                )
            })
            .collect();
        let (mut positions, mut moves) = (0, 0);
        for (name, path, counts, next) in reference.positions() {
            let (rule_set, opening) = kinds[name];
            let view: ExplorerView = explore(
                store.as_ref(),
                DEPTH,
                rule_set,
                opening,
                None,
                path.to_vec(),
                filter.clone(),
            )
            .await
            .unwrap();
            let s = view.stats;
            assert_eq!(
                (s.games, s.black, s.draws, s.white),
                (counts.games, counts.black, counts.draws, counts.white),
                "{name} after {path:?} ({filter:?})"
            );
            assert_eq!(
                view.next.len(),
                next,
                "{name} after {path:?}: moves played from it"
            );
            for m in &view.next {
                let want = reference.next(name, 15, path, m.point);
                let s = m.stats;
                assert_eq!(
                    (s.games, s.black, s.draws, s.white),
                    (want.games, want.black, want.draws, want.white),
                    "{name} after {path:?}, {}",
                    m.point
                );
                moves += 1;
            }
            positions += 1;
        }
        (positions, moves)
    };
    let (p, m) = check(ExplorerFilter::default(), &|_| true).await;
    eprintln!("checked {p} positions and {m} moves of every game");
    assert!(p > n, "{p} positions");
    let (p, _) = check(
        ExplorerFilter {
            player: Some("PLAYER7".into()),
            color: Some(Color::Black),
            ..Default::default()
        },
        &|g| {
            let game = g.record.replay().unwrap();
            let black = game.seat_of(Color::Black).index();
            g.players.accounts[black].as_deref() == Some("player7")
        },
    )
    .await;
    assert!(p > 20, "{p} positions of player7's");
    // March and April 2026 (months 2026*12+2 and +3).
    let (p, _) = check(
        ExplorerFilter {
            since: Some("2026-03".into()),
            until: Some("2026-04".into()),
            ..Default::default()
        },
        &|g| {
            let month = tengen_study::explorer::month_of(g.finished_ms);
            (2026 * 12 + 2..=2026 * 12 + 3).contains(&month)
        },
    )
    .await;
    assert!(p > 20, "{p} positions in March and April");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_explorer_counts_what_the_records_say() {
    let n = std::env::var("TENGEN_EXPLORER_GAMES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(10_000);
    let dir = tempfile::tempdir().unwrap();
    let store = Arc::new(EmbeddedStore::open(dir.path()).unwrap());
    explorer_counts(store, n).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_explorer_counts_on_redis() {
    let redis = tengen_store::testing::RedisServer::start();
    let store = Arc::new(common::redis::store(&redis, "explorer").await);
    explorer_counts(store, 800).await;
}
