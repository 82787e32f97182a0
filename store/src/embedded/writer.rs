//! The writer thread: group commit of every write the store is asked for.
//!
//! One OS thread makes all writes. It blocks for the first waiting request
//! and takes every other request already queued (at most [`MAX_BATCH`]).
//! A group of nothing but appends is checked against what the table logs
//! hold ([`Pending`]), appended to the [journal](super::journal) (synced)
//! and answered; its entries reach redb later, in order, in the next write
//! transaction (see [`super::pending`]). Any other group is applied in
//! order in one write transaction, after the appends still waiting,
//! appended to the journal (synced), committed with [`Durability::None`]
//! and then answered. A durable checkpoint follows every few seconds, on
//! the checkpoint thread (`checkpointer`): while it holds redb's write
//! transaction, groups of appends go on, and the writes that need a
//! transaction wait for it (`held`). A request whose own precondition
//! fails (an append at the wrong length, a taken id, a rating updated
//! meanwhile) checks everything before it writes anything, so it fails
//! alone and the rest of the group commits; the later requests see the
//! earlier ones' writes, so two appends to one table in one group both
//! succeed. If the journal or redb fails (an I/O error, a failed commit),
//! the whole group is dropped and every request in it gets
//! [`StoreError::Unavailable`]. Each transaction also takes a bounded step
//! of garbage collection of the live log when one is due (see the
//! [module documentation](super)).

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use redb::{Database, Durability, WriteTransaction};
use tokio::sync::mpsc;

use super::checkpointer::{Checkpointer, Outcome};
use super::held::Held;
use super::journal::{Group, Journal, Replay};
use super::ops::{Message, Op, Request};
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

/// Appends that may wait for redb while a checkpoint is taken before the
/// writer waits for that checkpoint to end (a disk that stalls the
/// checkpoint stalls the appends too, and memory stays bounded).
const MAX_WAITING: usize = 64 * 1024;

/// After a failed flush of the waiting appends, the least time before the
/// writer tries one again on its own (every other transaction still tries
/// first): a database that fails is not asked, and logged about, after
/// every group.
const FLUSH_RETRY: Duration = Duration::from_secs(1);

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
    journal: Journal,
    mut rx: mpsc::Receiver<Message>,
    counters: Arc<Counters>,
    checkpointer: Checkpointer,
) {
    let mut writer = Writer {
        db,
        journal,
        counters,
        checkpointer,
        pending: Pending::default(),
        held: Held::default(),
        checkpoint_failed: false,
        last_gc: None,
        flush_failed: None,
    };
    let mut last_start: Option<Instant> = None;
    let mut incoming = Vec::with_capacity(MAX_BATCH);
    while let Some(message) = rx.blocking_recv() {
        if let Message::Write(request) = message {
            if let Some(wait) = last_start.map(|t| COMMIT_SPACING.saturating_sub(t.elapsed()))
                && !wait.is_zero()
            {
                std::thread::sleep(wait);
            }
            last_start = Some(Instant::now());
            incoming.push(request);
        }
        while incoming.len() < MAX_BATCH {
            match rx.try_recv() {
                Ok(Message::Write(request)) => incoming.push(request),
                Ok(Message::Wake) => {}
                Err(_) => break,
            }
        }
        writer.step(&mut incoming);
    }
    writer.stop();
}

/// The writer thread's state between groups.
struct Writer {
    db: Arc<Database>,
    journal: Journal,
    counters: Arc<Counters>,
    checkpointer: Checkpointer,
    pending: Pending,
    /// The writes held back while a checkpoint is taken.
    held: Held,
    /// The last checkpoint taken on the checkpoint thread failed: the
    /// journal's other file still counts, so the writer takes the next one
    /// itself.
    checkpoint_failed: bool,
    last_gc: Option<Instant>,
    flush_failed: Option<Instant>,
}

impl Writer {
    /// Handles the requests just received (all of them: `incoming` is left
    /// empty) and takes a checkpoint or gives redb the waiting appends if
    /// that is due.
    fn step(&mut self, incoming: &mut Vec<Request>) {
        if let Some(outcome) = self.checkpointer.outcome(false) {
            self.checkpoint_ended(outcome);
        }
        if self.checkpointer.in_flight() {
            // Only appends to tables no held write touches go on.
            let appends: Vec<Request> = incoming
                .drain(..)
                .filter_map(|request| self.held.hold_unless_free(request))
                .collect();
            if !appends.is_empty() {
                self.group(appends);
            }
            if (self.held.len() >= MAX_BATCH
                || self.pending.len() >= MAX_WAITING
                || self.journal.full())
                && let Some(outcome) = self.checkpointer.outcome(true)
            {
                self.checkpoint_ended(outcome);
            }
        }
        if !self.checkpointer.in_flight() {
            let mut batch = self.held.release();
            batch.append(incoming);
            if !batch.is_empty() {
                self.group(batch);
            }
            self.maybe_checkpoint();
        }
    }

    /// Commits one group and answers its requests.
    fn group(&mut self, batch: Vec<Request>) {
        let outcome = if batch.iter().all(|r| matches!(r.op, Op::Append { .. })) {
            journal_appends(&self.db, &mut self.journal, &mut self.pending, &batch)
        } else {
            let gc = self.last_gc.is_none_or(|t| t.elapsed() >= GC_EVERY);
            if gc {
                self.last_gc = Some(Instant::now());
            }
            commit(&self.db, &mut self.journal, &mut self.pending, &batch, gc)
        };
        let outcomes = match outcome {
            Ok(outcomes) => {
                self.counters.progress.mark();
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
        self.counters.batches.fetch_add(1, Ordering::Relaxed);
        self.counters
            .requests
            .fetch_add(batch.len() as u64, Ordering::Relaxed);
        for (request, outcome) in batch.into_iter().zip(outcomes) {
            // The caller may have stopped waiting; the write stands anyway.
            let _ = request.reply.send(outcome);
        }
    }

    /// Starts a checkpoint if one is due (none is in flight), or gives
    /// redb the waiting appends if enough wait.
    fn maybe_checkpoint(&mut self) {
        if self.journal.due() {
            if self.checkpoint_failed {
                self.checkpoint_failed = !checkpoint(
                    &self.db,
                    &mut self.journal,
                    &mut self.pending,
                    &self.counters,
                );
                return;
            }
            match self.journal.hand_over() {
                Ok(tag) => {
                    self.checkpointer.begin(self.pending.take(), tag);
                    return;
                }
                Err(e) => tracing::error!("the store could not start a checkpoint: {e}"),
            }
        }
        if self.pending.full() && self.flush_failed.is_none_or(|t| t.elapsed() >= FLUSH_RETRY) {
            self.flush_failed = (!flush(&self.db, &mut self.pending)).then(Instant::now);
        }
    }

    /// A checkpoint on the checkpoint thread ended.
    fn checkpoint_ended(&mut self, outcome: Outcome) {
        match outcome {
            Ok(took) => {
                self.counters.progress.mark();
                tracing::debug!("the store's checkpoint took {took:?}");
            }
            Err((taken, e)) => {
                tracing::error!("the store's checkpoint failed: {e}");
                self.pending.restore(taken);
                self.checkpoint_failed = true;
            }
        }
    }

    /// The last writes after every sender is gone: the checkpoint in
    /// flight ends, the writes held back for it are committed and a last
    /// checkpoint is taken.
    fn stop(mut self) {
        if let Some(outcome) = self.checkpointer.outcome(true) {
            self.checkpoint_ended(outcome);
        }
        let held = self.held.release();
        if !held.is_empty() {
            self.group(held);
        }
        checkpoint(
            &self.db,
            &mut self.journal,
            &mut self.pending,
            &self.counters,
        );
    }
}

/// A durable commit that makes the journal's records redundant, taken by
/// the writer itself (at open, at a clean stop, after a checkpoint on the
/// checkpoint thread failed); whether it committed. If it fails, the
/// journal keeps growing and the next due checkpoint tries again.
fn checkpoint(
    db: &Database,
    journal: &mut Journal,
    pending: &mut Pending,
    counters: &Counters,
) -> bool {
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
            true
        }
        Err(e) => {
            tracing::error!("the store's checkpoint failed: {e}");
            false
        }
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
