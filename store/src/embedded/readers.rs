//! The reader threads: a fixed number of threads, each running one read
//! transaction at a time. A read waits (without a thread) for a free
//! reader, so a burst of reads costs no more threads than [`READERS`];
//! tokio's blocking pool would start one thread per waiting read, up to
//! hundreds under load. Each read takes the database the store has open
//! now (`handle`: none while the writer reopens the files), and damage a
//! read runs into (redb reports it, or fails on it) fails that read as
//! [`StoreError::Corrupt`], logged with the file's name.

use std::panic::AssertUnwindSafe;
use std::sync::mpsc::{Receiver, SyncSender, sync_channel};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;

use redb::Database;
use tokio::sync::{Semaphore, oneshot};

use super::handle::Handle;
use crate::{Result, StoreError};

/// How many reads run at once, each on its own thread.
pub const READERS: usize = 8;

type Job = Box<dyn FnOnce(&Handle) + Send>;

pub(super) struct Readers {
    /// The database file, for the log line of a read that found damage.
    file: Arc<str>,
    jobs: Option<SyncSender<Job>>,
    /// One per reader: a read holds one from before it is queued until it
    /// is answered, so the queue (as long as there are readers) never fills.
    slots: Arc<Semaphore>,
    threads: Vec<JoinHandle<()>>,
}

impl Readers {
    pub(super) fn start(handle: &Arc<Handle>, file: &std::path::Path) -> Result<Readers> {
        let (jobs, queue) = sync_channel::<Job>(READERS);
        let queue = Arc::new(Mutex::new(queue));
        let mut threads = Vec::with_capacity(READERS);
        for _ in 0..READERS {
            let (handle, queue) = (handle.clone(), queue.clone());
            let thread = std::thread::Builder::new()
                .name("tengen-store-rd".into())
                .spawn(move || serve(&handle, &queue))
                .map_err(|e| {
                    StoreError::Unavailable(format!("cannot start a reader thread: {e}"))
                })?;
            threads.push(thread);
        }
        Ok(Readers {
            file: file.display().to_string().into(),
            jobs: Some(jobs),
            slots: Arc::new(Semaphore::new(READERS)),
            threads,
        })
    }

    /// Runs `read` on a reader thread once one is free.
    pub(super) async fn run<T: Send + 'static>(
        &self,
        read: impl FnOnce(&Database) -> Result<T> + Send + 'static,
    ) -> Result<T> {
        let stopped = || StoreError::Unavailable("the store's reader threads have stopped".into());
        let slot = self
            .slots
            .clone()
            .acquire_owned()
            .await
            .map_err(|_| stopped())?;
        let (reply, answer) = oneshot::channel();
        let file = self.file.clone();
        let job: Job = Box::new(move |handle| {
            let outcome = handle.db().and_then(|db| {
                // redb asserts on some impossible states in debug builds
                // (a damaged page): that read fails, the thread goes on.
                std::panic::catch_unwind(AssertUnwindSafe(|| read(&db))).unwrap_or_else(|_| {
                    Err(StoreError::Corrupt(format!(
                        "{file}: a read failed on what redb found there"
                    )))
                })
            });
            if let Err(StoreError::Corrupt(why)) = &outcome {
                tracing::error!(file = %file, "a read found damage and was refused: {why}");
            }
            let _ = reply.send(outcome);
            drop(slot);
        });
        let jobs = self.jobs.as_ref().ok_or_else(stopped)?;
        jobs.try_send(job).map_err(|_| stopped())?;
        answer
            .await
            .map_err(|_| StoreError::Unavailable("a read failed".into()))?
    }

    /// Lets the readers finish what they run and waits for them, so that
    /// the database file is closed when the store's drop returns.
    pub(super) fn stop(&mut self) {
        self.jobs.take();
        for thread in self.threads.drain(..) {
            let _ = thread.join();
        }
    }
}

/// One reader thread: takes jobs until the store is dropped.
fn serve(handle: &Handle, queue: &Mutex<Receiver<Job>>) {
    loop {
        let job = match queue.lock() {
            Ok(queue) => queue.recv(),
            Err(_) => return,
        };
        match job {
            Ok(job) => job(handle),
            Err(_) => return,
        }
    }
}
