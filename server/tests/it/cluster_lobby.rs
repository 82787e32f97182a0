//! Several nodes on one Redis: one lobby.
//!
//! Two `tengen-server` processes share a real `redis-server`. A room
//! created on node A is seen by a lobby watcher on node B (added, playing,
//! finished, removed, as on one node), a player on B joins it and both
//! play the game to the end through their own nodes while a spectator
//! watches; and when A is killed, its rooms leave B's lobby. A challenge
//! reaches a player on the other node (and is refused there when it must
//! be), and a session's seats are counted on every node.

use crate::common;

use std::time::{Duration, Instant};

use common::proc::{self, DataDir, Proc};
use common::scripted::{self, Game};
use tengen_client::{ClientError, Connection};
use tengen_protocol::{
    CancelReason, ClientMsg, ErrorCode, LobbyUpdate, RoomId, RoomInfo, RoomStatus, ServerMsg,
};
use tengen_rules::game::Action;
use tengen_store::testing::RedisServer;
use tengen_store::{RedisOptions, RedisStore};

/// A lease of 2 s: a dead node's rooms go within about 4 s.
const LEASE: &str = "2";

fn node(redis: &RedisServer, dir: &DataDir, prefix: &str, name: &str) -> Proc {
    proc::start_node(&dir.0, &redis.url(), prefix, name, LEASE)
}

/// Nodes `node-a` and `node-b` on `redis` under `prefix`, with their data
/// directories (kept as long as the nodes run).
fn two_nodes(redis: &RedisServer, prefix: &str) -> (Proc, Proc, [DataDir; 2]) {
    let dirs = [
        DataDir::new(&format!("{prefix}-a")),
        DataDir::new(&format!("{prefix}-b")),
    ];
    let a = node(redis, &dirs[0], prefix, "node-a");
    let b = node(redis, &dirs[1], prefix, "node-b");
    (a, b, dirs)
}

/// Stops the nodes: each exits cleanly, nothing panicked.
fn stop(nodes: impl IntoIterator<Item = Proc>) {
    for p in nodes {
        let (status, _, stderr) = p.terminate();
        assert!(status.success(), "{status:?}: {stderr}");
        assert!(!stderr.contains("panicked"), "{stderr}");
    }
}

/// The next `lobby_update` at `c` for which `pred` holds (others skipped),
/// within 10 s.
async fn update_where(
    c: &mut Connection,
    what: &str,
    pred: impl Fn(&LobbyUpdate) -> bool,
) -> LobbyUpdate {
    let t0 = Instant::now();
    loop {
        let left = Duration::from_secs(10).saturating_sub(t0.elapsed());
        let f = tokio::time::timeout(left, c.next())
            .await
            .unwrap_or_else(|_| panic!("no lobby update: {what}"))
            .unwrap_or_else(|e| panic!("{what}: {e:?}"));
        if let ServerMsg::LobbyUpdate(u) = f.msg
            && pred(&u)
        {
            return u;
        }
    }
}

fn has(rooms: &[RoomInfo], room: &RoomId) -> Option<RoomInfo> {
    rooms.iter().find(|r| r.room == *room).cloned()
}

async fn create(c: &mut Connection, name: &str, public: bool) -> RoomId {
    match c
        .request(ClientMsg::CreateRoom {
            rated: false,
            config: scripted::config(),
            public,
            name: Some(name.into()),
            chat: true,
        })
        .await
        .unwrap()
    {
        ServerMsg::RoomCreated { room, .. } => room,
        other => panic!("{other:?}"),
    }
}

/// A room created on node A shows in node B's lobby; a player on B joins
/// it and the game is played to the end, each player through their own
/// node, while a spectator on B sees every event; the watcher at B sees
/// the room added, playing, finished and (once both players left) gone.
/// A room of A's lobby is `not_found` through B once gone, and private
/// rooms of A are joinable from B by id but never listed there.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_room_on_one_node_is_seen_and_joined_through_another() {
    let redis = RedisServer::start();
    let (a, b, _dirs) = two_nodes(&redis, "lobby");
    // The watcher at B.
    let (mut w, _, _) = scripted::connect(&b.url(), "walt").await;
    match w.request(ClientMsg::LobbySubscribe).await.unwrap() {
        ServerMsg::Rooms { rooms, .. } => assert!(rooms.is_empty(), "{rooms:?}"),
        other => panic!("{other:?}"),
    }
    let (mut ann, an, at) = scripted::connect(&a.url(), "ann").await;
    let (mut bob, bn, bt) = scripted::connect(&b.url(), "bob").await;
    let room = create(&mut ann, "across", true).await;
    let u = update_where(&mut w, "the room of A added at B", |u| {
        has(&u.added, &room).is_some()
    })
    .await;
    let info = has(&u.added, &room).unwrap();
    assert_eq!(info.status, RoomStatus::Waiting);
    assert_eq!(info.players.first.as_ref().unwrap().name, an);
    // B lists it too.
    match bob.request(ClientMsg::ListRooms).await.unwrap() {
        ServerMsg::Rooms { rooms, .. } => assert!(has(&rooms, &room).is_some(), "{rooms:?}"),
        other => panic!("{other:?}"),
    }
    // Bob joins through B.
    match bob
        .request(ClientMsg::JoinRoom { room: room.clone() })
        .await
    {
        Ok(ServerMsg::Joined { room: r, .. }) => assert_eq!(r, room),
        other => panic!("bob's join through B: {other:?}"),
    }
    let snap = scripted::snapshot_push(&mut ann).await;
    let snap_b = scripted::snapshot_push(&mut bob).await;
    assert_eq!(snap.table, snap_b.table);
    let u = update_where(&mut w, "the room playing", |u| {
        has(&u.changed, &room).is_some_and(|r| r.status == RoomStatus::Playing)
    })
    .await;
    let playing = has(&u.changed, &room).unwrap();
    assert_eq!(playing.table.as_ref(), Some(&snap.table));
    assert_eq!(playing.players.second.as_ref().unwrap().name, bn);
    // A spectator at B, from the start.
    let (mut sam, _, _) = scripted::connect(&b.url(), "sam").await;
    match sam
        .request(ClientMsg::Watch {
            table: snap.table.clone(),
            since: Some(0),
        })
        .await
    {
        Ok(ServerMsg::Replayed { .. }) => {}
        other => panic!("the spectator's watch through B: {other:?}"),
    }
    let mut g = Game {
        name: [an, bn],
        conn: [ann, bob],
        token: [at, bt],
        table: snap.table.clone(),
        opener: snap.snapshot.opener,
        played: 0,
        seq: 0,
        clocks: None,
    };
    while !g.play_next().await {}
    assert_eq!(g.played, 9);
    let seqs = scripted::seqs_to_game_over(&mut sam).await;
    assert_eq!(
        seqs,
        (1..=g.seq).collect::<Vec<_>>(),
        "every event once, in order"
    );
    update_where(&mut w, "the room finished", |u| {
        has(&u.changed, &room).is_some_and(|r| r.status == RoomStatus::Finished)
    })
    .await;
    // Both leave, each through their own node: the room goes.
    for c in g.conn.iter_mut() {
        match c.request(ClientMsg::LeaveRoom { room: room.clone() }).await {
            Ok(ServerMsg::Left { room: r }) => assert_eq!(r, room),
            other => panic!("leaving: {other:?}"),
        }
    }
    update_where(&mut w, "the room gone", |u| u.removed.contains(&room)).await;
    let check = RedisStore::connect(
        &redis.url(),
        RedisOptions {
            prefix: "lobby".into(),
            ..RedisOptions::default()
        },
    )
    .await
    .unwrap();
    scripted::check_records(&check, std::slice::from_ref(&g)).await;
    // Gone everywhere: not_found through B.
    let [_, bob] = &mut g.conn;
    match bob
        .request(ClientMsg::JoinRoom { room: room.clone() })
        .await
    {
        Err(ClientError::Refused(e)) => assert_eq!(e.code, ErrorCode::NotFound),
        other => panic!("{other:?}"),
    }
    // A private room of A: never listed at B, but joinable there by id.
    let (mut cat, _, _) = scripted::connect(&a.url(), "cat").await;
    let (mut dan, _, _) = scripted::connect(&b.url(), "dan").await;
    let private = create(&mut cat, "secret", false).await;
    let join = ClientMsg::JoinRoom {
        room: private.clone(),
    };
    match request_until(&mut dan, join, &[ErrorCode::NotFound]).await {
        Ok(ServerMsg::Joined { .. }) => {}
        other => panic!("dan's join of a private room through B: {other:?}"),
    }
    scripted::snapshot_push(&mut dan).await;
    match w.request(ClientMsg::ListRooms).await.unwrap() {
        ServerMsg::Rooms { rooms, .. } => {
            assert!(has(&rooms, &private).is_none(), "{rooms:?}")
        }
        other => panic!("{other:?}"),
    }
    stop([a, b]);
}

/// Node A is killed (SIGKILL) with a room waiting: it leaves node B's
/// lobby within 10 s, while B's own room stays.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_dead_nodes_rooms_leave_the_lobby() {
    let redis = RedisServer::start();
    let (a, b, _dirs) = two_nodes(&redis, "dead");
    let (mut ann, _, _) = scripted::connect(&a.url(), "ann").await;
    let (mut bea, _, _) = scripted::connect(&b.url(), "bea").await;
    let at_a = create(&mut ann, "on a", true).await;
    let at_b = create(&mut bea, "on b", true).await;
    // A watcher at B that came after the room of A: the list has both.
    let (mut w, _, _) = scripted::connect(&b.url(), "walt").await;
    let t0 = Instant::now();
    loop {
        match w.request(ClientMsg::LobbySubscribe).await.unwrap() {
            ServerMsg::Rooms { rooms, .. }
                if has(&rooms, &at_a).is_some() && has(&rooms, &at_b).is_some() =>
            {
                break;
            }
            ServerMsg::Rooms { rooms, .. } => {
                assert!(t0.elapsed() < Duration::from_secs(5), "{rooms:?}");
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
            other => panic!("{other:?}"),
        }
    }
    a.kill();
    let killed = Instant::now();
    update_where(&mut w, "the dead node's room gone", |u| {
        u.removed.contains(&at_a)
    })
    .await;
    eprintln!(
        "node A's room left B's lobby {:?} after A died",
        killed.elapsed()
    );
    assert!(killed.elapsed() < Duration::from_secs(10));
    match w.request(ClientMsg::ListRooms).await.unwrap() {
        ServerMsg::Rooms { rooms, .. } => {
            assert!(has(&rooms, &at_a).is_none(), "{rooms:?}");
            assert!(has(&rooms, &at_b).is_some(), "{rooms:?}");
        }
        other => panic!("{other:?}"),
    }
    stop([b]);
}

/// `msg`, asked again while it is refused with one of `codes` (what a
/// node has not heard of yet), for at most 5 s: the last answer.
async fn request_until(
    c: &mut Connection,
    msg: ClientMsg,
    codes: &[ErrorCode],
) -> Result<ServerMsg, ClientError> {
    let t0 = Instant::now();
    loop {
        let r = c.request(msg.clone()).await;
        match &r {
            Err(ClientError::Refused(e))
                if codes.contains(&e.code) && t0.elapsed() < Duration::from_secs(5) =>
            {
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
            _ => return r,
        }
    }
}

/// `challenge` of `player` (casual or `rated`), asked again while it is
/// `not_found` or `already_seated` (the nodes have not heard of each
/// other, or of a seat left, yet).
async fn challenge(
    c: &mut Connection,
    player: &str,
    rated: bool,
) -> Result<ServerMsg, ClientError> {
    let msg = ClientMsg::Challenge {
        player: player.into(),
        config: scripted::config(),
        chat: true,
        rated,
    };
    request_until(c, msg, &[ErrorCode::NotFound, ErrorCode::AlreadySeated]).await
}

/// The room of the `challenged` push at `c` (from `from`).
async fn challenged(c: &mut Connection, from: &str) -> RoomId {
    let f = c
        .next_matching(|m| matches!(m, ServerMsg::Challenged { .. }))
        .await
        .expect("challenged");
    let ServerMsg::Challenged {
        room, from: who, ..
    } = f.msg
    else {
        unreachable!()
    };
    assert_eq!(who.name, from);
    room
}

/// A challenge from a player on node A to a player online only at node B
/// reaches them at B: they decline one (the challenger hears it) and
/// accept the next with `join_room` at B, and the game is played to the
/// end, each player through their own node.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_challenge_reaches_a_player_on_another_node_and_is_played() {
    let redis = RedisServer::start();
    let (a, b, _dirs) = two_nodes(&redis, "chal");
    let (mut ann, an, at) = scripted::connect(&a.url(), "ann").await;
    let (mut bea, bn, bt) = scripted::connect(&b.url(), "bea").await;
    let first = match challenge(&mut ann, &bn, false).await {
        Ok(ServerMsg::RoomCreated { room, .. }) => room,
        other => panic!("ann's challenge of bea at the other node: {other:?}"),
    };
    assert_eq!(challenged(&mut bea, &an).await, first);
    match bea
        .request(ClientMsg::DeclineChallenge {
            room: first.clone(),
        })
        .await
    {
        Ok(ServerMsg::RoomCancelled { room, reason }) => {
            assert_eq!((room, reason), (first.clone(), CancelReason::Declined))
        }
        other => panic!("bea's decline: {other:?}"),
    }
    let f = ann
        .next_matching(|m| matches!(m, ServerMsg::RoomCancelled { .. }))
        .await
        .unwrap();
    assert!(
        matches!(&f.msg, ServerMsg::RoomCancelled { room, reason: CancelReason::Declined } if *room == first),
        "{f:?}"
    );
    let second = match challenge(&mut ann, &bn, false).await {
        Ok(ServerMsg::RoomCreated { room, .. }) => room,
        other => panic!("ann's second challenge: {other:?}"),
    };
    assert_eq!(challenged(&mut bea, &an).await, second);
    match bea
        .request(ClientMsg::JoinRoom {
            room: second.clone(),
        })
        .await
    {
        Ok(ServerMsg::Joined { room, .. }) => assert_eq!(room, second),
        other => panic!("bea accepts: {other:?}"),
    }
    let snap = scripted::snapshot_push(&mut ann).await;
    let snap_b = scripted::snapshot_push(&mut bea).await;
    assert_eq!(snap.table, snap_b.table);
    let mut g = Game {
        name: [an, bn],
        conn: [ann, bea],
        token: [at, bt],
        table: snap.table.clone(),
        opener: snap.snapshot.opener,
        played: 0,
        seq: 0,
        clocks: None,
    };
    while !g.play_next().await {}
    assert_eq!(g.played, 9);
    let check = RedisStore::connect(
        &redis.url(),
        RedisOptions {
            prefix: "chal".into(),
            ..RedisOptions::default()
        },
    )
    .await
    .unwrap();
    scripted::check_records(&check, std::slice::from_ref(&g)).await;
    stop([a, b]);
}

/// Challenges from node A to players at node B are refused as on one
/// node: a rated one of a guest (`login_required`, decided at B where the
/// guest is), and one between accounts where one blocks the other
/// (`blocked`, either way round); a casual one of the guest goes through.
/// A challenge of a name online nowhere is `not_found`, answered by every
/// node (not given up after a wait); while a node does not answer, it is
/// `unavailable`.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn challenges_across_nodes_are_refused_as_on_one() {
    let redis = RedisServer::start();
    let (a, b, _dirs) = two_nodes(&redis, "chalr");
    let (c, _, _) = scripted::connect(&a.url(), "ann-guest").await;
    let mut ann = common::register(c, "annacct").await;
    let (c, _, _) = scripted::connect(&a.url(), "dan-guest").await;
    let mut dan = common::register(c, "danacct").await;
    let (c, _, _) = scripted::connect(&b.url(), "bea-guest").await;
    let mut bea = common::register(c, "beaacct").await;
    let (mut cat, cn, _) = scripted::connect(&b.url(), "cat").await;
    match challenge(&mut ann, &cn, true).await {
        Err(ClientError::Refused(e)) => assert_eq!(e.code, ErrorCode::LoginRequired, "{e:?}"),
        other => panic!("a rated challenge of a guest at the other node: {other:?}"),
    }
    // Bea (at B) blocks Ann, Dan (at A) blocks Bea.
    for (c, whom) in [(&mut bea, "annacct"), (&mut dan, "beaacct")] {
        match c
            .request(ClientMsg::Block {
                player: whom.into(),
            })
            .await
        {
            Ok(ServerMsg::Blocks { .. }) => {}
            other => panic!("a block: {other:?}"),
        }
    }
    for c in [&mut ann, &mut dan] {
        match challenge(c, "beaacct", false).await {
            Err(ClientError::Refused(e)) => assert_eq!(e.code, ErrorCode::Blocked, "{e:?}"),
            other => panic!("a challenge across a block: {other:?}"),
        }
    }
    let t0 = Instant::now();
    match ann
        .request(ClientMsg::Challenge {
            player: "nobody-anywhere".into(),
            config: scripted::config(),
            chat: true,
            rated: false,
        })
        .await
    {
        Err(ClientError::Refused(e)) => assert_eq!(e.code, ErrorCode::NotFound, "{e:?}"),
        other => panic!("a challenge of nobody: {other:?}"),
    }
    assert!(
        t0.elapsed() < Duration::from_millis(1500),
        "answered by the other node, not given up: {:?}",
        t0.elapsed()
    );
    let room = match challenge(&mut ann, &cn, false).await {
        Ok(ServerMsg::RoomCreated { room, .. }) => room,
        other => panic!("a casual challenge of the guest: {other:?}"),
    };
    assert_eq!(challenged(&mut cat, "annacct").await, room);
    // B stops answering (SIGSTOP) while A still counts it alive: a
    // challenge of someone not at A waits for B's answer, then is
    // `unavailable` (they may be there), not `not_found`.
    proc::signal(&b.child, "-STOP");
    let t0 = Instant::now();
    let r = dan
        .request(ClientMsg::Challenge {
            player: "maybe-at-b".into(),
            config: scripted::config(),
            chat: true,
            rated: false,
        })
        .await;
    proc::signal(&b.child, "-CONT");
    match r {
        Err(ClientError::Refused(e)) => assert_eq!(e.code, ErrorCode::Unavailable, "{e:?}"),
        other => panic!("a challenge while B is silent: {other:?}"),
    }
    assert!(
        t0.elapsed() >= Duration::from_millis(1500),
        "{:?}",
        t0.elapsed()
    );
    stop([a, b]);
}

/// A session connected to node B that sits in a game of node A (joined
/// through B) has its one seat (`max_seats` 1): once B heard of it, B
/// refuses it a room of its own, and a challenge of a player on A; once it
/// left the finished game, it may create one again.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn seats_are_counted_across_nodes() {
    let redis = RedisServer::start();
    let (a, b, _dirs) = two_nodes(&redis, "seats");
    let (mut ann, _, _) = scripted::connect(&a.url(), "ann").await;
    let (mut bob, bn, _) = scripted::connect(&b.url(), "bob").await;
    let (_cat, cn, _) = scripted::connect(&a.url(), "cat").await;
    let room = create(&mut ann, "at a", true).await;
    let join = ClientMsg::JoinRoom { room: room.clone() };
    match request_until(&mut bob, join, &[ErrorCode::NotFound]).await {
        Ok(ServerMsg::Joined { .. }) => {}
        other => panic!("bob's join through B: {other:?}"),
    }
    let snap = scripted::snapshot_push(&mut bob).await;
    scripted::snapshot_push(&mut ann).await;
    // B hears that bob sits there.
    let t0 = Instant::now();
    loop {
        let ServerMsg::Rooms { rooms, .. } = bob.request(ClientMsg::ListRooms).await.unwrap()
        else {
            panic!()
        };
        let seated = has(&rooms, &room).is_some_and(|r| {
            r.status == RoomStatus::Playing
                && r.players.second.as_ref().is_some_and(|p| p.name == bn)
        });
        if seated {
            break;
        }
        assert!(t0.elapsed() < Duration::from_secs(5), "{rooms:?}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let create_at_b = ClientMsg::CreateRoom {
        rated: false,
        config: scripted::config(),
        public: true,
        name: Some("at b".into()),
        chat: true,
    };
    match bob.request(create_at_b.clone()).await {
        Err(ClientError::Refused(e)) => assert_eq!(e.code, ErrorCode::AlreadySeated, "{e:?}"),
        other => panic!("a second seat, at B: {other:?}"),
    }
    match bob
        .request(ClientMsg::Challenge {
            player: cn.clone(),
            config: scripted::config(),
            chat: true,
            rated: false,
        })
        .await
    {
        Err(ClientError::Refused(e)) => assert_eq!(e.code, ErrorCode::AlreadySeated, "{e:?}"),
        other => panic!("a second seat, by a challenge of a player at A: {other:?}"),
    }
    // The game ends; bob leaves it through B: his seat is free again.
    match ann
        .request(ClientMsg::Act {
            table: snap.table.clone(),
            action: Action::Resign,
        })
        .await
    {
        Ok(ServerMsg::Acted { .. }) => {}
        other => panic!("ann resigns: {other:?}"),
    }
    match bob
        .request(ClientMsg::LeaveRoom { room: room.clone() })
        .await
    {
        Ok(ServerMsg::Left { .. }) => {}
        other => panic!("bob leaves: {other:?}"),
    }
    match request_until(&mut bob, create_at_b, &[ErrorCode::AlreadySeated]).await {
        Ok(ServerMsg::RoomCreated { .. }) => {}
        other => panic!("bob's room at B after leaving: {other:?}"),
    }
    stop([a, b]);
}
