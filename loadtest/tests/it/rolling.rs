//! Rolling restarts under `tengen-loadtest games`, as docs/operating.md
//! ("Restarting") tells an operator to do them: real `tengen-server`
//! binaries stopped with SIGTERM while games run and started again on the
//! same address and data (the same `--node-id` on one Redis, or the same
//! `--data-dir` for one server). The load generator's players and
//! spectators come back with their resume tokens (on the next `--url`),
//! and its report must show the restarts went unnoticed but for the wait:
//! sessions resumed, no error, no event lost or doubled, no game ended by
//! anything but its last move, and every game started finished (`--drain`:
//! an unfinished one is an error).

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

use tengen_store::testing::RedisServer;

use crate::common::{self, server_binary, start_server_on};

/// One server process that can be restarted on its address and data.
struct Node {
    bin: PathBuf,
    args: Vec<String>,
    addr: String,
    dir: tempfile::TempDir,
    child: Child,
    stderr: Option<std::thread::JoinHandle<String>>,
    /// What every run of it logged so far.
    log: String,
}

impl Node {
    fn start(bin: &Path, args: &[&str]) -> Node {
        let dir = tempfile::tempdir().unwrap();
        let s = common::start_server(bin, dir.path(), args);
        Node {
            bin: bin.to_owned(),
            args: args.iter().map(|a| a.to_string()).collect(),
            addr: s.addr,
            dir,
            child: s.child,
            stderr: Some(s.stderr),
            log: String::new(),
        }
    }

    fn url(&self) -> String {
        format!("ws://{}/ws", self.addr)
    }

    /// SIGTERM, then (once it has exited, within the 5 s it promises and
    /// successfully) the same command again on the same address and data
    /// directory; waits until `/healthz` says it serves.
    fn restart(&mut self) {
        let took = self.stop();
        assert!(took < Duration::from_secs(5), "stopping took {took:?}");
        let args: Vec<&str> = self.args.iter().map(String::as_str).collect();
        let s = start_server_on(&self.bin, &self.addr, self.dir.path(), &args);
        self.child = s.child;
        self.stderr = Some(s.stderr);
        let up = Instant::now();
        while healthz(&self.addr) != Some(200) {
            assert!(up.elapsed() < Duration::from_secs(30), "not healthy");
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// SIGTERM; how long it took to exit (it must exit successfully).
    fn stop(&mut self) -> Duration {
        let started = Instant::now();
        let _ = Command::new("kill")
            .args(["-TERM", &self.child.id().to_string()])
            .status();
        let status = loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                break status;
            }
            if started.elapsed() > Duration::from_secs(20) {
                let _ = self.child.kill();
                break self.child.wait().unwrap();
            }
            std::thread::sleep(Duration::from_millis(10));
        };
        let took = started.elapsed();
        if let Some(h) = self.stderr.take() {
            self.log.push_str(&h.join().unwrap());
        }
        assert!(status.success(), "exit {status}: {}", self.log);
        took
    }
}

impl Drop for Node {
    fn drop(&mut self) {
        if let Ok(None) = self.child.try_wait() {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

/// The status `GET /healthz` answers on `addr`, if any.
fn healthz(addr: &str) -> Option<u16> {
    let mut s = std::net::TcpStream::connect(addr).ok()?;
    s.set_read_timeout(Some(Duration::from_secs(2))).ok()?;
    let req = format!("GET /healthz HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n");
    s.write_all(req.as_bytes()).ok()?;
    let mut answer = String::new();
    let _ = s.read_to_string(&mut answer);
    answer.split_whitespace().nth(1)?.parse().ok()
}

/// Starts `tengen-loadtest games` against `urls`: `games` game slots with a
/// spectator each, 21-move games, new games for `secs` seconds and up to
/// 30 s more for those in progress to finish.
fn load(urls: &[String], games: usize, secs: u32) -> Child {
    Command::new(env!("CARGO_BIN_EXE_tengen-loadtest"))
        .arg("games")
        .arg("--url")
        .arg(urls.join(","))
        .args(["--games", &games.to_string(), "--spectators", "1"])
        .args(["--move-interval", "0.2", "--game-moves", "21"])
        .args(["--duration", &secs.to_string(), "--drain", "30", "--json"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the load generator runs")
}

/// The report's checks: restarts resumed and unnoticed but for the wait.
fn check(out: Output, nodes: &[&Node]) -> serde_json::Value {
    let stdout = String::from_utf8_lossy(&out.stdout).to_string();
    eprintln!("{stdout}");
    let logs: String = nodes.iter().map(|n| n.log.as_str()).collect();
    assert!(!logs.contains("panicked"), "{logs}");
    assert!(
        out.status.success(),
        "exit {}: {stdout}\n{}\n{logs}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    let last = stdout.lines().last().unwrap_or_default();
    let json: serde_json::Value = serde_json::from_str(last).expect("a JSON report");
    assert_eq!(json["error_total"], 0, "{stdout}");
    assert_eq!(json["events_lost"], 0, "{stdout}");
    assert_eq!(json["events_duplicated"], 0, "{stdout}");
    assert!(json["resumes"].as_u64().unwrap() > 0, "{stdout}");
    let started = json["games_started"].as_u64().unwrap();
    assert!(started > 0, "{stdout}");
    assert_eq!(json["games_completed"].as_u64(), Some(started), "{stdout}");
    // A move's wait across a restart is measured, not judged.
    assert!(json["latency_opponent"]["max_ms"].as_f64().unwrap() > 0.0);
    json
}

#[test]
fn two_nodes_restarted_in_turn_lose_no_move_and_end_no_game() {
    let bin = server_binary();
    let redis = RedisServer::start();
    let redis_url = redis.url();
    let node = |id: &'static str| {
        let args = [
            "--redis",
            &redis_url,
            "--redis-prefix",
            "lt",
            "--node-id",
            id,
        ];
        Node::start(&bin, &[&args[..], &["--lease-seconds", "4"]].concat())
    };
    let (mut a, mut b) = (node("node-a"), node("node-b"));
    let run = load(&[a.url(), b.url()], 24, 24);
    std::thread::sleep(Duration::from_secs(4));
    a.restart();
    // Its games moved to node b and its players followed them there.
    std::thread::sleep(Duration::from_secs(5));
    b.restart();
    let out = run.wait_with_output().unwrap();
    a.stop();
    b.stop();
    let json = check(out, &[&a, &b]);
    assert!(json["games_started"].as_u64().unwrap() >= 24, "{json}");
}

#[test]
fn one_node_restarted_on_its_data_dir_loses_no_move_and_ends_no_game() {
    let bin = server_binary();
    let mut a = Node::start(&bin, &[]);
    let run = load(&[a.url()], 16, 10);
    std::thread::sleep(Duration::from_secs(4));
    a.restart();
    let out = run.wait_with_output().unwrap();
    a.stop();
    check(out, &[&a]);
}
