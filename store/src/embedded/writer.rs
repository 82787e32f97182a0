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
//! succeed. Each transaction also takes a bounded step of garbage
//! collection of the live log when one is due (see the
//! [module documentation](super)).
//!
//! # When writing fails
//! If the journal or redb fails (an I/O error, a full disk, a failed
//! commit), the whole group is dropped and every request in it gets
//! [`StoreError::Unavailable`]. redb then refuses every later operation
//! on that handle, so the writer closes the files and refuses every write
//! with the reason (which the store reports, for `/healthz`) until it has
//! opened them again: every [`RETRY_EVERY`] it first writes and syncs a
//! probe file of [`PROBE_BYTES`] in the data directory, and once that
//! works opens the files as the store's open does (the database at its
//! last durable checkpoint, the journal's records after it replayed, a new
//! checkpoint taken). Every write answered `Ok` before the failure is in
//! the journal, so it comes back exactly once; a write of the failed
//! group may or may not come back, as its error said.

use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use redb::{Database, Durability, WriteTransaction};
use tokio::sync::mpsc;

use super::checkpointer::{Checkpointer, Outcome};
use super::handle::Handle;
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

/// While writing fails, how often the writer tries to open the files
/// again...
pub const RETRY_EVERY: Duration = Duration::from_secs(1);
/// ... or, when they are damaged (nothing an operator has not fixed will
/// change that), how often.
const RETRY_DAMAGED: Duration = Duration::from_secs(30);
/// The probe file written and synced before each try: a disk that cannot
/// take this cannot take a checkpoint either.
pub const PROBE_BYTES: usize = 256 << 10;
const PROBE_FILE: &str = "tengen.probe";

/// Counts of committed transactions and the requests they carried.
#[derive(Default)]
pub(super) struct Counters {
    pub batches: AtomicU64,
    pub requests: AtomicU64,
    /// The latest successful commit.
    pub progress: crate::Progress,
}

/// Where the store's files are, and how they are opened: at the store's
/// open, and by the writer again after writing failed.
#[derive(Clone)]
pub(super) struct Files {
    pub dir: PathBuf,
    pub db_file: PathBuf,
    pub cache_bytes: usize,
    pub checkpoint_bytes: u64,
    pub upgrade_meta: Option<crate::MetaUpgrade>,
}

impl Files {
    /// Opens the database and its journal, replays the journal's records
    /// that follow the last checkpoint and takes a checkpoint: the
    /// database, the journal, and how many commits were replayed.
    pub(super) fn open(&self) -> Result<(Arc<Database>, Journal, usize)> {
        let (db, fell_back, before) =
            super::open::open_store_keeping(&self.db_file, self.cache_bytes)?;
        let mut db = Arc::new(db);
        let fell_back = fell_back.then_some(self.db_file.as_path());
        let (mut journal, groups) =
            match Journal::open(&self.dir, &db, self.checkpoint_bytes, fell_back) {
                Ok(opened) => opened,
                Err(e) => {
                    // Refused (damage): the database goes back to the bytes
                    // the crash left, as the journal was left.
                    drop(db);
                    if let Some(before) = before {
                        before.put_back();
                    }
                    return Err(e);
                }
            };
        if let Some(before) = before {
            before.discard();
        }
        replay_and_checkpoint(&db, &mut journal, &mut Pending::default(), &groups)?;
        super::upgrade::upgrade(&mut db, &mut journal, self.upgrade_meta)?;
        super::skeletons::build_if_needed(&db)?;
        Ok((db, journal, groups.len()))
    }
}

/// What the writer holds while the files are open.
struct Core {
    db: Arc<Database>,
    journal: Journal,
}

/// Writing failed: the files are closed until a try to open them again
/// works.
struct Broken {
    since: Instant,
    next_try: Instant,
    /// Why the last try failed.
    last: Option<String>,
}

/// The writer thread's loop; returns when every sender is gone, after a
/// last checkpoint.
pub(super) fn run(
    files: Files,
    opened: (Arc<Database>, Journal),
    handle: Arc<Handle>,
    mut rx: mpsc::Receiver<Message>,
    counters: Arc<Counters>,
    checkpointer: Checkpointer,
) {
    let (db, journal) = opened;
    let mut writer = Writer {
        files,
        handle,
        core: Some(Core { db, journal }),
        broken: None,
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
    while let Some(message) = next(&mut rx, writer.broken.as_ref().map(|b| b.next_try)) {
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

/// The next message; with a deadline (while writing fails), a wake-up at
/// the latest then. `None` once every sender is gone.
fn next(rx: &mut mpsc::Receiver<Message>, until: Option<Instant>) -> Option<Message> {
    let Some(until) = until else {
        return rx.blocking_recv();
    };
    loop {
        match rx.try_recv() {
            Ok(message) => return Some(message),
            Err(mpsc::error::TryRecvError::Disconnected) => return None,
            Err(mpsc::error::TryRecvError::Empty) => {}
        }
        let left = until.saturating_duration_since(Instant::now());
        if left.is_zero() {
            return Some(Message::Wake);
        }
        std::thread::sleep(left.min(Duration::from_millis(10)));
    }
}

/// The writer thread's state between groups.
struct Writer {
    files: Files,
    handle: Arc<Handle>,
    /// `None` while writing fails (`broken` says since when).
    core: Option<Core>,
    broken: Option<Broken>,
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
    /// that is due. While writing fails, tries to open the files again if
    /// that is due, and refuses the requests if it still fails.
    fn step(&mut self, incoming: &mut Vec<Request>) {
        if self.core.is_none() {
            self.reopen();
            if self.core.is_none() {
                self.refuse(incoming.drain(..));
                return;
            }
        }
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
            if self.core.is_some()
                && (self.held.len() >= MAX_BATCH
                    || self.pending.len() >= MAX_WAITING
                    || self.journal().full())
                && let Some(outcome) = self.checkpointer.outcome(true)
            {
                self.checkpoint_ended(outcome);
            }
        }
        if self.core.is_none() {
            self.refuse(incoming.drain(..));
            return;
        }
        if !self.checkpointer.in_flight() {
            let mut batch = self.held.release();
            batch.append(incoming);
            if !batch.is_empty() {
                self.group(batch);
            }
            if self.core.is_some() {
                self.maybe_checkpoint();
            }
        }
    }

    fn journal(&mut self) -> &mut Journal {
        &mut self.core.as_mut().expect("the files are open").journal
    }

    /// Commits one group and answers its requests.
    fn group(&mut self, batch: Vec<Request>) {
        let Some(core) = &mut self.core else {
            self.refuse(batch.into_iter());
            return;
        };
        let outcome = if batch.iter().all(|r| matches!(r.op, Op::Append { .. })) {
            journal_appends(&core.db, &mut core.journal, &mut self.pending, &batch)
        } else {
            let gc = self.last_gc.is_none_or(|t| t.elapsed() >= GC_EVERY);
            if gc {
                self.last_gc = Some(Instant::now());
            }
            commit(&core.db, &mut core.journal, &mut self.pending, &batch, gc)
        };
        let (outcomes, failed) = match outcome {
            Ok(outcomes) => {
                self.counters.progress.mark();
                (outcomes, None)
            }
            Err(e) => {
                let message = format!("the write was not committed: {e}");
                let outcomes = batch
                    .iter()
                    .map(|_| Err(StoreError::Unavailable(message.clone())))
                    .collect();
                (outcomes, Some(e))
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
        if let Some(e) = failed {
            self.fail(&e);
        }
    }

    /// Answers `requests` with the reason writes are refused now.
    fn refuse(&self, requests: impl Iterator<Item = Request>) {
        let why = self
            .handle
            .refusing()
            .unwrap_or_else(|| "the store refuses writes".into());
        for request in requests {
            let _ = request
                .reply
                .send(Err(StoreError::Unavailable(why.clone())));
        }
    }

    /// Starts a checkpoint if one is due (none is in flight), or gives
    /// redb the waiting appends if enough wait.
    fn maybe_checkpoint(&mut self) {
        let Some(core) = &mut self.core else { return };
        if core.journal.due() {
            if self.checkpoint_failed {
                let start = Instant::now();
                let journalled = core.journal.len();
                match replay_and_checkpoint(&core.db, &mut core.journal, &mut self.pending, &[]) {
                    Ok(()) => {
                        self.checkpoint_failed = false;
                        self.counters.progress.mark();
                        tracing::debug!(
                            journal_bytes = journalled,
                            "the store's checkpoint took {:?}",
                            start.elapsed()
                        );
                    }
                    Err(e) => self.fail(&e),
                }
                return;
            }
            match core.journal.hand_over() {
                Ok(tag) => {
                    self.checkpointer
                        .begin(core.db.clone(), self.pending.take(), tag);
                    return;
                }
                Err(e) => {
                    self.fail(&e);
                    return;
                }
            }
        }
        if self.pending.full() && self.flush_failed.is_none_or(|t| t.elapsed() >= FLUSH_RETRY) {
            match flush(&core.db, &mut self.pending) {
                Ok(()) => self.flush_failed = None,
                Err(e) => {
                    self.flush_failed = Some(Instant::now());
                    self.fail(&e);
                }
            }
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

    /// Writing failed: closes the files (redb refuses every later
    /// operation on this handle) and refuses writes until they open again.
    fn fail(&mut self, e: &StoreError) {
        if self.core.is_none() {
            return;
        }
        let why = format!("the store cannot write: {e}");
        tracing::error!(
            "{why}; it refuses writes until it has opened its files again (tried every {RETRY_EVERY:?})"
        );
        self.handle.set_refusing(Some(why));
        // The checkpoint in flight holds the database: it ends first.
        let _ = self.checkpointer.outcome(true);
        let held = self.held.release();
        self.refuse(held.into_iter());
        // What waits for redb is in the journal: the open replays it.
        self.pending = Pending::default();
        self.checkpoint_failed = false;
        self.flush_failed = None;
        drop(self.handle.take());
        self.core = None;
        let now = Instant::now();
        self.broken = Some(Broken {
            since: now,
            next_try: now + RETRY_EVERY,
            last: None,
        });
    }

    /// Opens the files again if a try is due and the probe passes.
    fn reopen(&mut self) {
        let Some(broken) = &mut self.broken else {
            return;
        };
        let now = Instant::now();
        if now < broken.next_try {
            return;
        }
        let tried = probe(&self.files.dir).and_then(|()| self.files.open());
        match tried {
            Ok((db, journal, replayed)) => {
                tracing::info!(
                    replayed,
                    "the store writes again: it opened its files again {:?} after writing failed",
                    broken.since.elapsed()
                );
                self.handle.put(db.clone());
                self.handle.set_refusing(None);
                self.core = Some(Core { db, journal });
                self.broken = None;
                self.counters.progress.mark();
            }
            Err(e) => {
                let damaged = matches!(e, StoreError::Corrupt(_));
                broken.next_try = now + if damaged { RETRY_DAMAGED } else { RETRY_EVERY };
                let why = e.to_string();
                if broken.last.as_deref() != Some(why.as_str()) {
                    tracing::warn!("the store still cannot write: {why}");
                    self.handle
                        .set_refusing(Some(format!("the store cannot write: {why}")));
                    broken.last = Some(why);
                }
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
        if let Some(core) = &mut self.core
            && let Err(e) =
                replay_and_checkpoint(&core.db, &mut core.journal, &mut self.pending, &[])
        {
            tracing::error!("the store's last checkpoint failed: {e}");
        }
    }
}

/// Writes and syncs [`PROBE_BYTES`] in the data directory, then removes
/// them: whether the disk takes writes again.
fn probe(dir: &std::path::Path) -> Result<()> {
    use std::io::Write;
    use std::os::unix::fs::OpenOptionsExt;
    let path = dir.join(PROBE_FILE);
    let written = (|| {
        let mut file = std::fs::OpenOptions::new()
            .write(true)
            .create(true)
            .truncate(true)
            .mode(0o600)
            .open(&path)?;
        file.write_all(&vec![0u8; PROBE_BYTES])?;
        file.sync_all()
    })();
    let _ = std::fs::remove_file(&path);
    written.map_err(|e| {
        StoreError::Unavailable(format!(
            "the data directory {} does not take writes yet: {e}",
            dir.display()
        ))
    })
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
/// checkpoint).
fn flush(db: &Database, pending: &mut Pending) -> Result<()> {
    let mut txn = db.begin_write().map_err(db_error)?;
    txn.set_durability(Durability::None).map_err(db_error)?;
    give(&txn, pending)?;
    txn.commit().map_err(db_error)?;
    pending.given();
    Ok(())
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
