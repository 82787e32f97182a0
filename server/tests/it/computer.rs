//! The computer (`play_computer`) through the real server: a guest asks
//! for a game at level 2 as white and plays it to its end with the quick
//! bot; the computer joined its private room as `computer-2`, opened as
//! black and moved for its seat. With one computer allowed, a second asker gets `unavailable` with
//! `retry_after_ms` until the first game ends; a level off the ladder and
//! a twin room are `bad_request`, a server with no computer says so.

use crate::common;

use std::time::Duration;

use common::*;
use tengen_client::player::{Player, play};
use tengen_client::session::{Delivery, Session};
use tengen_client::view::TableView;
use tengen_client::{ClientError, Connection};
use tengen_protocol::{ClientMsg, Encoding, ErrorCode, ServerMsg};
use tengen_rules::Color;
use tengen_rules::game::{GameConfig, GameResult, RuleSet, TimeControl};
use tengen_server::Server;

fn quick_game() -> GameConfig {
    GameConfig::new(RuleSet::Freestyle).with_time(TimeControl::Fischer {
        main_ms: 60_000,
        increment_ms: 1_000,
    })
}

async fn ask(c: &mut Connection, config: GameConfig, level: u8) -> Result<ServerMsg, ClientError> {
    c.request(ClientMsg::PlayComputer {
        config,
        level,
        colour: None,
    })
    .await
}

fn refusal(r: Result<ServerMsg, ClientError>) -> tengen_protocol::ErrorBody {
    match r {
        Err(ClientError::Refused(e)) => e,
        other => panic!("expected a refusal, got {other:?}"),
    }
}

/// A guest's session that asked for the computer at `level` (with
/// `colour`): its view of the game once the computer has joined.
async fn game_with_the_computer(
    server: &Server,
    name: &str,
    level: u8,
    colour: Option<Color>,
) -> (Session, TableView) {
    let (mut s, _) = Session::connect(&url(server), Encoding::Json, Some(name))
        .await
        .unwrap();
    let reply = s
        .request(ClientMsg::PlayComputer {
            config: quick_game(),
            level,
            colour,
        })
        .await
        .unwrap();
    assert!(matches!(reply, ServerMsg::RoomCreated { .. }), "{reply:?}");
    loop {
        let d = tokio::time::timeout(Duration::from_secs(30), s.next())
            .await
            .expect("the computer joins")
            .unwrap();
        if let Delivery::Frame(f) = d
            && let ServerMsg::TableSnapshot(snap) = f.msg
            && snap.seat.is_some()
        {
            s.follow(snap.table.clone(), snap.seq);
            let view = TableView::new(&snap, std::time::Instant::now()).unwrap();
            return (s, view);
        }
    }
}

async fn play_out(s: &mut Session, view: &mut TableView) -> GameResult {
    let mut quick = Player::new(None, 7, 1_000);
    play(
        s,
        view,
        &mut quick,
        7,
        Duration::ZERO,
        &mut |_| {},
        &mut |_| {},
    )
    .await
    .unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_guest_plays_the_computer_to_the_end() {
    let server = server_with(|s| s.computer.move_ms = 300).await;
    let (mut s, mut view) = game_with_the_computer(&server, "ann", 2, Some(Color::White)).await;
    let me = view.seat().unwrap();
    // White asked for: the computer opens.
    assert_eq!(view.opener(), me.other());
    assert_eq!(view.black(), me.other());
    let theirs = view.players().seat(me.other()).expect("the computer sits");
    assert!(theirs.name.starts_with("computer-2"), "{theirs:?}");
    let result = play_out(&mut s, &mut view).await;
    assert!(view.is_over(), "{result:?}");
    // The computer placed its seat's stones.
    let computer_stones = view.moves().iter().filter(|m| m.seat == me.other()).count();
    assert!(computer_stones >= 3, "{:?}", view.moves());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_computer_at_a_time_when_one_is_allowed() {
    let server = server_with(|s| {
        s.computer.games = 1;
        s.computer.move_ms = 200;
    })
    .await;
    let (mut s, mut view) = game_with_the_computer(&server, "ann", 1, Some(Color::Black)).await;
    let me = view.seat().unwrap();
    assert_eq!(view.opener(), me);
    let mut bob = client(&server, "bob", Encoding::Json).await;
    let busy = refusal(ask(&mut bob, quick_game(), 1).await);
    assert_eq!(busy.code, ErrorCode::Unavailable, "{busy:?}");
    assert!(busy.retry_after_ms.is_some(), "{busy:?}");
    play_out(&mut s, &mut view).await;
    // The computer lets its permit go once its game is over.
    let deadline = std::time::Instant::now() + Duration::from_secs(20);
    loop {
        match ask(&mut bob, quick_game(), 1).await {
            Ok(ServerMsg::RoomCreated { .. }) => break,
            Err(ClientError::Refused(e)) if e.code == ErrorCode::Unavailable => {
                assert!(std::time::Instant::now() < deadline, "{e:?}");
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
            other => panic!("{other:?}"),
        }
    }
}

#[tokio::test]
async fn bad_levels_twin_rooms_and_no_computer_are_refused() {
    let server = server().await;
    let mut c = client(&server, "ann", Encoding::Json).await;
    for level in [0, 6, 200] {
        let e = refusal(ask(&mut c, quick_game(), level).await);
        assert_eq!(e.code, ErrorCode::BadRequest, "{level}: {e:?}");
    }
    let twin = GameConfig::new(RuleSet::Twin);
    let e = refusal(ask(&mut c, twin, 3).await);
    assert_eq!(e.code, ErrorCode::BadRequest, "{e:?}");
    let off = server_with(|s| s.computer.games = 0).await;
    let mut c = client(&off, "ann", Encoding::Json).await;
    let e = refusal(ask(&mut c, quick_game(), 3).await);
    assert_eq!(e.code, ErrorCode::Unavailable, "{e:?}");
    assert!(e.message.contains("does not play"), "{e:?}");
}
