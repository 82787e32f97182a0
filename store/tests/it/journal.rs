//! The embedded store's journal: writes that were answered survive a crash
//! of the process (a real `abort()`, no destructor run), a record cut short
//! is dropped, damage before acknowledged records refuses the open (and
//! `salvage` keeps what precedes it), the records of an older checkpoint
//! are never replayed, and a journal of the previous format still is.
//!
//! The crashing process is this test binary again: each test starts
//! `crash_child` (ignored unless started so) with `TENGEN_JOURNAL_CHILD`
//! naming what it is to do, and reads the data directory it leaves.

use std::path::Path;
use std::process::Command;

use tengen_store::embedded::{
    DB_FILE, DEFAULT_CACHE_BYTES, JOURNAL_FILE, SECOND_FILE, record_spans,
};
use tengen_store::{Account, EmbeddedStore, FinishedGame, Store};

const CHILD: &str = "TENGEN_JOURNAL_CHILD";
const DIR: &str = "TENGEN_JOURNAL_DIR";

fn entry(i: u64) -> Vec<u8> {
    format!("move {i}").into_bytes()
}

const BIG_APPENDS: u64 = 400;

/// Where the "failed-checkpoints" child writes how many appends it made.
const ANSWERED: &str = "answered";

/// 32 KiB, different for each `i`.
fn big_entry(i: u64) -> Vec<u8> {
    let mut e = vec![(i % 251) as u8; 32 << 10];
    e[..8].copy_from_slice(&i.to_le_bytes());
    e
}

fn account(name: &str) -> Account {
    Account {
        name: name.into(),
        password_hash: "$argon2id$not-a-real-hash".into(),
        created_ms: 1,
        bot: false,
        bot_filters: None,
    }
}

/// What a child does before it aborts: `writes` makes a table with 40
/// entries (one append each), an account and a finished game;
/// `many-then-few` makes 200 appends, stops cleanly (a checkpoint), opens
/// again and makes 3 more; `big` makes 200 appends of 32 KiB.
async fn child(mode: &str, dir: &Path) {
    let store = open(dir);
    match mode {
        "writes" => {
            store.create_table("t1", b"meta").await.unwrap();
            for i in 0..40 {
                store.append("t1", i, &[entry(i)]).await.unwrap();
            }
            store.create_account(&account("Alice")).await.unwrap();
            store.create_table("t2", b"meta").await.unwrap();
            store.append("t2", 0, &[entry(0)]).await.unwrap();
            store.finish_game(&finished("t2")).await.unwrap();
        }
        "many-then-few" => {
            store.create_table("t1", b"meta").await.unwrap();
            for i in 0..200 {
                store.append("t1", i, &[entry(i)]).await.unwrap();
            }
            drop(store);
            let store = open(dir);
            assert_eq!(store.replayed(), 0, "a clean stop left nothing to replay");
            for i in 200..203 {
                store.append("t1", i, &[entry(i)]).await.unwrap();
            }
            std::process::abort();
        }
        "big" => {
            // About 12.5 MiB of appends, each its own group: past the
            // journal's checkpoint size several times over.
            store.create_table("t1", b"meta").await.unwrap();
            for i in 0..BIG_APPENDS {
                store.append("t1", i, &[big_entry(i)]).await.unwrap();
            }
        }
        "failed-checkpoints" => {
            // Two of the checkpoint thread's commits fail; tables are made
            // on the way (writes that need a transaction of their own).
            // The crash comes a few appends after the second failure,
            // before another checkpoint; the child writes down how many
            // appends were answered.
            tengen_store::embedded::fail_next_checkpoints(2);
            store.create_table("t1", b"meta").await.unwrap();
            let mut answered = 0;
            let mut after = 0;
            while after < 5 {
                store
                    .append("t1", answered, &[big_entry(answered)])
                    .await
                    .unwrap();
                answered += 1;
                if answered % 50 == 25 {
                    let id = format!("t{answered}");
                    store.create_table(&id, b"meta").await.unwrap();
                }
                if tengen_store::embedded::checkpoint_failures_left() == 0 {
                    after += 1;
                }
                assert!(answered < 1000, "the checkpoints did not fail");
            }
            std::fs::write(dir.join(ANSWERED), answered.to_string()).unwrap();
        }
        other => panic!("unknown child mode {other}"),
    }
    // Every write above was answered: now the crash.
    std::process::abort();
}

/// The store with a checkpoint at every MiB of journal (8 by default), so
/// that a test sees several.
fn open(dir: &Path) -> EmbeddedStore {
    EmbeddedStore::open_with_checkpoints(dir, DEFAULT_CACHE_BYTES, CHECKPOINT_BYTES).unwrap()
}

const CHECKPOINT_BYTES: u64 = 1 << 20;

fn finished(id: &str) -> FinishedGame {
    FinishedGame {
        id: id.into(),
        players: vec!["Alice".into(), "Bob".into()],
        finished_ms: 5,
        record: b"the record".to_vec(),
        ratings: Vec::new(),
    }
}

#[tokio::test]
#[ignore = "the crashing process of the other tests; they start it"]
async fn crash_child() {
    let mode = std::env::var(CHILD).expect("started by a journal test");
    let dir = std::env::var(DIR).expect("started by a journal test");
    child(&mode, Path::new(&dir)).await;
}

/// Runs `crash_child` in `mode` on `dir` and checks that it crashed.
fn crash(mode: &str, dir: &Path) {
    let status = Command::new(std::env::current_exe().unwrap())
        .args([
            "--exact",
            "journal::crash_child",
            "--ignored",
            "--nocapture",
        ])
        .env(CHILD, mode)
        .env(DIR, dir)
        .status()
        .unwrap();
    use std::os::unix::process::ExitStatusExt;
    assert_eq!(
        status.signal(),
        Some(6),
        "the child was to abort (SIGABRT), not fail: {status}"
    );
    assert!(dir.join(DB_FILE).is_file());
}

async fn check_writes(store: &EmbeddedStore) {
    let t1 = store.live_table("t1").await.unwrap().expect("t1 is live");
    assert_eq!(t1.entries, (0..40).map(entry).collect::<Vec<_>>());
    assert!(store.account("alice").await.unwrap().is_some());
    assert_eq!(store.game("t2").await.unwrap(), Some(finished("t2")));
    assert!(store.live_table("t2").await.unwrap().is_none());
}

#[tokio::test]
async fn answered_writes_survive_a_crash() {
    let dir = tempfile::tempdir().unwrap();
    crash("writes", dir.path());
    assert!(
        std::fs::metadata(dir.path().join(JOURNAL_FILE))
            .unwrap()
            .len()
            > 0
    );
    {
        // The database alone is back at its last durable commit (the
        // checkpoint taken when the child opened it): the journal is what
        // kept the writes.
        let alone = tempfile::tempdir().unwrap();
        std::fs::copy(dir.path().join(DB_FILE), alone.path().join(DB_FILE)).unwrap();
        let store = EmbeddedStore::open(alone.path()).unwrap();
        assert_eq!(store.replayed(), 0);
        assert!(store.live_table("t1").await.unwrap().is_none());
        assert!(store.account("alice").await.unwrap().is_none());
    }
    {
        let store = EmbeddedStore::open(dir.path()).unwrap();
        // 1 create + 40 appends + account + create + append + finish, one
        // group each (they were made one after the other).
        assert_eq!(
            store.replayed(),
            45,
            "the writes came back from the journal"
        );
        check_writes(&store).await;
        // The store goes on from there.
        store.append("t1", 40, &[entry(40)]).await.unwrap();
    }
    let store = EmbeddedStore::open(dir.path()).unwrap();
    assert_eq!(store.replayed(), 0, "a clean stop leaves nothing to replay");
    let t1 = store.live_table("t1").await.unwrap().unwrap();
    assert_eq!(t1.entries.len(), 41);
}

/// The journal is checkpointed by its size, not only every few seconds:
/// after 12.5 MiB of answered appends and a crash, each journal file stayed
/// near the checkpoint size (1 MiB, and at most 2 MiB more while a
/// checkpoint is taken; a file grows by doubling, so at most 4 MiB), only
/// the appends after the last checkpoint are replayed, and every answered
/// append is there.
#[tokio::test]
async fn the_journal_is_checkpointed_by_its_size() {
    let dir = tempfile::tempdir().unwrap();
    crash("big", dir.path());
    for name in [JOURNAL_FILE, SECOND_FILE] {
        let journal = std::fs::metadata(dir.path().join(name)).unwrap().len();
        assert!(
            journal <= 4 << 20,
            "{name} grew to {journal} bytes for 12.5 MiB of writes"
        );
    }
    let store = EmbeddedStore::open(dir.path()).unwrap();
    let replayed = store.replayed() as u64;
    assert!(
        // At most the two files' 2 MiB each (64 appends each, and the
        // records that took them past it).
        replayed > 0 && replayed <= 130,
        "{replayed} groups replayed: checkpoints were taken along the way"
    );
    let t1 = store.live_table("t1").await.unwrap().expect("t1 is live");
    assert_eq!(t1.entries.len() as u64, BIG_APPENDS);
    for (i, e) in t1.entries.iter().enumerate() {
        assert_eq!(*e, big_entry(i as u64), "entry {i}");
    }
}

/// A checkpoint that fails leaves every answered write in the journal:
/// the writer keeps the appends it had given the checkpoint, takes the
/// next checkpoint itself (the journal's first file still counts, so it
/// may not hand over to it again) and goes on. Two of the checkpoint
/// thread's commits fail, and the process crashes a few appends after
/// the second: every append, in order, and every table come back. (Were
/// the writer to hand over again after a failure, the second handover
/// would write over the records the database's last checkpoint needs.)
#[tokio::test]
async fn a_failed_checkpoint_loses_nothing() {
    let dir = tempfile::tempdir().unwrap();
    crash("failed-checkpoints", dir.path());
    let answered: u64 = std::fs::read_to_string(dir.path().join(ANSWERED))
        .unwrap()
        .parse()
        .unwrap();
    // Two failures at 1 MiB of 32 KiB appends each, with the checkpoint
    // the writer takes itself between them.
    assert!(answered > 64, "{answered} appends");
    {
        let store = EmbeddedStore::open(dir.path()).unwrap();
        assert!(store.replayed() > 0, "the crash left records to replay");
        let t1 = store.live_table("t1").await.unwrap().expect("t1 is live");
        assert_eq!(t1.entries.len() as u64, answered);
        for (i, e) in t1.entries.iter().enumerate() {
            assert_eq!(*e, big_entry(i as u64), "entry {i}");
        }
        for i in (25..=answered).step_by(50) {
            let id = format!("t{i}");
            assert!(store.live_table(&id).await.unwrap().is_some(), "{id}");
        }
    }
    let store = EmbeddedStore::open(dir.path()).unwrap();
    assert_eq!(store.replayed(), 0, "a clean stop leaves nothing to replay");
    let t1 = store.live_table("t1").await.unwrap().unwrap();
    assert_eq!(t1.entries.len() as u64, answered);
}

/// The three files' bytes.
fn files(dir: &Path) -> Vec<Vec<u8>> {
    [DB_FILE, JOURNAL_FILE, SECOND_FILE]
        .iter()
        .map(|name| std::fs::read(dir.join(name)).unwrap())
        .collect()
}

/// A last record whose write was cut short by the crash (its header
/// written, the rest not) is dropped: it was never answered.
#[tokio::test]
async fn a_cut_last_record_is_dropped() {
    let dir = tempfile::tempdir().unwrap();
    crash("writes", dir.path());
    let path = dir.path().join(JOURNAL_FILE);
    let mut journal = std::fs::read(&path).unwrap();
    let found = record_spans(&journal);
    assert_eq!(found.len(), 45);
    let (at, len) = found[44];
    journal[at + 40..at + len].fill(0);
    std::fs::write(&path, &journal).unwrap();
    let store = EmbeddedStore::open(dir.path()).unwrap();
    assert_eq!(store.replayed(), 44);
    // The last write was the finish of t2: it is still live.
    assert!(store.game("t2").await.unwrap().is_none());
    assert_eq!(
        store.live_table("t2").await.unwrap().unwrap().entries.len(),
        1
    );
}

/// A record damaged before others refuses the open, naming the file, the
/// offset and what follows, and changes none of the files; `salvage`
/// keeps a copy of them, replays what precedes the damage and says how
/// many commits were lost.
#[tokio::test]
async fn damage_before_acknowledged_records_refuses_the_open_until_salvaged() {
    let dir = tempfile::tempdir().unwrap();
    crash("writes", dir.path());
    // The crash left redb to recover its file: the first open does, and
    // the files are a clean store's plus the journal.
    let path = dir.path().join(JOURNAL_FILE);
    let journal = std::fs::read(&path).unwrap();
    let found = record_spans(&journal);
    let mut damaged = journal.clone();
    let (at, len) = found[30];
    damaged[at + len / 2] ^= 0x40;
    std::fs::write(&path, &damaged).unwrap();
    let before = files(dir.path());

    let error = EmbeddedStore::open(dir.path()).err().expect("refused");
    let shown = error.to_string();
    assert!(
        matches!(error, tengen_store::StoreError::Corrupt(_)),
        "{shown}"
    );
    assert!(shown.contains(&path.display().to_string()), "{shown}");
    assert!(shown.contains(&format!("offset {at}")), "{shown}");
    assert!(shown.contains("14 intact commits follow it"), "{shown}");
    assert!(shown.contains("salvage"), "{shown}");
    assert_eq!(
        files(dir.path())[1..],
        before[1..],
        "the journal is left as it was"
    );
    // And again: the same answer, nothing written meanwhile.
    assert!(EmbeddedStore::open(dir.path()).is_err());
    assert_eq!(files(dir.path())[1..], before[1..]);

    let salvaged = tengen_store::embedded::salvage(dir.path(), &Default::default()).unwrap();
    assert_eq!((salvaged.kept, salvaged.lost), (30, 15));
    let copy = salvaged.copy.unwrap();
    assert_eq!(
        files(&copy)[1..],
        before[1..],
        "the copy is the files as they were"
    );
    let store = EmbeddedStore::open(dir.path()).unwrap();
    assert_eq!(store.replayed(), 0);
    let t1 = store.live_table("t1").await.unwrap().unwrap();
    assert_eq!(t1.entries, (0..29).map(entry).collect::<Vec<_>>());
    assert!(store.account("alice").await.unwrap().is_none());
    // It goes on from there, and a crash later replays only the new.
    store.append("t1", 29, &[entry(29)]).await.unwrap();
}

/// A server upgraded after a crash replays the journal the previous
/// version wrote (its own format, its own rules), then writes the current
/// one.
#[tokio::test]
async fn a_journal_of_the_previous_format_is_replayed() {
    let dir = tempfile::tempdir().unwrap();
    crash("writes", dir.path());
    // Opening recovers redb's file once: as the previous version would
    // have found it, with its journal.
    tengen_store::embedded::as_previous_version(dir.path(), &[]).unwrap();
    let journal = std::fs::read(dir.path().join(JOURNAL_FILE)).unwrap();
    assert_eq!(&journal[..4], b"TGJ1");
    {
        let store = EmbeddedStore::open(dir.path()).unwrap();
        assert_eq!(store.replayed(), 45);
        check_writes(&store).await;
        store.append("t1", 40, &[entry(40)]).await.unwrap();
    }
    let store = EmbeddedStore::open(dir.path()).unwrap();
    assert_eq!(
        store.live_table("t1").await.unwrap().unwrap().entries.len(),
        41
    );
}

#[tokio::test]
async fn records_of_an_older_checkpoint_are_never_replayed() {
    let dir = tempfile::tempdir().unwrap();
    crash("many-then-few", dir.path());
    let journal = std::fs::read(dir.path().join(JOURNAL_FILE)).unwrap();
    // The file is written from its start again after a checkpoint: the
    // three new records are followed by what is left of the first run's.
    let new: usize = record_spans(&journal).iter().map(|(_, len)| len).sum();
    assert!(record_spans(&journal).len() < 200 && journal.len() > 30 * new);
    let store = EmbeddedStore::open(dir.path()).unwrap();
    assert_eq!(store.replayed(), 3);
    let t1 = store.live_table("t1").await.unwrap().unwrap();
    assert_eq!(t1.entries, (0..203).map(entry).collect::<Vec<_>>());
}

#[tokio::test]
async fn an_unreadable_journal_record_refuses_the_open() {
    let dir = tempfile::tempdir().unwrap();
    crash("writes", dir.path());
    let path = dir.path().join(JOURNAL_FILE);
    let mut journal = std::fs::read(&path).unwrap();
    // A record with valid checksums whose payload is not a group of
    // writes (as another version's would be): refused, not skipped.
    let (at, len) = record_spans(&journal)[0];
    let payload_len = len - 56;
    let payload = vec![0xc1u8; payload_len]; // 0xc1 is never valid MessagePack
    let sum = crc32(&[], &payload).to_le_bytes();
    journal[at + 36..at + 36 + payload_len].copy_from_slice(&payload);
    journal[at + 24..at + 28].copy_from_slice(&sum);
    journal[at + 36 + payload_len + 8..at + 36 + payload_len + 12].copy_from_slice(&sum);
    let header = crc32(&[], &journal[at..at + 32]).to_le_bytes();
    journal[at + 32..at + 36].copy_from_slice(&header);
    std::fs::write(&path, &journal).unwrap();
    let error = EmbeddedStore::open(dir.path()).err().expect("refused");
    let shown = error.to_string();
    assert!(shown.contains(JOURNAL_FILE), "{shown}");
    assert!(shown.contains("another version"), "{shown}");
}

/// CRC-32 (IEEE) of `tag` then `payload`, bit by bit: the journal's
/// checksums, computed here independently.
fn crc32(tag: &[u8], payload: &[u8]) -> u32 {
    let mut crc = !0u32;
    for &byte in tag.iter().chain(payload) {
        crc ^= u32::from(byte);
        for _ in 0..8 {
            crc = if crc & 1 == 1 {
                (crc >> 1) ^ 0xEDB8_8320
            } else {
                crc >> 1
            };
        }
    }
    !crc
}
