//! The embedded store: one [redb] file in the data directory.
//!
//! Why: a single server needs durable state without running anything
//! beside it. redb is a pure-Rust, crash-safe (copy-on-write B-trees,
//! checksummed commits), ACID key-value store in one file, with read
//! transactions that never wait for the writer; it locks its file, so two
//! servers cannot share one data directory by mistake.
//!
//! # Files
//! `DIR/tengen.redb` ([`DB_FILE`]) and its journal, `DIR/tengen.journal`
//! and `DIR/tengen.journal.2` ([`JOURNAL_FILE`], [`SECOND_FILE`]; empty of
//! anything that counts after a clean stop).
//! [`EmbeddedStore::open`] creates the directory and the file if they are
//! missing, and otherwise opens the
//! file as it is: a data directory that is a file, a file that is not a
//! redb database, a redb database that is not a Tengen store, a store of
//! another [`SCHEMA_VERSION`] and a store open elsewhere (redb locks the
//! file) are errors, found before anything is written: an existing file is
//! first opened read-only, and redb initialises only an empty file and
//! never truncates one.
//!
//! # Layout
//! | table | key | value |
//! |---|---|---|
//! | `meta` | `"schema_version"` | `u32`, [`SCHEMA_VERSION`] |
//! | `counters` | `"next_seq"`, `"orphans"`, `"gc_cursor"` | `u64` |
//! | `live` | table id | (generation, log length) (a table is live iff it is here) |
//! | `live_meta` | table id | metadata (raw bytes) |
//! | `live_log` | sequence number `u64` | (generation, index in its log, entry (raw bytes)) |
//! | `game_info` | game id | `{finished_ms, players}` (encoded) |
//! | `game_record` | game id | the record (raw bytes) |
//! | `games_by_player` | (name_key(player), finished_ms, game id) | the players (encoded), read newest first |
//! | `accounts` | name_key(name) | [`crate::Account`] (encoded) |
//! | `tokens` | the token's digest (`sha256:` hex) | [`crate::AuthToken`] (encoded; its `token` the digest too) |
//! | `ratings` | (family, name_key(player)) | [`crate::Rating`] (encoded) |
//! | `rating_history` | (name_key(player), family, seq `u64`) | [`crate::HistoryPoint`] (encoded) |
//! | `moderation` | `s/`name_key, `a/`seq, `r/`report id, `n/`range | standing, audit entry, report, address ban (encoded) |
//! | `tournaments` | tournament id | the server's state of the event (raw bytes; `tournaments`) |
//! | `name_skeletons` | (name_skeleton(name), name_key(name)) | `()`: the accounts by what their names look like (`skeletons`; built at open, `meta` `"name_skeletons"` holding its version) |
//! | `study_*` | tallies and documents by space (`study`) | counters, lists, documents, scores |
//!
//! The live log is one sequence for all tables, keyed by a number that
//! grows with every append: a commit of a thousand appends to a thousand
//! tables then writes a few pages at the end of one B-tree, where keying
//! by (table, index) would copy a page per table (measured: about 4 times
//! the append rate). A table's generation is the sequence number taken
//! when it was created, so each entry names its table's incarnation, and
//! a discarded table's entries never count for a new table of the same
//! id. Finishing or discarding a table only removes its `live` row: its
//! entries become orphans, which the writer collects a bounded step per
//! commit, at most one step every 20 ms (a scan of 2Ki entries from a
//! cursor that wraps around: small steps, so that the writes waiting
//! behind a step wait little), once they are at least 4,096 and a quarter
//! of the log. `live_tables()`
//! reads the log from the oldest live table's generation on and skips
//! orphans.
//!
//! Opaque payloads (metadata, log entries, records) are stored as the
//! bytes the server gave. The struct values are MessagePack with field
//! names (`rmp-serde`, `to_vec_named`): compact and fast, floats stored as
//! their 8 bytes so ratings come back bit-exact (serde_json's default
//! float parsing does not promise that), and named fields let a later
//! version add one with a serde default without a new schema version.
//!
//! # Writes and reads
//! Every write goes to one writer OS thread through a bounded queue. The
//! thread takes the first waiting request and every other one already
//! queued (at most 1,024) and appends the group to the journal
//! (`DIR/tengen.journal`, synced with `fdatasync`) before it answers any of
//! them: a group commit, so that many tables appending at once share one
//! sync of a few sequential kilobytes. A group of nothing but appends (a
//! move's write, by far the most frequent) is checked against the logs and
//! answered from the journal alone; its entries reach redb later, in the
//! order they were answered (`pending`). Any other group is applied in
//! order in one write transaction, after those waiting entries, and
//! committed without durability. A durable redb commit (a checkpoint) at
//! 8 MiB of journal, every 10 s and at a clean stop makes the journal's
//! records redundant; opening the store after a crash replays the records
//! that followed the last checkpoint (see `journal`). A checkpoint is
//! taken on a thread of its own (`checkpointer`): groups of appends go on
//! meanwhile, into the journal's second file, and the writes that need a
//! write transaction wait for it (`held`). Commits start at
//! least 0.5 ms apart, so under load a group gathers the requests of that
//! time (an idle writer starts at once). Each commit marks the store's
//! [`crate::Progress`], which tells a caller whose write is late that the
//! store is behind, not down. A request whose own precondition fails (an
//! append at the wrong length, a taken id, a rating updated meanwhile)
//! checks everything before it writes anything, so it fails alone and the
//! rest of its group commits; later requests in a group see the earlier
//! ones' writes, so two appends to one table in one group both succeed. If
//! the journal or redb fails (an I/O error, a failed commit), every request
//! of the group gets [`StoreError::Unavailable`]. Reads run each in one
//! read transaction (a consistent snapshot), on one of a fixed set of
//! reader threads (`readers`), and never wait for the writer, except the
//! reads of live logs (`live_table`, `live_tables`, `log_stats`, export),
//! which first ask the writer to give redb the appends it holds, so that
//! they see every append answered before them. No async task waits on the
//! disk; only [`EmbeddedStore::open`] (called once at start) and dropping
//! the store (which waits for the writer thread to finish the writes
//! already queued) block.
//!
//! # Export and import
//! `transfer`: an export reads one table after the other (accounts,
//! tokens, ratings with their history, games, live tables with their logs)
//! in key order, a page per read transaction, the cursor being the section
//! and the last key given; an import is one write request, applied in the
//! writer's transaction like any other.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::thread::JoinHandle;
use std::time::Duration;

use async_trait::async_trait;
use redb::Database;
use tokio::sync::{mpsc, oneshot};

use crate::{
    Account, Acquired, AddressBan, AuditEntry, AuthToken, ExportCursor, ExportPage, FinishedGame,
    GameRef, HistoryPoint, Item, Lease, LiveTable, Rating, Report, Result, Standing, Store,
    StoreError, token_digest,
};

pub mod backup;
mod checkpointer;
mod handle;
mod held;
mod journal;
mod lazy;
mod lease;
mod moderation;
mod open;
mod ops;
mod pending;
#[cfg(feature = "testing")]
mod previous;
mod read;
mod readers;
mod salvage;
mod schema;
mod skeletons;
mod study;
mod tables;
mod tournaments;
mod transfer;
mod upgrade;
mod writer;

#[cfg(feature = "testing")]
#[doc(hidden)]
pub use checkpointer::{checkpoint_failures_left, fail_next_checkpoints};
pub use journal::{CHECKPOINT_BYTES, JOURNAL_FILE, SECOND_FILE};
#[cfg(feature = "testing")]
#[doc(hidden)]
pub use journal::{SLOW_SYNC_ENV, record_spans};
use ops::{Message, ModWrite, Op, Request};
#[cfg(feature = "testing")]
#[doc(hidden)]
pub use previous::as_previous_version;
pub use readers::READERS;
pub use salvage::{Salvaged, salvage};
pub use schema::{DB_FILE, LogStats, SCHEMA_VERSION};
use schema::{META, SCHEMA_VERSION_KEY, db_error};
use writer::Counters;
pub use writer::{PROBE_BYTES, RETRY_EVERY};

/// How many writes may wait for the writer thread before callers wait to
/// queue theirs.
const QUEUE: usize = 8 * writer::MAX_BATCH;

pub use open::{DEFAULT_CACHE_BYTES, EmbeddedOptions};
#[doc(hidden)]
pub use skeletons::forget_for_tests as forget_name_index_for_tests;

/// The embedded store (see the [module documentation](self)).
pub struct EmbeddedStore {
    path: PathBuf,
    requests: Option<mpsc::Sender<Message>>,
    writer: Option<JoinHandle<()>>,
    counters: Arc<Counters>,
    leases: lease::Leases,
    readers: readers::Readers,
    handle: Arc<handle::Handle>,
    replayed: usize,
    backups: backup::Guard,
}

/// What the writer thread has done since the store was opened.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct WriteStats {
    /// Transactions committed (or attempted).
    pub batches: u64,
    /// Write requests they carried.
    pub requests: u64,
}

impl EmbeddedStore {
    /// Opens the store in `dir` (see the [module documentation](self))
    /// with a cache of [`DEFAULT_CACHE_BYTES`]. Blocks on the disk: call it
    /// at start, or from a blocking thread.
    pub fn open(dir: &Path) -> Result<EmbeddedStore> {
        EmbeddedStore::open_with_cache(dir, DEFAULT_CACHE_BYTES)
    }

    /// [`EmbeddedStore::open`] with a page cache of at most `cache_bytes`.
    pub fn open_with_cache(dir: &Path, cache_bytes: usize) -> Result<EmbeddedStore> {
        EmbeddedStore::open_with_checkpoints(dir, cache_bytes, CHECKPOINT_BYTES)
    }

    /// [`EmbeddedStore::open_with_cache`] with a checkpoint taken at every
    /// `checkpoint_bytes` of journal instead of [`CHECKPOINT_BYTES`], so
    /// that tests can see several without writing tens of megabytes.
    #[doc(hidden)]
    pub fn open_with_checkpoints(
        dir: &Path,
        cache_bytes: usize,
        checkpoint_bytes: u64,
    ) -> Result<EmbeddedStore> {
        EmbeddedStore::open_with(
            dir,
            &EmbeddedOptions {
                cache_bytes,
                checkpoint_bytes,
                ..EmbeddedOptions::default()
            },
        )
    }

    /// Opens the store in `dir` as `options` say (see
    /// [`EmbeddedStore::open`]).
    pub fn open_with(dir: &Path, options: &EmbeddedOptions) -> Result<EmbeddedStore> {
        let files = writer::Files {
            dir: dir.to_owned(),
            db_file: open::data_file(dir)?,
            cache_bytes: options.cache_bytes,
            checkpoint_bytes: options.checkpoint_bytes,
            upgrade_meta: options.upgrade_meta,
        };
        let (db, journal, replayed) = files.open()?;
        if replayed > 0 {
            tracing::info!(
                "the store replayed {replayed} journalled commits that followed its last checkpoint"
            );
        }
        let path = files.db_file.clone();
        let handle = Arc::new(handle::Handle::new(db.clone()));
        let (requests, queue) = mpsc::channel(QUEUE);
        let counters = Arc::new(Counters::default());
        let checkpointer = {
            // Weak: the writer still stops once every store handle is gone;
            // a full queue wakes it anyway.
            let queue = requests.downgrade();
            let wake = move || {
                if let Some(queue) = queue.upgrade() {
                    let _ = queue.try_send(Message::Wake);
                }
            };
            checkpointer::Checkpointer::start(wake)?
        };
        let writer = {
            let counters = counters.clone();
            let handle = handle.clone();
            std::thread::Builder::new()
                .name("tengen-store-writer".into())
                .spawn(move || {
                    writer::run(files, (db, journal), handle, queue, counters, checkpointer)
                })
                .map_err(|e| {
                    StoreError::Unavailable(format!("cannot start the writer thread: {e}"))
                })?
        };
        let readers = readers::Readers::start(&handle, &path)?;
        Ok(EmbeddedStore {
            path,
            requests: Some(requests),
            writer: Some(writer),
            counters,
            leases: lease::Leases::default(),
            readers,
            handle,
            replayed,
            backups: backup::Guard::default(),
        })
    }

    /// How many journalled commits the open replayed (those that followed
    /// the last checkpoint of a server that did not stop cleanly).
    pub fn replayed(&self) -> usize {
        self.replayed
    }

    /// The database file.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// What the writer thread has committed so far (for benchmarks and
    /// metrics: `requests / batches` is the mean group size).
    pub fn write_stats(&self) -> WriteStats {
        WriteStats {
            batches: self.counters.batches.load(Ordering::Relaxed),
            requests: self.counters.requests.load(Ordering::Relaxed),
        }
    }

    /// The live log's size, for metrics and tests.
    pub async fn log_stats(&self) -> Result<LogStats> {
        self.read_live(read::log_stats).await
    }

    async fn write(&self, op: Op) -> Result<()> {
        let stopped = || StoreError::Unavailable("the store's writer thread has stopped".into());
        let requests = self.requests.as_ref().ok_or_else(stopped)?;
        let (reply, outcome) = oneshot::channel();
        requests
            .send(Message::Write(Request { op, reply }))
            .await
            .map_err(|_| stopped())?;
        outcome.await.map_err(|_| stopped())?
    }

    async fn read<T: Send + 'static>(
        &self,
        read: impl FnOnce(&Database) -> Result<T> + Send + 'static,
    ) -> Result<T> {
        self.readers.run(read).await
    }

    /// A read of live logs: the writer first gives redb the appends it
    /// answered from its journal alone (see `pending`), so that the read
    /// sees every write answered before it was asked for.
    async fn read_live<T: Send + 'static>(
        &self,
        read: impl FnOnce(&Database) -> Result<T> + Send + 'static,
    ) -> Result<T> {
        self.write(Op::Flush).await?;
        self.read(read).await
    }
}

impl Drop for EmbeddedStore {
    /// Stops the writer thread after the writes already queued, and the
    /// reader threads, so that the file is closed (and may be opened again) when the drop returns.
    fn drop(&mut self) {
        self.requests.take();
        if let Some(writer) = self.writer.take() {
            let _ = writer.join();
        }
        self.readers.stop();
    }
}

impl EmbeddedStore {
    /// Copies the store into the new data directory `dest` while it serves
    /// (see [`backup`]): refused, creating nothing, if `dest` exists, has
    /// no parent directory or lies inside the store's directory, or while
    /// another backup is taken. The copy holds every write answered before
    /// this was called; it is written on a thread of its own, from a read
    /// transaction, so that no write waits for it.
    pub async fn take_backup(
        &self,
        dest: &Path,
    ) -> std::result::Result<crate::Backup, crate::BackupError> {
        let started = std::time::Instant::now();
        let dir = self.path.parent().unwrap_or(Path::new("."));
        let dest = backup::check_dest(dir, dest)?;
        let _token = self.backups.take()?;
        let failed = |source| crate::BackupError::Failed {
            dest: dest.clone(),
            source,
        };
        // Every append answered so far reaches redb first.
        self.write(Op::Flush).await.map_err(failed)?;
        let db = self.handle.db().map_err(failed)?;
        let (reply, copied) = oneshot::channel();
        let to = dest.clone();
        std::thread::Builder::new()
            .name("tengen-store-backup".into())
            .spawn(move || {
                use redb::ReadableDatabase as _;
                backup::run_when_idle();
                let outcome = db
                    .begin_read()
                    .map_err(db_error)
                    .and_then(|txn| backup::copy(&txn, &to, started));
                let _ = reply.send(outcome);
            })
            .map_err(|e| {
                failed(StoreError::Unavailable(format!(
                    "cannot start the backup thread: {e}"
                )))
            })?;
        let copied = copied
            .await
            .map_err(|_| failed(StoreError::Unavailable("the backup thread stopped".into())))?
            .map_err(failed)?;
        tracing::info!(
            dest = %copied.dest.display(),
            finished_games = copied.finished_games,
            live_tables = copied.live_tables,
            bytes = copied.bytes,
            "backup taken in {} ms",
            copied.took_ms
        );
        Ok(copied)
    }
}

/// Overwrites the schema version of the (closed) store in `dir`, so that
/// tests can check what [`EmbeddedStore::open`] does with another version.
#[doc(hidden)]
pub fn set_schema_version_for_tests(dir: &Path, version: u32) -> Result<()> {
    let db = open::open_database(&dir.join(DB_FILE))?;
    let txn = db.begin_write().map_err(db_error)?;
    txn.open_table(META)
        .map_err(db_error)?
        .insert(SCHEMA_VERSION_KEY, version)
        .map_err(db_error)?;
    txn.commit().map_err(db_error)
}

#[async_trait]
impl Store for EmbeddedStore {
    fn describe(&self) -> String {
        format!("embedded store at {}", self.path.display())
    }

    async fn ping(&self) -> Result<()> {
        self.write(Op::Ping).await
    }

    fn refusing(&self) -> Option<String> {
        self.handle.refusing()
    }

    fn last_progress(&self) -> Option<std::time::Instant> {
        self.counters.progress.last()
    }

    async fn backup(&self, dest: &Path) -> std::result::Result<crate::Backup, crate::BackupError> {
        self.take_backup(dest).await
    }

    async fn create_table(&self, id: &str, meta: &[u8]) -> Result<()> {
        self.write(Op::CreateTable {
            id: id.to_owned(),
            meta: meta.to_vec(),
        })
        .await
    }

    async fn append(&self, id: &str, at: u64, entries: &[Vec<u8>]) -> Result<()> {
        self.write(Op::Append {
            id: id.to_owned(),
            at,
            entries: entries.to_vec(),
        })
        .await
    }

    async fn live_tables(&self) -> Result<Vec<LiveTable>> {
        self.read_live(read::live_tables).await
    }

    async fn live_table(&self, id: &str) -> Result<Option<LiveTable>> {
        let id = id.to_owned();
        self.read_live(move |db| read::live_table(db, &id)).await
    }

    async fn discard_table(&self, id: &str) -> Result<()> {
        self.write(Op::Discard { id: id.to_owned() }).await?;
        self.leases.ended(id);
        Ok(())
    }

    async fn finish_game(&self, game: &FinishedGame) -> Result<()> {
        self.write(Op::Finish(game.clone())).await?;
        self.leases.ended(&game.id);
        Ok(())
    }

    async fn acquire_lease(&self, id: &str, node: &str, ttl: Duration) -> Result<Acquired> {
        self.leases.acquire(id, node, ttl)
    }

    async fn renew_lease(&self, id: &str, lease: &Lease, ttl: Duration) -> Result<()> {
        self.leases.check(id, lease, Some(ttl))
    }

    async fn release_lease(&self, id: &str, lease: &Lease) -> Result<()> {
        self.leases.release(id, lease)
    }

    async fn lease(&self, id: &str) -> Result<Option<Lease>> {
        self.leases.holder(id)
    }

    async fn append_leased(
        &self,
        id: &str,
        lease: &Lease,
        at: u64,
        entries: &[Vec<u8>],
    ) -> Result<()> {
        self.leases.check(id, lease, None)?;
        self.append(id, at, entries).await
    }

    async fn index_seat(&self, token: &str, id: &str) -> Result<()> {
        self.leases.index_seat(&crate::tokens::at_rest(token), id)
    }

    async fn seat_tables(&self, token: &str) -> Result<Vec<String>> {
        self.leases.seat_tables(&crate::tokens::at_rest(token))
    }

    async fn unleased_tables(&self) -> Result<Vec<String>> {
        let mut ids = self.read(read::live_ids).await?;
        ids.retain(|id| !self.leases.is_held(id));
        Ok(ids)
    }

    async fn game(&self, id: &str) -> Result<Option<FinishedGame>> {
        let id = id.to_owned();
        self.read(move |db| read::game(db, &id)).await
    }

    async fn games_of(
        &self,
        player: &str,
        before_ms: Option<u64>,
        limit: usize,
    ) -> Result<Vec<GameRef>> {
        let player = player.to_owned();
        self.read(move |db| read::games_of(db, &player, before_ms, limit))
            .await
    }

    async fn create_account(&self, account: &Account) -> Result<()> {
        self.write(Op::CreateAccount(account.clone())).await
    }

    async fn account(&self, name: &str) -> Result<Option<Account>> {
        let name = name.to_owned();
        self.read(move |db| read::account(db, &name)).await
    }

    async fn accounts_like(&self, name: &str) -> Result<Vec<String>> {
        let name = name.to_owned();
        self.read(move |db| skeletons::accounts_like(db, &name))
            .await
    }

    async fn lookalike_accounts(&self, limit: usize) -> Result<Vec<Vec<String>>> {
        self.read(move |db| skeletons::lookalike_accounts(db, limit))
            .await
    }

    async fn make_bot(&self, name: &str) -> Result<()> {
        self.write(Op::MakeBot(name.to_owned())).await
    }

    async fn set_bot_filters(&self, name: &str, filters: &str) -> Result<()> {
        self.write(Op::SetBotFilters {
            name: name.to_owned(),
            filters: filters.to_owned(),
        })
        .await
    }

    async fn put_token(&self, token: &AuthToken) -> Result<()> {
        let stored = AuthToken {
            token: token_digest(&token.token),
            ..token.clone()
        };
        self.write(Op::PutToken(stored)).await
    }

    async fn token(&self, token: &str) -> Result<Option<AuthToken>> {
        let digest = token_digest(token);
        let found = self.read(move |db| read::token(db, &digest)).await?;
        Ok(found.map(|stored| AuthToken {
            token: token.to_owned(),
            ..stored
        }))
    }

    async fn revoke_token(&self, token: &str) -> Result<()> {
        self.write(Op::RevokeToken(token_digest(token))).await
    }

    async fn rating(&self, player: &str, family: &str) -> Result<Option<Rating>> {
        let (player, family) = (player.to_owned(), family.to_owned());
        self.read(move |db| read::rating(db, &player, &family))
            .await
    }

    async fn ratings(&self, family: &str) -> Result<Vec<Rating>> {
        let family = family.to_owned();
        self.read(move |db| read::ratings(db, &family)).await
    }

    async fn rating_history(&self, player: &str, family: &str) -> Result<Vec<HistoryPoint>> {
        let (player, family) = (player.to_owned(), family.to_owned());
        self.read(move |db| read::rating_history(db, &player, &family))
            .await
    }

    async fn standing(&self, name: &str) -> Result<Option<Standing>> {
        let name = name.to_owned();
        self.read(move |db| moderation::standing(db, &name)).await
    }

    async fn put_standing(&self, standing: &Standing) -> Result<()> {
        let write = ModWrite::Standing(standing.clone());
        self.write(Op::Moderation(write)).await
    }

    async fn append_audit(&self, entry: &AuditEntry) -> Result<()> {
        let write = ModWrite::Audit(entry.clone());
        self.write(Op::Moderation(write)).await
    }

    async fn audit_log(&self, limit: usize) -> Result<Vec<AuditEntry>> {
        self.read(move |db| moderation::audit_log(db, limit)).await
    }

    async fn put_report(&self, report: &Report) -> Result<()> {
        let write = ModWrite::Report(report.clone());
        self.write(Op::Moderation(write)).await
    }

    async fn reports(&self) -> Result<Vec<Report>> {
        self.read(moderation::reports).await
    }

    async fn put_address_ban(&self, ban: &AddressBan) -> Result<()> {
        let write = ModWrite::AddressBan(ban.clone());
        self.write(Op::Moderation(write)).await
    }

    async fn remove_address_ban(&self, range: &str) -> Result<()> {
        let write = ModWrite::LiftAddressBan(range.to_owned());
        self.write(Op::Moderation(write)).await
    }

    async fn address_bans(&self) -> Result<Vec<AddressBan>> {
        self.read(moderation::address_bans).await
    }

    async fn export(&self, from: Option<&ExportCursor>, limit: usize) -> Result<ExportPage> {
        let from = from.cloned();
        self.read_live(move |db| transfer::export(db, from.as_ref(), limit))
            .await
    }

    async fn import(&self, items: &[Item]) -> Result<()> {
        let items = items.iter().map(crate::tokens::importable).collect();
        self.write(Op::Import(items)).await
    }

    async fn put_tournament(&self, id: &str, state: &[u8]) -> Result<()> {
        self.write(Op::PutTournament {
            id: id.to_owned(),
            state: state.to_vec(),
        })
        .await
    }

    async fn tournament(&self, id: &str) -> Result<Option<Vec<u8>>> {
        let id = id.to_owned();
        self.read(move |db| tournaments::tournament(db, &id)).await
    }

    async fn tournaments(&self) -> Result<Vec<(String, Vec<u8>)>> {
        self.read(tournaments::tournaments).await
    }

    async fn tally(&self, space: &str, tally: &crate::Tally) -> Result<bool> {
        let write = study::StudyWrite::Tally {
            space: space.to_owned(),
            tally: tally.clone(),
        };
        match self.write(Op::Study(write)).await {
            Ok(()) => Ok(true),
            Err(StoreError::Exists(_)) => Ok(false),
            Err(e) => Err(e),
        }
    }

    async fn tallies(&self, space: &str, keys: &[Vec<u8>]) -> Result<Vec<crate::study::Fields>> {
        let (space, keys) = (space.to_owned(), keys.to_vec());
        self.read(move |db| study::tallies(db, &space, &keys)).await
    }

    async fn lists(&self, space: &str, keys: &[Vec<u8>]) -> Result<Vec<Vec<Vec<u8>>>> {
        let (space, keys) = (space.to_owned(), keys.to_vec());
        self.read(move |db| study::lists(db, &space, &keys)).await
    }

    async fn put_docs(
        &self,
        space: &str,
        docs: &[crate::DocPut],
        scores: &[crate::ScorePut],
    ) -> Result<()> {
        self.write(Op::Study(study::StudyWrite::PutDocs {
            space: space.to_owned(),
            docs: docs.to_vec(),
            scores: scores.to_vec(),
        }))
        .await
    }

    async fn docs(&self, space: &str, keys: &[String]) -> Result<Vec<Option<crate::Doc>>> {
        let (space, keys) = (space.to_owned(), keys.to_vec());
        self.read(move |db| study::docs(db, &space, &keys)).await
    }

    async fn scored(
        &self,
        space: &str,
        index: &str,
        min: i64,
        max: i64,
        limit: usize,
    ) -> Result<Vec<(String, i64)>> {
        let (space, index) = (space.to_owned(), index.to_owned());
        self.read(move |db| study::scored(db, &space, &index, min, max, limit))
            .await
    }

    async fn export_study(
        &self,
        from: Option<&ExportCursor>,
        limit: usize,
    ) -> Result<crate::StudyPage> {
        let from = from.cloned();
        self.read(move |db| study::export(db, from.as_ref(), limit))
            .await
    }

    async fn import_study(&self, items: &[crate::StudyItem]) -> Result<()> {
        self.write(Op::Study(study::StudyWrite::Import(items.to_vec())))
            .await
    }
}
