//! Online backups: a consistent copy of the store, taken while it serves.
//!
//! Why here: redb locks its file, so no other process can read the store
//! of a running server; the server itself copies it. The writer first
//! gives redb every append it answered from its journal alone (the same
//! flush a read of live logs asks for), and the copy is then made from
//! one read transaction: a snapshot of a commit, which holds a prefix of
//! the writes in the order they were answered (every game finished and
//! every move answered before the backup was asked for, and nothing half
//! applied). Read transactions never wait for the writer, nor it for
//! them, so moves go on while the copy is written, on a thread of its own.
//!
//! The copy is a new data directory: every table written, in key order,
//! into a new redb file (commits of at most [`CHUNK_BYTES`] each, so that
//! memory stays bounded whatever the store's size; the last one durable),
//! checked page by page, in a directory named `DEST.partial-…` beside
//! `DEST` that is renamed to `DEST` once it is whole and synced. It needs
//! no journal: everything the journal held is in the snapshot. It carries
//! a journal tag of its own, so that journal files copied beside it by
//! hand are never replayed onto it. A server started on it opens it as
//! any data directory (the live games resume as they were).

use std::fs;
use std::os::unix::fs::{DirBuilderExt, OpenOptionsExt};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use redb::{
    Database, Durability, Key, ReadTransaction, ReadableTable, ReadableTableMetadata,
    TableDefinition, TableHandle, Value,
};

use super::schema::{self, DB_FILE, db_error};
use crate::{Backup, BackupError, StoreError};

/// The most key and value bytes one commit of the copy holds.
const CHUNK_BYTES: usize = 4 << 20;
/// The most of the copy written to the disk at once (see `Sink::write_out`).
const WRITE_OUT_BYTES: usize = 512 << 10;
/// The copy's page cache: it writes once, in key order.
const COPY_CACHE_BYTES: usize = 16 << 20;

/// At most one backup at a time per store.
#[derive(Default)]
pub(super) struct Guard(Arc<AtomicBool>);

impl Guard {
    /// The right to take a backup, until the returned token is dropped.
    pub(super) fn take(&self) -> Result<Token, BackupError> {
        if self.0.swap(true, Ordering::AcqRel) {
            return Err(BackupError::Busy);
        }
        Ok(Token(self.0.clone()))
    }
}

pub(super) struct Token(Arc<AtomicBool>);

impl Drop for Token {
    fn drop(&mut self) {
        self.0.store(false, Ordering::Release);
    }
}

/// Refuses a destination that exists, has no parent directory, or lies
/// inside the store's directory `dir`, before anything is created.
/// Returns `dest` made absolute.
pub(super) fn check_dest(dir: &Path, dest: &Path) -> Result<PathBuf, BackupError> {
    if fs::symlink_metadata(dest).is_ok() {
        return Err(BackupError::Exists(dest.to_owned()));
    }
    let name = dest
        .file_name()
        .ok_or_else(|| BackupError::NoParent(dest.to_owned()))?;
    let parent = match dest.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_owned(),
        _ => PathBuf::from("."),
    };
    let parent = fs::canonicalize(&parent).map_err(|_| BackupError::NoParent(dest.to_owned()))?;
    if !parent.is_dir() {
        return Err(BackupError::NoParent(dest.to_owned()));
    }
    let store_dir = fs::canonicalize(dir).unwrap_or_else(|_| dir.to_owned());
    if parent.starts_with(&store_dir) {
        return Err(BackupError::InsideStore {
            dest: dest.to_owned(),
            dir: store_dir,
        });
    }
    Ok(parent.join(name))
}

/// Copies the snapshot `txn` into the new data directory `dest` (checked
/// by [`check_dest`]); on failure nothing is left there.
pub(super) fn copy(txn: &ReadTransaction, dest: &Path, started: Instant) -> crate::Result<Backup> {
    let partial = partial_name(dest);
    let made = (|| {
        fs::DirBuilder::new()
            .mode(0o700)
            .create(&partial)
            .map_err(|e| io(&partial, "create", e))?;
        let counts = write_copy(txn, &partial.join(DB_FILE))?;
        sync_dir(&partial)?;
        fs::rename(&partial, dest).map_err(|e| io(dest, "rename the copy to", e))?;
        if let Some(parent) = dest.parent() {
            sync_dir(parent)?;
        }
        Ok(counts)
    })();
    let (rows, bytes, finished_games, live_tables) = match made {
        Ok(counts) => counts,
        Err(e) => {
            let _ = fs::remove_dir_all(&partial);
            return Err(e);
        }
    };
    Ok(Backup {
        dest: dest.to_owned(),
        finished_games,
        live_tables,
        rows,
        bytes,
        took_ms: started.elapsed().as_millis() as u64,
    })
}

/// Puts the calling thread (the copy's) in the idle scheduling class: it
/// runs only when no other thread of the machine wants the core, so that
/// the server's threads, and the moves they carry, never wait behind it
/// (measured: without this, a server pinned to one core saw its move
/// latency's p99 grow several times over during backups).
pub(super) fn run_when_idle() {
    let param = libc::sched_param { sched_priority: 0 };
    // SAFETY: a plain system call on the calling thread, with a valid
    // parameter that outlives it.
    let set = unsafe { libc::sched_setscheduler(0, libc::SCHED_IDLE, &param) };
    if set != 0 {
        tracing::debug!(
            "the backup's thread runs at the normal priority: {}",
            std::io::Error::last_os_error()
        );
    }
    // The disk likewise: the copy's writes (see `Sink::write_out`) go in
    // the idle I/O class, served when no other I/O waits (by the block
    // schedulers that know priorities: mq-deadline, bfq).
    const IOPRIO_WHO_PROCESS: libc::c_long = 1;
    const IOPRIO_CLASS_IDLE: libc::c_long = 3;
    // SAFETY: ioprio_set on the calling thread (who 0), with a valid value.
    let set = unsafe {
        libc::syscall(
            libc::SYS_ioprio_set,
            IOPRIO_WHO_PROCESS,
            0,
            IOPRIO_CLASS_IDLE << 13,
        )
    };
    if set != 0 {
        tracing::debug!(
            "the backup's writes have the normal I/O priority: {}",
            std::io::Error::last_os_error()
        );
    }
}

/// `DEST.partial-<random>`, beside `dest`.
fn partial_name(dest: &Path) -> PathBuf {
    let mut name = dest.as_os_str().to_owned();
    name.push(format!(".partial-{:08x}", rand::random::<u32>()));
    PathBuf::from(name)
}

/// Writes every table of `txn` into a new database at `path`: rows,
/// bytes, finished games and live tables copied.
fn write_copy(txn: &ReadTransaction, path: &Path) -> crate::Result<(u64, u64, u64, u64)> {
    use schema::*;
    fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .mode(0o600)
        .open(path)
        .map_err(|e| io(path, "create", e))?;
    let db = Database::builder()
        .set_cache_size(COPY_CACHE_BYTES)
        .create(path)
        .map_err(db_error)?;
    let file = fs::File::open(path).map_err(|e| io(path, "open", e))?;
    let mut sink = Sink {
        db,
        file,
        rows: 0,
        bytes: 0,
        copied: Vec::new(),
    };
    sink.table(txn, META)?;
    sink.table(txn, COUNTERS)?;
    sink.table(txn, LIVE)?;
    sink.table(txn, LIVE_META)?;
    sink.table(txn, LIVE_LOG)?;
    sink.table(txn, GAME_INFO)?;
    sink.table(txn, GAME_RECORD)?;
    sink.table(txn, GAMES_BY_PLAYER)?;
    sink.table(txn, ACCOUNTS)?;
    sink.table(txn, TOKENS)?;
    sink.table(txn, RATINGS)?;
    sink.table(txn, RATING_HISTORY)?;
    sink.table(txn, NAME_SKELETONS)?;
    sink.table(txn, MODERATION)?;
    sink.table(txn, super::tournaments::TOURNAMENTS)?;
    sink.table(txn, super::study::COUNTS)?;
    sink.table(txn, super::study::LISTS)?;
    sink.table(txn, super::study::APPLIED)?;
    sink.table(txn, super::study::DOCS)?;
    sink.table(txn, super::study::SCORES)?;
    sink.table(txn, super::study::SCORE_OF)?;
    sink.table(txn, super::study::META)?;
    // A table this list does not know would be lost: refused, loudly.
    for table in txn.list_tables().map_err(db_error)? {
        if !sink.copied.iter().any(|name| name == table.name()) {
            return Err(StoreError::Corrupt(format!(
                "the store has a table the backup does not know, {:?}; nothing was copied",
                table.name()
            )));
        }
    }
    let finished = txn.open_table(GAME_INFO).map_err(db_error)?.len();
    let live = txn.open_table(LIVE).map_err(db_error)?.len();
    // A tag of its own, and durable: see the module documentation.
    let mut last = sink.db.begin_write().map_err(db_error)?;
    last.set_durability(Durability::Immediate)
        .map_err(db_error)?;
    super::journal::write_fresh_tag(&last)?;
    last.commit().map_err(db_error)?;
    if !sink.db.check_integrity().map_err(db_error)? {
        return Err(StoreError::Corrupt(format!(
            "{}: the copy failed redb's check of its pages",
            path.display()
        )));
    }
    Ok((
        sink.rows,
        sink.bytes,
        finished.map_err(db_error)?,
        live.map_err(db_error)?,
    ))
}

/// The copy being written.
struct Sink {
    db: Database,
    /// The copy's file again, to write its pages out chunk by chunk.
    file: fs::File,
    rows: u64,
    bytes: u64,
    /// The tables written so far.
    copied: Vec<String>,
}

impl Sink {
    /// Copies one table, in commits of at most [`CHUNK_BYTES`] (without
    /// durability: the last commit of the copy is durable).
    fn table<K: Key + 'static, V: Value + 'static>(
        &mut self,
        txn: &ReadTransaction,
        definition: TableDefinition<K, V>,
    ) -> crate::Result<()> {
        self.copied.push(definition.name().to_owned());
        let source = match txn.open_table(definition) {
            Ok(table) => table,
            Err(redb::TableError::TableDoesNotExist(_)) => return Ok(()),
            Err(e) => return Err(db_error(e)),
        };
        let mut rows = source.iter().map_err(db_error)?;
        loop {
            let mut write = self.db.begin_write().map_err(db_error)?;
            write.set_durability(Durability::None).map_err(db_error)?;
            let mut chunk = 0;
            let mut done = true;
            {
                let mut out = write.open_table(definition).map_err(db_error)?;
                for row in rows.by_ref() {
                    let (key, value) = row.map_err(db_error)?;
                    let (key, value) = (key.value(), value.value());
                    chunk += K::as_bytes(&key).as_ref().len() + V::as_bytes(&value).as_ref().len();
                    out.insert(key, value).map_err(db_error)?;
                    self.rows += 1;
                    if chunk >= CHUNK_BYTES {
                        done = false;
                        break;
                    }
                }
            }
            write.commit().map_err(db_error)?;
            self.bytes += chunk as u64;
            self.write_out();
            if done {
                return Ok(());
            }
        }
    }

    /// Writes the copy's dirty pages to the disk, a piece of
    /// [`WRITE_OUT_BYTES`] at a time, each waited for and followed by a
    /// pause as long. Why: a sync of the
    /// store's journal queues behind whatever the disk is writing, and on a
    /// journaling file system (ext4's ordered mode) it also waits for other
    /// files' data placed since the last commit. Left to the kernel's
    /// writeback, the copy's pages went out in bulk and the moves' syncs
    /// waited behind them (the store's `backup_pause` example measures it);
    /// written out a piece at a time, a sync meets at most one piece. No
    /// metadata is synced here (the copy's last commit is durable), so
    /// this starts no journal commit of its own.
    fn write_out(&self) {
        use std::os::fd::AsRawFd;
        let len = self.file.metadata().map(|m| m.len()).unwrap_or(0);
        let flags = libc::SYNC_FILE_RANGE_WAIT_BEFORE
            | libc::SYNC_FILE_RANGE_WRITE
            | libc::SYNC_FILE_RANGE_WAIT_AFTER;
        let mut at = 0;
        while at < len {
            let piece = Instant::now();
            // SAFETY: a plain system call on a descriptor this struct owns.
            let r = unsafe {
                libc::sync_file_range(
                    self.file.as_raw_fd(),
                    at as i64,
                    WRITE_OUT_BYTES as i64,
                    flags,
                )
            };
            if r != 0 {
                tracing::debug!(
                    "the backup's pages are left to the kernel's writeback: {}",
                    std::io::Error::last_os_error()
                );
                break;
            }
            let took = piece.elapsed();
            // A piece that had nothing to write costs microseconds.
            if took > Duration::from_micros(200) {
                std::thread::sleep(took);
            }
            at += WRITE_OUT_BYTES as u64;
        }
    }
}

fn sync_dir(dir: &Path) -> crate::Result<()> {
    fs::File::open(dir)
        .and_then(|d| d.sync_all())
        .map_err(|e| io(dir, "sync", e))
}

fn io(path: &Path, what: &str, e: std::io::Error) -> StoreError {
    StoreError::Unavailable(format!("cannot {what} {}: {e}", path.display()))
}
