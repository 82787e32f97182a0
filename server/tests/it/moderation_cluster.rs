//! Moderators' live actions across nodes: two `tengen-server` processes
//! on one real Redis. A moderator connected to node B aborts a game and
//! closes a room that node A holds (routed there like any command for a
//! room or table of another node), and `tengen-server admin --redis` does
//! the same for the node that holds them; the players on A hear why.

use crate::common;

use std::time::{Duration, Instant};

use common::proc::{self, DataDir, Proc};
use common::scripted;
use tengen_client::{ClientError, Connection};
use tengen_protocol::{ClientMsg, Encoding, ErrorCode, ModRequest, RoomId, ServerMsg, TableId};
use tengen_rules::game::{Event, ResultReason};
use tengen_store::testing::RedisServer;

const PREFIX: &str = "modlive";

fn node(redis: &RedisServer, dir: &DataDir, name: &str) -> Proc {
    proc::start_node(&dir.0, &redis.url(), PREFIX, name, "2")
}

async fn admin(redis: &RedisServer, args: &[&str]) -> (bool, serde_json::Value) {
    let mut v = vec![
        "--redis".to_string(),
        redis.url(),
        "--redis-prefix".into(),
        PREFIX.into(),
    ];
    v.extend(args.iter().map(|s| s.to_string()));
    proc::admin(v).await
}

async fn create(c: &mut Connection) -> RoomId {
    let create = ClientMsg::CreateRoom {
        rated: false,
        config: scripted::config(),
        public: true,
        name: None,
        chat: true,
    };
    match c.request(create).await.unwrap() {
        ServerMsg::RoomCreated { room, .. } => room,
        other => panic!("{other:?}"),
    }
}

/// Two guests on `url` at a new table: (creator, joiner, room, table).
async fn game_on(url: &str, tag: &str) -> (Connection, Connection, RoomId, TableId) {
    let (mut a, _, _) = scripted::connect(url, &format!("{tag}-a")).await;
    let (mut b, _, _) = scripted::connect(url, &format!("{tag}-b")).await;
    let room = create(&mut a).await;
    let join = b.request(ClientMsg::JoinRoom { room: room.clone() }).await;
    assert!(matches!(join, Ok(ServerMsg::Joined { .. })), "{join:?}");
    let snap = scripted::snapshot_push(&mut a).await;
    scripted::snapshot_push(&mut b).await;
    (a, b, room, snap.table)
}

/// `req` from `c`, asked again while the room is not yet known where `c`
/// is (another node's rooms arrive with its next lobby update).
async fn moderate_when_known(c: &mut Connection, req: ModRequest) -> ServerMsg {
    let t0 = Instant::now();
    loop {
        match c.request(ClientMsg::Moderate(req.clone())).await {
            Err(ClientError::Refused(e))
                if e.code == ErrorCode::NotFound && t0.elapsed() < Duration::from_secs(10) =>
            {
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
            Ok(msg) => return msg,
            other => panic!("{other:?}"),
        }
    }
}

/// The reason of the next `game_over` (must be an arbiter's) and of the
/// `game_aborted` or `room_closed` push after it.
async fn aborted(c: &mut Connection, closed: bool) -> String {
    loop {
        let f = c.next().await.expect("a message");
        match f.msg {
            ServerMsg::TableEvent(e) => {
                if let Event::GameOver { result, .. } = e.event {
                    assert_eq!(result.reason, ResultReason::Arbiter);
                }
            }
            ServerMsg::GameAborted { reason, .. } if !closed => return reason,
            ServerMsg::RoomClosed { reason, .. } if closed => return reason,
            _ => {}
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn moderators_abort_games_and_close_rooms_held_by_another_node() {
    let redis = RedisServer::start();
    let (dir_a, dir_b) = (DataDir::new("modlive-a"), DataDir::new("modlive-b"));
    let a = node(&redis, &dir_a, "node-a");
    let b = node(&redis, &dir_b, "node-b");
    let (c, _) = Connection::connect(&b.url(), Encoding::Json, Some("m"))
        .await
        .unwrap();
    let mut moe = common::register(c, "Moe").await;
    let (ok, answer) = admin(&redis, &["role", "Moe", "moderator"]).await;
    assert!(ok, "{answer}");
    // A game on A, aborted by Moe on B.
    let (mut ann, mut bob, _, table) = game_on(&a.url(), "g1").await;
    let abort = ModRequest::AbortGame {
        table: table.clone(),
        reason: "colluding".into(),
    };
    match moderate_when_known(&mut moe, abort).await {
        ServerMsg::Moderated { action, target } => {
            assert_eq!(action, "abort_game");
            assert_eq!(target, table.to_string());
        }
        other => panic!("{other:?}"),
    }
    for c in [&mut ann, &mut bob] {
        assert_eq!(aborted(c, false).await, "colluding");
    }
    // A playing room on A, closed by Moe on B.
    let (mut cy, mut di, room, _) = game_on(&a.url(), "g2").await;
    let close = ModRequest::CloseRoom {
        room: room.clone(),
        reason: "offensive".into(),
    };
    assert!(matches!(
        moderate_when_known(&mut moe, close.clone()).await,
        ServerMsg::Moderated { .. }
    ));
    for c in [&mut cy, &mut di] {
        assert_eq!(aborted(c, true).await, "offensive");
    }
    // From the command line on Redis: the node holding them acts.
    let (mut eve, mut fay, room3, table3) = game_on(&a.url(), "g3").await;
    let (ok, answer) = admin(
        &redis,
        &["abort-game", table3.as_str(), "--reason", "stuck"],
    )
    .await;
    assert!(ok, "{answer}");
    assert_eq!(answer["type"], "moderated");
    for c in [&mut eve, &mut fay] {
        assert_eq!(aborted(c, false).await, "stuck");
    }
    let (ok, answer) = admin(&redis, &["close-room", room3.as_str(), "--reason", "tidy"]).await;
    assert!(ok, "{answer}");
    for c in [&mut eve, &mut fay] {
        assert_eq!(aborted(c, true).await, "tidy");
    }
    // A game that is not running, from the command line: refused.
    let (_, answer) = admin(
        &redis,
        &[
            "abort-game",
            &TableId::from_u64(3).to_string(),
            "--reason",
            "x",
        ],
    )
    .await;
    assert_eq!(answer["code"], "not_found", "{answer}");
    a.terminate();
    b.terminate();
}
