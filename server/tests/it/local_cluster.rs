//! `deploy/local-cluster` for real: the script starts a
//! `redis-server` (or a Redis Cluster of six) and two nodes of this
//! build's `tengen-server`, prints their URLs; a game is played on node 1 while a spectator watches it
//! through node 2 (the table runs on node 1; node 2 routes over Redis);
//! then SIGTERM to the script stops every process it started and removes
//! its directory.

#![cfg(unix)]

use crate::common;

use std::io::{BufRead, BufReader, Read};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use common::scripted::{self, new_game};
use tengen_protocol::{ClientMsg, ServerMsg};

fn script() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .join("deploy")
        .join("local-cluster")
}

fn alive(pid: u32) -> bool {
    // `kill -0` succeeds for a live process (a zombie has been reaped by
    // its parent, the script's watcher, by the time that parent is gone).
    Command::new("kill")
        .args(["-0", &pid.to_string()])
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_local_cluster_serves_a_game_across_its_two_nodes_and_stops_cleanly() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("cluster");
    serve_a_game_and_stop(&dir, &[], 1).await;
    assert!(dir.join("redis").is_dir());
}

/// The same over a Redis Cluster of three primaries with a replica each,
/// started by the script: six redis-server processes, all stopped with it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_local_cluster_on_a_redis_cluster_serves_a_game_and_stops_cleanly() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("cluster");
    serve_a_game_and_stop(&dir, &["--redis-cluster"], 6).await;
    for k in 1..=6 {
        assert!(
            dir.join(format!("redis-{k}/nodes.conf")).is_file(),
            "server {k} ran in cluster mode"
        );
    }
}

/// Starts the script with `args` (and two nodes), plays a game on node 1
/// watched through node 2, then stops the script with SIGTERM and checks
/// that every process it started (`redis` of them Redis's) is gone.
async fn serve_a_game_and_stop(dir: &Path, args: &[&str], redis: usize) {
    let mut child = Command::new("sh")
        .arg(script())
        .args(["--nodes", "2", "--lease-seconds", "2", "--dir"])
        .arg(dir)
        .args(args)
        .env("TENGEN_SERVER", env!("CARGO_BIN_EXE_tengen-server"))
        .env("TENGEN_LOG", "warn")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("sh runs the script");
    let mut err = child.stderr.take().unwrap();
    let stderr = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = err.read_to_string(&mut s);
        s
    });
    // Its standard output, line by line, up to `ready`.
    let (tx, rx) = mpsc::channel();
    let out = child.stdout.take().unwrap();
    std::thread::spawn(move || {
        for line in BufReader::new(out).lines().map_while(Result::ok) {
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    let mut urls = Vec::new();
    let mut pids = Vec::new();
    let t0 = Instant::now();
    loop {
        let line = match rx.recv_timeout(Duration::from_secs(60)) {
            Ok(l) => l,
            Err(e) => {
                let _ = child.kill();
                panic!(
                    "no `ready` from the script ({e}): {}",
                    stderr.join().unwrap()
                );
            }
        };
        let words: Vec<&str> = line.split_whitespace().collect();
        match words.as_slice() {
            ["redis", url, "pid", pid] => {
                assert!(url.starts_with("redis://127.0.0.1:"), "{line}");
                pids.push(pid.parse::<u32>().unwrap());
            }
            ["redis", url, "pids", redis_pids @ ..] => {
                assert!(url.starts_with("redis+cluster://127.0.0.1:"), "{line}");
                assert_eq!(url.split(',').count(), 3, "the three primaries: {line}");
                pids.extend(redis_pids.iter().map(|p| p.parse::<u32>().unwrap()));
            }
            ["node", n, url, "pid", pid] => {
                assert_eq!(n.parse::<usize>().unwrap(), urls.len() + 1, "{line}");
                assert!(url.starts_with("ws://127.0.0.1:") && url.ends_with("/ws"));
                urls.push(url.to_string());
                pids.push(pid.parse::<u32>().unwrap());
            }
            ["ready"] => break,
            _ => panic!("unexpected line from the script: {line}"),
        }
    }
    eprintln!("local-cluster ready after {:?}: {urls:?}", t0.elapsed());
    assert_eq!(urls.len(), 2, "two nodes");
    assert_eq!(pids.len(), redis + 2, "redis and two nodes");
    assert!(pids.iter().all(|&p| alive(p)));
    assert!(dir.join("node-1.log").is_file());

    // A game on node 1 (its lobby: both players there), a spectator on 2.
    let mut g = new_game(&urls[0], 0).await;
    let (mut sam, _, _) = scripted::connect(&urls[1], "sam").await;
    match sam
        .request(ClientMsg::Watch {
            table: g.table.clone(),
            since: Some(0),
        })
        .await
    {
        Ok(ServerMsg::Replayed { .. }) => {}
        other => panic!("the spectator's watch through node 2: {other:?}"),
    }
    while !g.play_next().await {}
    assert_eq!(g.played, 9);
    let seqs = scripted::seqs_to_game_over(&mut sam).await;
    assert_eq!(seqs, (1..=g.seq).collect::<Vec<_>>(), "every event once");
    drop(sam);
    drop(g);

    // SIGTERM to the script: it stops the nodes and Redis, then exits.
    let ok = Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .unwrap()
        .success();
    assert!(ok);
    let t1 = Instant::now();
    let status = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break s;
        }
        if t1.elapsed() > Duration::from_secs(30) {
            let _ = child.kill();
            panic!("the script did not stop within 30 s");
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    let said = stderr.join().unwrap();
    assert_eq!(status.code(), Some(143), "exit status on SIGTERM: {said}");
    for p in &pids {
        assert!(!alive(*p), "process {p} outlived the script: {said}");
    }
    // --dir keeps the files: the nodes' logs say they stopped cleanly.
    for n in [1, 2] {
        let log = std::fs::read_to_string(dir.join(format!("node-{n}.log"))).unwrap();
        assert!(!log.contains("panicked"), "node {n}: {log}");
        let exit = std::fs::read_to_string(dir.join(format!("node-{n}.exit"))).unwrap();
        assert_eq!(exit.trim(), "0", "node {n} exited 0 on SIGTERM: {log}");
    }
}
