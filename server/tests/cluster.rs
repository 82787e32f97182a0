//! Several nodes on one Redis (issue 12): a node's death costs no game.
//!
//! Two `tengen-server` processes share a real `redis-server` (started by
//! the test on a free port). Games are played part-way on node A, A is
//! killed with SIGKILL, and the players reconnect to node B with their
//! resume tokens: B takes the games over from the stored logs once A's
//! leases lapse, every accepted move is there, and the games finish. And a
//! node that was only frozen (SIGSTOP) while another took its game over
//! cannot write when it wakes: its table steps down and sends its clients
//! to reconnect.

mod common;

use std::time::{Duration, Instant};

use common::proc::{self, DataDir, Proc};
use common::scripted::{self, games_part_way, new_game, ply, resume_and_finish};
use tengen_client::{ClientError, Connection};
use tengen_protocol::{ClientMsg, Encoding, ServerMsg};
use tengen_rules::game::Action;
use tengen_store::testing::RedisServer;
use tengen_store::{RedisOptions, RedisStore, Store};

/// A lease of 2 s: a dead node's games move within about 3 s.
const LEASE: &str = "2";

fn node(redis: &RedisServer, dir: &DataDir, prefix: &str, name: &str) -> Proc {
    let url = redis.url();
    proc::start_with(
        &dir.0,
        &[
            "--redis",
            url.as_str(),
            "--redis-prefix",
            prefix,
            "--node-id",
            name,
            "--lease-seconds",
            LEASE,
        ],
    )
}

async fn store(redis: &RedisServer, prefix: &str) -> RedisStore {
    RedisStore::connect(
        &redis.url(),
        RedisOptions {
            prefix: prefix.into(),
            ..RedisOptions::default()
        },
    )
    .await
    .expect("the test connects to Redis")
}

/// Node A dies (SIGKILL) with three games part-way; their players
/// reconnect to node B, which takes the games over within 10 s with every
/// accepted move, and they play them to the end. The records are stored.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_dead_nodes_games_go_on_at_another_node() {
    let redis = RedisServer::start();
    let (dir_a, dir_b) = (DataDir::new("node-a"), DataDir::new("node-b"));
    let a = node(&redis, &dir_a, "fail", "node-a");
    let b = node(&redis, &dir_b, "fail", "node-b");
    let mut games = games_part_way(&a.url()).await;
    let check = store(&redis, "fail").await;
    for g in &games {
        let lease = check.lease(g.table.as_str()).await.unwrap().unwrap();
        assert_eq!(lease.node, "node-a", "node A runs its games");
    }
    a.kill();
    let killed = Instant::now();
    // The first player back waits (told `unavailable`, try again) while
    // A's leases have not lapsed, then resumes at B.
    for (i, g) in games.iter_mut().enumerate() {
        resume_and_finish(&b.url(), g).await;
        if i == 0 {
            let took = killed.elapsed();
            eprintln!("the first game went on at node B {took:?} after node A died");
            assert!(
                took < Duration::from_secs(10),
                "node B took {took:?} to take the game over"
            );
        }
    }
    for g in &games {
        assert_eq!(
            check.lease(g.table.as_str()).await.unwrap(),
            None,
            "lease given up when done"
        );
    }
    scripted::check_records(&check, &games).await;
    let (status, _, stderr) = b.terminate();
    assert!(status.success(), "{status:?}: {stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert!(stderr.contains("taking over"), "node B said: {stderr}");
}

/// Node A is frozen (SIGSTOP) mid-game; node B takes the game over on its
/// own (no player needs to come) and a player plays on at B. When A wakes
/// (SIGCONT), the move it is sent is not stored (A's lease is gone, so its
/// append is refused), and A closes its players' connections with 1012 so
/// they reconnect to where the game goes on.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_node_that_lost_its_lease_cannot_write() {
    let redis = RedisServer::start();
    let (dir_a, dir_b) = (DataDir::new("node-a"), DataDir::new("node-b"));
    let a = node(&redis, &dir_a, "stop", "node-a");
    let b = node(&redis, &dir_b, "stop", "node-b");
    let check = store(&redis, "stop").await;
    let mut g = new_game(&a.url(), 0).await;
    for _ in 0..4 {
        assert!(!g.play_next().await);
    }
    let table = g.table.clone();
    proc::signal(&a.child, "-STOP");
    // B takes the table over by itself once A's lease lapses.
    let t0 = Instant::now();
    loop {
        let lease = check.lease(table.as_str()).await.unwrap();
        if lease.as_ref().is_some_and(|l| l.node == "node-b") {
            break;
        }
        assert!(
            t0.elapsed() < Duration::from_secs(10),
            "B never took the table: {lease:?}"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    // Both players come back at B (the clocks wait for both), and black
    // (ply 4 is black's) plays there.
    let (black, point) = ply(4);
    assert!(black);
    let i = g.seat_for(true).index();
    let mut at_b = Vec::new();
    for k in [i, 1 - i] {
        let (mut c, w) = Connection::reconnect(
            &b.url(),
            Encoding::Json,
            Some(&g.name[k]),
            &g.token[k],
            Duration::from_secs(10),
        )
        .await
        .unwrap();
        assert!(w.resumed, "{}'s session is back at B", g.name[k]);
        c.request(ClientMsg::Watch {
            table: table.clone(),
            since: Some(g.seq),
        })
        .await
        .unwrap();
        at_b.push(c);
    }
    let at_b = &mut at_b[0];
    match at_b
        .request(ClientMsg::Act {
            table: table.clone(),
            action: Action::place(point.parse().unwrap()),
        })
        .await
    {
        Ok(ServerMsg::Acted { .. }) => {}
        other => panic!("black's move at B: {other:?}"),
    }
    let stored = check.live_table(table.as_str()).await.unwrap().unwrap();
    assert_eq!(stored.entries.len(), 5, "four moves from A, one from B");
    // A wakes up. Black's old connection to A still stands; a move sent
    // there (a different point) must not be stored.
    proc::signal(&a.child, "-CONT");
    let old = &mut g.conn[i];
    let reply = old
        .request(ClientMsg::Act {
            table: table.clone(),
            action: Action::place("O15".parse().unwrap()),
        })
        .await;
    assert!(
        !matches!(reply, Ok(ServerMsg::Acted { .. })),
        "A accepted a move after losing the lease: {reply:?}"
    );
    // A sends its players off to reconnect (1012, restarting): the close
    // may have come instead of the reply, or comes after it.
    let closed = match reply {
        Err(e @ ClientError::Closed { .. }) => e,
        _ => tokio::time::timeout(Duration::from_secs(10), async {
            loop {
                if let Err(e) = old.next().await {
                    return e;
                }
            }
        })
        .await
        .expect("A closes the old connection"),
    };
    assert!(
        matches!(closed, ClientError::Closed { code: 1012, .. }),
        "{closed:?}"
    );
    let stored = check.live_table(table.as_str()).await.unwrap().unwrap();
    assert_eq!(
        stored.entries.len(),
        5,
        "nothing from A after it lost the lease"
    );
    let lease = check.lease(table.as_str()).await.unwrap().unwrap();
    assert_eq!(lease.node, "node-b", "B still runs the game");
    for p in [a, b] {
        let (status, _, stderr) = p.terminate();
        assert!(status.success(), "{status:?}: {stderr}");
        assert!(!stderr.contains("panicked"), "{stderr}");
    }
}
