//! Logging out ends the token's other sessions, and logging out everywhere
//! every session of the account, over real connections: on one server,
//! and across two `tengen-server` processes on one real Redis. The
//! sessions ended are closed with 4007, cannot be resumed as the account,
//! and their tokens open nothing any more.

use crate::common;

use std::time::Duration;

use common::proc::{self, DataDir, Proc};
use common::*;
use tengen_client::{ClientError, Connection, Identity};
use tengen_protocol::{ClientMsg, CloseCode, Encoding, ErrorCode, LoggedIn, ServerMsg, Welcome};
use tengen_store::testing::RedisServer;

async fn register(c: &mut Connection, name: &str) -> LoggedIn {
    let msg = ClientMsg::Register {
        name: name.into(),
        password: "a long password".into(),
    };
    match c.request(msg).await {
        Ok(ServerMsg::Registered(li)) => li,
        other => panic!("register {name}: {other:?}"),
    }
}

async fn login(c: &mut Connection, name: &str) -> LoggedIn {
    let msg = ClientMsg::Login {
        name: name.into(),
        password: "a long password".into(),
    };
    match c.request(msg).await {
        Ok(ServerMsg::LoggedIn(li)) => li,
        other => panic!("login {name}: {other:?}"),
    }
}

/// A connection to `url` that said `hello` with the login token `token`.
async fn with_token(url: &str, token: &str, encoding: Encoding) -> (Connection, Welcome) {
    let who = Identity {
        name: None,
        login: Some(token.into()),
    };
    let (c, w) = Connection::connect_as(url, encoding, &who, None)
        .await
        .expect("the token opens the account");
    assert!(!w.player.guest);
    (c, w)
}

/// The refusal of a `hello` with `token`.
async fn refused_token(url: &str, token: &str) -> ErrorCode {
    let who = Identity {
        name: None,
        login: Some(token.into()),
    };
    match Connection::connect_as(url, Encoding::Json, &who, None).await {
        Err(ClientError::Refused(e)) => e.code,
        other => panic!(
            "the token still opens something: {:?}",
            other.map(|(_, w)| w)
        ),
    }
}

/// Reads until the server closes `c`; the close code (within `within`).
async fn closed_with(c: &mut Connection, within: Duration) -> u16 {
    let read = async {
        loop {
            match c.next().await {
                Ok(_) => continue,
                Err(ClientError::Closed { code, .. }) => return code,
                Err(e) => panic!("expected a close, got {e:?}"),
            }
        }
    };
    tokio::time::timeout(within, read)
        .await
        .expect("closed in time")
}

/// `c` still answers as the account `name`.
async fn still_in(c: &mut Connection, name: &str) {
    match c.request(ClientMsg::MyTables).await {
        Ok(ServerMsg::MyTables { .. }) => {}
        other => panic!("{name}'s session: {other:?}"),
    }
}

/// A `hello` resuming `resume`: not the account's session any more.
async fn not_resumable(url: &str, resume: &str) {
    let (_c, w) = Connection::connect_resuming(url, Encoding::Json, Some("back"), Some(resume))
        .await
        .unwrap();
    assert!(!w.resumed, "the ended session was resumed");
    assert!(w.player.guest, "{:?}", w.player);
}

async fn logged_out(c: &mut Connection, msg: ClientMsg) {
    match c.request(msg).await {
        Ok(ServerMsg::LoggedOut { player }) => assert!(player.guest),
        other => panic!("{other:?}"),
    }
}

const CLOSE: Duration = Duration::from_secs(5);
const LOGGED_OUT: u16 = 4007;

#[tokio::test]
async fn logout_closes_every_other_session_of_that_token() {
    assert_eq!(CloseCode::LoggedOut.code(), LOGGED_OUT);
    let server = server().await;
    let url = url(&server);
    let mut a = client(&server, "first", Encoding::Json).await;
    let token = register(&mut a, "ella").await.token;
    // Two more sessions with the same token (one in MessagePack), and one
    // logged in with the password (a token of its own).
    let (mut b, _) = with_token(&url, &token, Encoding::Json).await;
    let (mut c, wc) = with_token(&url, &token, Encoding::MsgPack).await;
    let mut d = client(&server, "fourth", Encoding::Json).await;
    let other = login(&mut d, "ella").await.token;

    logged_out(&mut b, ClientMsg::Logout).await;
    assert_eq!(closed_with(&mut a, CLOSE).await, LOGGED_OUT);
    assert_eq!(closed_with(&mut c, CLOSE).await, LOGGED_OUT);
    // The one that logged out goes on as a guest; the other token's
    // session as the account.
    assert!(matches!(
        b.request(ClientMsg::Ping).await,
        Ok(ServerMsg::Pong { .. })
    ));
    still_in(&mut d, "ella").await;
    assert_eq!(refused_token(&url, &token).await, ErrorCode::BadCredentials);
    with_token(&url, &other, Encoding::Json).await;
    not_resumable(&url, &wc.resume_token.unwrap()).await;
}

#[tokio::test]
async fn logout_everywhere_ends_every_session_and_token_of_the_account() {
    let server = server().await;
    let url = url(&server);
    let mut a = client(&server, "first", Encoding::Json).await;
    let first = register(&mut a, "fern").await.token;
    let (mut b, wb) = with_token(&url, &first, Encoding::Json).await;
    let mut c = client(&server, "third", Encoding::Json).await;
    let second = login(&mut c, "fern").await.token;
    // A token kept by a device that is not connected now.
    let mut d = client(&server, "fourth", Encoding::Json).await;
    let third = login(&mut d, "fern").await.token;
    d.close().await.unwrap();
    // Another account is left alone.
    let mut g = client(&server, "seventh", Encoding::Json).await;
    register(&mut g, "gina").await;

    logged_out(&mut c, ClientMsg::LogoutEverywhere).await;
    assert_eq!(closed_with(&mut a, CLOSE).await, LOGGED_OUT);
    assert_eq!(closed_with(&mut b, CLOSE).await, LOGGED_OUT);
    for t in [&first, &second, &third] {
        assert_eq!(refused_token(&url, t).await, ErrorCode::BadCredentials);
    }
    not_resumable(&url, &wb.resume_token.unwrap()).await;
    still_in(&mut g, "gina").await;
    // A login afterwards gets a token that works.
    let fresh = login(&mut c, "fern").await.token;
    with_token(&url, &fresh, Encoding::Json).await;
    // A guest has nothing to log out of.
    let mut h = client(&server, "visitor", Encoding::Json).await;
    match h.request(ClientMsg::LogoutEverywhere).await {
        Err(ClientError::Refused(e)) => assert_eq!(e.code, ErrorCode::LoginRequired),
        other => panic!("{other:?}"),
    }
}

const PREFIX: &str = "logout";

fn node(redis: &RedisServer, dir: &DataDir, name: &str) -> Proc {
    proc::start_node(&dir.0, &redis.url(), PREFIX, name, "2")
}

#[tokio::test]
async fn across_nodes_the_other_node_closes_the_sessions_too() {
    let redis = RedisServer::start();
    let (da, db) = (DataDir::new("logout-a"), DataDir::new("logout-b"));
    let (na, nb) = (node(&redis, &da, "na"), node(&redis, &db, "nb"));
    let (ua, ub) = (na.url(), nb.url());

    // One token, a session on each node; the logout on A closes B's.
    let (mut a, _) = Connection::connect(&ua, Encoding::Json, Some("x"))
        .await
        .unwrap();
    let token = register(&mut a, "hana").await.token;
    let (mut on_b, wb) = with_token(&ub, &token, Encoding::Json).await;
    let mut other_b = Connection::connect(&ub, Encoding::Json, Some("y"))
        .await
        .unwrap()
        .0;
    let other = login(&mut other_b, "hana").await.token;
    logged_out(&mut a, ClientMsg::Logout).await;
    assert_eq!(closed_with(&mut on_b, CLOSE).await, LOGGED_OUT);
    not_resumable(&ub, &wb.resume_token.unwrap()).await;
    assert_eq!(refused_token(&ub, &token).await, ErrorCode::BadCredentials);
    still_in(&mut other_b, "hana").await;

    // Everywhere, from B: A's sessions of the account end too.
    let (mut on_a, _) = with_token(&ua, &other, Encoding::MsgPack).await;
    let mut c = Connection::connect(&ub, Encoding::Json, Some("z"))
        .await
        .unwrap()
        .0;
    login(&mut c, "hana").await;
    logged_out(&mut c, ClientMsg::LogoutEverywhere).await;
    assert_eq!(closed_with(&mut on_a, CLOSE).await, LOGGED_OUT);
    assert_eq!(closed_with(&mut other_b, CLOSE).await, LOGGED_OUT);
    assert_eq!(refused_token(&ua, &other).await, ErrorCode::BadCredentials);
    drop((na, nb));
}
