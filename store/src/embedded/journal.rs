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
//! redundant. A checkpoint is taken on a thread of its own while the
//! writer goes on answering appends (see `checkpointer`), so the journal
//! has two files: when a checkpoint starts, a *handover* record ends the
//! current file and the records that follow go to the start of the other
//! one ([`Journal::hand_over`]). A checkpoint the writer takes itself (at
//! open, at a clean stop, after one on the other thread failed) makes every
//! record redundant, and the next is written at the start of the current
//! file. A clean stop ends with a checkpoint.
//!
//! # Which records count
//! Each checkpoint writes a fresh random tag into the database (counter
//! `journal_tag`, in the same durable commit), and every record written
//! after it carries that tag. After a crash, redb opens at its last durable
//! commit; the records that follow it are the ones from the start of the
//! file whose first record carries that commit's tag, up to the first that
//! does not (an older checkpoint's leftover) or whose checksum fails (a
//! write cut short by the crash, never answered). If that file ends with a
//! handover record, a checkpoint was under way: the records from the start
//! of the other file that carry the tag the handover names (the tag that
//! checkpoint was to write) follow. A tag is never reused, so a record
//! cannot be applied to a state it was not written after, even with files
//! copied around by hand.
//!
//! # Format
//! `DIR/tengen.journal` ([`JOURNAL_FILE`]) and `DIR/tengen.journal.2`
//! ([`SECOND_FILE`]): records one after the other, each a magic (`"TGJ1"`
//! for a group, `"TGJH"` for a handover), the payload's length (`u32`,
//! little-endian), the tag (`u64`), a CRC-32 of the tag's bytes and the
//! payload (`u32`), then the payload: one group's writes as the writer
//! applied them ([`Group`], MessagePack), or the next tag (`u64`,
//! little-endian). Replaying the groups in order on the state they
//! followed reproduces that state, because applying a write depends on
//! nothing but the database and the write.

use std::fs::{File, OpenOptions};
use std::io::{BufReader, ErrorKind, Read, Seek, SeekFrom};
use std::os::unix::fs::FileExt;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use redb::{Database, ReadableDatabase, WriteTransaction};
use serde::{Deserialize, Serialize};

use super::ops::Op;
use super::schema::{COUNTERS, db_error};
use crate::{Result, StoreError};

/// The journal's name inside the data directory.
pub const JOURNAL_FILE: &str = "tengen.journal";
/// Its second file, where records go while a checkpoint is taken (see
/// [`Journal::hand_over`]).
pub const SECOND_FILE: &str = "tengen.journal.2";

/// The journal's size at which the writer starts a checkpoint ...
///
/// A checkpoint is one durable commit: redb writes out every page the
/// commits since the last one changed and syncs the file. It is taken on a
/// thread of its own while appends go on (see `checkpointer`); what it
/// still costs them is the disk: every append's `fdatasync` flushes the
/// disk's write cache, and waits for a checkpoint's pages while they are
/// being written. Fewer, larger checkpoints write fewer pages in all (a
/// page that many commits changed is written once) and get in the way of
/// fewer syncs: at 2,000 games on the project's machine, a checkpoint at
/// every MiB gave the opponents' p99 of 9.5 and 17.8 ms, at every 4, 8 and
/// 16 MiB 5.2–7.0 ms (the bare relay's: 2.3–2.4 ms). The writes that need
/// a write transaction of their own wait for a checkpoint (up to tens of
/// milliseconds after a burst of finished games; see `held`).
pub const CHECKPOINT_BYTES: u64 = 8 << 20;
/// ... or the time since the last one after which it does (a quiet
/// server's journal empties within this).
const CHECKPOINT_EVERY: Duration = Duration::from_secs(10);

/// The counter that holds the tag of the latest checkpoint.
const TAG: &str = "journal_tag";
const MAGIC: &[u8; 4] = b"TGJ1";
/// A handover record: its payload is the next tag (`u64`, little-endian).
const HANDOVER: &[u8; 4] = b"TGJH";
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

/// One of the two files, and how far it has been written.
struct Segment {
    file: File,
    path: PathBuf,
    /// The file's length: written (zeros or records) up to here.
    allocated: u64,
}

/// The open journal, owned by the writer thread.
pub(super) struct Journal {
    files: [Segment; 2],
    /// The file the records go to.
    current: usize,
    /// Where the next record goes, and where the last one began.
    end: u64,
    last: u64,
    tag: u64,
    since: Instant,
    buffer: Vec<u8>,
    /// [`CHECKPOINT_BYTES`], or less in tests.
    checkpoint_bytes: u64,
}

impl Journal {
    /// Opens (or creates) the journal of the database `db` in `dir` and
    /// reads the records that follow the database's last durable commit:
    /// the caller replays them and takes a checkpoint
    /// (`writer::replay_and_checkpoint`) before the first append.
    pub(super) fn open(
        dir: &Path,
        db: &Database,
        checkpoint_bytes: u64,
    ) -> Result<(Journal, Vec<Replay>)> {
        let files = [
            Segment::open(dir.join(JOURNAL_FILE))?,
            Segment::open(dir.join(SECOND_FILE))?,
        ];
        let tag = stored_tag(db)?;
        let mut groups = Vec::new();
        if tag != 0 {
            for (i, segment) in files.iter().enumerate() {
                let (found, next) = segment.read_groups(tag)?;
                if found.is_empty() && next.is_none() {
                    continue;
                }
                groups = found;
                if let Some(next) = next {
                    // A checkpoint was under way: what followed it went
                    // to the other file, under the tag it was to write.
                    let (more, _) = files[1 - i].read_groups(next)?;
                    groups.extend(more);
                }
                break;
            }
        }
        let journal = Journal {
            files,
            current: 0,
            end: 0,
            last: 0,
            tag,
            since: Instant::now(),
            buffer: Vec::new(),
            checkpoint_bytes,
        };
        Ok((journal, groups))
    }

    /// Appends one group's record and syncs it; the group may be
    /// committed (non-durably) once this returns.
    pub(super) fn append(&mut self, group: &Group<'_>) -> Result<()> {
        let payload = rmp_serde::to_vec(group)
            .map_err(|e| StoreError::Unavailable(format!("cannot encode a journal record: {e}")))?;
        self.write(MAGIC, &payload)
    }

    /// Writes one record (`magic`, then `payload`) after the last and
    /// syncs it.
    fn write(&mut self, magic: &[u8; 4], payload: &[u8]) -> Result<()> {
        let len = u32::try_from(payload.len())
            .ok()
            .filter(|&len| len <= MAX_RECORD)
            .ok_or_else(|| StoreError::Unavailable("a journal record is too large".into()))?;
        self.buffer.clear();
        self.buffer.extend_from_slice(magic);
        self.buffer.extend_from_slice(&len.to_le_bytes());
        self.buffer.extend_from_slice(&self.tag.to_le_bytes());
        self.buffer
            .extend_from_slice(&checksum(self.tag, payload).to_le_bytes());
        self.buffer.extend_from_slice(payload);
        let end = self.end + self.buffer.len() as u64;
        let segment = &mut self.files[self.current];
        if end > segment.allocated {
            segment.grow(end)?;
        }
        segment
            .file
            .write_all_at(&self.buffer, self.end)
            .and_then(|()| segment.file.sync_data())
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

    /// The bytes of records written since the last checkpoint.
    pub(super) fn len(&self) -> u64 {
        self.end
    }

    /// Whether a checkpoint is due.
    pub(super) fn due(&self) -> bool {
        self.end >= self.checkpoint_bytes
            || (self.end > 0 && self.since.elapsed() >= CHECKPOINT_EVERY)
    }

    /// Whether the records written while a checkpoint is taken are so
    /// many (twice the checkpoint size) that the writer waits for it to
    /// end: a disk that stalls the checkpoint then slows the writes down
    /// instead of growing the journal, the appends waiting for redb in
    /// memory and the replay after a crash without bound. Each file then
    /// stays within four times the checkpoint size (it grows by doubling).
    pub(super) fn full(&self) -> bool {
        self.end >= 2 * self.checkpoint_bytes
    }

    /// Writes a new tag into `txn`, the durable commit of a checkpoint
    /// taken by the writer itself, and returns it for
    /// [`Journal::checkpointed`].
    pub(super) fn tag_checkpoint(&self, txn: &WriteTransaction) -> Result<u64> {
        let tag = self.new_tag();
        write_tag(txn, tag)?;
        Ok(tag)
    }

    /// The checkpoint tagged `tag`, taken by the writer itself, is
    /// committed: every record so far is redundant, and the next goes at
    /// the start of the current file.
    pub(super) fn checkpointed(&mut self, tag: u64) {
        self.tag = tag;
        self.end = 0;
        self.last = 0;
        self.since = Instant::now();
    }

    /// Starts a checkpoint taken on another thread while records go on
    /// being written: a handover record naming a new tag ends the current
    /// file, and the records that follow go to the start of the other file
    /// under that tag, which the checkpoint's commit writes
    /// ([`write_tag`]). A crash before that commit replays this file's
    /// records and then the other's; one after it, the other's alone. The
    /// other file must hold nothing that counts: the checkpoint before
    /// this one must have committed.
    pub(super) fn hand_over(&mut self) -> Result<u64> {
        let next = self.new_tag();
        self.write(HANDOVER, &next.to_le_bytes())?;
        self.current = 1 - self.current;
        self.checkpointed(next);
        Ok(next)
    }

    fn new_tag(&self) -> u64 {
        loop {
            let tag = rand::random::<u64>();
            if tag != self.tag && tag != 0 {
                break tag;
            }
        }
    }
}

/// Writes `tag` as the database's checkpoint tag in `txn`, a durable
/// commit.
pub(super) fn write_tag(txn: &WriteTransaction, tag: u64) -> Result<()> {
    txn.open_table(COUNTERS)
        .map_err(db_error)?
        .insert(TAG, tag)
        .map_err(db_error)?;
    Ok(())
}

impl Segment {
    fn open(path: PathBuf) -> Result<Segment> {
        let file = OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .open(&path)
            .map_err(|e| unavailable(&path, "open", e))?;
        let allocated = file
            .metadata()
            .map_err(|e| unavailable(&path, "read", e))?
            .len();
        Ok(Segment {
            file,
            path,
            allocated,
        })
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

    /// The groups of the records tagged `tag` from the start of the file,
    /// up to the first record that is not one (see the module
    /// documentation), and the tag a handover record there names.
    fn read_groups(&self, tag: u64) -> Result<(Vec<Replay>, Option<u64>)> {
        let path = &self.path;
        let mut groups = Vec::new();
        let mut reader = BufReader::new(&self.file);
        reader
            .seek(SeekFrom::Start(0))
            .map_err(|e| unavailable(path, "read", e))?;
        let mut header = [0u8; HEADER];
        loop {
            match reader.read_exact(&mut header) {
                Ok(()) => {}
                Err(e) if e.kind() == ErrorKind::UnexpectedEof => break,
                Err(e) => return Err(unavailable(path, "read", e)),
            }
            let field = |at: usize, n: usize| &header[at..at + n];
            let magic = field(0, 4);
            let len = u32::from_le_bytes(field(4, 4).try_into().expect("4 bytes"));
            let record_tag = u64::from_le_bytes(field(8, 8).try_into().expect("8 bytes"));
            let sum = u32::from_le_bytes(field(16, 4).try_into().expect("4 bytes"));
            if (magic != MAGIC && magic != HANDOVER) || record_tag != tag || len > MAX_RECORD {
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
            if magic == HANDOVER {
                let next = payload.try_into().ok().map(u64::from_le_bytes);
                return Ok((groups, next));
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
        Ok((groups, None))
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

fn checksum(tag: u64, payload: &[u8]) -> u32 {
    let mut hasher = crc32fast::Hasher::new();
    hasher.update(&tag.to_le_bytes());
    hasher.update(payload);
    hasher.finalize()
}

fn unavailable(path: &Path, what: &str, e: std::io::Error) -> StoreError {
    StoreError::Unavailable(format!("cannot {what} {}: {e}", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ping() -> Op {
        Op::Discard { id: "t".into() }
    }

    /// Writes `n` records of one op each.
    fn write(journal: &mut Journal, n: usize) {
        let op = ping();
        for _ in 0..n {
            let group = Group {
                gc: false,
                ops: vec![&op],
            };
            journal.append(&group).unwrap();
        }
    }

    /// Commits `tag` as the database's checkpoint tag.
    fn commit_tag(db: &Database, tag: u64) {
        let txn = db.begin_write().unwrap();
        write_tag(&txn, tag).unwrap();
        txn.commit().unwrap();
    }

    /// A crash while a checkpoint taken on its own thread is under way
    /// replays the records before its handover and those after; once it
    /// has committed, only those after; and a checkpoint taken by the
    /// writer itself makes every record before it redundant.
    #[test]
    fn a_handover_chains_the_two_files_until_its_checkpoint_commits() {
        let dir = tempfile::tempdir().unwrap();
        let db = super::super::open::open_store(&dir.path().join("db"), 1 << 20).unwrap();
        let (mut journal, groups) = Journal::open(dir.path(), &db, CHECKPOINT_BYTES).unwrap();
        assert!(groups.is_empty());
        let first = journal.new_tag();
        commit_tag(&db, first);
        journal.checkpointed(first);
        write(&mut journal, 3);

        let next = journal.hand_over().unwrap();
        assert_eq!(journal.len(), 0, "the records after it start a file");
        write(&mut journal, 2);
        let (_, groups) = Journal::open(dir.path(), &db, CHECKPOINT_BYTES).unwrap();
        assert_eq!(groups.len(), 5, "before the checkpoint commits: both files");

        commit_tag(&db, next);
        let (_, groups) = Journal::open(dir.path(), &db, CHECKPOINT_BYTES).unwrap();
        assert_eq!(groups.len(), 2, "after it: the second file alone");

        // The next handover goes back to the first file, over its old
        // records.
        let third = journal.hand_over().unwrap();
        write(&mut journal, 1);
        let (_, groups) = Journal::open(dir.path(), &db, CHECKPOINT_BYTES).unwrap();
        assert_eq!(groups.len(), 3);
        commit_tag(&db, third);
        let (_, groups) = Journal::open(dir.path(), &db, CHECKPOINT_BYTES).unwrap();
        assert_eq!(groups.len(), 1);

        // A checkpoint of the writer's own: the current file from its
        // start again, the other one's records never replayed.
        let own = journal.new_tag();
        commit_tag(&db, own);
        journal.checkpointed(own);
        write(&mut journal, 4);
        let (_, groups) = Journal::open(dir.path(), &db, CHECKPOINT_BYTES).unwrap();
        assert_eq!(groups.len(), 4);
    }
}
