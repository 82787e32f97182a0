//! Rated challenges and bot filters kept with the account, through a real
//! server over WebSockets: a challenge may be rated (accounts only, the
//! result updates both ratings as a queue game's does); a bot's filters
//! tell rated from casual challenges; and the filters a bot set are still
//! in force after the server restarts on the same data directory.

use crate::common;

use std::time::Duration;

use common::*;
use tengen_client::{ClientError, Connection};
use tengen_protocol::{BotFilters, ClientMsg, Encoding, ErrorCode, RoomId, ServerMsg};
use tengen_rules::game::{Action, GameConfig, RuleSet};

fn challenge(player: &str, config: GameConfig, rated: bool) -> ClientMsg {
    ClientMsg::Challenge {
        player: player.into(),
        config,
        chat: true,
        rated,
    }
}

async fn refused_with(c: &mut Connection, msg: ClientMsg, code: ErrorCode) -> String {
    match c.request(msg).await {
        Err(ClientError::Refused(b)) if b.code == code => b.message,
        other => panic!("expected {code}, got {other:?}"),
    }
}

async fn make_bot(c: &mut Connection, filters: BotFilters) {
    match c.request(ClientMsg::BecomeBot).await {
        Ok(ServerMsg::BecameBot { .. }) => {}
        other => panic!("{other:?}"),
    }
    match c.request(ClientMsg::SetBotFilters { filters }).await {
        Ok(ServerMsg::BotFiltersSet { .. }) => {}
        other => panic!("{other:?}"),
    }
}

/// The challenged side: the `challenged` push (its room and whether it is
/// rated).
async fn challenged(c: &mut Connection) -> (RoomId, bool) {
    c.timeout = Duration::from_secs(5);
    let f = c
        .next_matching(|m| matches!(m, ServerMsg::Challenged { .. }))
        .await
        .expect("challenged");
    match f.msg {
        ServerMsg::Challenged { room, rated, .. } => (room, rated),
        _ => unreachable!(),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rated_challenge_is_a_rated_game_and_bots_tell_rated_from_casual() {
    let dir = tempfile::tempdir().unwrap();
    let server = server_on(dir.path(), |_| {}).await;
    let mut bot = account(&server, "ratedbot").await;
    make_bot(
        &mut bot,
        BotFilters {
            casual: false,
            ..BotFilters::default()
        },
    )
    .await;
    let mut person = account(&server, "rater").await;
    let mut guest = client(&server, "visitor", Encoding::Json).await;
    let config = GameConfig::new(RuleSet::Gomoku);

    // A guest cannot challenge for a rating, nor be challenged for one.
    refused_with(
        &mut guest,
        challenge("ratedbot", config.clone(), true),
        ErrorCode::LoginRequired,
    )
    .await;
    refused_with(
        &mut person,
        challenge("visitor", config.clone(), true),
        ErrorCode::LoginRequired,
    )
    .await;
    // The bot takes rated challenges only.
    let why = refused_with(
        &mut person,
        challenge("ratedbot", config.clone(), false),
        ErrorCode::BotRefused,
    )
    .await;
    assert!(why.contains("no casual"), "{why}");
    let room = match person.request(challenge("ratedbot", config, true)).await {
        Ok(ServerMsg::RoomCreated { room, .. }) => room,
        other => panic!("{other:?}"),
    };
    let (room_b, rated) = challenged(&mut bot).await;
    assert_eq!((room_b, rated), (room.clone(), true));
    match bot.request(ClientMsg::JoinRoom { room }).await {
        Ok(ServerMsg::Joined { .. }) => {}
        other => panic!("{other:?}"),
    }
    let snap = snapshot_push(&mut person).await;
    act(&mut person, &snap.table, Action::Resign).await;

    // Both ratings are stored, as after a game from the queue: the bot won.
    let mut won = None;
    for _ in 0..50 {
        let p = profile(&mut person, "ratedbot").await;
        if !p.ratings.is_empty() {
            won = Some(p);
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let won = won.expect("the bot's rating is stored");
    let lost = profile(&mut person, "rater").await;
    assert_eq!(won.ratings.len(), 1);
    assert_eq!(lost.ratings.len(), 1);
    assert!(won.ratings[0].rating > 1500.0, "{:?}", won.ratings);
    assert!(lost.ratings[0].rating < 1500.0, "{:?}", lost.ratings);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_bots_filters_survive_a_restart() {
    let dir = tempfile::tempdir().unwrap();
    let server = server_on(dir.path(), |_| {}).await;
    let mut bot = account(&server, "keeper").await;
    make_bot(
        &mut bot,
        BotFilters {
            rule_sets: vec![RuleSet::Renju],
            rated: false,
            ..BotFilters::default()
        },
    )
    .await;
    drop(bot);
    server.shutdown();
    server.wait().await.unwrap();
    tokio::time::sleep(Duration::from_millis(400)).await;

    let server = server_on(dir.path(), |_| {}).await;
    let mut bot = client(&server, "keeper-again", Encoding::Json).await;
    match bot
        .request(ClientMsg::Login {
            name: "keeper".into(),
            password: "long enough".into(),
        })
        .await
    {
        Ok(ServerMsg::LoggedIn(li)) => assert!(li.player.bot),
        other => panic!("{other:?}"),
    }
    let mut person = account(&server, "asker").await;
    let gomoku = GameConfig::new(RuleSet::Gomoku);
    let why = refused_with(
        &mut person,
        challenge("keeper", gomoku, false),
        ErrorCode::BotRefused,
    )
    .await;
    assert!(why.contains("only renju"), "{why}");
    let renju = GameConfig::new(RuleSet::Renju);
    let why = refused_with(
        &mut person,
        challenge("keeper", renju.clone(), true),
        ErrorCode::BotRefused,
    )
    .await;
    assert!(why.contains("no rated"), "{why}");
    assert!(matches!(
        person.request(challenge("keeper", renju, false)).await,
        Ok(ServerMsg::RoomCreated { .. })
    ));
    assert!(!challenged(&mut bot).await.1);
}
