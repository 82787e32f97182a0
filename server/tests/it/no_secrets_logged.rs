//! No secret reaches the logs: with every log line captured at the most
//! verbose level, a player registers, logs in, connects with the login
//! token, resumes a session with its resume token, fails a login and logs
//! out; no password, login token or resume token appears in what was
//! logged (SECURITY.md, "What is logged, and what never is").

use crate::common;

use std::io::Write;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use common::*;
use tengen_client::{Connection, Identity};
use tengen_protocol::{ClientMsg, Encoding, ServerMsg};

/// Every log line written, shared with the test.
#[derive(Clone, Default)]
struct Captured(Arc<Mutex<Vec<u8>>>);

impl Write for Captured {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl<'a> tracing_subscriber::fmt::MakeWriter<'a> for Captured {
    type Writer = Captured;
    fn make_writer(&'a self) -> Captured {
        self.clone()
    }
}

// The current-thread runtime: the server's tasks run on this thread, under
// the subscriber set for it.
#[tokio::test(flavor = "current_thread")]
async fn passwords_and_tokens_are_never_logged() {
    let logs = Captured::default();
    let subscriber = tracing_subscriber::fmt()
        .with_max_level(tracing::Level::TRACE)
        .with_writer(logs.clone())
        .with_ansi(false)
        .finish();
    let _guard = tracing::subscriber::set_default(subscriber);

    let server = server().await;
    let password = "a secret password 7f3e";
    let (mut c, welcome) = Connection::connect(&url(&server), Encoding::Json, Some("sec"))
        .await
        .unwrap();
    let resume = welcome.resume_token.clone().expect("a resume token");
    let token = match c
        .request(ClientMsg::Register {
            name: "secretive".into(),
            password: password.into(),
        })
        .await
    {
        Ok(ServerMsg::Registered(li)) => li.token,
        other => panic!("{other:?}"),
    };
    // The login token opens a connection; the resume token resumes one.
    let who = Identity {
        name: None,
        login: Some(token.clone()),
    };
    let (_t, _) = Connection::connect_as(&url(&server), Encoding::Json, &who, None)
        .await
        .unwrap();
    drop(c);
    tokio::time::sleep(Duration::from_millis(100)).await;
    let (mut r, w) = Connection::reconnect(
        &url(&server),
        Encoding::Json,
        Some("sec"),
        &resume,
        Duration::from_secs(5),
    )
    .await
    .unwrap();
    assert!(w.resumed);
    let wrong = "a wrong password 9c1d";
    let failed = r
        .request(ClientMsg::Login {
            name: "secretive".into(),
            password: wrong.into(),
        })
        .await;
    assert!(failed.is_err(), "{failed:?}");
    let logged_in = r
        .request(ClientMsg::Login {
            name: "secretive".into(),
            password: password.into(),
        })
        .await;
    let ServerMsg::LoggedIn(li) = logged_in.unwrap() else {
        panic!("logged in")
    };
    r.request(ClientMsg::Logout).await.unwrap();
    drop(r);
    tokio::time::sleep(Duration::from_millis(100)).await;

    let text = String::from_utf8(logs.0.lock().unwrap().clone()).unwrap();
    assert!(
        text.contains("registered") && text.contains("secretive"),
        "the logs were captured: {text}"
    );
    for secret in [password, wrong, &token, &li.token, &resume] {
        assert!(!text.contains(secret), "{secret} was logged");
    }
}
