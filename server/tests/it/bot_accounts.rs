//! Bot accounts through a real server over WebSockets: an account becomes
//! a bot once, before its first game, and is marked as one wherever
//! players are shown; the rated queue never pairs a person who did not opt
//! in with a bot, pairs one who did, and pairs bots with each other.

use crate::common;

use std::time::Duration;

use common::*;
use tengen_client::{ClientError, Connection};
use tengen_protocol::{ClientMsg, Encoding, ErrorCode, Player, RoomId, ServerMsg};
use tengen_rules::game::{Action, GameConfig, RuleSet};

async fn refused(c: &mut Connection, msg: ClientMsg, code: ErrorCode) {
    let got = c.request(msg).await;
    assert!(
        matches!(&got, Err(ClientError::Refused(b)) if b.code == code),
        "expected {code}, got {got:?}"
    );
}

async fn become_bot(c: &mut Connection) -> Player {
    match c.request(ClientMsg::BecomeBot).await {
        Ok(ServerMsg::BecameBot { player }) => player,
        other => panic!("{other:?}"),
    }
}

async fn profile_player(c: &mut Connection, name: &str) -> Player {
    match c
        .request(ClientMsg::Profile {
            player: name.into(),
        })
        .await
    {
        Ok(ServerMsg::Profile(p)) => p.player,
        other => panic!("{other:?}"),
    }
}

async fn room_players(c: &mut Connection, room: &RoomId) -> Vec<Player> {
    match c.request(ClientMsg::ListRooms).await {
        Ok(ServerMsg::Rooms { rooms, .. }) => {
            let r = rooms.into_iter().find(|r| &r.room == room).expect("room");
            [r.players.first, r.players.second]
                .into_iter()
                .flatten()
                .collect()
        }
        other => panic!("{other:?}"),
    }
}

#[tokio::test]
async fn an_account_becomes_a_bot_once_and_before_any_game() {
    let server = server().await;
    let mut guest = client(&server, "visitor", Encoding::Json).await;
    refused(&mut guest, ClientMsg::BecomeBot, ErrorCode::LoginRequired).await;

    let mut robo = account(&server, "robo").await;
    assert!(!profile_player(&mut guest, "robo").await.bot);
    let me = become_bot(&mut robo).await;
    assert_eq!((me.name.as_str(), me.guest, me.bot), ("robo", false, true));
    // Asking again as a bot is answered the same way.
    assert!(become_bot(&mut robo).await.bot);
    // Its profile, its room in the lobby and a later login say so.
    assert!(profile_player(&mut guest, "ROBO").await.bot);
    let room = create_room(&mut robo, GameConfig::new(RuleSet::Renju), true).await;
    let shown = room_players(&mut guest, &room).await;
    assert_eq!(shown.len(), 1);
    assert!(shown[0].bot, "{shown:?}");
    let mut again = client(&server, "robo-again", Encoding::Json).await;
    match again
        .request(ClientMsg::Login {
            name: "robo".into(),
            password: "long enough".into(),
        })
        .await
    {
        Ok(ServerMsg::LoggedIn(li)) => assert!(li.player.bot),
        other => panic!("{other:?}"),
    }

    // A person seated at a table cannot; nor once the game is over.
    let mut ann = account(&server, "annika").await;
    let mut bob = account(&server, "bobby").await;
    let room = create_room(&mut ann, GameConfig::new(RuleSet::Gomoku), true).await;
    assert!(matches!(
        bob.request(ClientMsg::JoinRoom { room }).await,
        Ok(ServerMsg::Joined { .. })
    ));
    let snap = snapshot_push(&mut ann).await;
    assert!(!snap.players.first.as_ref().unwrap().bot);
    refused(&mut ann, ClientMsg::BecomeBot, ErrorCode::AlreadyPlayed).await;
    act(&mut ann, &snap.table, Action::Resign).await;
    // The game's record is stored before its end is told; the table closes.
    tokio::time::sleep(Duration::from_millis(300)).await;
    for c in [&mut ann, &mut bob] {
        refused(c, ClientMsg::BecomeBot, ErrorCode::AlreadyPlayed).await;
    }
    assert!(!profile_player(&mut guest, "annika").await.bot);
}

fn fast() -> GameConfig {
    GameConfig::new(RuleSet::Freestyle)
}

async fn queue(c: &mut Connection, bots: bool) {
    match c
        .request(ClientMsg::Queue {
            config: fast(),
            bots,
        })
        .await
    {
        Ok(ServerMsg::Queued { .. }) => {}
        other => panic!("{other:?}"),
    }
}

/// The opponent `c` is matched with, or `None` if no `matched` comes
/// within `wait`.
async fn matched_within(c: &mut Connection, wait: Duration) -> Option<Player> {
    c.timeout = wait;
    match c
        .next_matching(|m| matches!(m, ServerMsg::Matched { .. }))
        .await
    {
        Ok(f) => match f.msg {
            ServerMsg::Matched { opponent, .. } => Some(opponent),
            _ => unreachable!(),
        },
        Err(_) => None,
    }
}

#[tokio::test]
async fn people_meet_bots_in_the_queue_only_by_choice() {
    let server = server().await;
    let mut human = account(&server, "person").await;
    let mut bot = account(&server, "botty").await;
    become_bot(&mut bot).await;

    // Same queue, same rating, several matchmaker passes: no pairing.
    queue(&mut human, false).await;
    queue(&mut bot, false).await;
    assert_eq!(
        matched_within(&mut human, Duration::from_secs(2)).await,
        None
    );
    assert_eq!(
        matched_within(&mut bot, Duration::from_millis(100)).await,
        None
    );

    // The person opts in (the entry is replaced): paired with the bot.
    queue(&mut human, true).await;
    let opponent = matched_within(&mut human, Duration::from_secs(10))
        .await
        .expect("the opted-in person is paired");
    assert_eq!((opponent.name.as_str(), opponent.bot), ("botty", true));
    let opponent = matched_within(&mut bot, Duration::from_secs(10))
        .await
        .expect("the bot is paired");
    assert_eq!((opponent.name.as_str(), opponent.bot), ("person", false));
    let snap = snapshot_push(&mut human).await;
    let bots: Vec<bool> = [&snap.players.first, &snap.players.second]
        .iter()
        .map(|p| p.as_ref().unwrap().bot)
        .collect();
    assert!(bots.contains(&true) && bots.contains(&false), "{bots:?}");

    // Two bots are paired with each other, whatever their `bots` says.
    let mut b1 = account(&server, "bot-one").await;
    let mut b2 = account(&server, "bot-two").await;
    become_bot(&mut b1).await;
    become_bot(&mut b2).await;
    queue(&mut b1, false).await;
    queue(&mut b2, false).await;
    let opponent = matched_within(&mut b1, Duration::from_secs(10))
        .await
        .expect("two bots are paired");
    assert_eq!((opponent.name.as_str(), opponent.bot), ("bot-two", true));
}

/// An established, active renju rating of `name` (rating `points`).
fn established(name: &str, points: f64) -> tengen_store::Item {
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_millis() as u64;
    tengen_store::Item::Rating {
        rating: tengen_store::Rating {
            player: name.into(),
            family: "renju".into(),
            rating: points,
            deviation: 80.0,
            volatility: 0.06,
            games: 9,
            wins: 5,
            draws: 0,
            losses: 4,
            opponents: vec!["x1".into(), "x2".into(), "x3".into()],
            recent_ms: vec![now - 1000; 7],
        },
        history: Vec::new(),
    }
}

fn account_item(name: &str, bot: bool) -> tengen_store::Item {
    tengen_store::Item::Account(tengen_store::Account {
        name: name.into(),
        password_hash: "$argon2id$v=19$m=19456,t=2,p=1$c2FsdHNhbHQ$aGFzaGhhc2g".into(),
        created_ms: 1,
        bot,
        bot_filters: None,
    })
}

async fn board(c: &mut Connection, bots: bool) -> Vec<String> {
    match c
        .request(ClientMsg::Leaderboard {
            family: tengen_protocol::RatingFamily::Renju,
            bots,
        })
        .await
    {
        Ok(ServerMsg::Leaderboard(b)) => {
            assert_eq!(b.bots, bots);
            b.players.into_iter().map(|s| s.player).collect()
        }
        other => panic!("{other:?}"),
    }
}

#[tokio::test]
async fn leaderboards_rank_people_and_bots_apart() {
    use tengen_store::Store;
    let dir = tempfile::tempdir().unwrap();
    {
        let store = tengen_store::EmbeddedStore::open(dir.path()).unwrap();
        let mut items = Vec::new();
        for (name, bot, points) in [
            ("alpha", false, 1700.0),
            ("engine", true, 1900.0),
            ("beta", false, 1600.0),
            ("rapfi", true, 1650.0),
        ] {
            items.push(account_item(name, bot));
            items.push(established(name, points));
        }
        store.import(&items).await.unwrap();
    }
    let server = server_with(|s| s.data_dir = dir.path().to_path_buf()).await;
    let mut c = client(&server, "reader", Encoding::Json).await;
    assert_eq!(board(&mut c, false).await, ["alpha", "beta"]);
    assert_eq!(board(&mut c, true).await, ["engine", "rapfi"]);
}

fn challenge(player: &str, config: GameConfig) -> ClientMsg {
    ClientMsg::Challenge {
        player: player.into(),
        config,
        chat: true,
        rated: false,
    }
}

#[tokio::test]
async fn a_bots_filters_refuse_challenges_outside_them_with_the_reason() {
    use tengen_protocol::{BotFilters, TimeKind};
    use tengen_rules::game::TimeControl;
    let server = server().await;
    let mut bot = account(&server, "picky").await;
    let mut person = account(&server, "chal").await;
    let mut other_bot = account(&server, "otherbot").await;
    let filters = BotFilters {
        rule_sets: vec![RuleSet::Renju],
        time_kinds: vec![TimeKind::Fischer],
        bots: false,
        ..BotFilters::default()
    };
    // Only a bot has filters.
    let set = ClientMsg::SetBotFilters {
        filters: filters.clone(),
    };
    refused(&mut bot, set.clone(), ErrorCode::BadRequest).await;
    become_bot(&mut bot).await;
    become_bot(&mut other_bot).await;
    match bot.request(set).await {
        Ok(ServerMsg::BotFiltersSet { filters: f }) => assert_eq!(f, filters),
        other => panic!("{other:?}"),
    }

    let fischer = TimeControl::Fischer {
        main_ms: 120_000,
        increment_ms: 2_000,
    };
    let why = |r: Result<ServerMsg, ClientError>| match r {
        Err(ClientError::Refused(b)) if b.code == ErrorCode::BotRefused => b.message,
        other => panic!("expected bot_refused, got {other:?}"),
    };
    let gomoku = GameConfig::new(RuleSet::Gomoku).with_time(fischer);
    let m = why(person.request(challenge("picky", gomoku)).await);
    assert!(m.contains("only renju"), "{m}");
    let byoyomi = GameConfig::new(RuleSet::Renju).with_time(TimeControl::ByoYomi {
        main_ms: 60_000,
        periods: 3,
        period_ms: 10_000,
        moves_per_period: 1,
    });
    let m = why(person.request(challenge("picky", byoyomi)).await);
    assert!(m.contains("fischer"), "{m}");
    let renju = GameConfig::new(RuleSet::Renju).with_time(fischer);
    let m = why(other_bot.request(challenge("picky", renju.clone())).await);
    assert!(m.contains("from bots"), "{m}");
    // Refusals created nothing: the bot was never challenged. Within its
    // filters, the challenge goes through.
    assert!(matches!(
        person.request(challenge("picky", renju)).await,
        Ok(ServerMsg::RoomCreated { .. })
    ));
    bot.timeout = Duration::from_secs(5);
    let first = bot
        .next_matching(|m| matches!(m, ServerMsg::Challenged { .. }))
        .await
        .expect("challenged");
    match first.msg {
        ServerMsg::Challenged { from, config, .. } => {
            assert_eq!(from.name, "chal");
            assert_eq!(config.rule_set, RuleSet::Renju);
        }
        _ => unreachable!(),
    }
}

/// How many of `n` pings sent at once are refused as `rate_limited`.
async fn refused_pings(c: &mut Connection, n: usize) -> usize {
    let mut refused = 0;
    for _ in 0..n {
        match c.request(ClientMsg::Ping).await {
            Ok(ServerMsg::Pong { .. }) => {}
            Err(ClientError::Refused(b)) if b.code == ErrorCode::RateLimited => refused += 1,
            other => panic!("{other:?}"),
        }
    }
    refused
}

#[tokio::test]
async fn a_bot_connection_has_a_larger_message_budget() {
    let server = server().await;
    let limits = tengen_protocol::Limits::default();
    // Half again a person's burst (fewer refusals in a row than close
    // the connection), well within a bot's (4 times as much).
    let n = (limits.rate_burst + limits.rate_burst / 2) as usize;
    let mut person = account(&server, "talker").await;
    assert!(
        refused_pings(&mut person, n).await > 0,
        "a person is limited"
    );
    let mut bot = account(&server, "chatty").await;
    become_bot(&mut bot).await;
    assert_eq!(refused_pings(&mut bot, n).await, 0, "a bot is not, yet");
}

async fn set_filters(c: &mut Connection, filters: tengen_protocol::BotFilters) -> Option<u32> {
    match c.request(ClientMsg::SetBotFilters { filters }).await {
        Ok(ServerMsg::BotFiltersSet { filters }) => filters.max_games,
        other => panic!("{other:?}"),
    }
}

#[tokio::test]
async fn a_bot_plays_as_many_games_at_once_as_it_says_within_the_server_cap() {
    let server = server_with(|s| s.bot_max_games = 3).await;
    let config = || GameConfig::new(RuleSet::Gomoku);
    let mut person = account(&server, "onegame").await;
    create_room(&mut person, config(), true).await;
    let new = ClientMsg::CreateRoom {
        config: config(),
        public: true,
        name: None,
        chat: true,
        rated: false,
    };
    refused(&mut person, new.clone(), ErrorCode::AlreadySeated).await;

    let mut bot = account(&server, "multi").await;
    become_bot(&mut bot).await;
    let asks = |max_games| tengen_protocol::BotFilters {
        max_games: Some(max_games),
        ..Default::default()
    };
    // Beyond the server's cap: the server's cap, said in the reply.
    assert_eq!(set_filters(&mut bot, asks(50)).await, Some(3));
    assert_eq!(set_filters(&mut bot, asks(2)).await, Some(2));
    create_room(&mut bot, config(), true).await;
    create_room(&mut bot, config(), true).await;
    refused(&mut bot, new.clone(), ErrorCode::AlreadySeated).await;
    assert_eq!(set_filters(&mut bot, asks(3)).await, Some(3));
    create_room(&mut bot, config(), true).await;
    refused(&mut bot, new, ErrorCode::AlreadySeated).await;
}

#[tokio::test]
async fn a_bot_challenges_other_bots_a_bounded_number_of_times_an_hour() {
    let server = server_with(|s| s.bot_challenges_per_hour = 2).await;
    let mut a = account(&server, "asker").await;
    let mut b = account(&server, "target").await;
    let mut person = account(&server, "human").await;
    for c in [&mut a, &mut b] {
        become_bot(c).await;
    }
    let config = || GameConfig::new(RuleSet::Freestyle);
    for _ in 0..2 {
        let room = match a.request(challenge("target", config())).await {
            Ok(ServerMsg::RoomCreated { room, .. }) => room,
            other => panic!("{other:?}"),
        };
        // Withdrawn at once: only the count stays.
        assert!(matches!(
            a.request(ClientMsg::CancelRoom { room }).await,
            Ok(ServerMsg::RoomCancelled { .. })
        ));
    }
    match a.request(challenge("target", config())).await {
        Err(ClientError::Refused(e)) if e.code == ErrorCode::RateLimited => {
            let wait = e.retry_after_ms.expect("when to retry");
            assert!(wait > 3_500_000 && wait <= 3_600_000, "{wait}");
        }
        other => panic!("expected rate_limited, got {other:?}"),
    }
    // People are not counted: a person still challenges the bot.
    assert!(matches!(
        person.request(challenge("target", config())).await,
        Ok(ServerMsg::RoomCreated { .. })
    ));
}
