//! Moderators acting on live rooms and games, and on ratings, through the
//! real protocol and `tengen-server admin` on the running server: a game
//! aborted (unrated, everyone at the table told why, stored as aborted by
//! an arbiter), a room closed (waiting or playing), a bad-faith game's
//! rating changes reversed once, and the refusals (no role, unknown ids,
//! a game already over, a reset done already, a game that rated nobody).

use crate::common;

use std::path::Path;
use std::time::Duration;

use common::moderation::{admin, moderate, refusal};
use common::*;
use tengen_client::{ClientError, Connection};
use tengen_protocol::{
    ClientMsg, Encoding, ErrorCode, ModRequest, Profile, RecordFormat, Role, RoomId, ServerMsg,
    TableId,
};
use tengen_rules::game::{
    Action, Event, GameConfig, GameError, Outcome, ResultReason, RuleSet, Seat,
};
use tengen_server::Server;

async fn server_in(dir: &Path) -> Server {
    let dir = dir.to_path_buf();
    server_with(move |s| s.data_dir = dir).await
}

/// `name`, made a moderator from the command line.
async fn moderator(server: &Server, dir: &Path, name: &str) -> Connection {
    let c = account(server, name).await;
    let (ok, answer) = admin(dir, &["role", name, "moderator"]).await;
    assert!(ok, "{answer}");
    c
}

/// Two accounts seated in a new room (rated or not): (creator, joiner,
/// room, table, the seat holding black).
async fn seated(
    server: &Server,
    a: &str,
    b: &str,
    rated: bool,
) -> (Connection, Connection, RoomId, TableId, Seat) {
    let mut first = account(server, a).await;
    let mut second = account(server, b).await;
    let room = match first
        .request(ClientMsg::CreateRoom {
            rated,
            config: GameConfig::new(RuleSet::Gomoku),
            public: true,
            name: None,
            chat: true,
        })
        .await
        .unwrap()
    {
        ServerMsg::RoomCreated { room, .. } => room,
        other => panic!("{other:?}"),
    };
    let joined = second.request(ClientMsg::JoinRoom { room: room.clone() });
    assert!(matches!(joined.await, Ok(ServerMsg::Joined { .. })));
    let s1 = snapshot_push(&mut first).await;
    snapshot_push(&mut second).await;
    (first, second, room, s1.table, s1.snapshot.black)
}

/// Plays `moves` alternately from black.
async fn play(conns: [&mut Connection; 2], table: &TableId, black: Seat, moves: &[&str]) {
    let [first, second] = conns;
    let by_seat = [first, second];
    for (n, p) in moves.iter().enumerate() {
        let seat = if n % 2 == 0 { black } else { black.other() };
        act(by_seat[seat.index()], table, place(p)).await;
    }
}

/// The result of the next `game_over` event `c` receives.
async fn game_over(c: &mut Connection) -> tengen_rules::game::GameResult {
    loop {
        let e = next_event(c).await;
        if let Event::GameOver { result, .. } = e.event {
            return result;
        }
    }
}

/// The next `game_aborted` or `room_closed` push's reason.
async fn told(c: &mut Connection, closed: bool) -> String {
    let f = c
        .next_matching(|m| match m {
            ServerMsg::RoomClosed { .. } => closed,
            ServerMsg::GameAborted { .. } => !closed,
            _ => false,
        })
        .await
        .expect("a moderator's notice");
    match f.msg {
        ServerMsg::RoomClosed { reason, .. } | ServerMsg::GameAborted { reason, .. } => reason,
        _ => unreachable!(),
    }
}

async fn spectator(server: &Server, table: &TableId) -> Connection {
    let mut c = client(server, "sam", Encoding::MsgPack).await;
    watch_snapshot(&mut c, table).await;
    c
}

/// `name`'s profile once its gomoku games number `games`.
async fn profile_after(c: &mut Connection, name: &str, games: u32) -> Profile {
    for _ in 0..100 {
        let p = profile(c, name).await;
        let n = p.ratings.first().map_or(0, |r| r.games);
        if n == games {
            return p;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("{name}'s games never numbered {games}");
}

#[tokio::test]
async fn a_moderator_aborts_a_running_game_unrated_and_everyone_hears_why() {
    let dir = tempfile::tempdir().unwrap();
    let server = server_in(dir.path()).await;
    let mut mo = moderator(&server, dir.path(), "Moe").await;
    let (mut ann, mut bob, _room, table, black) = seated(&server, "Ann", "Bob", true).await;
    let mut sam = spectator(&server, &table).await;
    play([&mut ann, &mut bob], &table, black, &["H8", "A1"]).await;
    let abort = |table: &TableId| ModRequest::AbortGame {
        table: table.clone(),
        reason: "colluding".into(),
    };
    // A player may not; an unknown game is not found.
    let e = refusal(moderate(&mut ann, abort(&table)).await);
    assert_eq!(e.code, ErrorCode::Forbidden);
    let e = refusal(moderate(&mut mo, abort(&TableId::from_u64(7))).await);
    assert_eq!(e.code, ErrorCode::NotFound);
    // Both seats have moved: only an arbiter can end it as aborted now.
    match moderate(&mut mo, abort(&table)).await.unwrap() {
        ServerMsg::Moderated { action, target } => {
            assert_eq!(action, "abort_game");
            assert_eq!(target, table.to_string());
        }
        other => panic!("{other:?}"),
    }
    for c in [&mut ann, &mut bob, &mut sam] {
        let result = game_over(c).await;
        assert_eq!(result.outcome, Outcome::Aborted);
        assert_eq!(result.reason, ResultReason::Arbiter);
        assert_eq!(told(c, false).await, "colluding");
    }
    // Once over, it cannot be aborted again.
    let e = refusal(moderate(&mut mo, abort(&table)).await);
    assert_eq!(e.code, ErrorCode::Game);
    assert_eq!(e.game_error, Some(GameError::GameOver));
    // Stored as aborted by an arbiter, and no rating changed.
    let record = loop {
        let ask = ClientMsg::GameRecord {
            game: table.clone(),
            format: RecordFormat::Json,
        };
        match ann.request(ask).await {
            Ok(ServerMsg::GameRecord(r)) => break r.record.expect("a JSON record"),
            Err(ClientError::Refused(e)) if e.code == ErrorCode::NotFound => {
                tokio::time::sleep(Duration::from_millis(50)).await;
            }
            other => panic!("{other:?}"),
        }
    };
    assert_eq!(
        record.result.as_ref().unwrap().reason,
        ResultReason::Arbiter
    );
    assert!(record.replay().is_ok(), "the record replays");
    assert!(profile(&mut ann, "Ann").await.ratings.is_empty());
    assert!(profile(&mut bob, "Bob").await.ratings.is_empty());
    // Audited with its reason.
    let ServerMsg::AuditLog { entries } =
        moderate(&mut mo, ModRequest::AuditLog { limit: Some(5) })
            .await
            .unwrap()
    else {
        panic!("an audit log")
    };
    assert_eq!(
        (entries[0].action.as_str(), entries[0].target.as_str()),
        ("abort_game", table.as_str())
    );
    assert_eq!(entries[0].reason, "colluding");
}

#[tokio::test]
async fn a_moderator_closes_a_waiting_room_and_a_playing_one() {
    let dir = tempfile::tempdir().unwrap();
    let server = server_in(dir.path()).await;
    let mut mo = moderator(&server, dir.path(), "Moe").await;
    // A waiting room: its creator is told, and it leaves the lobby.
    let mut cy = account(&server, "Cyd").await;
    let waiting = create_room(&mut cy, GameConfig::new(RuleSet::Gomoku), true).await;
    let close = |room: &RoomId| ModRequest::CloseRoom {
        room: room.clone(),
        reason: "offensive name".into(),
    };
    let e = refusal(moderate(&mut cy, close(&waiting)).await);
    assert_eq!(e.code, ErrorCode::Forbidden);
    let e = refusal(moderate(&mut mo, close(&RoomId::from_u64(9))).await);
    assert_eq!(e.code, ErrorCode::NotFound);
    assert!(matches!(
        moderate(&mut mo, close(&waiting)).await,
        Ok(ServerMsg::Moderated { .. })
    ));
    assert_eq!(told(&mut cy, true).await, "offensive name");
    // A playing room: the game is aborted, players and spectators told.
    let (mut ann, mut bob, room, table, black) = seated(&server, "Ann", "Bob", false).await;
    let mut sam = spectator(&server, &table).await;
    play([&mut ann, &mut bob], &table, black, &["H8", "A1", "H9"]).await;
    assert!(matches!(
        moderate(&mut mo, close(&room)).await,
        Ok(ServerMsg::Moderated { .. })
    ));
    for c in [&mut ann, &mut bob, &mut sam] {
        assert_eq!(game_over(c).await.reason, ResultReason::Arbiter);
        assert_eq!(told(c, true).await, "offensive name");
    }
    let ServerMsg::Rooms { rooms, .. } = mo.request(ClientMsg::ListRooms).await.unwrap() else {
        panic!("rooms")
    };
    assert!(
        rooms.iter().all(|r| r.room != room && r.room != waiting),
        "{rooms:?}"
    );
    // Gone: a second close finds nothing; the players may sit again.
    let e = refusal(moderate(&mut mo, close(&room)).await);
    assert_eq!(e.code, ErrorCode::NotFound);
    create_room(&mut ann, GameConfig::new(RuleSet::Gomoku), false).await;
}

#[tokio::test]
async fn a_rating_reset_reverses_a_bad_faith_game_once() {
    let dir = tempfile::tempdir().unwrap();
    let server = server_in(dir.path()).await;
    let mut mo = moderator(&server, dir.path(), "Moe").await;
    // A fair game first, then the thrown one.
    let (mut ann, mut bob, _, fair, black) = seated(&server, "Ann", "Bob", true).await;
    play([&mut ann, &mut bob], &fair, black, &["H8", "A1"]).await;
    act(&mut ann, &fair, Action::Resign).await;
    let after_fair = profile_after(&mut ann, "Ann", 1).await.ratings[0].clone();
    let bob_fair = profile_after(&mut bob, "Bob", 1).await.ratings[0].clone();
    for c in [&mut ann, &mut bob] {
        let ask = ClientMsg::Rematch {
            table: fair.clone(),
        };
        assert!(c.request(ask).await.is_ok());
    }
    let thrown = snapshot_push(&mut ann).await;
    snapshot_push(&mut bob).await;
    let (table, black) = (thrown.table.clone(), thrown.snapshot.black);
    play([&mut ann, &mut bob], &table, black, &["H8", "A1"]).await;
    act(&mut bob, &table, Action::Resign).await;
    let thrown_ann = profile_after(&mut ann, "Ann", 2).await.ratings[0].clone();
    assert_ne!(thrown_ann.rating, after_fair.rating);
    let reset = |game: &TableId| ModRequest::ResetRating {
        game: game.clone(),
        reason: "sandbagging".into(),
    };
    let e = refusal(moderate(&mut ann, reset(&table)).await);
    assert_eq!(e.code, ErrorCode::Forbidden);
    let e = refusal(moderate(&mut mo, reset(&TableId::from_u64(5))).await);
    assert_eq!(e.code, ErrorCode::NotFound);
    // Through the running server's admin socket, as an operator would.
    let (ok, answer) = admin(
        dir.path(),
        &["reset-rating", table.as_str(), "--reason", "sandbagging"],
    )
    .await;
    assert!(ok, "{answer}");
    assert_eq!(answer["type"], "moderated");
    // Both players are back where the fair game left them.
    let ann_now = profile_after(&mut ann, "Ann", 1).await.ratings[0].clone();
    let bob_now = profile_after(&mut bob, "Bob", 1).await.ratings[0].clone();
    for (now, then) in [(&ann_now, &after_fair), (&bob_now, &bob_fair)] {
        assert!((now.rating - then.rating).abs() < 1e-6, "{now:?} {then:?}");
        assert!((now.deviation - then.deviation).abs() < 1e-6);
        assert_eq!((now.wins, now.losses), (then.wins, then.losses));
    }
    // Once only: a second reset, here or from the command line, says so.
    let e = refusal(moderate(&mut mo, reset(&table)).await);
    assert_eq!(e.code, ErrorCode::AlreadyReset);
    let (_, answer) = admin(
        dir.path(),
        &["reset-rating", table.as_str(), "--reason", "again"],
    )
    .await;
    assert_eq!(answer["code"], "already_reset", "{answer}");
    assert_eq!(profile(&mut ann, "Ann").await.ratings[0].games, 1);
    // The reversal is in both players' histories, marking the game.
    let ServerMsg::History { games, .. } = ann
        .request(ClientMsg::History {
            player: "Ann".into(),
            before: None,
        })
        .await
        .unwrap()
    else {
        panic!("a history")
    };
    assert_eq!(games.len(), 3, "{games:?}");
    assert_eq!(games[0].reverses.as_ref(), Some(&table));
    assert!(games[1..].iter().all(|g| g.reverses.is_none()));
    // A casual game rated nobody.
    let (mut cy, mut di, _, casual, black) = seated(&server, "Cyd", "Dia", false).await;
    play([&mut cy, &mut di], &casual, black, &["H8", "A1"]).await;
    act(&mut cy, &casual, Action::Resign).await;
    let mut tries = 0;
    let e = loop {
        let e = refusal(moderate(&mut mo, reset(&casual)).await);
        if e.code != ErrorCode::NotFound || tries > 100 {
            break e;
        }
        tries += 1;
        tokio::time::sleep(Duration::from_millis(50)).await;
    };
    assert_eq!(e.code, ErrorCode::NotRated);
    let role = ModRequest::SetRole {
        player: "Cyd".into(),
        role: Role::Moderator,
        reason: "x".into(),
    };
    assert_eq!(
        refusal(moderate(&mut mo, role).await).code,
        ErrorCode::Forbidden
    );
}

#[tokio::test]
async fn the_admin_command_aborts_a_game_and_closes_a_room_on_the_running_server() {
    let dir = tempfile::tempdir().unwrap();
    let server = server_in(dir.path()).await;
    let (mut ann, mut bob, room, table, black) = seated(&server, "Ann", "Bob", false).await;
    play([&mut ann, &mut bob], &table, black, &["H8", "A1", "H9"]).await;
    let (ok, answer) = admin(
        dir.path(),
        &["abort-game", table.as_str(), "--reason", "stuck game"],
    )
    .await;
    assert!(ok, "{answer}");
    assert_eq!(answer["type"], "moderated");
    assert_eq!(answer["action"], "abort_game");
    for c in [&mut ann, &mut bob] {
        assert_eq!(game_over(c).await.reason, ResultReason::Arbiter);
        assert_eq!(told(c, false).await, "stuck game");
    }
    // Again: the game is over.
    let (_, answer) = admin(
        dir.path(),
        &["abort-game", table.as_str(), "--reason", "stuck game"],
    )
    .await;
    assert_eq!(answer["code"], "game", "{answer}");
    // The finished room, closed from the command line.
    let (ok, answer) = admin(
        dir.path(),
        &["close-room", room.as_str(), "--reason", "cleanup"],
    )
    .await;
    assert!(ok, "{answer}");
    assert_eq!(answer["action"], "close_room");
    assert_eq!(told(&mut ann, true).await, "cleanup");
    let (_, answer) = admin(
        dir.path(),
        &["close-room", room.as_str(), "--reason", "cleanup"],
    )
    .await;
    assert_eq!(answer["code"], "not_found", "{answer}");
    // Every action is in the audit log, by the operator.
    let (_, answer) = admin(dir.path(), &["audit", "--limit", "3"]).await;
    let entries = answer["entries"].as_array().expect("entries");
    let actions: Vec<&str> = entries
        .iter()
        .map(|e| e["action"].as_str().unwrap())
        .collect();
    assert_eq!(actions[0], "close_room", "{actions:?}");
    assert!(actions[1..].contains(&"abort_game"), "{actions:?}");
    assert!(entries[0]["by"].as_str().unwrap().starts_with("cli:"));
}
