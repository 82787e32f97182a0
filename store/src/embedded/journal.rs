//! The journal: what makes a group commit durable without an fsync of the
//! database file.
//!
//! Why: redb makes a commit durable by writing its pages and the file's
//! header where they belong and syncing the file, which under load took
//! most of a move's time (a commit's p99 was tens of milliseconds on the
//! project's machine, while appending a few kilobytes to one file and
//! `fdatasync` takes about 0.15 ms). So each group's writes are appended
//! to this file and synced before any request is answered, and the group
//! is committed to redb without durability (`Durability::None`: visible to
//! every reader at once, persisted by the next durable commit); a group of
//! appends only reaches redb later, with the next transaction (see
//! `pending`), which changes nothing here: the records are in the order
//! the writes were answered, and redb gets them in that order too. A
//! *checkpoint* (a durable redb commit) every few seconds, or when the
//! journal has grown to [`CHECKPOINT_BYTES`], makes the journal's records
//! redundant, and the next record is written at the start of the file
//! again. A clean stop ends with a checkpoint.
//!
//! # Which records count
//! Each checkpoint writes a fresh random tag into the database (counter
//! `journal_tag`, in the same durable commit), and every record written
//! after it carries that tag. After a crash, redb opens at its last durable
//! commit; the records that follow it are exactly the ones from the start
//! of the file that carry that commit's tag, up to the first that does not
//! (an older checkpoint's leftover) or whose checksum fails (a write cut
//! short by the crash, never answered). A tag is never reused, so a record
//! cannot be applied to a state it was not written after, even with files
//! copied around by hand.
//!
//! # Format
//! `DIR/tengen.journal` ([`JOURNAL_FILE`]): records one after the other,
//! each `"TGJ1"`, the payload's length (`u32`, little-endian), the tag
//! (`u64`), a CRC-32 of the tag's bytes and the payload (`u32`), then the
//! payload: one group's writes as the writer applied them ([`Group`],
//! MessagePack). Replaying them in order on the state they followed
//! reproduces that state, because applying a write depends on nothing
//! but the database and the write.

use std::fs::{File, OpenOptions};
use std::io::{BufReader, ErrorKind, Read};
use std::os::unix::fs::FileExt;
use std::path::Path;
use std::time::{Duration, Instant};

use redb::{Database, ReadableDatabase, WriteTransaction};
use serde::{Deserialize, Serialize};

use super::ops::Op;
use super::schema::{COUNTERS, db_error};
use crate::{Result, StoreError};

/// The journal's name inside the data directory.
pub const JOURNAL_FILE: &str = "tengen.journal";

/// The journal's size at which the writer takes a checkpoint ...
///
/// A checkpoint keeps the writer, and so every write waiting for it, busy
/// for one durable commit: redb writes out every page the commits since
/// the last checkpoint left in its write buffer and syncs the file. What
/// that costs grows with the pages written, and the journal grows with
/// them, so checkpoints are taken by the journal's size: at 32 MiB (or
/// 10 s) a checkpoint after a burst of finished games took 70–80 ms on the
/// project's machine, every table's next move waiting behind it; at 1 MiB
/// none took more than 10 ms, for the same total CPU (2,000 games: about
/// one every 1.5 s).
const CHECKPOINT_BYTES: u64 = 1 << 20;
/// ... or the time since the last one after which it does (a quiet
/// server's journal empties within this).
const CHECKPOINT_EVERY: Duration = Duration::from_secs(10);

/// The counter that holds the tag of the latest checkpoint.
const TAG: &str = "journal_tag";
const MAGIC: &[u8; 4] = b"TGJ1";
const HEADER: usize = 20;
/// No group comes near this; a length above it is damage.
const MAX_RECORD: u32 = 1 << 30;
/// The file is grown by writing zeros ahead of the records (then syncing
/// once): a record written over blocks that already exist changes no
/// file-system metadata, so its `fdatasync` flushes only its own bytes and
/// does not wait for a commit of the file system's journal, which is shared
/// with every other file and took up to 185 ms on the project's machine
/// under load. The file grows to at least this, and then by doubling, so
/// that it reaches its working size in a few steps and then stays there
/// (records start at its beginning again after each checkpoint).
const GROW_BY: u64 = 1 << 20;

/// One group's writes, as a record carries them.
#[derive(Serialize)]
pub(super) struct Group<'a> {
    /// Whether the group's commit took a garbage-collection step if one
    /// was due (see `Tables::finish`).
    pub gc: bool,
    pub ops: Vec<&'a Op>,
}

/// One group's writes, as read back for a replay.
#[derive(Deserialize)]
pub(super) struct Replay {
    pub gc: bool,
    pub ops: Vec<Op>,
}

/// The open journal, owned by the writer thread.
pub(super) struct Journal {
    file: File,
    /// Where the next record goes, and where the last one began.
    end: u64,
    last: u64,
    /// The file's length: written (zeros or records) up to here.
    allocated: u64,
    tag: u64,
    since: Instant,
    buffer: Vec<u8>,
}

impl Journal {
    /// Opens (or creates) the journal of the database `db` in `dir` and
    /// reads the records that follow the database's last durable commit:
    /// the caller replays them and takes a checkpoint
    /// (`writer::replay_and_checkpoint`) before the first append.
    pub(super) fn open(dir: &Path, db: &Database) -> Result<(Journal, Vec<Replay>)> {
        let path = dir.join(JOURNAL_FILE);
        let file = OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .open(&path)
            .map_err(|e| unavailable(&path, "open", e))?;
        let tag = stored_tag(db)?;
        let groups = read_groups(&file, tag, &path)?;
        let allocated = file
            .metadata()
            .map_err(|e| unavailable(&path, "read", e))?
            .len();
        let journal = Journal {
            file,
            end: 0,
            last: 0,
            allocated,
            tag,
            since: Instant::now(),
            buffer: Vec::new(),
        };
        Ok((journal, groups))
    }

    /// Appends one group's record and syncs it; the group may be
    /// committed (non-durably) once this returns.
    pub(super) fn append(&mut self, group: &Group<'_>) -> Result<()> {
        let payload = rmp_serde::to_vec(group)
            .map_err(|e| StoreError::Unavailable(format!("cannot encode a journal record: {e}")))?;
        let len = u32::try_from(payload.len())
            .ok()
            .filter(|&len| len <= MAX_RECORD)
            .ok_or_else(|| StoreError::Unavailable("a journal record is too large".into()))?;
        self.buffer.clear();
        self.buffer.extend_from_slice(MAGIC);
        self.buffer.extend_from_slice(&len.to_le_bytes());
        self.buffer.extend_from_slice(&self.tag.to_le_bytes());
        self.buffer
            .extend_from_slice(&checksum(self.tag, &payload).to_le_bytes());
        self.buffer.extend_from_slice(&payload);
        let end = self.end + self.buffer.len() as u64;
        if end > self.allocated {
            self.grow(end)?;
        }
        self.file
            .write_all_at(&self.buffer, self.end)
            .and_then(|()| self.file.sync_data())
            .map_err(|e| StoreError::Unavailable(format!("cannot write the journal: {e}")))?;
        self.last = self.end;
        self.end += self.buffer.len() as u64;
        Ok(())
    }

    /// The last record's group was not committed after all (redb failed):
    /// the next record is written over it, so that it can be replayed only
    /// if nothing was answered after it, like any write whose outcome was
    /// an error.
    pub(super) fn retract(&mut self) {
        self.end = self.last;
    }

    /// Writes zeros from the file's end to past `end` and at least twice
    /// its length (a multiple of [`GROW_BY`]), and syncs them with the new
    /// length.
    fn grow(&mut self, end: u64) -> Result<()> {
        let target = end.max(self.allocated * 2).div_ceil(GROW_BY) * GROW_BY;
        let zeros = vec![0u8; GROW_BY as usize];
        let mut at = self.allocated;
        while at < target {
            let n = (target - at).min(GROW_BY);
            self.file
                .write_all_at(&zeros[..n as usize], at)
                .map_err(|e| StoreError::Unavailable(format!("cannot grow the journal: {e}")))?;
            at += n;
        }
        self.file
            .sync_data()
            .map_err(|e| StoreError::Unavailable(format!("cannot grow the journal: {e}")))?;
        self.allocated = target;
        Ok(())
    }

    /// The bytes of records written since the last checkpoint.
    pub(super) fn len(&self) -> u64 {
        self.end
    }

    /// Whether a checkpoint is due.
    pub(super) fn due(&self) -> bool {
        self.end >= CHECKPOINT_BYTES || (self.end > 0 && self.since.elapsed() >= CHECKPOINT_EVERY)
    }

    /// Writes a new tag into `txn`, the durable commit of a checkpoint,
    /// and returns it for [`Journal::checkpointed`].
    pub(super) fn tag_checkpoint(&self, txn: &WriteTransaction) -> Result<u64> {
        let tag = loop {
            let tag = rand::random::<u64>();
            if tag != self.tag && tag != 0 {
                break tag;
            }
        };
        txn.open_table(COUNTERS)
            .map_err(db_error)?
            .insert(TAG, tag)
            .map_err(db_error)?;
        Ok(tag)
    }

    /// The checkpoint tagged `tag` is committed: every record so far is
    /// redundant, and the next goes at the start of the file.
    pub(super) fn checkpointed(&mut self, tag: u64) {
        self.tag = tag;
        self.end = 0;
        self.last = 0;
        self.since = Instant::now();
    }
}

/// The tag of the database's last durable commit (0 before the first).
fn stored_tag(db: &Database) -> Result<u64> {
    let txn = db.begin_read().map_err(db_error)?;
    let tag = txn
        .open_table(COUNTERS)
        .map_err(db_error)?
        .get(TAG)
        .map_err(db_error)?
        .map_or(0, |v| v.value());
    Ok(tag)
}

/// The groups of the records tagged `tag` from the start of the file, up
/// to the first record that is not one (see the module documentation).
fn read_groups(file: &File, tag: u64, path: &Path) -> Result<Vec<Replay>> {
    let mut groups = Vec::new();
    if tag == 0 {
        return Ok(groups);
    }
    let mut reader = BufReader::new(file);
    let mut header = [0u8; HEADER];
    loop {
        match reader.read_exact(&mut header) {
            Ok(()) => {}
            Err(e) if e.kind() == ErrorKind::UnexpectedEof => break,
            Err(e) => return Err(unavailable(path, "read", e)),
        }
        let field = |at: usize, n: usize| &header[at..at + n];
        let len = u32::from_le_bytes(field(4, 4).try_into().expect("4 bytes"));
        let record_tag = u64::from_le_bytes(field(8, 8).try_into().expect("8 bytes"));
        let sum = u32::from_le_bytes(field(16, 4).try_into().expect("4 bytes"));
        if field(0, 4) != MAGIC || record_tag != tag || len > MAX_RECORD {
            break;
        }
        let mut payload = vec![0u8; len as usize];
        match reader.read_exact(&mut payload) {
            Ok(()) => {}
            Err(e) if e.kind() == ErrorKind::UnexpectedEof => break,
            Err(e) => return Err(unavailable(path, "read", e)),
        }
        if checksum(tag, &payload) != sum {
            break;
        }
        let group: Replay = rmp_serde::from_slice(&payload).map_err(|e| {
            StoreError::Corrupt(format!(
                "{}: a record written after the last checkpoint cannot be read ({e}); \
                 was it written by another version of the server? Start that version once \
                 to replay it, or move the file away to lose those writes",
                path.display()
            ))
        })?;
        groups.push(group);
    }
    Ok(groups)
}

fn checksum(tag: u64, payload: &[u8]) -> u32 {
    let mut hasher = crc32fast::Hasher::new();
    hasher.update(&tag.to_le_bytes());
    hasher.update(payload);
    hasher.finalize()
}

fn unavailable(path: &Path, what: &str, e: std::io::Error) -> StoreError {
    StoreError::Unavailable(format!("cannot {what} {}: {e}", path.display()))
}
