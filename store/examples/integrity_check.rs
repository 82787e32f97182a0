//! What redb's check of every page at open costs on a large store.
//!
//! ```text
//! cargo run --release -p tengen-store --example integrity_check -- [--gib 1] [--dir PATH]
//! ```
//!
//! Fills an embedded store with finished games of 256 KiB records until
//! the database file holds `--gib` GiB (a store already that large in
//! `--dir` is used as it is), closes it, then opens the file three times
//! each way, with redb's check (as the store opens it) and without, and
//! prints each time; then times the store's whole open. The file stays in
//! the page cache after the first open; to time a cold first open, drop
//! the file from the cache before (`posix_fadvise(POSIX_FADV_DONTNEED)`)
//! and pass an existing `--dir`. The data lives in a temporary directory
//! unless `--dir` is given (on the disk to measure).

use std::path::Path;
use std::time::Instant;

use tengen_store::embedded::DB_FILE;
use tengen_store::{EmbeddedStore, FinishedGame, Store};

#[path = "common/flags.rs"]
mod flags;

const RECORD: usize = 256 << 10;

fn main() {
    let mut gib = 1.0f64;
    let mut dir = None;
    for flag in flags::parse() {
        match flag.name.as_str() {
            "--gib" => gib = flag.number(),
            "--dir" => dir = Some(std::path::PathBuf::from(flag.value)),
            _ => flag.unknown(),
        }
    }
    let scratch = tempfile::tempdir().unwrap();
    let dir = dir.unwrap_or_else(|| scratch.path().to_path_buf());
    let target = (gib * f64::from(1u32 << 30)) as u64;
    if std::fs::metadata(dir.join(DB_FILE)).map_or(0, |m| m.len()) < target {
        fill(&dir, target);
    }
    let size = std::fs::metadata(dir.join(DB_FILE)).unwrap().len();
    println!(
        "database file: {:.2} GiB",
        size as f64 / f64::from(1u32 << 30)
    );
    for check in [true, false, true, false, true, false] {
        let t0 = Instant::now();
        let db = redb::Database::builder()
            .set_check_integrity_on_open(check)
            .create(dir.join(DB_FILE))
            .unwrap();
        let took = t0.elapsed();
        drop(db);
        println!("redb open, check {check}: {took:?}");
    }
    let t0 = Instant::now();
    let store = EmbeddedStore::open(&dir).unwrap();
    println!("the store's open: {:?}", t0.elapsed());
    drop(store);
}

/// Finished games of `RECORD` bytes each until the file holds `target`.
fn fill(dir: &Path, target: u64) {
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let store = EmbeddedStore::open(dir).unwrap();
    let mut record = vec![0u8; RECORD];
    let mut n = 0u64;
    runtime.block_on(async {
        while std::fs::metadata(dir.join(DB_FILE)).map_or(0, |m| m.len()) < target {
            for _ in 0..64 {
                record[..8].copy_from_slice(&n.to_le_bytes());
                // Different bytes in each record, so nothing compresses.
                for (i, b) in record.iter_mut().enumerate().skip(8).step_by(61) {
                    *b = (n as usize).wrapping_mul(31).wrapping_add(i) as u8;
                }
                let game = FinishedGame {
                    id: format!("g{n}"),
                    players: vec![format!("p{}", n % 1000), format!("q{}", n % 997)],
                    finished_ms: n,
                    record: record.clone(),
                    ratings: Vec::new(),
                };
                store.finish_game(&game).await.unwrap();
                n += 1;
            }
        }
    });
    drop(store);
}
