//! `--stop-server`: once the games and their drain are over, the load
//! generator stops a real `tengen-server` binary (on its own data
//! directory) with SIGTERM and reports how long it took to exit. The
//! server is this test's child, so the load generator sees it exit as a
//! zombie; afterwards the store holds every game that ended as finished.

use std::process::Command;

use tengen_store::{EmbeddedStore, Item, Store};

use crate::common;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_server_is_stopped_after_the_drain_and_timed() {
    let bin = common::server_binary();
    let dir = tempfile::tempdir().unwrap();
    let started = common::start_server(&bin, dir.path(), &[]);
    let (mut server, addr, log) = (started.child, started.addr, started.stderr);
    let pid = server.id().to_string();
    let url = format!("ws://{addr}/ws");
    let out = tokio::task::spawn_blocking(move || {
        Command::new(env!("CARGO_BIN_EXE_tengen-loadtest"))
            .args(["games", "--url", &url, "--games", "6", "--spectators", "1"])
            .args(["--move-interval", "0.1", "--game-moves", "9"])
            .args(["--duration", "1", "--drain", "10"])
            .args(["--server-pid", &pid, "--stop-server", "--json"])
            .output()
            .unwrap()
    })
    .await
    .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{}\n{stdout}",
        String::from_utf8_lossy(&out.stderr)
    );
    let json: serde_json::Value = serde_json::from_str(
        stdout
            .lines()
            .find(|l| l.starts_with('{'))
            .expect("a JSON report"),
    )
    .unwrap();
    assert_eq!(json["error_total"], 0, "{stdout}");
    let took = json["server_stop_s"].as_f64().expect("the stop was timed");
    assert!(took < 5.0, "{took} s");
    let status = server.wait().unwrap();
    let log = log.join().unwrap();
    assert!(status.success(), "the server exited with {status}: {log}");
    let started = json["games_started"].as_u64().unwrap();
    assert!(started >= 6, "{stdout}");
    assert_eq!(json["games_completed"].as_u64().unwrap(), started);
    // Every game seen to its end is stored as finished; a table left live
    // is one whose players sat down after the deadline and never moved.
    let store = EmbeddedStore::open(dir.path()).unwrap();
    let (mut finished, mut cursor) = (0, None);
    loop {
        let page = store.export(cursor.as_ref(), 100).await.unwrap();
        for item in page.items {
            match item {
                Item::Game(_) => finished += 1,
                Item::Live(t) => assert!(t.entries.is_empty(), "{} has moves", t.id),
                _ => {}
            }
        }
        match page.next {
            Some(next) => cursor = Some(next),
            None => break,
        }
    }
    assert_eq!(finished, started, "{stdout}");
}

/// Without `--server-pid` there is nothing to stop: refused at once.
#[test]
fn stop_server_needs_the_server_pid() {
    let out = Command::new(env!("CARGO_BIN_EXE_tengen-loadtest"))
        .args(["games", "--url", "ws://127.0.0.1:1/ws", "--stop-server"])
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("--server-pid"), "{err}");
}
