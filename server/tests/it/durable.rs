//! Durability, end to end: the `tengen-server` binary on a data directory,
//! real clients, several games played part-way, the server killed (SIGKILL)
//! or stopped (SIGTERM) and started again on the same directory. Every
//! accepted move must be there, with the same `seq` and the clocks as they
//! were at the last accepted move; the players resume with their tokens and
//! finish the games; the finished records end up in the store.

use crate::common;

use std::time::Duration;

use common::proc::{self, DataDir};
use common::scripted::{games_part_way, resume_and_finish};
use tengen_client::ClientError;
use tengen_store::EmbeddedStore;

/// The finished games are in the embedded store, with every move, and no
/// live log is left.
async fn check_records(dir: &DataDir, games: &[common::scripted::Game]) {
    let store = EmbeddedStore::open(&dir.0).expect("the store opens");
    common::scripted::check_records(&store, games).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sigkill_loses_no_accepted_move() {
    let dir = DataDir::new("sigkill");
    let server = proc::start(&dir.0);
    let mut games = games_part_way(&server.url()).await;
    server.kill();
    let server = proc::start(&dir.0);
    for g in &mut games {
        resume_and_finish(&server.url(), g).await;
    }
    let (status, _, _) = server.terminate();
    assert!(status.success());
    check_records(&dir, &games).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sigterm_says_restarting_and_the_games_go_on() {
    let dir = DataDir::new("sigterm");
    let server = proc::start(&dir.0);
    let mut games = games_part_way(&server.url()).await;
    let addr = server.addr.clone();
    let t0 = std::time::Instant::now();
    proc::signal(&server.child, "-TERM");
    // While it drains, /healthz says 503 (then the listener closes).
    let mut saw_503 = false;
    for _ in 0..100 {
        match proc::http_get(&addr, "/healthz") {
            Ok(r) if r.starts_with("HTTP/1.1 503") => {
                saw_503 = true;
                break;
            }
            Ok(_) => std::thread::sleep(Duration::from_millis(5)),
            Err(_) => break,
        }
    }
    assert!(saw_503, "/healthz answered 503 while draining");
    // Every client hears that the server is restarting.
    for g in &mut games {
        for c in &mut g.conn {
            let closed = loop {
                match c.next().await {
                    Ok(_) => continue,
                    Err(e) => break e,
                }
            };
            match closed {
                ClientError::Closed { code, .. } => assert_eq!(code, 1012),
                other => panic!("{other:?}"),
            }
        }
    }
    let (status, _, _) = server.wait_exit();
    let took = t0.elapsed();
    assert!(status.success(), "{status:?}");
    assert!(took < Duration::from_secs(5), "stopped in {took:?}");
    let server = proc::start(&dir.0);
    for g in &mut games {
        resume_and_finish(&server.url(), g).await;
    }
    let (status, _, _) = server.terminate();
    assert!(status.success());
    check_records(&dir, &games).await;
}

#[test]
fn a_damaged_data_directory_is_refused_and_left_alone() {
    // Garbage where the database should be.
    let dir = DataDir::new("garbage");
    std::fs::create_dir_all(&dir.0).unwrap();
    let file = dir.0.join("tengen.redb");
    let garbage: Vec<u8> = (0..50_000u32).map(|i| (i * 7 + 3) as u8).collect();
    std::fs::write(&file, &garbage).unwrap();
    let failed = proc::try_start(&dir.0).err().expect("refused");
    assert!(!failed.status.success());
    assert!(
        failed.stderr.contains("tengen.redb") || failed.stderr.contains(&*dir.0.to_string_lossy()),
        "{}",
        failed.stderr
    );
    assert!(!failed.stderr.contains("panicked"), "{}", failed.stderr);
    assert_eq!(
        std::fs::read(&file).unwrap(),
        garbage,
        "the data is untouched"
    );

    // A file where the directory should be.
    let not_dir = DataDir::new("notdir");
    std::fs::write(&not_dir.0, b"not a directory").unwrap();
    let failed = proc::try_start(&not_dir.0).err().expect("refused");
    assert!(!failed.status.success());
    assert!(!failed.stderr.contains("panicked"), "{}", failed.stderr);
    assert!(
        failed.stderr.contains(&*not_dir.0.to_string_lossy()),
        "{}",
        failed.stderr
    );
    assert_eq!(std::fs::read(&not_dir.0).unwrap(), b"not a directory");
    let _ = std::fs::remove_file(&not_dir.0);
}

#[test]
fn data_from_a_newer_schema_is_refused() {
    let dir = DataDir::new("schema");
    drop(EmbeddedStore::open(&dir.0).unwrap());
    tengen_store::embedded::set_schema_version_for_tests(
        &dir.0,
        tengen_store::embedded::SCHEMA_VERSION + 1,
    )
    .unwrap();
    let before = std::fs::read(dir.0.join("tengen.redb")).unwrap();
    let failed = proc::try_start(&dir.0).err().expect("refused");
    assert!(!failed.status.success());
    let want = format!(
        "schema version {}",
        tengen_store::embedded::SCHEMA_VERSION + 1
    );
    assert!(failed.stderr.contains(&want), "{}", failed.stderr);
    assert_eq!(std::fs::read(dir.0.join("tengen.redb")).unwrap(), before);
}
