//! Fair-play limits end to end, through real WebSocket clients: a player
//! who abandons rated games (aborts them, lets the clock run out without
//! moving, never makes a first move) more than three times in a day is
//! refused the rated queue, rated rooms and rated rematches with
//! `playbanned` and the time left, sees the wait when logging in, and
//! still plays casual games; a game lost after playing is no offence; the
//! wait is in the store, so it holds after a restart and on every node.

use crate::common;

use std::path::Path;
use std::time::Duration;

use common::*;
use tengen_client::{ClientError, Connection};
use tengen_protocol::{
    ClientMsg, Encoding, ErrorBody, ErrorCode, LoggedIn, RoomId, ServerMsg, TableId,
};
use tengen_rules::game::{Action, Event, GameConfig, GameResult, RuleSet, Seat, TimeControl};
use tengen_server::Server;

const MINUTE_MS: u64 = 60_000;

async fn start(dir: &Path, first_move: Duration) -> Server {
    server_on(dir, move |s| {
        s.finished_table_linger = Duration::from_millis(200);
        s.first_move_timeout = first_move;
        // Two players whose ratings a game drew apart are paired at once.
        s.matchmaking.base_gap = f64::INFINITY;
        s.matchmaking.interval = Duration::from_millis(50);
    })
    .await
}

/// A freestyle room with a free opening (black, the first to act, plays
/// any point), timed as asked.
fn config(time: TimeControl) -> GameConfig {
    GameConfig::free(RuleSet::Freestyle).with_time(time)
}

/// A pairing as one player sees it.
struct Paired {
    room: RoomId,
    table: TableId,
    seat: Seat,
    black: Seat,
}

/// Queues `c` for `config` (it must be accepted).
async fn queue(c: &mut Connection, config: &GameConfig) -> Result<ServerMsg, ClientError> {
    c.request(ClientMsg::Queue {
        config: config.clone(),
        bots: false,
    })
    .await
}

/// Waits for `matched` and the table's first snapshot.
async fn matched(c: &mut Connection) -> Paired {
    c.timeout = Duration::from_secs(10);
    let m = c
        .next_matching(|m| matches!(m, ServerMsg::Matched { .. }))
        .await
        .expect("matched");
    let ServerMsg::Matched {
        room, table, seat, ..
    } = m.msg
    else {
        unreachable!()
    };
    let snap = snapshot_push(c).await;
    assert_eq!(snap.table, table);
    Paired {
        room,
        table,
        seat,
        black: snap.snapshot.black,
    }
}

/// Both queue and are paired: what each sees.
async fn pair(a: &mut Connection, b: &mut Connection, config: &GameConfig) -> [Paired; 2] {
    for c in [&mut *a, &mut *b] {
        assert!(matches!(
            queue(c, config).await,
            Ok(ServerMsg::Queued { .. })
        ));
    }
    let pa = matched(a).await;
    let pb = matched(b).await;
    assert_eq!(pa.table, pb.table);
    [pa, pb]
}

/// Waits for the end of the game at the table `c` plays at.
async fn game_over(c: &mut Connection) -> GameResult {
    c.timeout = Duration::from_secs(10);
    let over = c
        .next_matching(
            |m| matches!(m, ServerMsg::TableEvent(e) if matches!(e.event, Event::GameOver { .. })),
        )
        .await
        .expect("game over");
    let ServerMsg::TableEvent(e) = over.msg else {
        unreachable!()
    };
    let Event::GameOver { result, .. } = e.event else {
        unreachable!()
    };
    result
}

/// Both see the game end, then leave the finished room (freeing their
/// seat for the next game).
async fn finish(a: &mut Connection, b: &mut Connection, room: &RoomId) -> GameResult {
    let result = game_over(a).await;
    assert_eq!(game_over(b).await, result);
    for c in [a, b] {
        let left = c.request(ClientMsg::LeaveRoom { room: room.clone() }).await;
        assert!(matches!(left, Ok(ServerMsg::Left { .. })), "{left:?}");
    }
    result
}

/// A fresh connection logged in as `name`: what `logged_in` says.
async fn login(server: &Server, name: &str) -> (Connection, LoggedIn) {
    let mut c = client(server, "someone", Encoding::Json).await;
    match c
        .request(ClientMsg::Login {
            name: name.into(),
            password: "long enough".into(),
        })
        .await
    {
        Ok(ServerMsg::LoggedIn(li)) => (c, li),
        other => panic!("{other:?}"),
    }
}

/// `name`'s wait as `logged_in` shows it, once the offence has been
/// stored (it is written just after the game ends).
async fn wait_shown(server: &Server, name: &str) -> tengen_protocol::Playban {
    for _ in 0..100 {
        if let (
            _,
            LoggedIn {
                playban: Some(p), ..
            },
        ) = login(server, name).await
        {
            return p;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("{name} got no wait");
}

/// The refusal `result` must be: `playbanned`, with a wait of at most
/// `most` and more than `least` milliseconds, also said in words.
fn playbanned(result: Result<ServerMsg, ClientError>, least: u64, most: u64) -> ErrorBody {
    let Err(ClientError::Refused(body)) = result else {
        panic!("not refused: {result:?}");
    };
    assert_eq!(body.code, ErrorCode::Playbanned, "{}", body.message);
    let left = body.retry_after_ms.expect("retry_after_ms");
    assert!(least < left && left <= most, "{left} ms left");
    let words = format!("{} min", left.div_ceil(MINUTE_MS));
    assert!(body.message.contains(&words), "{}", body.message);
    body
}

fn create(config: &GameConfig, rated: bool) -> ClientMsg {
    ClientMsg::CreateRoom {
        config: config.clone(),
        public: true,
        name: None,
        chat: true,
        rated,
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_fourth_abort_in_a_day_bars_rated_play_for_15_minutes_casual_play_goes_on_and_a_restart_keeps_it()
 {
    let dir = tempfile::tempdir().unwrap();
    let server = start(dir.path(), Duration::from_secs(60)).await;
    let mut ann = account(&server, "annika").await;
    let mut bob = account(&server, "bobby").await;
    let untimed = config(TimeControl::Unlimited);

    // Three aborts: free.
    for _ in 0..3 {
        let [a, _] = pair(&mut ann, &mut bob, &untimed).await;
        act(&mut ann, &a.table, Action::Abort).await;
        finish(&mut ann, &mut bob, &a.room).await;
    }
    // A game annika plays and then resigns: a loss, no offence.
    let [a, _] = pair(&mut ann, &mut bob, &untimed).await;
    let (first, second) = if a.black == a.seat {
        (&mut ann, &mut bob)
    } else {
        (&mut bob, &mut ann)
    };
    act(first, &a.table, place("H8")).await;
    act(second, &a.table, place("A1")).await;
    act(&mut ann, &a.table, Action::Resign).await;
    let result = finish(&mut ann, &mut bob, &a.room).await;
    assert_eq!(result.winner(), Some(a.seat.other()));
    // Nothing barred: a fourth offence would have been counted by now
    // (each is stored within milliseconds of the game's end).
    for _ in 0..10 {
        tokio::time::sleep(Duration::from_millis(100)).await;
        let (_, li) = login(&server, "annika").await;
        assert_eq!(li.playban, None, "the resignation counted");
    }
    assert!(matches!(
        queue(&mut ann, &untimed).await,
        Ok(ServerMsg::Queued { .. })
    ));
    assert!(matches!(
        ann.request(ClientMsg::Unqueue).await,
        Ok(ServerMsg::Unqueued)
    ));

    // The fourth abort within the day: 15 minutes.
    let [a, _] = pair(&mut ann, &mut bob, &untimed).await;
    act(&mut ann, &a.table, Action::Abort).await;
    for c in [&mut ann, &mut bob] {
        game_over(c).await;
    }
    let shown = wait_shown(&server, "annika").await;
    // No rated rematch: annika hears why, bobby that there is none.
    for c in [&mut ann, &mut bob] {
        let offered = c
            .request(ClientMsg::Rematch {
                table: a.table.clone(),
            })
            .await;
        assert!(
            matches!(offered, Ok(ServerMsg::RematchOffered { .. })),
            "{offered:?}"
        );
    }
    for (c, code) in [
        (&mut ann, ErrorCode::Playbanned),
        (&mut bob, ErrorCode::NoRematch),
    ] {
        let refused = c
            .next_matching(|m| matches!(m, ServerMsg::Error(_) | ServerMsg::RematchStarted { .. }))
            .await
            .expect("an answer to the rematch");
        assert!(
            matches!(&refused.msg, ServerMsg::Error(e) if e.code == code),
            "{refused:?}"
        );
    }
    for c in [&mut ann, &mut bob] {
        let left = c
            .request(ClientMsg::LeaveRoom {
                room: a.room.clone(),
            })
            .await;
        assert!(matches!(left, Ok(ServerMsg::Left { .. })), "{left:?}");
    }
    assert!(14 * MINUTE_MS < shown.remaining_ms && shown.remaining_ms <= 15 * MINUTE_MS);
    assert!(
        shown
            .message
            .contains("you abandoned 4 rated games in the last 24 hours"),
        "{}",
        shown.message
    );

    // Rated play refused: the queue, a rated room, joining one.
    let body = playbanned(
        queue(&mut ann, &untimed).await,
        14 * MINUTE_MS,
        15 * MINUTE_MS,
    );
    assert!(
        body.message
            .starts_with("you abandoned 4 rated games in the last 24 hours"),
        "{}",
        body.message
    );
    assert!(
        body.message.contains("you can play rated games again in"),
        "{}",
        body.message
    );
    playbanned(
        ann.request(create(&untimed, true)).await,
        14 * MINUTE_MS,
        15 * MINUTE_MS,
    );
    let room = match bob.request(create(&untimed, true)).await {
        Ok(ServerMsg::RoomCreated { room, .. }) => room,
        other => panic!("{other:?}"),
    };
    playbanned(
        ann.request(ClientMsg::JoinRoom { room: room.clone() })
            .await,
        14 * MINUTE_MS,
        15 * MINUTE_MS,
    );
    assert!(matches!(
        bob.request(ClientMsg::CancelRoom { room }).await,
        Ok(ServerMsg::RoomCancelled { .. })
    ));
    // A rated challenge, either way.
    let challenge = |player: &str| ClientMsg::Challenge {
        player: player.into(),
        config: untimed.clone(),
        chat: true,
        rated: true,
    };
    playbanned(
        ann.request(challenge("bobby")).await,
        14 * MINUTE_MS,
        15 * MINUTE_MS,
    );
    let body = playbanned(
        bob.request(challenge("annika")).await,
        14 * MINUTE_MS,
        15 * MINUTE_MS,
    );
    assert!(
        body.message.starts_with("annika cannot play rated games"),
        "{}",
        body.message
    );
    // Casual play goes on, and an abort there is no offence.
    let room = match ann.request(create(&untimed, false)).await {
        Ok(ServerMsg::RoomCreated { room, .. }) => room,
        other => panic!("{other:?}"),
    };
    let joined = bob
        .request(ClientMsg::JoinRoom { room: room.clone() })
        .await;
    assert!(matches!(joined, Ok(ServerMsg::Joined { .. })), "{joined:?}");
    let snap = snapshot_push(&mut ann).await;
    snapshot_push(&mut bob).await;
    act(&mut ann, &snap.table, Action::Abort).await;
    finish(&mut ann, &mut bob, &room).await;
    // A fifth offence would make it an hour.
    tokio::time::sleep(Duration::from_millis(500)).await;
    let (_, li) = login(&server, "annika").await;
    assert_eq!(li.playban.map(|p| p.until_ms), Some(shown.until_ms));

    // The wait is in the store: a restart keeps it.
    drop((ann, bob));
    server.shutdown();
    server.wait().await.expect("stops");
    let server = start(dir.path(), Duration::from_secs(60)).await;
    let (mut ann, li) = login(&server, "annika").await;
    let after = li.playban.expect("still waiting after the restart");
    assert_eq!(after.until_ms, shown.until_ms);
    playbanned(
        queue(&mut ann, &untimed).await,
        13 * MINUTE_MS,
        15 * MINUTE_MS,
    );

    // An operator lifts it (through the running server's admin socket),
    // audited; rated play is open again at once.
    let on_dir = |args: &[&str]| {
        let mut v = vec!["--data-dir".to_owned(), dir.path().display().to_string()];
        v.extend(args.iter().map(|s| s.to_string()));
        v
    };
    let lift = on_dir(&["lift-playban", "Annika", "--reason", "a broken router"]);
    let (ok, answer) = proc::admin(lift).await;
    assert!(ok, "{answer}");
    assert_eq!(answer["type"], "moderated");
    assert_eq!(answer["action"], "lift_playban");
    assert!(matches!(
        queue(&mut ann, &untimed).await,
        Ok(ServerMsg::Queued { .. })
    ));
    let (_, li) = login(&server, "annika").await;
    assert_eq!(li.playban, None);
    let (ok, log) = proc::admin(on_dir(&["audit", "--limit", "1"])).await;
    assert!(ok, "{log}");
    assert_eq!(log["entries"][0]["action"], "lift_playban");
    assert_eq!(log["entries"][0]["target"], "annika");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn running_out_of_time_without_a_move_and_never_making_a_first_move_count() {
    let dir = tempfile::tempdir().unwrap();
    let server = start(dir.path(), Duration::from_secs(3)).await;
    let mut ann = account(&server, "annika").await;
    let mut bob = account(&server, "bobby").await;
    // A second each: annika's clock runs out long before the first-move
    // abort (3 s) would come.
    let blitz = config(TimeControl::SuddenDeath { main_ms: 1000 });
    let untimed = config(TimeControl::Unlimited);
    for _ in 0..2 {
        let [a, b] = pair(&mut ann, &mut bob, &blitz).await;
        if b.black == b.seat {
            act(&mut bob, &b.table, place("H8")).await;
        }
        let result = finish(&mut ann, &mut bob, &a.room).await;
        assert_eq!(result.winner(), Some(b.seat), "{result:?}");
        assert!(
            matches!(result.reason, tengen_rules::game::ResultReason::Time { seat } if seat == a.seat),
            "{result:?}"
        );
    }
    // Untimed: annika never moves, the server aborts the game.
    for _ in 0..2 {
        let [a, b] = pair(&mut ann, &mut bob, &untimed).await;
        if b.black == b.seat {
            act(&mut bob, &b.table, place("H8")).await;
        }
        let result = finish(&mut ann, &mut bob, &a.room).await;
        assert!(
            matches!(
                result.reason,
                tengen_rules::game::ResultReason::Aborted { seat: None }
            ),
            "{result:?}"
        );
    }
    // Four offences: 15 minutes. Bobby, who moved or waited, is free.
    let shown = wait_shown(&server, "annika").await;
    assert!(14 * MINUTE_MS < shown.remaining_ms && shown.remaining_ms <= 15 * MINUTE_MS);
    playbanned(
        queue(&mut ann, &untimed).await,
        14 * MINUTE_MS,
        15 * MINUTE_MS,
    );
    let (_, li) = login(&server, "bobby").await;
    assert_eq!(li.playban, None);
    assert!(matches!(
        queue(&mut bob, &untimed).await,
        Ok(ServerMsg::Queued { .. })
    ));
}

/// A connection to `url` registered as `name`.
async fn account_at(url: &str, name: &str) -> Connection {
    let (c, _) = Connection::connect(url, Encoding::Json, Some("someone"))
        .await
        .expect("connects");
    register(c, name).await
}

/// Two nodes on one Redis: annika abandons four rated games through node
/// A while also logged in on node B; B hears of her new standing (the
/// moderation news) and refuses her a rated room from its own book, and
/// the queue on B reads the wait from the shared store.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_wait_earned_on_one_node_holds_on_another() {
    let redis = tengen_store::testing::RedisServer::start();
    let (dir_a, dir_b) = (
        proc::DataDir::new("playban-a"),
        proc::DataDir::new("playban-b"),
    );
    let a = proc::start_node(&dir_a.0, &redis.url(), "playban", "node-a", "2");
    let b = proc::start_node(&dir_b.0, &redis.url(), "playban", "node-b", "2");
    let mut ann = account_at(&a.url(), "annika").await;
    let mut bob = account_at(&a.url(), "bobby").await;
    let (mut ann_b, _) = Connection::connect(&b.url(), Encoding::Json, Some("someone"))
        .await
        .expect("connects");
    let login = ann_b
        .request(ClientMsg::Login {
            name: "annika".into(),
            password: "long enough".into(),
        })
        .await;
    assert!(
        matches!(&login, Ok(ServerMsg::LoggedIn(li)) if li.playban.is_none()),
        "{login:?}"
    );
    let untimed = config(TimeControl::Unlimited);
    for _ in 0..4 {
        let [p, _] = pair(&mut ann, &mut bob, &untimed).await;
        act(&mut ann, &p.table, Action::Abort).await;
        finish(&mut ann, &mut bob, &p.room).await;
    }
    // Node B's lobby refuses her a rated room once the news is in.
    let mut refused = None;
    for _ in 0..100 {
        match ann_b.request(create(&untimed, true)).await {
            Ok(ServerMsg::RoomCreated { room, .. }) => {
                let cancel = ann_b.request(ClientMsg::CancelRoom { room }).await;
                assert!(
                    matches!(cancel, Ok(ServerMsg::RoomCancelled { .. })),
                    "{cancel:?}"
                );
                tokio::time::sleep(Duration::from_millis(50)).await;
            }
            other => {
                refused = Some(other);
                break;
            }
        }
    }
    let refused = refused.expect("node B never refused a rated room");
    playbanned(refused, 14 * MINUTE_MS, 15 * MINUTE_MS);
    playbanned(
        queue(&mut ann_b, &untimed).await,
        14 * MINUTE_MS,
        15 * MINUTE_MS,
    );
    // Casual rooms on B stay open to her.
    assert!(matches!(
        ann_b.request(create(&untimed, false)).await,
        Ok(ServerMsg::RoomCreated { .. })
    ));
    a.kill();
    b.kill();
}
