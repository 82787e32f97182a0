//! The checkpoint thread: durable commits taken beside the writer.
//!
//! Why: a checkpoint (redb's durable commit) writes out every page the
//! commits since the last one changed and syncs the file. After a burst of
//! finished games that is thousands of scattered pages, tens of
//! milliseconds on the project's machine, and when the writer thread took
//! it itself every move of every table waited behind it (the tail of the
//! move latency at 2,000 games). A move's append needs no redb
//! transaction (see `pending`), so while this thread commits, the writer
//! goes on answering groups of appends into the journal's other file (see
//! `Journal::hand_over`); only the writes that need a write transaction
//! of their own wait for the checkpoint (see `writer`).
//!
//! The thread takes one job at a time: the appends the writer had
//! answered but not given to redb (`Pending::take`) and the tag the
//! commit writes. It applies them, commits durably and reports the
//! outcome; a failed checkpoint hands its appends back, so that the
//! writer keeps them and takes the next checkpoint itself.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Arc;
#[cfg(feature = "testing")]
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::mpsc as std_mpsc;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use redb::{Database, Durability};

use super::journal::write_tag;
use super::pending::Pending;
use super::schema::db_error;
use super::tables::Tables;
use crate::{Result, StoreError};

/// A checkpoint to take.
struct Job {
    db: Arc<Database>,
    taken: Pending,
    /// The tag and the number of the handover record that began it.
    tag: (u64, u64),
}

/// A checkpoint's outcome: how long it took, or why it failed and the
/// appends it was to give redb.
pub(super) type Outcome = std::result::Result<Duration, (Pending, StoreError)>;

/// The thread, as the writer holds it.
pub(super) struct Checkpointer {
    jobs: Option<std_mpsc::SyncSender<Job>>,
    done: std_mpsc::Receiver<Outcome>,
    thread: Option<JoinHandle<()>>,
    in_flight: bool,
    /// The outcome of a job the thread could not be given.
    lost: Option<Outcome>,
}

impl Checkpointer {
    /// Starts the thread. When a checkpoint ends it calls `wake`, which
    /// wakes the writer if it is waiting for writes.
    pub(super) fn start(wake: impl Fn() + Send + 'static) -> Result<Self> {
        let (jobs, job_rx) = std_mpsc::sync_channel::<Job>(1);
        let (done_tx, done) = std_mpsc::sync_channel(1);
        let thread = std::thread::Builder::new()
            .name("tengen-store-checkpoint".into())
            .spawn(move || {
                for job in job_rx {
                    let start = Instant::now();
                    let Job { db, taken, tag } = job;
                    let committed = catch_unwind(AssertUnwindSafe(|| commit(&db, &taken, tag)));
                    // Not kept between jobs: the writer may close it.
                    drop(db);
                    let outcome = match committed {
                        Ok(Ok(())) => Ok(start.elapsed()),
                        Ok(Err(e)) => Err((taken, e)),
                        Err(_) => Err((
                            taken,
                            StoreError::Unavailable("the checkpoint panicked".into()),
                        )),
                    };
                    if done_tx.send(outcome).is_err() {
                        return;
                    }
                    wake();
                }
            })
            .map_err(|e| {
                StoreError::Unavailable(format!("cannot start the checkpoint thread: {e}"))
            })?;
        Ok(Checkpointer {
            jobs: Some(jobs),
            done,
            thread: Some(thread),
            in_flight: false,
            lost: None,
        })
    }

    /// Whether a checkpoint is being taken.
    pub(super) fn in_flight(&self) -> bool {
        self.in_flight
    }

    /// Starts a checkpoint that gives `db` `taken` and writes `tag` (the
    /// tag and the handover's number); none may be in flight.
    pub(super) fn begin(&mut self, db: Arc<Database>, taken: Pending, tag: (u64, u64)) {
        debug_assert!(!self.in_flight);
        let job = Job { db, taken, tag };
        let sent = match &self.jobs {
            Some(jobs) => jobs.send(job).map_err(|e| e.0),
            None => Err(job),
        };
        self.in_flight = match sent {
            Ok(()) => true,
            // The thread is gone: the outcome says so at once.
            Err(job) => {
                let e = StoreError::Unavailable("the checkpoint thread has stopped".into());
                self.lost = Some(Err((job.taken, e)));
                true
            }
        };
    }

    /// The outcome of the checkpoint in flight, if it has ended (or, with
    /// `wait`, once it has).
    pub(super) fn outcome(&mut self, wait: bool) -> Option<Outcome> {
        if !self.in_flight {
            return None;
        }
        let outcome = match self.lost.take() {
            Some(lost) => lost,
            None if wait => self.done.recv().unwrap_or_else(|_| gone()),
            None => match self.done.try_recv() {
                Ok(outcome) => outcome,
                Err(std_mpsc::TryRecvError::Empty) => return None,
                Err(std_mpsc::TryRecvError::Disconnected) => gone(),
            },
        };
        self.in_flight = false;
        Some(outcome)
    }
}

impl Drop for Checkpointer {
    fn drop(&mut self) {
        self.jobs.take();
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

/// The outcome of a checkpoint whose thread died with its appends (it
/// catches the commit's panics, so this is not expected).
fn gone() -> Outcome {
    Err((
        Pending::default(),
        StoreError::Corrupt("the checkpoint thread stopped with the appends it held".into()),
    ))
}

/// One durable commit that gives redb `taken` and writes `tag`.
fn commit(db: &Database, taken: &Pending, (tag, seq): (u64, u64)) -> Result<()> {
    let mut txn = db.begin_write().map_err(db_error)?;
    txn.set_durability(Durability::Immediate)
        .map_err(db_error)?;
    {
        let mut tables = Tables::open(&txn)?;
        taken.apply(&mut tables)?;
        tables.finish(false)?;
    }
    write_tag(&txn, tag, seq)?;
    #[cfg(feature = "testing")]
    if FAIL_NEXT
        .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |n| n.checked_sub(1))
        .is_ok()
    {
        // Dropped, not committed: as a commit that failed leaves it.
        return Err(StoreError::Unavailable(
            "the checkpoint failed on purpose (a test asked for it)".into(),
        ));
    }
    txn.commit().map_err(db_error)
}

/// How many of the next checkpoints taken on the checkpoint thread fail
/// on purpose (tests of the writer's recovery: there is no other way to
/// make redb's durable commit fail on demand).
#[cfg(feature = "testing")]
static FAIL_NEXT: AtomicU32 = AtomicU32::new(0);

/// Makes the next `n` checkpoints taken on the checkpoint thread of any
/// store in this process fail, their transaction dropped as a failed
/// commit leaves it.
#[cfg(feature = "testing")]
pub fn fail_next_checkpoints(n: u32) {
    FAIL_NEXT.store(n, Ordering::SeqCst);
}

/// How many of the failures asked for with [`fail_next_checkpoints`] have
/// not happened yet.
#[cfg(feature = "testing")]
pub fn checkpoint_failures_left() -> u32 {
    FAIL_NEXT.load(Ordering::SeqCst)
}
