//! The `games` scenario across two nodes on one Redis: a real
//! `redis-server` (the `tengen_store::testing` harness) and two `tengen-server` binaries
//! sharing it, the load generator given both URLs. A game's two players
//! create and join its room through one node (the lobby is per node); its
//! spectator watches through the other, so every spectator event crosses
//! Redis pub/sub. Checks: no error, every slot finished a game, every
//! spectator event came through the other node, in order, none lost or
//! doubled, and spectators saw games to their end. Not how fast.

use std::path::Path;
use std::process::{Child, Command};
use std::time::Duration;

use tengen_store::testing::RedisServer;

use crate::common;
use common::{server_binary, start_server};

/// One node: a `tengen-server` process, stopped (SIGTERM) when dropped.
struct Node {
    child: Child,
    url: String,
    stderr: Option<std::thread::JoinHandle<String>>,
    _dir: tempfile::TempDir,
}

impl Node {
    fn start(bin: &Path, redis: &RedisServer, name: &str) -> Node {
        let dir = tempfile::tempdir().unwrap();
        let redis_url = redis.url();
        let args = ["--redis", &redis_url, "--redis-prefix", "lt"];
        let more = ["--node-id", name, "--lease-seconds", "4"];
        let started = start_server(bin, dir.path(), &[&args[..], &more[..]].concat());
        Node {
            url: format!("ws://{}/ws", started.addr),
            child: started.child,
            stderr: Some(started.stderr),
            _dir: dir,
        }
    }

    /// SIGTERM; what it logged, once it has exited.
    fn stop(mut self) -> String {
        terminate(&mut self.child);
        self.stderr.take().unwrap().join().unwrap()
    }
}

fn terminate(child: &mut Child) {
    let _ = Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status();
    for _ in 0..100 {
        if let Ok(Some(_)) = child.try_wait() {
            return;
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    let _ = child.kill();
    let _ = child.wait();
}

impl Drop for Node {
    fn drop(&mut self) {
        if let Ok(None) = self.child.try_wait() {
            terminate(&mut self.child);
        }
    }
}

#[test]
fn games_across_two_nodes_reach_spectators_through_the_other_node() {
    let bin = server_binary();
    let redis = RedisServer::start();
    let a = Node::start(&bin, &redis, "node-a");
    let b = Node::start(&bin, &redis, "node-b");
    let out = Command::new(env!("CARGO_BIN_EXE_tengen-loadtest"))
        .args(["games", "--url", &a.url, "--url", &b.url])
        .args(["--games", "40", "--spectators", "1"])
        .args(["--move-interval", "0.2", "--game-moves", "9"])
        .args(["--duration", "6", "--json"])
        .output()
        .expect("the load generator runs");
    let stdout = String::from_utf8_lossy(&out.stdout).to_string();
    let last = stdout.lines().last().unwrap_or_default();
    let json: serde_json::Value = serde_json::from_str(last).unwrap_or_default();
    let (log_a, log_b) = (a.stop(), b.stop());
    for log in [&log_a, &log_b] {
        assert!(!log.contains("panicked"), "{log}");
    }
    assert!(
        out.status.success(),
        "exit {}: {stdout}\n{}\nnode-a: {log_a}\nnode-b: {log_b}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(json["error_total"], 0, "{stdout}");
    assert_eq!(json["connections"], 120, "{stdout}");
    assert_eq!(json["events_lost"], 0, "{stdout}");
    assert_eq!(json["events_duplicated"], 0, "{stdout}");
    let completed = json["games_completed"].as_u64().unwrap();
    assert!(completed >= 40, "every slot finished a game: {stdout}");
    // One spectator per game, on the node its players are not on: every
    // event it got crossed from one node to the other.
    let events = json["spectator_events"].as_u64().unwrap();
    assert!(events >= completed * 9, "{stdout}");
    assert_eq!(json["spectator_events_other_node"].as_u64(), Some(events));
    // Each finished game ends at its spectator too, except perhaps each
    // slot's last, whose `game_over` may reach the spectator (through the
    // other node) just after the deadline.
    assert!(
        json["spectator_games_over"].as_u64().unwrap() + 40 >= completed,
        "{stdout}"
    );
    assert!(json["latency_spectators"]["count"].as_u64().unwrap() > 0);
}
