//! The writer thread: group commit of every write the store is asked for.
//!
//! One OS thread owns all write transactions. It blocks for the first
//! waiting request and takes every other request already queued (at most
//! [`MAX_BATCH`]). A group of nothing but appends is checked against what
//! the table logs hold ([`Pending`]), appended to the
//! [journal](super::journal) (synced) and answered; its entries reach
//! redb later, in order, in the next write transaction (see
//! [`super::pending`]). Any other group is applied in order in one write
//! transaction, after the appends still waiting, appended to the journal
//! (synced), committed with [`Durability::None`] and then answered. A
//! durable checkpoint follows every few seconds. A request whose own
//! precondition fails (an append at the wrong length, a taken id, a rating
//! updated meanwhile) checks everything before it writes anything, so it
//! fails alone and the rest of the group commits; the later requests see
//! the earlier ones' writes, so two appends to one table in one group both
//! succeed. If the journal or redb fails (an I/O error, a failed commit),
//! the whole group is dropped and every request in it gets
//! [`StoreError::Unavailable`]. Each transaction also takes a bounded step
//! of garbage collection of the live log when one is due (see the
//! [module documentation](super)).

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use redb::{Database, Durability, WriteTransaction};
use tokio::sync::{mpsc, oneshot};

use super::journal::{Group, Journal, Replay};
use super::ops::Op;
use super::pending::{Pending, Snapshot, Undo};
use super::schema::{Failure, db_error};
use super::tables::Tables;
use crate::{Result, StoreError};

/// The most requests one transaction takes.
pub(super) const MAX_BATCH: usize = 1024;

/// The least time between the starts of two commits. A commit's cost is
/// mostly its own (the journal's sync, redb's commit), not its requests',
/// so under load the requests of this interval share one commit; a
/// request that finds the writer idle for longer waits for nothing. A
/// request waits for half of it on average, which every move's latency
/// carries: at 2 ms the median move of 5,000 games took 3.6 ms to reach the
/// opponent (the bare relay's: 1.4 ms), at 0.5 ms 2.4 ms, for about 8 %
/// more server CPU per move (more, smaller groups).
const COMMIT_SPACING: Duration = Duration::from_micros(500);

/// The least time between two steps of garbage collection (see
/// `Tables::finish`).
const GC_EVERY: Duration = Duration::from_millis(20);

/// After a failed flush of the waiting appends, the least time before the
/// writer tries one again on its own (every other transaction still tries
/// first): a database that fails is not asked, and logged about, after
/// every group.
const FLUSH_RETRY: Duration = Duration::from_secs(1);

/// A write and where its outcome goes.
pub(super) struct Request {
    pub op: Op,
    pub reply: oneshot::Sender<Result<()>>,
}

/// Counts of committed transactions and the requests they carried.
#[derive(Default)]
pub(super) struct Counters {
    pub batches: AtomicU64,
    pub requests: AtomicU64,
    /// The latest successful commit.
    pub progress: crate::Progress,
}

/// The writer thread's loop; returns when every sender is gone, after a
/// last checkpoint.
pub(super) fn run(
    db: Arc<Database>,
    mut journal: Journal,
    mut rx: mpsc::Receiver<Request>,
    counters: Arc<Counters>,
) {
    let mut batch = Vec::with_capacity(MAX_BATCH);
    let mut last_start: Option<Instant> = None;
    let mut last_gc: Option<Instant> = None;
    let mut pending = Pending::default();
    let mut flush_failed: Option<Instant> = None;
    while let Some(first) = rx.blocking_recv() {
        if let Some(wait) = last_start.map(|t| COMMIT_SPACING.saturating_sub(t.elapsed()))
            && !wait.is_zero()
        {
            std::thread::sleep(wait);
        }
        last_start = Some(Instant::now());
        batch.push(first);
        while batch.len() < MAX_BATCH {
            match rx.try_recv() {
                Ok(request) => batch.push(request),
                Err(_) => break,
            }
        }
        let outcome = if batch.iter().all(|r| matches!(r.op, Op::Append { .. })) {
            journal_appends(&db, &mut journal, &mut pending, &batch)
        } else {
            let gc = last_gc.is_none_or(|t| t.elapsed() >= GC_EVERY);
            if gc {
                last_gc = Some(Instant::now());
            }
            commit(&db, &mut journal, &mut pending, &batch, gc)
        };
        let outcomes = match outcome {
            Ok(outcomes) => {
                counters.progress.mark();
                outcomes
            }
            Err(e) => {
                let message = format!("the write was not committed: {e}");
                batch
                    .iter()
                    .map(|_| Err(StoreError::Unavailable(message.clone())))
                    .collect()
            }
        };
        counters.batches.fetch_add(1, Ordering::Relaxed);
        counters
            .requests
            .fetch_add(batch.len() as u64, Ordering::Relaxed);
        for (request, outcome) in batch.drain(..).zip(outcomes) {
            // The caller may have stopped waiting; the write stands anyway.
            let _ = request.reply.send(outcome);
        }
        if journal.due() {
            checkpoint(&db, &mut journal, &mut pending, &counters);
        } else if pending.full() && flush_failed.is_none_or(|t| t.elapsed() >= FLUSH_RETRY) {
            flush_failed = (!flush(&db, &mut pending)).then(Instant::now);
        }
    }
    checkpoint(&db, &mut journal, &mut pending, &counters);
}

/// A durable commit that makes the journal's records redundant. If it
/// fails, the journal keeps growing and the next group tries again.
fn checkpoint(db: &Database, journal: &mut Journal, pending: &mut Pending, counters: &Counters) {
    let start = Instant::now();
    let journalled = journal.len();
    match replay_and_checkpoint(db, journal, pending, &[]) {
        Ok(()) => {
            counters.progress.mark();
            tracing::debug!(
                journal_bytes = journalled,
                "the store's checkpoint took {:?}",
                start.elapsed()
            );
        }
        Err(e) => tracing::error!("the store's checkpoint failed: {e}"),
    }
}

/// One durable commit that applies `groups` (the journal's records found
/// at open, in order; none for a plain checkpoint) or the appends still
/// waiting in `pending` (none at open), and takes a checkpoint.
pub(super) fn replay_and_checkpoint(
    db: &Database,
    journal: &mut Journal,
    pending: &mut Pending,
    groups: &[Replay],
) -> Result<()> {
    let mut txn = db.begin_write().map_err(db_error)?;
    txn.set_durability(Durability::Immediate)
        .map_err(db_error)?;
    for group in groups {
        let mut tables = Tables::open(&txn)?;
        for op in &group.ops {
            match tables.apply(op) {
                Ok(()) => {}
                // It succeeded on this very state before the crash.
                Err(Failure::Refused(e)) => {
                    tracing::warn!("a journalled write was refused on replay: {e}")
                }
                Err(Failure::Fatal(e)) => return Err(e),
            }
        }
        tables.finish(group.gc)?;
    }
    if !pending.is_empty() {
        give(&txn, pending)?;
    }
    let tag = journal.tag_checkpoint(&txn)?;
    txn.commit().map_err(db_error)?;
    journal.checkpointed(tag);
    pending.given();
    Ok(())
}

/// Gives redb the appends waiting in `pending`, in a transaction of their
/// own without durability (the journal holds them until the next
/// checkpoint); whether it did. If it fails, they wait for the next
/// transaction, and the failure is logged.
fn flush(db: &Database, pending: &mut Pending) -> bool {
    let given = (|| -> Result<()> {
        let mut txn = db.begin_write().map_err(db_error)?;
        txn.set_durability(Durability::None).map_err(db_error)?;
        give(&txn, pending)?;
        txn.commit().map_err(db_error)
    })();
    match given {
        Ok(()) => {
            pending.given();
            true
        }
        Err(e) => {
            tracing::error!("the store could not give redb the journalled appends: {e}");
            false
        }
    }
}

/// Applies the appends waiting in `pending` in `txn`, with nothing else.
fn give(txn: &WriteTransaction, pending: &Pending) -> Result<()> {
    let mut tables = Tables::open(txn)?;
    pending.apply(&mut tables)?;
    tables.finish(false)
}

/// A group of appends only: each checked against the table logs as redb
/// and `pending` hold them, the accepted ones journalled (synced) and kept
/// in `pending`: each request's own outcome, or the error that spoiled the
/// whole group (nothing of it is kept then).
fn journal_appends(
    db: &Database,
    journal: &mut Journal,
    pending: &mut Pending,
    batch: &[Request],
) -> Result<Vec<Result<()>>> {
    let mut snapshot = Snapshot::new(db);
    let mut undo = Undo::default();
    let mut outcomes = Vec::with_capacity(batch.len());
    let mut applied = Vec::with_capacity(batch.len());
    for request in batch {
        let Op::Append { id, at, entries } = &request.op else {
            unreachable!("the writer gives this group appends only");
        };
        match pending.append(&mut snapshot, id, *at, entries, &mut undo) {
            Ok(()) => {
                outcomes.push(Ok(()));
                applied.push(&request.op);
            }
            Err(Failure::Refused(e)) => outcomes.push(Err(e)),
            Err(Failure::Fatal(e)) => {
                pending.undo(undo);
                return Err(e);
            }
        }
    }
    if !applied.is_empty()
        && let Err(e) = journal.append(&Group {
            gc: false,
            ops: applied,
        })
    {
        pending.undo(undo);
        return Err(e);
    }
    Ok(outcomes)
}

/// Applies a batch in one transaction, journals what it applied and
/// commits it: each request's own outcome, or the error that spoiled the
/// whole batch. If redb fails after the journal was synced, the record is
/// written over by the next one; a crash before that replays it, and the
/// error the batch got said, like a timeout, that its writes may or may
/// not have happened.
fn commit(
    db: &Database,
    journal: &mut Journal,
    pending: &mut Pending,
    batch: &[Request],
    gc: bool,
) -> Result<Vec<Result<()>>> {
    let mut txn = db.begin_write().map_err(db_error)?;
    txn.set_durability(Durability::None).map_err(db_error)?;
    let mut outcomes = Vec::with_capacity(batch.len());
    let mut applied = Vec::with_capacity(batch.len());
    {
        let mut tables = Tables::open(&txn)?;
        // Journalled and answered before anything of this group.
        pending.apply(&mut tables)?;
        for request in batch {
            match tables.apply(&request.op) {
                Ok(()) => {
                    outcomes.push(Ok(()));
                    if !matches!(request.op, Op::Ping | Op::Flush) {
                        applied.push(&request.op);
                    }
                }
                Err(Failure::Refused(e)) => outcomes.push(Err(e)),
                Err(Failure::Fatal(e)) => return Err(e),
            }
        }
        tables.finish(gc)?;
    }
    let journalled = gc || !applied.is_empty();
    if journalled {
        journal.append(&Group { gc, ops: applied })?;
    }
    if let Err(e) = txn.commit() {
        if journalled {
            journal.retract();
        }
        return Err(db_error(e));
    }
    pending.forget();
    Ok(outcomes)
}
