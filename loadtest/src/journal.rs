//! The durable relay's journal (`--baseline-durable`): every frame the
//! relay forwards is on disk before it is forwarded, the way the server
//! stores every move before anyone hears of it.
//!
//! Why: the bare relay touches no disk, so its CPU and latency leave out
//! the cost of durability, which on a virtual machine's disk is large (a
//! sync is a few I/Os, each an exit to the host). Measured against it, the
//! server's figures mix what its own code costs with what any durable
//! server pays. This journal pays the second part alone, the way the
//! embedded store's writer pays it: one thread; a group of appends per
//! commit, commits starting at least [`COMMIT_SPACING`] apart (the store's
//! spacing); each group one `pwrite` and one `fdatasync` into a file whose
//! blocks were written with zeros beforehand (so a sync flushes the
//! records, not the file's growth). What it leaves out: encoding, redb,
//! checkpoints. The file is a ring of [`SIZE`] bytes that nothing reads
//! back: a baseline, not a store.

use std::fs::{File, OpenOptions};
use std::io;
use std::os::unix::fs::FileExt;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use tokio::sync::{mpsc, oneshot};

/// The journal's file inside the directory it is given.
pub const FILE: &str = "tengen-relay.journal";
/// The ring's size: written with zeros when the journal opens.
const SIZE: u64 = 64 << 20;
/// The least time between the starts of two commits (the embedded store's
/// writer uses the same).
const COMMIT_SPACING: Duration = Duration::from_micros(500);
/// The most appends one commit takes (the store's writer: the same).
const MAX_GROUP: usize = 1024;
/// Appends waiting for the writer; a full queue makes a connection wait.
const QUEUE: usize = 16 * 1024;

/// What the journal has done, for the relay's `/metrics`.
#[derive(Debug, Default)]
pub struct Counters {
    pub syncs: AtomicU64,
    pub frames: AtomicU64,
    pub bytes: AtomicU64,
}

struct Append {
    frame: Vec<u8>,
    done: oneshot::Sender<()>,
}

/// The sending side: cheap to clone, one per connection.
#[derive(Clone)]
pub struct Journal {
    tx: mpsc::Sender<Append>,
    counters: Arc<Counters>,
}

impl Journal {
    /// Creates `dir/FILE` (over any old one), writes its [`SIZE`] bytes of
    /// zeros, syncs it, and starts the writer thread.
    pub fn open(dir: &Path) -> io::Result<Journal> {
        let path = dir.join(FILE);
        let file = OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(true)
            .open(&path)?;
        let zeros = vec![0u8; 1 << 20];
        let mut at = 0;
        while at < SIZE {
            file.write_all_at(&zeros, at)?;
            at += zeros.len() as u64;
        }
        file.sync_all()?;
        let (tx, rx) = mpsc::channel(QUEUE);
        let counters = Arc::new(Counters::default());
        let writer = Writer {
            file,
            path,
            at: 0,
            counters: counters.clone(),
        };
        std::thread::Builder::new()
            .name("relay-journal".into())
            .spawn(move || writer.run(rx))?;
        Ok(Journal { tx, counters })
    }

    /// Appends `frame` and returns once it is synced. Fails once the
    /// writer has stopped (a write or a sync failed: it says why on
    /// standard error).
    pub async fn append(&self, frame: Vec<u8>) -> io::Result<()> {
        let (done, synced) = oneshot::channel();
        let gone = || io::Error::new(io::ErrorKind::BrokenPipe, "the relay's journal stopped");
        self.tx
            .send(Append { frame, done })
            .await
            .map_err(|_| gone())?;
        synced.await.map_err(|_| gone())
    }

    pub fn counters(&self) -> &Counters {
        &self.counters
    }
}

struct Writer {
    file: File,
    path: PathBuf,
    /// Where the next group goes.
    at: u64,
    counters: Arc<Counters>,
}

impl Writer {
    fn run(mut self, mut rx: mpsc::Receiver<Append>) {
        let mut last_start: Option<Instant> = None;
        let mut group = Vec::with_capacity(MAX_GROUP);
        let mut buf = Vec::new();
        while let Some(first) = rx.blocking_recv() {
            if let Some(wait) = last_start.map(|t| COMMIT_SPACING.saturating_sub(t.elapsed())) {
                std::thread::sleep(wait);
            }
            last_start = Some(Instant::now());
            group.push(first);
            while group.len() < MAX_GROUP {
                match rx.try_recv() {
                    Ok(a) => group.push(a),
                    Err(_) => break,
                }
            }
            if let Err(e) = self.commit(&group, &mut buf) {
                eprintln!(
                    "tengen-loadtest relay: journal {}: {e}",
                    self.path.display()
                );
                return; // every waiting append fails, and the relay closes them
            }
            for a in group.drain(..) {
                let _ = a.done.send(());
            }
        }
    }

    /// One record per frame (its length, `u32` little-endian, then the
    /// frame), the group written at once and synced.
    fn commit(&mut self, group: &[Append], buf: &mut Vec<u8>) -> io::Result<()> {
        buf.clear();
        for a in group {
            buf.extend_from_slice(&(a.frame.len() as u32).to_le_bytes());
            buf.extend_from_slice(&a.frame);
        }
        if buf.len() as u64 > SIZE {
            return Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                "a group larger than the journal",
            ));
        }
        if self.at + buf.len() as u64 > SIZE {
            self.at = 0;
        }
        self.file.write_all_at(buf, self.at)?;
        self.file.sync_data()?;
        self.at += buf.len() as u64;
        let c = &self.counters;
        c.syncs.fetch_add(1, Ordering::Relaxed);
        c.frames.fetch_add(group.len() as u64, Ordering::Relaxed);
        c.bytes.fetch_add(buf.len() as u64, Ordering::Relaxed);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn records(bytes: &[u8]) -> Vec<Vec<u8>> {
        let mut out = Vec::new();
        let mut at = 0;
        while at + 4 <= bytes.len() {
            let n = u32::from_le_bytes(bytes[at..at + 4].try_into().unwrap()) as usize;
            if n == 0 {
                break;
            }
            out.push(bytes[at + 4..at + 4 + n].to_vec());
            at += 4 + n;
        }
        out
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn every_frame_is_in_the_file_in_order_before_its_append_returns() {
        let dir = tempfile::tempdir().unwrap();
        let j = Journal::open(dir.path()).unwrap();
        let path = dir.path().join(FILE);
        assert_eq!(std::fs::metadata(&path).unwrap().len(), SIZE);
        // An append that has returned is in the file.
        j.append(b"first".to_vec()).await.unwrap();
        assert_eq!(records(&std::fs::read(&path).unwrap()), [b"first".to_vec()]);
        // Many connections at once: they share commits.
        let mut tasks = Vec::new();
        for k in 0..50u32 {
            let j = j.clone();
            tasks.push(tokio::spawn(async move {
                for m in 0..4u32 {
                    let frame = format!("conn {k} move {m}").into_bytes();
                    j.append(frame).await.unwrap();
                }
            }));
        }
        for t in tasks {
            t.await.unwrap();
        }
        let c = j.counters();
        assert_eq!(c.frames.load(Ordering::Relaxed), 201);
        let syncs = c.syncs.load(Ordering::Relaxed);
        assert!((5..=201).contains(&syncs), "{syncs} syncs");
        let got = records(&std::fs::read(&path).unwrap());
        assert_eq!(got.len(), 201);
        assert_eq!(got[0], b"first");
        for k in 0..50u32 {
            let mine: Vec<_> = got
                .iter()
                .filter(|r| r.starts_with(format!("conn {k} ").as_bytes()))
                .collect();
            let want: Vec<_> = (0..4u32)
                .map(|m| format!("conn {k} move {m}").into_bytes())
                .collect();
            assert_eq!(mine, want.iter().collect::<Vec<_>>(), "conn {k}");
        }
        assert_eq!(
            c.bytes.load(Ordering::Relaxed),
            got.iter().map(|r| 4 + r.len() as u64).sum::<u64>()
        );
    }

    #[tokio::test]
    async fn the_ring_starts_again_at_its_beginning_when_full() {
        let dir = tempfile::tempdir().unwrap();
        let j = Journal::open(dir.path()).unwrap();
        let big = vec![7u8; (SIZE / 3) as usize];
        for _ in 0..3 {
            j.append(big.clone()).await.unwrap();
        }
        // Two fit, the third starts again at 0.
        let file = std::fs::read(dir.path().join(FILE)).unwrap();
        assert_eq!(file.len() as u64, SIZE);
        let got = records(&file);
        assert_eq!(
            got.len(),
            2,
            "the third over the first, the second after it"
        );
        assert_eq!(j.counters().syncs.load(Ordering::Relaxed), 3);
    }

    #[tokio::test]
    async fn a_frame_larger_than_the_ring_is_refused_and_the_journal_stops() {
        let dir = tempfile::tempdir().unwrap();
        let j = Journal::open(dir.path()).unwrap();
        let err = j.append(vec![1u8; SIZE as usize]).await.unwrap_err();
        assert_eq!(err.kind(), io::ErrorKind::BrokenPipe);
        assert!(j.append(b"after".to_vec()).await.is_err());
        assert_eq!(j.counters().syncs.load(Ordering::Relaxed), 0);
    }
}
