//! The writer thread: group commit of every write the store is asked for.
//!
//! One OS thread owns all write transactions. It blocks for the first
//! waiting request, takes every other request already queued (at most
//! [`MAX_BATCH`]), applies them in order in one write transaction, appends
//! what it applied to the [journal](super::journal) (synced), commits
//! once with [`Durability::None`] and then answers each request; a durable
//! checkpoint follows every few seconds. A request whose own precondition
//! fails (an append at the wrong length, a taken id, a rating updated
//! meanwhile) checks everything before it writes anything, so it fails
//! alone and the rest of the batch commits; the later requests see the
//! earlier ones' writes (the transaction's own view), so two appends to one
//! table in one batch both succeed. If redb
//! fails (an I/O error, a failed commit), the whole batch is dropped and
//! every request in it gets [`StoreError::Unavailable`]. Each commit also
//! takes a bounded step of garbage collection of the live log when one is
//! due (see the [module documentation](super)).

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use redb::{Database, Durability, ReadableTable, ReadableTableMetadata, Table, WriteTransaction};
use tokio::sync::{mpsc, oneshot};

use super::journal::{Group, Journal, Replay};
use super::lazy::Lazy;
use super::ops::Op;
use super::schema::{Applied, Failure, fatal};

use super::schema::{
    ACCOUNTS, COUNTERS, GAME_INFO, GAME_RECORD, GAMES_BY_PLAYER, GC_CURSOR, GameInfo, LIVE,
    LIVE_LOG, LIVE_META, NEXT_SEQ, ORPHANS, RATING_HISTORY, RATINGS, TOKENS, after, db_error,
    decode, encode,
};
use crate::{Account, FinishedGame, Rating, Result, StoreError, name_key};

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

/// Orphaned log entries (of finished or discarded tables) are collected
/// once there are at least this many and at least a quarter of the log...
const GC_MIN_ORPHANS: u64 = 4096;
/// ... by steps that each scan this many entries, one step per commit at
/// most every [`GC_EVERY`]: a step deletes hundreds of pages' worth of
/// entries, and every write waiting meanwhile waits for it, so steps are
/// kept small and spread out (up to 100k entries a second, far above the
/// rate at which moves are made).
const GC_STEP: usize = 2 * 1024;
const GC_EVERY: Duration = Duration::from_millis(20);

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
        let gc = last_gc.is_none_or(|t| t.elapsed() >= GC_EVERY);
        if gc {
            last_gc = Some(Instant::now());
        }
        let outcomes = match commit(&db, &mut journal, &batch, gc) {
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
            checkpoint(&db, &mut journal, &counters);
        }
    }
    checkpoint(&db, &mut journal, &counters);
}

/// A durable commit that makes the journal's records redundant. If it
/// fails, the journal keeps growing and the next group tries again.
fn checkpoint(db: &Database, journal: &mut Journal, counters: &Counters) {
    let start = Instant::now();
    let journalled = journal.len();
    match replay_and_checkpoint(db, journal, &[]) {
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
/// at open, in order; none for a plain checkpoint) and takes a checkpoint.
pub(super) fn replay_and_checkpoint(
    db: &Database,
    journal: &mut Journal,
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
    let tag = journal.tag_checkpoint(&txn)?;
    txn.commit().map_err(db_error)?;
    journal.checkpointed(tag);
    Ok(())
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
    batch: &[Request],
    gc: bool,
) -> Result<Vec<Result<()>>> {
    let mut txn = db.begin_write().map_err(db_error)?;
    txn.set_durability(Durability::None).map_err(db_error)?;
    let mut outcomes = Vec::with_capacity(batch.len());
    let mut applied = Vec::with_capacity(batch.len());
    {
        let mut tables = Tables::open(&txn)?;
        for request in batch {
            match tables.apply(&request.op) {
                Ok(()) => {
                    outcomes.push(Ok(()));
                    if !matches!(request.op, Op::Ping) {
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
    Ok(outcomes)
}

/// Every table, open in one write transaction, and the counters as this
/// transaction has them.
pub(super) struct Tables<'txn> {
    pub(super) counters: Table<'txn, &'static str, u64>,
    pub(super) next_seq: u64,
    pub(super) orphans: u64,
    pub(super) live: Table<'txn, &'static str, (u64, u64)>,
    pub(super) live_meta: Lazy<'txn, &'static str, &'static [u8]>,
    pub(super) live_log: Table<'txn, u64, (u64, u64, &'static [u8])>,
    pub(super) game_info: Lazy<'txn, &'static str, &'static [u8]>,
    pub(super) game_record: Lazy<'txn, &'static str, &'static [u8]>,
    pub(super) games_by_player: Lazy<'txn, (&'static str, u64, &'static str), &'static [u8]>,
    pub(super) accounts: Lazy<'txn, &'static str, &'static [u8]>,
    pub(super) tokens: Lazy<'txn, &'static str, &'static [u8]>,
    pub(super) ratings: Lazy<'txn, (&'static str, &'static str), &'static [u8]>,
    pub(super) history: Lazy<'txn, (&'static str, &'static str, u64), &'static [u8]>,
    pub(super) moderation: Lazy<'txn, &'static str, &'static [u8]>,
    pub(super) tournaments: Lazy<'txn, &'static str, &'static [u8]>,
}

impl<'txn> Tables<'txn> {
    pub(super) fn open(txn: &'txn WriteTransaction) -> Result<Self> {
        let counters = txn.open_table(COUNTERS).map_err(db_error)?;
        let counter = |name| -> Result<u64> {
            Ok(counters
                .get(name)
                .map_err(db_error)?
                .map_or(0, |v| v.value()))
        };
        let (next_seq, orphans) = (counter(NEXT_SEQ)?, counter(ORPHANS)?);
        Ok(Tables {
            counters,
            next_seq,
            orphans,
            live: txn.open_table(LIVE).map_err(db_error)?,
            live_meta: Lazy::new(txn, LIVE_META),
            live_log: txn.open_table(LIVE_LOG).map_err(db_error)?,
            game_info: Lazy::new(txn, GAME_INFO),
            game_record: Lazy::new(txn, GAME_RECORD),
            games_by_player: Lazy::new(txn, GAMES_BY_PLAYER),
            accounts: Lazy::new(txn, ACCOUNTS),
            tokens: Lazy::new(txn, TOKENS),
            ratings: Lazy::new(txn, RATINGS),
            history: Lazy::new(txn, RATING_HISTORY),
            moderation: Lazy::new(txn, super::schema::MODERATION),
            tournaments: Lazy::new(txn, super::tournaments::TOURNAMENTS),
        })
    }

    pub(super) fn apply(&mut self, op: &Op) -> Applied {
        match op {
            Op::Ping => Ok(()),
            Op::CreateTable { id, meta } => self.create_table(id, meta),
            Op::Append { id, at, entries } => self.append(id, *at, entries),
            Op::Discard { id } => self.remove_live(id),
            Op::Finish(game) => self.finish_game(game),
            Op::CreateAccount(account) => self.create_account(account),
            Op::MakeBot(name) => self.make_bot(name),
            Op::SetBotFilters { name, filters } => self.set_bot_filters(name, filters),
            Op::Moderation(write) => self.moderate(write),
            Op::PutToken(token) => {
                let value = encode(token).map_err(Failure::Refused)?;
                self.tokens
                    .open()?
                    .insert(token.token.as_str(), value.as_slice())
                    .map_err(fatal)?;
                Ok(())
            }
            Op::Import(items) => {
                for item in items {
                    if let crate::Item::Live(table) = item
                        && self.is_finished(&table.id)?
                    {
                        return Err(Failure::Refused(StoreError::Exists(format!(
                            "game {} is finished; it cannot be imported as live",
                            table.id
                        ))));
                    }
                }
                self.import(items)
            }
            Op::PutTournament { id, state } => {
                self.tournaments
                    .open()?
                    .insert(id.as_str(), state.as_slice())
                    .map_err(fatal)?;
                Ok(())
            }
            Op::RevokeToken(token) => {
                self.tokens.open()?.remove(token.as_str()).map_err(fatal)?;
                Ok(())
            }
        }
    }

    fn is_live(&self, id: &str) -> std::result::Result<bool, Failure> {
        Ok(self.live.get(id).map_err(fatal)?.is_some())
    }

    /// Writes back the counters and takes a step of garbage collection if
    /// one is due and `gc` allows it.
    pub(super) fn finish(&mut self, gc: bool) -> Result<()> {
        if gc
            && self.orphans >= GC_MIN_ORPHANS
            && self.orphans >= self.live_log.len().map_err(db_error)? / 4
        {
            self.collect_garbage()?;
        }
        self.counters
            .insert(NEXT_SEQ, self.next_seq)
            .map_err(db_error)?;
        self.counters
            .insert(ORPHANS, self.orphans)
            .map_err(db_error)?;
        Ok(())
    }

    /// Deletes the orphaned entries among the next [`GC_STEP`] of the log
    /// from the cursor on, wrapping around at the end.
    fn collect_garbage(&mut self) -> Result<()> {
        let mut live = std::collections::HashSet::new();
        for row in self.live.iter().map_err(db_error)? {
            live.insert(row.map_err(db_error)?.1.value().0);
        }
        let start = self
            .counters
            .get(GC_CURSOR)
            .map_err(db_error)?
            .map_or(0, |v| v.value());
        let end = match self.live_log.range(start..).map_err(db_error)?.nth(GC_STEP) {
            Some(row) => Some(row.map_err(db_error)?.0.value()),
            None => None,
        };
        let mut deleted = 0;
        let keep = |_, (generation, _, _): (u64, u64, &[u8])| {
            let keep = live.contains(&generation);
            deleted += u64::from(!keep);
            keep
        };
        match end {
            Some(end) => self.live_log.retain_in(start..end, keep),
            None => self.live_log.retain_in(start.., keep),
        }
        .map_err(db_error)?;
        self.orphans = self.orphans.saturating_sub(deleted);
        self.counters
            .insert(GC_CURSOR, end.unwrap_or(0))
            .map_err(db_error)?;
        Ok(())
    }

    fn is_finished(&mut self, id: &str) -> std::result::Result<bool, Failure> {
        Ok(self.game_info.open()?.get(id).map_err(fatal)?.is_some())
    }

    pub(super) fn create_table(&mut self, id: &str, meta: &[u8]) -> Applied {
        if self.is_live(id)? {
            return Err(Failure::Refused(StoreError::Exists(format!(
                "table {id} is live"
            ))));
        }
        if self.is_finished(id)? {
            return Err(Failure::Refused(StoreError::Exists(format!(
                "game {id} is finished"
            ))));
        }
        let generation = self.next_seq;
        self.next_seq += 1;
        self.live_meta.open()?.insert(id, meta).map_err(fatal)?;
        self.live.insert(id, (generation, 0)).map_err(fatal)?;
        Ok(())
    }

    pub(super) fn append(&mut self, id: &str, at: u64, entries: &[Vec<u8>]) -> Applied {
        let (generation, len) = match self.live.get(id).map_err(fatal)? {
            Some(row) => row.value(),
            None => {
                return Err(Failure::Refused(StoreError::NotFound(format!(
                    "no live table {id}"
                ))));
            }
        };
        if len != at {
            return Err(Failure::Refused(StoreError::Conflict(format!(
                "table {id}'s log has {len} entries, not {at}"
            ))));
        }
        for (index, entry) in (at..).zip(entries) {
            self.live_log
                .insert(self.next_seq, (generation, index, entry.as_slice()))
                .map_err(fatal)?;
            self.next_seq += 1;
        }
        self.live
            .insert(id, (generation, at + entries.len() as u64))
            .map_err(fatal)?;
        Ok(())
    }

    /// Removes a live table and its metadata, if it is there. Its log
    /// entries are orphans from now on, left to the garbage collection
    /// (they are spread through the log).
    pub(super) fn remove_live(&mut self, id: &str) -> Applied {
        let Some(len) = self.live.remove(id).map_err(fatal)?.map(|r| r.value().1) else {
            return Ok(());
        };
        self.live_meta.open()?.remove(id).map_err(fatal)?;
        self.orphans += len;
        Ok(())
    }

    fn finish_game(&mut self, game: &FinishedGame) -> Applied {
        let id = game.id.as_str();
        // Every check and every encoding first: a refusal writes nothing.
        if self.is_finished(id)? {
            return Err(Failure::Refused(StoreError::Exists(format!(
                "game {id} is finished"
            ))));
        }
        let mut ratings = Vec::with_capacity(game.ratings.len());
        for update in &game.ratings {
            let rating = &update.rating;
            let player = name_key(&rating.player);
            let stored = match self
                .ratings
                .open()?
                .get((rating.family.as_str(), player.as_str()))
                .map_err(fatal)?
            {
                Some(value) => {
                    let stored: Rating =
                        decode(value.value(), "a rating").map_err(Failure::Refused)?;
                    stored.games
                }
                None => 0,
            };
            if stored != update.expected_games {
                return Err(Failure::Refused(StoreError::Conflict(format!(
                    "{}'s {} rating has {stored} games, not {}",
                    rating.player, rating.family, update.expected_games
                ))));
            }
            let value = encode(rating).map_err(Failure::Refused)?;
            let point = encode(&update.history).map_err(Failure::Refused)?;
            ratings.push((player, rating.family.as_str(), value, point));
        }
        self.put_game(game)?;
        for (player, family, value, point) in &ratings {
            self.ratings
                .open()?
                .insert((*family, player.as_str()), value.as_slice())
                .map_err(fatal)?;
            let seq = match self
                .history
                .open()?
                .range((player.as_str(), *family, 0)..=(player.as_str(), *family, u64::MAX))
                .map_err(fatal)?
                .next_back()
            {
                Some(last) => last.map_err(fatal)?.0.value().2 + 1,
                None => 0,
            };
            self.history
                .open()?
                .insert((player.as_str(), *family, seq), point.as_slice())
                .map_err(fatal)?;
        }
        self.remove_live(id)
    }

    /// Writes a finished game's header and record and indexes it for its
    /// players (no checks).
    pub(super) fn put_game(&mut self, game: &FinishedGame) -> Applied {
        let id = game.id.as_str();
        let info = encode(&GameInfo {
            finished_ms: game.finished_ms,
            players: game.players.clone(),
        })
        .map_err(Failure::Refused)?;
        let players = encode(&game.players).map_err(Failure::Refused)?;
        self.game_info
            .open()?
            .insert(id, info.as_slice())
            .map_err(fatal)?;
        self.game_record
            .open()?
            .insert(id, game.record.as_slice())
            .map_err(fatal)?;
        for player in &game.players {
            let key = name_key(player);
            self.games_by_player
                .open()?
                .insert((key.as_str(), game.finished_ms, id), players.as_slice())
                .map_err(fatal)?;
        }
        Ok(())
    }

    fn create_account(&mut self, account: &Account) -> Applied {
        let key = name_key(&account.name);
        if self
            .accounts
            .open()?
            .get(key.as_str())
            .map_err(fatal)?
            .is_some()
        {
            return Err(Failure::Refused(StoreError::Exists(format!(
                "the name {} is taken",
                account.name
            ))));
        }
        let value = encode(account).map_err(Failure::Refused)?;
        self.accounts
            .open()?
            .insert(key.as_str(), value.as_slice())
            .map_err(fatal)?;
        Ok(())
    }

    /// The stored account under `name` (any case), or `not_found`.
    fn stored_account(&mut self, name: &str) -> std::result::Result<Account, Failure> {
        match self
            .accounts
            .open()?
            .get(name_key(name).as_str())
            .map_err(fatal)?
        {
            Some(value) => decode(value.value(), "an account").map_err(Failure::Refused),
            None => Err(Failure::Refused(StoreError::NotFound(format!(
                "no account {name}"
            )))),
        }
    }

    /// A bot's filters kept (see [`crate::Store::set_bot_filters`]).
    fn set_bot_filters(&mut self, name: &str, filters: &str) -> Applied {
        let mut account = self.stored_account(name)?;
        if !account.bot {
            return Err(Failure::Refused(StoreError::Conflict(format!(
                "{name} is not a bot"
            ))));
        }
        account.bot_filters = Some(filters.to_owned());
        let value = encode(&account).map_err(Failure::Refused)?;
        self.accounts
            .open()?
            .insert(name_key(name).as_str(), value.as_slice())
            .map_err(fatal)?;
        Ok(())
    }

    /// The account made a bot, checked against its games in the same
    /// transaction (see [`crate::Store::make_bot`]).
    fn make_bot(&mut self, name: &str) -> Applied {
        let key = name_key(name);
        let mut account = self.stored_account(name)?;
        if account.bot {
            return Ok(());
        }
        let played = self
            .games_by_player
            .open()?
            .range((key.as_str(), 0, "")..(after(&key).as_str(), 0, ""))
            .map_err(fatal)?
            .next()
            .is_some();
        if played {
            return Err(Failure::Refused(StoreError::Conflict(format!(
                "{name} has played a game"
            ))));
        }
        account.bot = true;
        let value = encode(&account).map_err(Failure::Refused)?;
        self.accounts
            .open()?
            .insert(key.as_str(), value.as_slice())
            .map_err(fatal)?;
        Ok(())
    }
}
