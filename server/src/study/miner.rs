//! The miner: each indexed game searched for puzzles and forbidden-point
//! exercises, one at a time, within an analysis slot, only while the
//! server is not behind.
//!
//! The search runs on a thread of its own in the idle scheduling class
//! (see [`Searcher`]): a game's search is 10–20 ms of CPU in one call,
//! and on the blocking pool, at the server's own priority, every move on
//! that core waited behind it.

use std::sync::Arc;
use std::time::{Duration, Instant};

use tengen_store::{DocPut, ScorePut, Store, StoreError};
use tengen_study::puzzle::{self, MineBudget, Puzzle};
use tengen_study::trainer::{self, Exercise};
use tokio::sync::{Semaphore, mpsc, oneshot, watch};

use super::finished::Finished;
use super::keys;

/// How long the miner waits before looking again while the server is
/// behind.
const BACK_OFF: Duration = Duration::from_millis(500);

/// The miner's task.
pub(super) async fn run(
    store: Arc<dyn Store>,
    budget: MineBudget,
    slots: Arc<Semaphore>,
    pressure: Arc<crate::pressure::Pressure>,
    mut rx: mpsc::Receiver<Finished>,
    mut shutdown: watch::Receiver<bool>,
) {
    let searcher = match Searcher::start(budget) {
        Ok(searcher) => searcher,
        Err(e) => {
            tracing::error!("no puzzles will be mined: cannot start the miner's thread: {e}");
            return;
        }
    };
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
        let id = game.id.clone();
        let record = game.record.clone();
        let found = searcher.search(id, record).await;
        drop(slot);
        let found = match found {
            Some(Ok(found)) => found,
            Some(Err(e)) => {
                tracing::debug!(game = %game.id, error = %e, "not searched for puzzles");
                continue;
            }
            None => {
                crate::metrics::error("study_mine");
                continue;
            }
        };
        metrics::counter!(crate::metrics::STUDY_MINED).increment(1);
        metrics::histogram!(crate::metrics::STUDY_MINE_SECONDS)
            .record(started.elapsed().as_secs_f64());
        if let Err(e) = store_found(store.as_ref(), &found.puzzles, &found.exercises).await {
            tracing::warn!(game = %game.id, error = %e, "puzzles found but not stored");
            crate::metrics::error("study_mine");
        }
    }
}

/// What one search gives.
type Mined = Result<puzzle::Mined, tengen_rules::analysis::AnalysisError>;

/// The miner's thread: one search at a time, in the idle scheduling class
/// (it runs only when no other thread wants the core; a search holds no
/// lock a game needs). It ends when the miner's task drops it.
struct Searcher {
    jobs: std::sync::mpsc::SyncSender<Job>,
}

struct Job {
    id: String,
    record: tengen_rules::game::GameRecord,
    reply: oneshot::Sender<Mined>,
}

impl Searcher {
    fn start(budget: MineBudget) -> std::io::Result<Self> {
        let (jobs, rx) = std::sync::mpsc::sync_channel::<Job>(1);
        std::thread::Builder::new()
            .name("tengen-miner".into())
            .spawn(move || {
                run_when_idle();
                for job in rx {
                    let mined = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                        puzzle::mine(&job.id, &job.record, budget)
                    }));
                    // A search that panicked answers nothing: counted as an error.
                    if let Ok(mined) = mined {
                        let _ = job.reply.send(mined);
                    }
                }
            })?;
        Ok(Searcher { jobs })
    }

    /// The game's search; `None` if the search panicked or the thread is
    /// gone.
    async fn search(&self, id: String, record: tengen_rules::game::GameRecord) -> Option<Mined> {
        let (reply, answer) = oneshot::channel();
        // The miner's task sends one job at a time and waits for it, so
        // the queue (of one) is never full.
        self.jobs.try_send(Job { id, record, reply }).ok()?;
        answer.await.ok()
    }
}

/// Puts the calling thread in the idle scheduling class.
fn run_when_idle() {
    let param = libc::sched_param { sched_priority: 0 };
    // SAFETY: a plain system call on the calling thread, with a valid
    // parameter that outlives it.
    if unsafe { libc::sched_setscheduler(0, libc::SCHED_IDLE, &param) } != 0 {
        tracing::debug!(
            "the miner runs at the server's priority: {}",
            std::io::Error::last_os_error()
        );
    }
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
