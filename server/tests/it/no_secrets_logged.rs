//! No secret reaches the logs: the real `tengen-server` binary runs with
//! `TENGEN_LOG=trace` (every crate, through the subscriber exactly as the
//! binary builds it), and a player registers, connects with the login
//! token (over JSON and over MessagePack), resumes a session with its
//! resume token, fails a login, logs in and logs out. No password (the
//! wrong one included), login token or resume token appears in what the
//! server printed, as text or as the hex of its bytes (the form in which
//! tungstenite traces a frame); the server's own debug lines and the
//! libraries' debug lines are there (SECURITY.md, "What is logged, and
//! what never is").

use crate::common;

use std::time::Duration;

use common::proc::{DataDir, try_start_logging};
use tengen_client::{Connection, Identity};
use tengen_protocol::{ClientMsg, Encoding, ServerMsg};

fn hex(s: &str) -> String {
    s.bytes().map(|b| format!("{b:02x}")).collect()
}

#[tokio::test]
async fn passwords_and_tokens_are_never_logged_at_trace() {
    let dir = DataDir::new("secrets");
    let server = match try_start_logging(&dir.0, &[], "trace") {
        Ok(p) => p,
        Err(f) => panic!("the server did not start: {}", f.stderr),
    };
    let url = server.url();
    let password = "a secret password 7f3e";
    let wrong = "a wrong password 9c1d";

    let (mut c, welcome) = Connection::connect(&url, Encoding::Json, Some("sec"))
        .await
        .unwrap();
    let resume = welcome.resume_token.clone().expect("a resume token");
    let registered = match c
        .request(ClientMsg::Register {
            name: "secretive".into(),
            password: password.into(),
        })
        .await
    {
        Ok(ServerMsg::Registered(li)) => li.token,
        other => panic!("{other:?}"),
    };
    // The login token opens a connection in either encoding.
    let who = Identity {
        name: None,
        login: Some(registered.clone()),
    };
    let (_json, _) = Connection::connect_as(&url, Encoding::Json, &who, None)
        .await
        .unwrap();
    let (_binary, w) = Connection::connect_as(&url, Encoding::MsgPack, &who, None)
        .await
        .unwrap();
    let binary_resume = w.resume_token.expect("a resume token");
    // The resume token brings the first session back.
    drop(c);
    tokio::time::sleep(Duration::from_millis(200)).await;
    let (mut r, w) = Connection::reconnect(
        &url,
        Encoding::Json,
        Some("sec"),
        &resume,
        Duration::from_secs(5),
    )
    .await
    .unwrap();
    assert!(w.resumed);
    let failed = r
        .request(ClientMsg::Login {
            name: "secretive".into(),
            password: wrong.into(),
        })
        .await;
    assert!(failed.is_err(), "{failed:?}");
    let ServerMsg::LoggedIn(li) = r
        .request(ClientMsg::Login {
            name: "secretive".into(),
            password: password.into(),
        })
        .await
        .unwrap()
    else {
        panic!("logged in")
    };
    r.request(ClientMsg::Logout).await.unwrap();
    r.close().await.unwrap();
    tokio::time::sleep(Duration::from_millis(200)).await;

    let (status, _, text) = server.terminate();
    assert!(status.success(), "{status:?}");
    // The capture is the verbose one: the server's own debug lines, and
    // the libraries' debug lines (the WebSocket's close frames) came
    // through.
    assert!(
        text.contains("registered") && text.contains("secretive"),
        "the server's info lines: {text}"
    );
    assert!(
        text.contains("tengen_server::conn: welcome"),
        "the server's debug lines: {text}"
    );
    assert!(
        text.contains("tungstenite::protocol: Received close frame"),
        "the libraries' debug lines: {text}"
    );
    assert!(!text.contains("<FRAME>"), "a frame was traced: {text}");
    for secret in [
        password,
        wrong,
        &registered,
        &li.token,
        &resume,
        &binary_resume,
    ] {
        assert!(!text.contains(secret), "{secret} was logged");
        assert!(!text.contains(&hex(secret)), "{secret} was logged in hex");
    }
}
