//! The miner: each indexed game searched for puzzles and forbidden-point
//! exercises, one at a time, on the blocking pool within an analysis
//! slot, only while the server is not behind.
//!
//! A game's search is cut into slices of at most [`SLICE`] (a position's
//! search is not cut), each its own blocking call: a whole game's
//! searches at once held a core 10-20 ms, and a server pinned to one core
//! (or run at a real-time priority, where nothing preempts it) kept its
//! store's writer and its tables waiting that long.

use std::sync::Arc;
use std::time::{Duration, Instant};

use tengen_rules::analysis::AnalysisError;
use tengen_store::{DocPut, ScorePut, Store, StoreError};
use tengen_study::puzzle::{self, MineBudget, Mined, Mining, Puzzle};
use tengen_study::trainer::{self, Exercise};
use tokio::sync::{Semaphore, mpsc, watch};

use super::finished::Finished;
use super::keys;

/// How long the miner waits before looking again while the server is
/// behind.
const BACK_OFF: Duration = Duration::from_millis(500);

/// The longest the miner searches before it gives the core back: a slice
/// ends at the first position whose search ends past it.
const SLICE: Duration = Duration::from_millis(2);

/// The miner's task.
pub(super) async fn run(
    store: Arc<dyn Store>,
    budget: MineBudget,
    slots: Arc<Semaphore>,
    pressure: Arc<crate::pressure::Pressure>,
    mut rx: mpsc::Receiver<Finished>,
    mut shutdown: watch::Receiver<bool>,
) {
    loop {
        let game = tokio::select! {
            g = rx.recv() => match g {
                Some(g) => g,
                None => return,
            },
            _ = shutdown.wait_for(|s| *s) => return,
        };
        // Games first: no search while new work is being shed.
        while pressure.shedding().is_some() {
            tokio::time::sleep(BACK_OFF).await;
        }
        let Ok(slot) = slots.clone().acquire_owned().await else {
            return;
        };
        let started = Instant::now();
        let found = match mine_sliced(&game, budget).await {
            Ok(Ok(found)) => found,
            Ok(Err(e)) => {
                tracing::debug!(game = %game.id, error = %e, "not searched for puzzles");
                continue;
            }
            Err(_) => {
                crate::metrics::error("study_mine");
                continue;
            }
        };
        drop(slot);
        metrics::counter!(crate::metrics::STUDY_MINED).increment(1);
        metrics::histogram!(crate::metrics::STUDY_MINE_SECONDS)
            .record(started.elapsed().as_secs_f64());
        if let Err(e) = store_found(store.as_ref(), &found.puzzles, &found.exercises).await {
            tracing::warn!(game = %game.id, error = %e, "puzzles found but not stored");
            crate::metrics::error("study_mine");
        }
    }
}

/// Searches `game` in slices of [`SLICE`], each on the blocking pool;
/// `Err` when a slice panicked.
async fn mine_sliced(
    game: &Finished,
    budget: MineBudget,
) -> Result<Result<Mined, AnalysisError>, tokio::task::JoinError> {
    let (id, record) = (game.id.clone(), game.record.clone());
    let started = tokio::task::spawn_blocking(move || Mining::new(&id, &record, budget)).await?;
    let mut mining = match started {
        Ok(m) => m,
        Err(e) => return Ok(Err(e)),
    };
    loop {
        let slice = tokio::task::spawn_blocking(move || {
            let start = Instant::now();
            loop {
                match mining.step() {
                    Ok(true) if start.elapsed() < SLICE => {}
                    Ok(true) => return Slice::More(Box::new(mining)),
                    Ok(false) => return Slice::Done(Ok(mining.finish())),
                    Err(e) => return Slice::Done(Err(e)),
                }
            }
        })
        .await?;
        match slice {
            Slice::More(m) => mining = *m,
            Slice::Done(found) => return Ok(found),
        }
    }
}

/// Where a slice of a game's search left it.
enum Slice {
    More(Box<Mining>),
    Done(Result<Mined, AnalysisError>),
}

/// Searches a finished game and stores what it gives (for `reindex`).
pub async fn mine_and_store(
    store: &dyn Store,
    game: &Finished,
    budget: MineBudget,
) -> Result<(usize, usize), StoreError> {
    let (id, record) = (game.id.clone(), game.record.clone());
    let found = tokio::task::spawn_blocking(move || puzzle::mine(&id, &record, budget))
        .await
        .map_err(|e| StoreError::Unavailable(e.to_string()))?;
    match found {
        Ok(found) => {
            store_found(store, &found.puzzles, &found.exercises).await?;
            Ok((found.puzzles.len(), found.exercises.len()))
        }
        Err(_) => Ok((0, 0)),
    }
}

/// Stores new puzzles (a puzzle already stored, from another game or
/// orientation, stays as it is) with their indexes, and exercises.
async fn store_found(
    store: &dyn Store,
    puzzles: &[Puzzle],
    exercises: &[Exercise],
) -> Result<(), StoreError> {
    for p in puzzles {
        let doc = DocPut {
            key: keys::doc_key(&p.id),
            expect: 0,
            value: p.encode(),
        };
        match store
            .put_docs(puzzle::SPACE, &[doc], &keys::scores(p))
            .await
        {
            Ok(()) => metrics::counter!(crate::metrics::PUZZLES_MADE).increment(1),
            // Known already: this game lists it all the same.
            Err(StoreError::Conflict(_)) => {
                let listed = ScorePut {
                    index: keys::game_index(&p.game),
                    member: p.id.clone(),
                    score: Some(i64::from(p.move_number)),
                };
                store.put_docs(puzzle::SPACE, &[], &[listed]).await?;
            }
            Err(e) => return Err(e),
        }
    }
    for e in exercises {
        let doc = DocPut {
            key: format!("e:{}", e.id),
            expect: 0,
            value: e.encode(),
        };
        // A random position in the index, so that a pick is one range read.
        let score = ScorePut {
            index: "all".into(),
            member: e.id.clone(),
            score: Some(i64::from_str_radix(&e.id[..15.min(e.id.len())], 16).unwrap_or(0)),
        };
        match store.put_docs(trainer::SPACE, &[doc], &[score]).await {
            Ok(()) | Err(StoreError::Conflict(_)) => {}
            Err(e) => return Err(e),
        }
    }
    Ok(())
}
