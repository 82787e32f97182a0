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
//! `journal_tag`) and the commit number of the last record it covers
//! (`journal_seq`), in the same durable commit. Every record carries the
//! tag it was written under and its commit number, one more than the
//! record before it, across both files and every checkpoint. After a
//! crash, redb opens at its last durable commit, and the records to replay
//! are the chain that follows it: the next number at the start of one
//! file, each next one right after it, continuing at the start of the other
//! file after a handover record (a checkpoint was under way). Where the
//! chain ends, `scan` tells a write the crash cut short (never
//! acknowledged: dropped, with a warning) from damage (refused, naming the
//! file, the offset and what follows), and any record numbered past the
//! chain's end proves the break lost acknowledged commits. A tag is never
//! reused, so a record cannot be applied to a state it was not written
//! after, even with files copied around by hand. Journals of versions
//! before commit numbers are read once, by their own rules (`legacy`).
//!
//! # Format
//! `DIR/tengen.journal` ([`JOURNAL_FILE`]) and `DIR/tengen.journal.2`
//! ([`SECOND_FILE`]): records one after the other (`record`: header,
//! payload, trailer). A payload is one group's writes as the writer
//! applied them ([`Group`], MessagePack), or, for a handover, the next tag
//! (`u64`, little-endian). Replaying the groups in order on the state they
//! followed reproduces that state, because applying a write depends on
//! nothing but the database and the write.

use std::fs::{File, OpenOptions};
use std::io::Read;
use std::os::unix::fs::{FileExt, OpenOptionsExt, PermissionsExt};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use redb::{Database, ReadableDatabase, WriteTransaction};
use serde::{Deserialize, Serialize};

use super::ops::Op;
use super::schema::{COUNTERS, db_error};
use crate::{Result, StoreError};

pub(super) mod legacy;
mod record;
mod scan;

pub(super) use scan::{Cut, Damage};

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

/// The counters that hold the tag of the latest checkpoint and the commit
/// number of the last record it covers.
const TAG: &str = "journal_tag";
const SEQ: &str = "journal_seq";
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

/// What the journal holds after the database's last checkpoint.
pub(super) struct Found {
    /// The groups to replay, in order: every one before the damage, if
    /// there is damage.
    pub groups: Vec<Replay>,
    /// A last record whose write the crash cut short (never acknowledged).
    pub cut: Option<Cut>,
    /// Damage with acknowledged commits after it.
    pub damage: Option<Damage>,
    /// The highest commit number any record in the files carries: the
    /// next checkpoint covers it, so that no record there counts again.
    pub highest: u64,
    /// The records were of the format before commit numbers.
    pub legacy: bool,
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
    /// The commit number of the last record written.
    seq: u64,
    since: Instant,
    buffer: Vec<u8>,
    /// [`CHECKPOINT_BYTES`], or less in tests.
    checkpoint_bytes: u64,
}

impl Journal {
    /// Opens (or creates) the journal of the database `db` in `dir` and
    /// reads the records that follow the database's last durable commit:
    /// the caller replays them and takes a checkpoint
    /// (`writer::replay_and_checkpoint`) before the first append. Damage
    /// with acknowledged commits after it is [`StoreError::Corrupt`],
    /// naming the file, the offset and what follows, and nothing is
    /// written; a cut last record is dropped with a warning. `fell_back`
    /// names the database file if redb went back to its commit before the
    /// last (its last one failed its checksums): the damage is then the
    /// database's, which lost what the journal had already handed it.
    pub(super) fn open(
        dir: &Path,
        db: &Database,
        checkpoint_bytes: u64,
        fell_back: Option<&Path>,
    ) -> Result<(Journal, Vec<Replay>)> {
        let (journal, found) = Journal::read(dir, db, checkpoint_bytes)?;
        if let Some(damage) = &found.damage {
            let whose = match fell_back {
                Some(db_file) => format!(
                    "{} is damaged: its last commit failed its checksums, so redb went back \
                     to the one before, which the journal does not follow on from: ",
                    db_file.display()
                ),
                None => String::new(),
            };
            return Err(StoreError::Corrupt(format!(
                "{whose}{damage}. Those commits were acknowledged, so the server does not \
                 start on what precedes the damage; the journal was left as it is. \
                 `tengen-server salvage` keeps a copy of the files and starts over from what \
                 precedes it"
            )));
        }
        if let Some(cut) = &found.cut {
            tracing::warn!(
                "{}: dropped the last record (commit #{} at offset {}, {} bytes): its write \
                 was cut short by the crash, so it was never acknowledged",
                cut.file,
                cut.seq,
                cut.offset,
                cut.size
            );
        }
        if found.legacy && !found.groups.is_empty() {
            tracing::info!(
                "the journal was written by an earlier version; its {} commits are replayed \
                 and it is written in the current format from now on",
                found.groups.len()
            );
        }
        Ok((journal, found.groups))
    }

    /// Opens the journal and reads what follows the last checkpoint,
    /// damage included (for the open, and for a salvage, which keeps what
    /// precedes the damage). The journal's next record is numbered past
    /// every record in the files.
    pub(super) fn read(
        dir: &Path,
        db: &Database,
        checkpoint_bytes: u64,
    ) -> Result<(Journal, Found)> {
        let mut files = [
            Segment::open(dir.join(JOURNAL_FILE))?,
            Segment::open(dir.join(SECOND_FILE))?,
        ];
        let bytes = [files[0].read_all()?, files[1].read_all()?];
        let named = |i: usize| scan::File {
            path: &files[i].path,
            bytes: &bytes[i],
        };
        let (tag, seq) = stored(db)?;
        let mut found = Found {
            groups: Vec::new(),
            cut: None,
            damage: None,
            highest: 0,
            legacy: false,
        };
        let payloads: Vec<(&Path, &[u8])> = match seq {
            // A database with no checkpoint yet (a new store, whose
            // journal is empty, or one that went back before its first):
            // every record in the files comes after it.
            _ if tag == 0 => {
                let judged = scan::judge([named(0), named(1)], 0, 0);
                found.damage = judged.damage;
                found.highest = judged.highest;
                Vec::new()
            }
            Some(seq) => {
                let judged = scan::judge([named(0), named(1)], tag, seq);
                found.cut = judged.cut;
                found.damage = judged.damage;
                found.highest = judged.highest.max(seq);
                judged
                    .chain
                    .iter()
                    .filter(|r| r.kind == record::Kind::Group)
                    .map(|r| (files[0].path.as_path(), r.payload))
                    .collect()
            }
            None => {
                found.legacy = true;
                let (groups, damage) = legacy::read([named(0), named(1)], tag);
                found.damage = damage;
                groups
                    .into_iter()
                    .map(|p| (files[0].path.as_path(), p))
                    .collect()
            }
        };
        for (path, payload) in payloads {
            found
                .groups
                .push(rmp_serde::from_slice(payload).map_err(|e| {
                    StoreError::Corrupt(format!(
                        "{}: a record written after the last checkpoint cannot be read ({e}); \
                     was it written by another version of the server? Start that version once \
                     to replay it, or move the journal files away to lose those writes",
                        path.display()
                    ))
                })?);
        }
        drop(bytes);
        for segment in &mut files {
            segment.tighten()?;
        }
        let journal = Journal {
            files,
            current: 0,
            end: 0,
            last: 0,
            tag,
            seq: found.highest,
            since: Instant::now(),
            buffer: Vec::new(),
            checkpoint_bytes,
        };
        Ok((journal, found))
    }

    /// Appends one group's record and syncs it; the group may be
    /// committed (non-durably) once this returns.
    pub(super) fn append(&mut self, group: &Group<'_>) -> Result<()> {
        let payload = rmp_serde::to_vec(group)
            .map_err(|e| StoreError::Unavailable(format!("cannot encode a journal record: {e}")))?;
        self.write(record::Kind::Group, &payload)
    }

    /// Writes one record after the last and syncs it.
    fn write(&mut self, kind: record::Kind, payload: &[u8]) -> Result<()> {
        if payload.len() > record::MAX_PAYLOAD as usize {
            return Err(StoreError::Unavailable(
                "a journal record is too large".into(),
            ));
        }
        self.buffer.clear();
        record::encode(&mut self.buffer, kind, self.tag, self.seq + 1, payload);
        let end = self.end + self.buffer.len() as u64;
        let segment = &mut self.files[self.current];
        if end > segment.allocated {
            segment.grow(end)?;
        }
        segment
            .file
            .write_all_at(&self.buffer, self.end)
            .and_then(|()| sync_record(&segment.file))
            .map_err(|e| {
                StoreError::Unavailable(format!(
                    "cannot write the journal {}: {e}",
                    segment.path.display()
                ))
            })?;
        self.last = self.end;
        self.end += self.buffer.len() as u64;
        self.seq += 1;
        Ok(())
    }

    /// The last record's group was not committed after all (redb failed):
    /// the next record is written over it, with its number, so that it can
    /// be replayed only if nothing was answered after it, like any write
    /// whose outcome was an error.
    pub(super) fn retract(&mut self) {
        if self.end > self.last {
            self.end = self.last;
            self.seq -= 1;
        }
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

    /// Writes a new tag, and the number of the last record written, into
    /// `txn`, the durable commit of a checkpoint taken by the writer
    /// itself, and returns the tag for [`Journal::checkpointed`].
    pub(super) fn tag_checkpoint(&self, txn: &WriteTransaction) -> Result<u64> {
        let tag = self.new_tag();
        write_tag(txn, tag, self.seq)?;
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
    /// under that tag, which the checkpoint's commit writes ([`write_tag`])
    /// with the handover's number. A crash before that commit replays this
    /// file's records and then the other's; one after it, the other's
    /// alone. The other file must hold nothing that counts: the checkpoint
    /// before this one must have committed. Returns the tag and number.
    pub(super) fn hand_over(&mut self) -> Result<(u64, u64)> {
        let next = self.new_tag();
        self.write(record::Kind::Handover, &next.to_le_bytes())?;
        self.current = 1 - self.current;
        self.checkpointed(next);
        Ok((next, self.seq))
    }

    fn new_tag(&self) -> u64 {
        loop {
            let tag = rand::random::<u64>();
            if tag != self.tag && tag != 0 {
                break tag;
            }
        }
    }

    /// Empties both files (after a salvage kept a copy of them): nothing
    /// of the damaged records is left to be read again.
    pub(super) fn clear(&mut self) -> Result<()> {
        for segment in &mut self.files {
            segment
                .file
                .set_len(0)
                .and_then(|()| segment.file.sync_all())
                .map_err(|e| unavailable(&segment.path, "empty", e))?;
            segment.allocated = 0;
        }
        self.end = 0;
        self.last = 0;
        Ok(())
    }
}

/// Where each record of the current format lies in `journal` (a file's
/// bytes), from its start while headers follow one another: (offset,
/// size). For tests that damage records.
#[cfg(feature = "testing")]
pub fn record_spans(journal: &[u8]) -> Vec<(usize, usize)> {
    let mut at = 0;
    let mut spans = Vec::new();
    while let Some(header) = journal.get(at..).and_then(record::Header::parse) {
        spans.push((at, header.size() as usize));
        at += header.size() as usize;
    }
    spans
}

/// Writes `tag` as the database's checkpoint tag, and `seq` as the number
/// of the last record it covers, in `txn`, a durable commit.
pub(super) fn write_tag(txn: &WriteTransaction, tag: u64, seq: u64) -> Result<()> {
    let mut counters = txn.open_table(COUNTERS).map_err(db_error)?;
    counters.insert(TAG, tag).map_err(db_error)?;
    counters.insert(SEQ, seq).map_err(db_error)?;
    Ok(())
}

/// Gives a copy of the database a tag of its own, in `txn` (a write
/// transaction on the copy), keeping the commit number its source's
/// counters hold: the copy holds every write its snapshot did, so no record
/// of the source's journal may ever be replayed onto it (a backup).
pub(super) fn write_fresh_tag(txn: &WriteTransaction) -> Result<()> {
    let tag = loop {
        let tag = rand::random::<u64>();
        if tag != 0 {
            break tag;
        }
    };
    let mut counters = txn.open_table(COUNTERS).map_err(db_error)?;
    counters.insert(TAG, tag).map_err(db_error)?;
    Ok(())
}

impl Segment {
    /// Opens or creates a journal file, readable and writable by the
    /// server's user alone.
    fn open(path: PathBuf) -> Result<Segment> {
        let file = OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .mode(0o600)
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

    /// Makes a file an earlier version created readable by others the
    /// server's user's alone (after the read: a damaged journal is left
    /// as it was).
    fn tighten(&self) -> Result<()> {
        let mode = self
            .file
            .metadata()
            .map_err(|e| unavailable(&self.path, "read", e))?
            .permissions()
            .mode();
        if mode & 0o077 != 0 {
            self.file
                .set_permissions(std::fs::Permissions::from_mode(0o600))
                .map_err(|e| unavailable(&self.path, "restrict", e))?;
        }
        Ok(())
    }

    fn read_all(&self) -> Result<Vec<u8>> {
        let mut bytes = Vec::with_capacity(self.allocated as usize);
        (&self.file)
            .read_to_end(&mut bytes)
            .map_err(|e| unavailable(&self.path, "read", e))?;
        Ok(bytes)
    }

    /// Writes zeros from the file's end to past `end` and at least twice
    /// its length (a multiple of [`GROW_BY`]), and syncs them with the new
    /// length.
    fn grow(&mut self, end: u64) -> Result<()> {
        let target = end.max(self.allocated * 2).div_ceil(GROW_BY) * GROW_BY;
        let zeros = vec![0u8; GROW_BY as usize];
        let mut at = self.allocated;
        let grown = (|| {
            while at < target {
                let n = (target - at).min(GROW_BY);
                self.file.write_all_at(&zeros[..n as usize], at)?;
                at += n;
            }
            self.file.sync_data()
        })();
        grown.map_err(|e| unavailable(&self.path, "grow", e))?;
        self.allocated = target;
        Ok(())
    }
}

/// Syncs the record just written: the wait every request of a group has
/// before it is answered.
fn sync_record(file: &File) -> std::io::Result<()> {
    #[cfg(feature = "testing")]
    slow_disk();
    file.sync_data()
}

/// The environment variable that makes, in test builds only (the
/// `testing` feature), every sync of a journal record take that many
/// milliseconds longer: a slow disk, for the server's clock tests.
#[cfg(feature = "testing")]
pub const SLOW_SYNC_ENV: &str = "TENGEN_TEST_JOURNAL_SYNC_MS";

/// Sleeps for [`SLOW_SYNC_ENV`]'s milliseconds (read once), if set.
#[cfg(feature = "testing")]
fn slow_disk() {
    static DELAY: std::sync::OnceLock<Option<Duration>> = std::sync::OnceLock::new();
    let delay = DELAY.get_or_init(|| {
        let ms = std::env::var(SLOW_SYNC_ENV).ok()?.parse().ok()?;
        Some(Duration::from_millis(ms))
    });
    if let Some(delay) = delay {
        std::thread::sleep(*delay);
    }
}

/// The tag of the database's last durable commit (0 before the first).
#[cfg(feature = "testing")]
pub(super) fn stored_tag(db: &Database) -> Result<u64> {
    Ok(stored(db)?.0)
}

/// Removes the commit number of the last checkpoint (as the previous
/// version's database had none), in `txn`.
#[cfg(feature = "testing")]
pub(super) fn forget_seq(txn: &WriteTransaction) -> Result<()> {
    let mut counters = txn.open_table(COUNTERS).map_err(db_error)?;
    counters.remove(SEQ).map_err(db_error)?;
    Ok(())
}

/// The tag of the database's last durable commit (0 before the first) and
/// the number of the last record it covers (`None` if that commit was
/// written by a version before commit numbers).
fn stored(db: &Database) -> Result<(u64, Option<u64>)> {
    let txn = db.begin_read().map_err(db_error)?;
    let counters = txn.open_table(COUNTERS).map_err(db_error)?;
    let tag = counters
        .get(TAG)
        .map_err(db_error)?
        .map_or(0, |v| v.value());
    let seq = counters.get(SEQ).map_err(db_error)?.map(|v| v.value());
    Ok((tag, seq))
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

    /// Commits `tag` as the database's checkpoint tag, covering records
    /// up to `seq`.
    fn commit_tag(db: &Database, (tag, seq): (u64, u64)) {
        let txn = db.begin_write().unwrap();
        write_tag(&txn, tag, seq).unwrap();
        txn.commit().unwrap();
    }

    /// A crash while a checkpoint taken on its own thread is under way
    /// replays the records before its handover and those after; once it
    /// has committed, only those after; and a checkpoint taken by the
    /// writer itself makes every record before it redundant.
    #[test]
    fn a_handover_chains_the_two_files_until_its_checkpoint_commits() {
        let dir = tempfile::tempdir().unwrap();
        let (db, _) = super::super::open::open_store(&dir.path().join("db"), 1 << 20).unwrap();
        let (mut journal, groups) = Journal::open(dir.path(), &db, CHECKPOINT_BYTES, None).unwrap();
        assert!(groups.is_empty());
        let first = journal.new_tag();
        commit_tag(&db, (first, journal.seq));
        journal.checkpointed(first);
        write(&mut journal, 3);

        let next = journal.hand_over().unwrap();
        assert_eq!(journal.len(), 0, "the records after it start a file");
        write(&mut journal, 2);
        let (_, groups) = Journal::open(dir.path(), &db, CHECKPOINT_BYTES, None).unwrap();
        assert_eq!(groups.len(), 5, "before the checkpoint commits: both files");

        commit_tag(&db, next);
        let (_, groups) = Journal::open(dir.path(), &db, CHECKPOINT_BYTES, None).unwrap();
        assert_eq!(groups.len(), 2, "after it: the second file alone");

        // The next handover goes back to the first file, over its old
        // records.
        let third = journal.hand_over().unwrap();
        write(&mut journal, 1);
        let (_, groups) = Journal::open(dir.path(), &db, CHECKPOINT_BYTES, None).unwrap();
        assert_eq!(groups.len(), 3);
        commit_tag(&db, third);
        let (_, groups) = Journal::open(dir.path(), &db, CHECKPOINT_BYTES, None).unwrap();
        assert_eq!(groups.len(), 1);

        // A checkpoint of the writer's own: the current file from its
        // start again, the other one's records never replayed.
        let own = journal.new_tag();
        commit_tag(&db, (own, journal.seq));
        journal.checkpointed(own);
        write(&mut journal, 4);
        let (_, groups) = Journal::open(dir.path(), &db, CHECKPOINT_BYTES, None).unwrap();
        assert_eq!(groups.len(), 4);
    }
}
