//! Several nodes on one Redis: a node's death costs no game.
//!
//! Two `tengen-server` processes share a real `redis-server` (started by
//! the test on a free port). Games are played part-way on node A, A is
//! killed with SIGKILL, and the players reconnect to node B with their
//! resume tokens: B takes the games over from the stored logs once A's
//! leases lapse, every accepted move is there, and the games finish. And a
//! node that was only frozen (SIGSTOP) while another took its game over
//! cannot write when it wakes: its table steps down and sends its clients
//! to reconnect.

use crate::common;

use std::time::{Duration, Instant};

use common::proc::{self, DataDir, Proc, stop};
use common::redis::{lease_moves_to, store};
use common::register;
use common::scripted::{self, games_part_way, new_game, ply, resume_and_finish};
use tengen_client::{ClientError, Connection};
use tengen_protocol::{ClientMsg, Encoding, ServerMsg};
use tengen_rules::game::Action;
use tengen_store::Store;
use tengen_store::testing::RedisServer;

/// A lease of 2 s: a dead node's games move within about 3 s.
const LEASE: &str = "2";

fn node(redis: &RedisServer, dir: &DataDir, prefix: &str, name: &str) -> Proc {
    node_with(redis, dir, prefix, name, LEASE)
}

fn node_with(redis: &RedisServer, dir: &DataDir, prefix: &str, name: &str, lease: &str) -> Proc {
    proc::start_node(&dir.0, &redis.url(), prefix, name, lease)
}

/// Node A dies (SIGKILL) with three games part-way; their players
/// reconnect to node B, which takes the games over within 10 s with every
/// accepted move, and they play them to the end. The records are stored.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_dead_nodes_games_go_on_at_another_node() {
    let redis = RedisServer::start();
    let (dir_a, dir_b) = (DataDir::new("node-a"), DataDir::new("node-b"));
    let a = node(&redis, &dir_a, "fail", "node-a");
    // B's takeovers are logged at info, once per pass.
    let b = proc::start_node_logging(
        &dir_b.0,
        &redis.url(),
        "fail",
        "node-b",
        LEASE,
        "warn,tengen_server::table::restore=info",
    );
    let mut games = games_part_way(&a.url()).await;
    let check = store(&redis, "fail").await;
    for g in &games {
        let lease = check.lease(g.table.as_str()).await.unwrap().unwrap();
        assert_eq!(lease.node, "node-a", "node A runs its games");
    }
    a.kill();
    let killed = Instant::now();
    // B takes the games over by itself once A's leases lapse.
    for g in &games {
        let (table, within) = (g.table.as_str(), Duration::from_secs(10));
        lease_moves_to(&check, table, "node-b", killed, within).await;
    }
    eprintln!(
        "node B took the games over {:?} after node A died",
        killed.elapsed()
    );
    // The players reconnect to B with their tokens: every accepted move is
    // there, the clocks waited, and the games finish.
    for g in games.iter_mut() {
        resume_and_finish(&b.url(), g).await;
    }
    scripted::check_records(&check, &games).await;
    let (status, _, stderr) = b.terminate();
    assert!(status.success(), "{status:?}: {stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert!(
        stderr.contains("took over tables of a node that is gone"),
        "node B said: {stderr}"
    );
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
    lease_moves_to(
        &check,
        table.as_str(),
        "node-b",
        t0,
        Duration::from_secs(10),
    )
    .await;
    // Both players come back at B (the clocks wait for both), and black
    // (ply 4 is black's) plays there.
    let (black, point) = ply(4);
    assert!(black);
    let i = g.seat_for(true).index();
    let at_b = &mut scripted::rejoin(&g, true, &b.url()).await;
    let _white_at_b = scripted::rejoin(&g, false, &b.url()).await;
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
    stop([a, b]);
}

/// Every node serves every game: a player of a game running on node A
/// comes back through node B (A alive), a spectator watches from B, and
/// the game is played to the end with moves sent through both nodes. The
/// spectator at B sees every event exactly once, in order.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_on_one_node_is_played_and_watched_through_another() {
    let redis = RedisServer::start();
    let (dir_a, dir_b) = (DataDir::new("node-a"), DataDir::new("node-b"));
    let a = node(&redis, &dir_a, "route", "node-a");
    let b = node(&redis, &dir_b, "route", "node-b");
    let mut g = new_game(&a.url(), 0).await;
    assert!(!g.play_next().await);
    // White moves over to B (its old connection to A just ends).
    scripted::move_player(&mut g, false, &b.url()).await;
    // A spectator at B, from the start.
    let (mut sam, _, _) = scripted::connect(&b.url(), "sam").await;
    match sam
        .request(ClientMsg::Watch {
            table: g.table.clone(),
            since: Some(0),
        })
        .await
    {
        Ok(ServerMsg::Replayed { .. }) => {}
        other => panic!("the spectator's watch through B: {other:?}"),
    }
    while !g.play_next().await {}
    assert_eq!(g.played, 9);
    // The spectator saw every event, numbered 1..=seq, once each.
    let seqs = scripted::seqs_to_game_over(&mut sam).await;
    assert_eq!(
        seqs,
        (1..=g.seq).collect::<Vec<_>>(),
        "every event once, in order"
    );
    let check = store(&redis, "route").await;
    scripted::check_records(&check, std::slice::from_ref(&g)).await;
    stop([a, b]);
}

async fn account(url: &str, name: &str) -> Connection {
    let (mut c, _) = Connection::connect(url, Encoding::Json, Some(&format!("{name}-guest")))
        .await
        .unwrap();
    c.timeout = Duration::from_secs(10);
    register(c, name).await
}

/// Players on different nodes meet: one registers and queues at node A,
/// the other at node B; the one matchmaker pairs them, they play the
/// rated game to the end with every move sent through their own node,
/// a spectator on a third connection (node B) sees every event exactly
/// once, and both ratings change.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn players_on_two_nodes_are_matched_and_play_a_rated_game() {
    use tengen_rules::game::{GameConfig, RuleSet};
    let redis = RedisServer::start();
    let (dir_a, dir_b) = (DataDir::new("node-a"), DataDir::new("node-b"));
    let a = node(&redis, &dir_a, "rated", "node-a");
    let b = node(&redis, &dir_b, "rated", "node-b");
    let mut ann = account(&a.url(), "annika").await;
    let mut bob = account(&b.url(), "bobby").await;
    let config = GameConfig::new(RuleSet::Renju);
    for c in [&mut ann, &mut bob] {
        match c
            .request(ClientMsg::Queue {
                config: config.clone(),
                bots: false,
            })
            .await
        {
            Ok(ServerMsg::Queued { config: q }) => assert_eq!(q, config),
            other => panic!("{other:?}"),
        }
    }
    let mut seats = Vec::new();
    for c in [&mut ann, &mut bob] {
        match c
            .next_matching(|m| matches!(m, ServerMsg::Matched { .. }))
            .await
            .expect("matched")
            .msg
        {
            ServerMsg::Matched { seat, table, .. } => seats.push((seat, table)),
            _ => unreachable!(),
        }
    }
    let table = seats[0].1.clone();
    assert_eq!(seats[1].1, table, "one table for both");
    assert_ne!(seats[0].0, seats[1].0);
    let snap = scripted::snapshot_push(&mut ann).await;
    assert_eq!(snap.table, table);
    // A spectator at B follows from the start.
    let (mut sam, _, _) = scripted::connect(&b.url(), "sam").await;
    sam.request(ClientMsg::Watch {
        table: table.clone(),
        since: Some(0),
    })
    .await
    .expect("the spectator watches through B");
    let (black, white) = if snap.snapshot.black == seats[0].0 {
        (&mut ann, &mut bob)
    } else {
        (&mut bob, &mut ann)
    };
    let act = |p: &'static str| ClientMsg::Act {
        table: table.clone(),
        action: Action::place(p.parse().unwrap()),
    };
    for (bp, wp) in ["H8", "H9", "H10", "H11"]
        .into_iter()
        .zip(["A1", "A3", "A5", "A7"])
    {
        for (c, p) in [(&mut *black, bp), (&mut *white, wp)] {
            match c.request(act(p)).await {
                Ok(ServerMsg::Acted { .. }) => {}
                other => panic!("{p}: {other:?}"),
            }
        }
    }
    let last = match black.request(act("H12")).await {
        Ok(ServerMsg::Acted { seq, .. }) => seq,
        other => panic!("H12: {other:?}"),
    };
    // The spectator saw every event once, in order, to the end.
    let seqs = scripted::seqs_to_game_over(&mut sam).await;
    assert_eq!(
        seqs,
        (1..=last).collect::<Vec<_>>(),
        "every event once, in order"
    );
    // Both ratings changed (stored with the game).
    let check = store(&redis, "rated").await;
    let mut rated = Vec::new();
    for _ in 0..50 {
        rated = Vec::new();
        for name in ["annika", "bobby"] {
            if let Some(r) = check.rating(name, "renju").await.unwrap() {
                rated.push(r);
            }
        }
        if rated.len() == 2 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert_eq!(rated.len(), 2, "both ratings stored");
    assert!(
        rated.iter().all(|r| r.games == 1 && r.rating != 1500.0),
        "{rated:?}"
    );
    assert!(
        check.game(table.as_str()).await.unwrap().is_some(),
        "the record is stored"
    );
    stop([a, b]);
}

/// Pub/sub loses what is published while a node's subscription is down.
/// Redis is restarted under a game running on node A, watched through
/// node B: B's bus reconnects and reports the possible loss, B sends its
/// routed connections off to resume, and the spectator (the client
/// library's `Session`, reconnecting by itself) gets the missed events
/// replayed: every event exactly once, in order, no hole.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_lost_subscription_leaves_no_hole() {
    let mut redis = RedisServer::start();
    let (dir_a, dir_b) = (DataDir::new("node-a"), DataDir::new("node-b"));
    let a = node(&redis, &dir_a, "gap", "node-a");
    let b = node(&redis, &dir_b, "gap", "node-b");
    let mut g = new_game(&a.url(), 0).await;
    assert!(!g.play_next().await);
    let spectator = scripted::spectate(&b.url(), &g.table).await;
    assert!(!g.play_next().await);
    redis.restart();
    // The nodes reconnect to Redis within a couple of seconds (a move sent
    // before that would be refused with `unavailable`, tested elsewhere).
    tokio::time::sleep(Duration::from_secs(3)).await;
    scripted::finish_resynced(&mut g, spectator).await;
    stop([a, b]);
}

/// A node stopped gracefully (SIGTERM) gives its games' leases up as it
/// goes, so the other node takes them over at once: with 30-second leases,
/// the players are back at node B and playing within a few seconds.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_stopping_node_hands_its_games_over() {
    let redis = RedisServer::start();
    let (dir_a, dir_b) = (DataDir::new("node-a"), DataDir::new("node-b"));
    let a = node_with(&redis, &dir_a, "handover", "node-a", "30");
    let b = node_with(&redis, &dir_b, "handover", "node-b", "30");
    let mut games = games_part_way(&a.url()).await;
    let t0 = Instant::now();
    let (status, _, stderr) = a.terminate();
    assert!(status.success(), "{status:?}: {stderr}");
    for g in games.iter_mut() {
        resume_and_finish(&b.url(), g).await;
    }
    let took = t0.elapsed();
    assert!(
        took < Duration::from_secs(15),
        "the games moved in {took:?}"
    );
    let check = store(&redis, "handover").await;
    scripted::check_records(&check, &games).await;
    stop([b]);
}

/// A node that is merely slow keeps its games: node A, alone, is frozen
/// (SIGSTOP) for twice its lease term, so every lease of its lapses; no
/// other node takes them, so when A wakes the game goes on there, with no
/// step-down and no reconnect, and every move is stored.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_slow_node_keeps_its_games_when_nobody_took_them() {
    let redis = RedisServer::start();
    let dir_a = DataDir::new("node-a");
    let a = node(&redis, &dir_a, "slow", "node-a");
    let check = store(&redis, "slow").await;
    let mut g = new_game(&a.url(), 0).await;
    for _ in 0..4 {
        assert!(!g.play_next().await);
    }
    let table = g.table.clone();
    let before = check.lease(table.as_str()).await.unwrap().unwrap();
    proc::signal(&a.child, "-STOP");
    tokio::time::sleep(Duration::from_secs(5)).await;
    assert_eq!(
        check.lease(table.as_str()).await.unwrap(),
        None,
        "A's lease lapsed while it was frozen"
    );
    proc::signal(&a.child, "-CONT");
    // The game goes on at A over the same connections: no 1012.
    for _ in 0..2 {
        assert!(!g.play_next().await);
    }
    let stored = check.live_table(table.as_str()).await.unwrap().unwrap();
    assert_eq!(stored.entries.len(), 6, "every move stored at A");
    let lease = tokio::time::timeout(Duration::from_secs(5), async {
        loop {
            if let Some(l) = check.lease(table.as_str()).await.unwrap() {
                return l;
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    })
    .await
    .expect("A's keeper renews the lease again");
    assert_eq!(lease, before, "the same lease, same epoch: nothing moved");
    let (_, _, stderr) = a.terminate();
    assert!(!stderr.contains("stepping down"), "{stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
}
