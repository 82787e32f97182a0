//! Accounts over real WebSocket clients: registering, logging in and out,
//! login tokens (expired, revoked), the limits on trying, names guests may
//! not take, and what guests may not do (rated rooms, the queue).

use crate::common;

use std::time::Duration;

use common::*;
use tengen_client::{ClientError, Connection};
use tengen_protocol::{
    ClientMsg, Encoding, ErrorCode, Hello, LoggedIn, PROTOCOL_VERSION, ServerMsg, Welcome,
};
use tengen_rules::game::{GameConfig, RuleSet};

/// Opens a connection and says `hello` with `token` (and `name`).
async fn hello(
    server: &tengen_server::Server,
    name: Option<&str>,
    token: Option<&str>,
) -> (Connection, Result<ServerMsg, ClientError>) {
    let mut c = Connection::open(&url(server), Encoding::Json)
        .await
        .expect("opens");
    let reply = c
        .request(ClientMsg::Hello(Hello {
            version: PROTOCOL_VERSION,
            client: None,
            name: name.map(str::to_string),
            resume: None,
            token: token.map(str::to_string),
        }))
        .await;
    (c, reply)
}

fn welcome(r: Result<ServerMsg, ClientError>) -> Welcome {
    match r {
        Ok(ServerMsg::Welcome(w)) => w,
        other => panic!("expected welcome, got {other:?}"),
    }
}

fn refused(r: Result<ServerMsg, ClientError>, code: ErrorCode) -> String {
    match r {
        Err(ClientError::Refused(b)) if b.code == code => b.message,
        other => panic!("expected {code}, got {other:?}"),
    }
}

pub async fn register(c: &mut Connection, name: &str, password: &str) -> LoggedIn {
    match c
        .request(ClientMsg::Register {
            name: name.into(),
            password: password.into(),
        })
        .await
    {
        Ok(ServerMsg::Registered(li)) => li,
        other => panic!("register {name}: {other:?}"),
    }
}

async fn login(c: &mut Connection, name: &str, password: &str) -> Result<ServerMsg, ClientError> {
    c.request(ClientMsg::Login {
        name: name.into(),
        password: password.into(),
    })
    .await
}

#[tokio::test]
async fn register_login_logout_and_tokens() {
    // (More tries than a connection gets by default: limits are tested below.)
    let server = server_with(|s| s.accounts.conn_burst = 20).await;
    let mut a = client(&server, "visitor", Encoding::Json).await;
    let li = register(&mut a, "Alice", "correct horse").await;
    assert_eq!(li.player.name, "Alice");
    assert!(!li.player.guest);
    assert_eq!(li.token.len(), 32);
    assert!(li.token.chars().all(|c| c.is_ascii_hexdigit()));

    // The name is taken in any case; bad names and passwords are refused.
    let mut b = client(&server, "other", Encoding::Json).await;
    let r = b
        .request(ClientMsg::Register {
            name: "ALICE".into(),
            password: "another password".into(),
        })
        .await;
    refused(r, ErrorCode::NameTaken);
    for (name, pw, code) in [
        ("1alice", "long enough", ErrorCode::InvalidName),
        ("guest-9", "long enough", ErrorCode::InvalidName),
        ("al", "long enough", ErrorCode::InvalidName),
        ("bobby", "short", ErrorCode::WeakPassword),
    ] {
        let r = b
            .request(ClientMsg::Register {
                name: name.into(),
                password: pw.into(),
            })
            .await;
        refused(r, code);
    }

    // Wrong password and unknown name: the same refusal.
    let wrong = refused(
        login(&mut b, "alice", "wrong horse").await,
        ErrorCode::BadCredentials,
    );
    let unknown = refused(
        login(&mut b, "nobody", "correct horse").await,
        ErrorCode::BadCredentials,
    );
    assert_eq!(wrong, unknown);

    // The right one, in another case: a new token, and the session is
    // Alice's from the next request on.
    let li2 = match login(&mut b, "alice", "correct horse").await {
        Ok(ServerMsg::LoggedIn(li)) => li,
        other => panic!("{other:?}"),
    };
    assert_eq!(li2.player.name, "Alice");
    assert_ne!(li2.token, li.token);
    match b
        .request(ClientMsg::Queue {
            config: GameConfig::new(RuleSet::Gomoku),
            bots: false,
        })
        .await
    {
        Ok(ServerMsg::Queued { .. }) => {}
        other => panic!("an account may queue: {other:?}"),
    }
    assert!(matches!(
        b.request(ClientMsg::Unqueue).await,
        Ok(ServerMsg::Unqueued)
    ));

    // hello with the token opens an account session.
    let (_c, r) = hello(&server, Some("ignored"), Some(&li.token)).await;
    let w = welcome(r);
    assert_eq!(w.player.name, "Alice");
    assert!(!w.player.guest);
    assert!(w.features.iter().any(|f| f == "accounts"));
    assert!(w.features.iter().any(|f| f == "queue"));

    // Logging out revokes the token this connection received.
    match b.request(ClientMsg::Logout).await {
        Ok(ServerMsg::LoggedOut { player }) => {
            assert!(player.guest);
            assert!(player.name.starts_with("guest-"));
        }
        other => panic!("{other:?}"),
    }
    refused(b.request(ClientMsg::Logout).await, ErrorCode::LoginRequired);
    let (mut c, r) = hello(&server, None, Some(&li2.token)).await;
    refused(r, ErrorCode::BadCredentials);
    // The connection waits for another hello.
    let retry = c
        .request(ClientMsg::Hello(Hello {
            version: PROTOCOL_VERSION,
            client: None,
            name: Some("plain".into()),
            resume: None,
            token: None,
        }))
        .await;
    assert!(welcome(retry).player.guest);
    // The first token still works.
    let (_d, r) = hello(&server, None, Some(&li.token)).await;
    assert_eq!(welcome(r).player.name, "Alice");
}

#[tokio::test]
async fn guests_never_take_a_registered_name() {
    let server = server().await;
    let mut a = client(&server, "someone", Encoding::Json).await;
    register(&mut a, "Kiyo", "moonlight sonata").await;
    let (_g, r) = hello(&server, Some("kiyo"), None).await;
    let w = welcome(r);
    assert!(w.player.guest);
    assert!(w.player.name.starts_with("guest-"), "{}", w.player.name);
    // And a name a guest online uses cannot be registered.
    let _guest = client(&server, "Tomas", Encoding::Json).await;
    let mut b = client(&server, "other", Encoding::Json).await;
    let r = b
        .request(ClientMsg::Register {
            name: "tomas".into(),
            password: "long enough".into(),
        })
        .await;
    refused(r, ErrorCode::NameTaken);
}

#[tokio::test]
async fn an_expired_token_is_refused() {
    let server = server_with(|s| s.accounts.token_ttl = Duration::from_millis(200)).await;
    let mut a = client(&server, "x", Encoding::Json).await;
    let li = register(&mut a, "shortlived", "long enough").await;
    let (_c, r) = hello(&server, None, Some(&li.token)).await;
    assert!(!welcome(r).player.guest, "valid at first");
    tokio::time::sleep(Duration::from_millis(300)).await;
    let (_c, r) = hello(&server, None, Some(&li.token)).await;
    refused(r, ErrorCode::TokenExpired);
}

#[tokio::test]
async fn login_attempts_are_limited_per_name_and_per_connection() {
    let server = server_with(|s| {
        s.accounts.name_attempts = 3;
        s.accounts.conn_burst = 3;
    })
    .await;
    let mut a = client(&server, "x", Encoding::Json).await;
    register(&mut a, "target", "the real one").await;
    // Three failures for the name, from three connections.
    for i in 0..3 {
        let mut c = client(&server, &format!("try{i}"), Encoding::Json).await;
        refused(
            login(&mut c, "target", "guess").await,
            ErrorCode::BadCredentials,
        );
    }
    // Now even the right password waits.
    let mut c = client(&server, "late", Encoding::Json).await;
    match login(&mut c, "Target", "the real one").await {
        Err(ClientError::Refused(b)) => {
            assert_eq!(b.code, ErrorCode::RateLimited);
            assert!(b.retry_after_ms.unwrap() > 0);
        }
        other => panic!("{other:?}"),
    }
    // Per connection: 3 attempts, then a refusal whatever the name.
    let mut d = client(&server, "busy", Encoding::Json).await;
    for _ in 0..3 {
        refused(
            login(&mut d, "nobody", "x").await,
            ErrorCode::BadCredentials,
        );
    }
    refused(login(&mut d, "other", "x").await, ErrorCode::RateLimited);
}

/// Sends `n` logins as `name` at once on `c`, and their answers by id.
async fn logins_at_once(c: &mut Connection, n: usize, name: &str) -> Vec<ServerMsg> {
    let mut ids = Vec::new();
    for _ in 0..n {
        let login = ClientMsg::Login {
            name: name.into(),
            password: "five at once".into(),
        };
        ids.push(c.send(login).await.unwrap());
    }
    let mut answers = std::collections::HashMap::new();
    while answers.len() < n {
        let f = tokio::time::timeout(Duration::from_secs(20), c.next())
            .await
            .expect("answers come")
            .unwrap();
        if let Some(id) = f.id {
            answers.insert(id, f.msg);
        }
    }
    ids.iter().map(|id| answers.remove(id).unwrap()).collect()
}

#[tokio::test]
async fn a_fresh_connection_makes_five_logins_at_once_then_one_every_12_s() {
    // The defaults, as protocol/README.md and SECURITY.md give them.
    let server = server().await;
    let mut a = client(&server, "x", Encoding::Json).await;
    register(&mut a, "burster", "five at once").await;
    let mut c = client(&server, "y", Encoding::Json).await;
    for answer in logins_at_once(&mut c, 5, "burster").await {
        assert!(matches!(answer, ServerMsg::LoggedIn(_)), "{answer:?}");
    }
    let wait = match login(&mut c, "burster", "five at once").await {
        Err(ClientError::Refused(b)) if b.code == ErrorCode::RateLimited => {
            b.retry_after_ms.expect("a wait")
        }
        other => panic!("the sixth: {other:?}"),
    };
    assert!((10_000..=12_000).contains(&wait), "{wait} ms");
    tokio::time::sleep(Duration::from_millis(wait + 100)).await;
    assert!(matches!(
        login(&mut c, "burster", "five at once").await,
        Ok(ServerMsg::LoggedIn(_))
    ));
    refused(
        login(&mut c, "burster", "five at once").await,
        ErrorCode::RateLimited,
    );
}

#[tokio::test]
async fn guests_play_casual_only() {
    let server = server().await;
    let mut guest = client(&server, "visitor", Encoding::Json).await;
    let config = GameConfig::new(RuleSet::Renju);
    refused(
        guest
            .request(ClientMsg::Queue {
                config: config.clone(),
                bots: false,
            })
            .await,
        ErrorCode::LoginRequired,
    );
    refused(
        guest
            .request(ClientMsg::CreateRoom {
                config: config.clone(),
                public: true,
                name: None,
                chat: true,
                rated: true,
            })
            .await,
        ErrorCode::LoginRequired,
    );
    // An account's rated room: a guest may not join it, another account may.
    let mut ann = client(&server, "a", Encoding::Json).await;
    register(&mut ann, "annika", "long enough").await;
    let room = match ann
        .request(ClientMsg::CreateRoom {
            config: config.clone(),
            public: true,
            name: None,
            chat: true,
            rated: true,
        })
        .await
    {
        Ok(ServerMsg::RoomCreated { room, .. }) => room,
        other => panic!("{other:?}"),
    };
    refused(
        guest
            .request(ClientMsg::JoinRoom { room: room.clone() })
            .await,
        ErrorCode::LoginRequired,
    );
    let mut bob = client(&server, "b", Encoding::Json).await;
    register(&mut bob, "bobby", "long enough").await;
    assert!(matches!(
        bob.request(ClientMsg::JoinRoom { room }).await,
        Ok(ServerMsg::Joined { .. })
    ));
    let snap = snapshot_push(&mut bob).await;
    assert_eq!(snap.players.first.unwrap().name, "annika");
    assert!(!snap.players.second.unwrap().guest);
}
