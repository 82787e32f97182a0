//! `tengen-server admin` and `--admin` against a real community: a data
//! directory with and without a server running on it (the admin socket,
//! then the store opened directly), and Redis with a node running (the
//! node hears of the change on the bus and closes the banned account's
//! session).

use crate::common;

use std::path::Path;
use std::time::Duration;

use common::proc::{DataDir, admin, start, start_with};
use tengen_client::{ClientError, Connection};
use tengen_protocol::{ClientMsg, Encoding, ErrorCode, ModRequest, ServerMsg};
use tengen_server::RedisSettings;
use tengen_store::testing::RedisServer;

fn on_dir(dir: &Path, args: &[&str]) -> Vec<String> {
    let mut v = vec!["--data-dir".to_string(), dir.display().to_string()];
    v.extend(args.iter().map(|s| s.to_string()));
    v
}

async fn registered(url: &str, name: &str) -> Connection {
    let (mut c, _) = Connection::connect(url, Encoding::Json, Some("someone"))
        .await
        .unwrap();
    let r = c
        .request(ClientMsg::Register {
            name: name.into(),
            password: "long enough".into(),
        })
        .await;
    assert!(matches!(r, Ok(ServerMsg::Registered(_))), "{r:?}");
    c
}

async fn login(url: &str, name: &str) -> Result<ServerMsg, ClientError> {
    let (mut c, _) = Connection::connect(url, Encoding::Json, Some("someone"))
        .await
        .unwrap();
    c.request(ClientMsg::Login {
        name: name.into(),
        password: "long enough".into(),
    })
    .await
}

#[tokio::test]
async fn admin_works_with_and_without_a_server_on_the_data_directory() {
    let dir = DataDir::new("mod-admin");
    let server = start(&dir.0);
    let mut bob = registered(&server.url(), "Bob").await;
    let _ada = registered(&server.url(), "Ada").await;
    // Through the running server's socket: a ban closes Bob's session now.
    let (ok, answer) = admin(on_dir(&dir.0, &["ban", "bob", "--reason", "abuse"])).await;
    assert!(ok, "{answer}");
    assert_eq!(answer["type"], "moderated");
    match bob.next_matching(|_| false).await {
        Err(ClientError::Closed { code, .. }) => assert_eq!(code, 4006),
        other => panic!("expected a close, got {other:?}"),
    }
    // The socket is the server user's only.
    let mode = std::fs::metadata(dir.0.join("admin.sock")).unwrap();
    assert_eq!(
        std::os::unix::fs::PermissionsExt::mode(&mode.permissions()) & 0o777,
        0o600
    );
    server.terminate();
    // No server: the store is opened directly. A refusal fails the command.
    let (ok, answer) = admin(on_dir(&dir.0, &["unban", "Bob", "--reason", "appeal"])).await;
    assert!(ok, "{answer}");
    let (ok, answer) = admin(on_dir(&dir.0, &["role", "nobody", "admin"])).await;
    assert!(!ok);
    assert_eq!(answer["code"], "not_found");
    let (ok, answer) = admin(on_dir(
        &dir.0,
        &["mute", "Bob", "--reason", "x", "--minutes", "5"],
    ))
    .await;
    assert!(ok, "{answer}");
    let (ok, log) = admin(on_dir(&dir.0, &["audit", "--limit", "10"])).await;
    assert!(ok);
    let actions: Vec<&str> = log["entries"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["action"].as_str().unwrap())
        .collect();
    assert_eq!(actions, ["mute", "unban", "ban"]);
    assert!(
        log["entries"][0]["by"]
            .as_str()
            .unwrap()
            .starts_with("cli:")
    );
    // `--admin` at start makes Ada an admin, who may then give roles.
    let server = start_with(&dir.0, &["--admin", "Ada"]);
    assert!(matches!(
        login(&server.url(), "Bob").await,
        Ok(ServerMsg::LoggedIn(_))
    ));
    let (mut ada, _) = Connection::connect(&server.url(), Encoding::Json, Some("x"))
        .await
        .unwrap();
    ada.request(ClientMsg::Login {
        name: "Ada".into(),
        password: "long enough".into(),
    })
    .await
    .unwrap();
    let role = ModRequest::SetRole {
        player: "Bob".into(),
        role: tengen_protocol::Role::Moderator,
        reason: "helpful".into(),
    };
    assert!(matches!(
        ada.request(ClientMsg::Moderate(role)).await,
        Ok(ServerMsg::Moderated { .. })
    ));
    server.terminate();
}

/// A connection to the admin socket that says nothing (or a backup that
/// takes minutes) holds up no other request: they are answered side by
/// side. Answered in turn, the ban below waited out the silent one's 5 s.
#[tokio::test]
async fn a_silent_admin_connection_holds_up_no_ban() {
    let dir = DataDir::new("mod-admin-side");
    let server = start(&dir.0);
    let mut bob = registered(&server.url(), "Bob").await;
    let silent = tokio::net::UnixStream::connect(dir.0.join("admin.sock"))
        .await
        .unwrap();
    let ban = admin(on_dir(&dir.0, &["ban", "bob", "--reason", "abuse"]));
    let (ok, answer) = tokio::time::timeout(Duration::from_secs(3), ban)
        .await
        .expect("the ban is answered while the silent connection is open");
    assert!(ok, "{answer}");
    match bob.next_matching(|_| false).await {
        Err(ClientError::Closed { code, .. }) => assert_eq!(code, 4006),
        other => panic!("expected a close, got {other:?}"),
    }
    drop(silent);
    server.terminate();
}

#[tokio::test]
async fn admin_on_redis_reaches_the_running_nodes() {
    let redis = RedisServer::start();
    let prefix = "modadmin";
    let server = common::server_with(|s| {
        s.redis = Some(RedisSettings {
            url: redis.url(),
            prefix: prefix.into(),
            ca_file: None,
        });
    })
    .await;
    let url = common::url(&server);
    let mut cyd = registered(&url, "Cyd").await;
    let redis_args = |rest: &[&str]| {
        let mut v = vec![
            "--redis".to_string(),
            redis.url(),
            "--redis-prefix".into(),
            prefix.into(),
        ];
        v.extend(rest.iter().map(|s| s.to_string()));
        v
    };
    let (ok, answer) = admin(redis_args(&[
        "ban",
        "Cyd",
        "--reason",
        "bots",
        "--minutes",
        "30",
    ]))
    .await;
    assert!(ok, "{answer}");
    // The node reads the ban from the bus and closes Cyd's session.
    cyd.timeout = Duration::from_secs(5);
    match cyd.next_matching(|_| false).await {
        Err(ClientError::Closed { code, .. }) => assert_eq!(code, 4006),
        other => panic!("expected a close, got {other:?}"),
    }
    match login(&url, "cyd").await {
        Err(ClientError::Refused(e)) => {
            assert_eq!(e.code, ErrorCode::Banned);
            assert_eq!(e.ban.unwrap().reason, "bots");
        }
        other => panic!("{other:?}"),
    }
    // An address ban from the command line reaches the node too.
    let (ok, _) = admin(redis_args(&["ban-address", "127.0.0.0/8", "--reason", "x"])).await;
    assert!(ok);
    let mut refused = false;
    for _ in 0..50 {
        if Connection::connect(&url, Encoding::Json, Some("late"))
            .await
            .is_err()
        {
            refused = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert!(refused, "the node never refused the banned range");
    let (ok, log) = admin(redis_args(&["audit"])).await;
    assert!(ok);
    assert_eq!(log["entries"][0]["action"], "ban_address");
    assert_eq!(log["entries"][1]["target"], "Cyd");
}

/// A rated game between Ann and Bob on `url`, Bob resigning: its id.
async fn rated_game(url: &str) -> tengen_protocol::TableId {
    let mut ann = registered(url, "Ann").await;
    let mut bob = registered(url, "Bob").await;
    let create = ClientMsg::CreateRoom {
        rated: true,
        config: tengen_rules::game::GameConfig::new(tengen_rules::game::RuleSet::Gomoku),
        public: true,
        name: None,
        chat: true,
    };
    let Ok(ServerMsg::RoomCreated { room, .. }) = ann.request(create).await else {
        panic!("a room")
    };
    assert!(bob.request(ClientMsg::JoinRoom { room }).await.is_ok());
    let snap = common::snapshot_push(&mut ann).await;
    let table = snap.table.clone();
    let black = snap.snapshot.black;
    for (n, p) in ["H8", "A1"].into_iter().enumerate() {
        let mover = if (n % 2 == 0) == (black == tengen_rules::game::Seat::First) {
            &mut ann
        } else {
            &mut bob
        };
        common::act(mover, &table, common::place(p)).await;
    }
    common::act(&mut bob, &table, tengen_rules::game::Action::Resign).await;
    for _ in 0..100 {
        if common::profile(&mut ann, "Ann").await.ratings.len() == 1 {
            return table;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("the game never rated");
}

#[tokio::test]
async fn reset_rating_works_on_the_store_with_no_server_and_live_actions_need_one() {
    let dir = DataDir::new("mod-rerate");
    let server = start(&dir.0);
    let table = rated_game(&server.url()).await;
    server.terminate();
    // No server: the reversal is written to the store directly.
    let (ok, answer) = admin(on_dir(
        &dir.0,
        &["reset-rating", table.as_str(), "--reason", "thrown game"],
    ))
    .await;
    assert!(ok, "{answer}");
    assert_eq!(answer["type"], "moderated");
    let (ok, answer) = admin(on_dir(
        &dir.0,
        &["reset-rating", table.as_str(), "--reason", "again"],
    ))
    .await;
    assert!(!ok);
    assert_eq!(answer["code"], "already_reset");
    // Rooms and games live in a running server only.
    let (ok, answer) = admin(on_dir(
        &dir.0,
        &["abort-game", table.as_str(), "--reason", "x"],
    ))
    .await;
    assert!(!ok);
    assert_eq!(answer["code"], "unavailable");
    // Started again, the server shows both ratings as before the game.
    let server = start(&dir.0);
    let (mut c, _) = Connection::connect(&server.url(), Encoding::Json, Some("x"))
        .await
        .unwrap();
    for name in ["Ann", "Bob"] {
        let p = common::profile(&mut c, name).await;
        let r = &p.ratings[0];
        assert_eq!((r.games, r.wins, r.losses), (0, 0, 0), "{name}: {r:?}");
        assert!((r.rating - 1500.0).abs() < 1e-6, "{name}: {r:?}");
    }
    server.terminate();
}
