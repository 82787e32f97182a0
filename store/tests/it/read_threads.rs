//! The embedded store's reader threads, in a test binary of its own: it
//! counts this process's threads by name, which other tests' stores (run
//! in parallel in one binary) would disturb.

use std::sync::Arc;

use tengen_store::{EmbeddedStore, Store};

/// Threads of this process whose name is `name`.
fn threads_named(name: &str) -> usize {
    std::fs::read_dir("/proc/self/task")
        .map(|tasks| {
            tasks
                .flatten()
                .filter(|t| {
                    std::fs::read_to_string(t.path().join("comm"))
                        .is_ok_and(|comm| comm.trim_end() == name)
                })
                .count()
        })
        .unwrap_or(0)
}

/// Whether `ok` holds within a few seconds, asked every millisecond. A
/// thread's name shows in /proc only once the thread has run, and a joined
/// thread's entry can outlive the join for a moment: a busy machine must
/// not fail the counts below on either.
fn soon(ok: impl Fn() -> bool) -> bool {
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(5);
    while !ok() {
        if std::time::Instant::now() > deadline {
            return false;
        }
        std::thread::sleep(std::time::Duration::from_millis(1));
    }
    true
}

/// A burst of reads (here 2,000 at once) is served by the store's
/// `embedded::READERS` reader threads: it starts no thread in the runtime
/// (one blocking thread per waiting read would make hundreds).
#[test]
fn a_burst_of_reads_takes_a_bounded_number_of_threads() {
    const NAME: &str = "read-burst";
    const WORKERS: usize = 2;
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(WORKERS)
        .thread_name(NAME)
        .enable_all()
        .build()
        .unwrap();
    let dir = tempfile::tempdir().unwrap();
    let store = Arc::new(EmbeddedStore::open(dir.path()).unwrap());
    let peak = Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let done = Arc::new(std::sync::atomic::AtomicBool::new(false));
    let watcher = {
        let (peak, done) = (peak.clone(), done.clone());
        std::thread::spawn(move || {
            while !done.load(std::sync::atomic::Ordering::Relaxed) {
                peak.fetch_max(threads_named(NAME), std::sync::atomic::Ordering::Relaxed);
                std::thread::sleep(std::time::Duration::from_millis(1));
            }
        })
    };
    runtime.block_on(async {
        let reads = (0..2000).map(|i| {
            let store = store.clone();
            tokio::spawn(async move { store.account(&format!("player{i}")).await })
        });
        for read in futures_util::future::join_all(reads).await {
            assert!(read.unwrap().unwrap().is_none());
        }
    });
    done.store(true, std::sync::atomic::Ordering::Relaxed);
    watcher.join().unwrap();
    let peak = peak.load(std::sync::atomic::Ordering::Relaxed);
    assert!(
        peak <= WORKERS,
        "{peak} runtime threads at once, more than {WORKERS}"
    );
    let readers = || threads_named("tengen-store-rd");
    assert!(
        soon(|| readers() == tengen_store::embedded::READERS),
        "{} reader threads, not {}",
        readers(),
        tengen_store::embedded::READERS
    );
    drop(store);
    assert!(
        soon(|| readers() == 0),
        "{} reader threads left: the readers stop with the store",
        readers()
    );
}
