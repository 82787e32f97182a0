//! The reader threads: a fixed number of threads, each running one read
//! transaction at a time. A read waits (without a thread) for a free
//! reader, so a burst of reads costs no more threads than [`READERS`];
//! tokio's blocking pool would start one thread per waiting read, up to
//! hundreds under load.

use std::panic::AssertUnwindSafe;
use std::sync::mpsc::{Receiver, SyncSender, sync_channel};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;

use redb::Database;
use tokio::sync::{Semaphore, oneshot};

use crate::{Result, StoreError};

/// How many reads run at once, each on its own thread.
pub const READERS: usize = 8;

type Job = Box<dyn FnOnce(&Database) + Send>;

pub(super) struct Readers {
    jobs: Option<SyncSender<Job>>,
    /// One per reader: a read holds one from before it is queued until it
    /// is answered, so the queue (as long as there are readers) never fills.
    slots: Arc<Semaphore>,
    threads: Vec<JoinHandle<()>>,
}

impl Readers {
    pub(super) fn start(db: &Arc<Database>) -> Result<Readers> {
        let (jobs, queue) = sync_channel::<Job>(READERS);
        let queue = Arc::new(Mutex::new(queue));
        let mut threads = Vec::with_capacity(READERS);
        for _ in 0..READERS {
            let (db, queue) = (db.clone(), queue.clone());
            let thread = std::thread::Builder::new()
                .name("tengen-store-rd".into())
                .spawn(move || serve(&db, &queue))
                .map_err(|e| {
                    StoreError::Unavailable(format!("cannot start a reader thread: {e}"))
                })?;
            threads.push(thread);
        }
        Ok(Readers {
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
        let job: Job = Box::new(move |db| {
            let _ = reply.send(read(db));
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

/// One reader thread: takes jobs until the store is dropped. A read that
/// panics fails alone (its caller gets `Unavailable`); the thread goes on.
fn serve(db: &Database, queue: &Mutex<Receiver<Job>>) {
    loop {
        let job = match queue.lock() {
            Ok(queue) => queue.recv(),
            Err(_) => return,
        };
        match job {
            Ok(job) => {
                let _ = std::panic::catch_unwind(AssertUnwindSafe(|| job(db)));
            }
            Err(_) => return,
        }
    }
}
