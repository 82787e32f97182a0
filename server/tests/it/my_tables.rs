//! `my_tables` over real WebSocket clients: an account that comes back on a
//! new connection (a closed browser, another device), long after its old
//! session's resume window, finds the correspondence game its old session
//! sits at, takes that session over with the listed resume token and plays
//! on; guests are refused, and other accounts' tables are never listed.

use crate::common;

use std::time::Duration;

use common::*;
use tengen_client::{ClientError, Connection, Identity};
use tengen_protocol::{ClientMsg, Encoding, ErrorCode, SeatedTable, ServerMsg};
use tengen_rules::game::config::DAY_MS;
use tengen_rules::game::{GameConfig, RuleSet, Seat, TimeControl};

async fn register(c: &mut Connection, name: &str) -> String {
    match c
        .request(ClientMsg::Register {
            name: name.into(),
            password: "correct horse".into(),
        })
        .await
    {
        Ok(ServerMsg::Registered(li)) => li.token,
        other => panic!("register {name}: {other:?}"),
    }
}

async fn my_tables(c: &mut Connection) -> Result<Vec<SeatedTable>, ClientError> {
    match c.request(ClientMsg::MyTables).await? {
        ServerMsg::MyTables { tables } => Ok(tables),
        other => panic!("{other:?}"),
    }
}

fn login(token: &str) -> Identity {
    Identity {
        name: None,
        login: Some(token.into()),
    }
}

#[tokio::test]
async fn an_account_finds_and_takes_up_its_correspondence_game_after_the_resume_window() {
    let server = server_with(|s| {
        s.resume_grace = Duration::from_millis(200);
        s.abandon_grace_min = Duration::from_millis(200);
        s.abandon_grace_max = Duration::from_millis(200);
        s.first_move_timeout = Duration::from_millis(200);
    })
    .await;
    let u = url(&server);
    let corr = GameConfig::free(RuleSet::Gomoku).with_time(TimeControl::Correspondence {
        move_ms: 3 * DAY_MS,
        vacation_ms: 0,
    });
    // Alice (an account) opens a correspondence room; Bob (a guest) joins.
    let (mut alice, alice_welcome) = Connection::connect(&u, Encoding::Json, None).await.unwrap();
    let login_token = register(&mut alice, "alice").await;
    let old_resume = alice_welcome.resume_token.clone().expect("a resume token");
    let room = create_room(&mut alice, corr, true).await;
    let mut bob = client(&server, "bob", Encoding::Json).await;
    bob.request(ClientMsg::JoinRoom { room }).await.unwrap();
    let start = snapshot_push(&mut alice).await;
    snapshot_push(&mut bob).await;
    let table = start.table.clone();
    assert_eq!(start.seat, Some(Seat::First));

    // While connected, her own session is listed as online.
    let listed = my_tables(&mut alice).await.unwrap();
    assert_eq!(
        listed,
        vec![SeatedTable {
            table: table.clone(),
            resume_token: old_resume.clone(),
            online: true,
        }]
    );

    // Alice closes the browser; she comes back well past the resume
    // window, logged in with her login token only (a fresh session).
    drop(alice);
    tokio::time::sleep(Duration::from_millis(800)).await;
    let (mut fresh, w) = Connection::connect_as(&u, Encoding::Json, &login(&login_token), None)
        .await
        .unwrap();
    assert!(!w.resumed);
    assert_eq!(w.player.name, "alice");
    let listed = my_tables(&mut fresh).await.unwrap();
    assert_eq!(
        listed,
        vec![SeatedTable {
            table: table.clone(),
            resume_token: old_resume.clone(),
            online: false,
        }],
        "the old session's seat, with its token, not online"
    );

    // Taking the old session over seats her again; she plays when it is
    // her turn.
    let (mut back, w) = Connection::connect_as(
        &u,
        Encoding::Json,
        &login(&login_token),
        Some(&listed[0].resume_token),
    )
    .await
    .unwrap();
    assert!(w.resumed, "the seated session was kept past its grace");
    assert_eq!(w.tables, vec![table.clone()]);
    let snap = watch_snapshot(&mut back, &table).await;
    assert_eq!(snap.seat, Some(Seat::First));
    assert_eq!(snap.snapshot.result, None, "no abandonment");
    let opener = snap.snapshot.opener;
    let (first_mover, other): (&mut Connection, &mut Connection) = if opener == Seat::First {
        (&mut back, &mut bob)
    } else {
        (&mut bob, &mut back)
    };
    act(first_mover, &table, place("H8")).await;
    act(other, &table, place("A1")).await;
}

#[tokio::test]
async fn guests_are_refused_and_other_accounts_tables_are_not_listed() {
    let server = server().await;
    let t = table(&server, GameConfig::free(RuleSet::Gomoku), Encoding::Json).await;
    let mut guest = t.first;
    let r = my_tables(&mut guest).await;
    assert!(
        matches!(&r, Err(ClientError::Refused(e)) if e.code == ErrorCode::LoginRequired),
        "{r:?}"
    );
    // The refusal changed nothing: the guest still plays at the table.
    let snap = snapshot_of(&mut guest, &t.table).await;
    assert_eq!(snap.seat, Some(Seat::First));

    // Carol, an account sitting nowhere, sees nothing of theirs.
    let (mut carol, _) = Connection::connect(&url(&server), Encoding::Json, None)
        .await
        .unwrap();
    register(&mut carol, "carol").await;
    assert_eq!(my_tables(&mut carol).await.unwrap(), vec![]);
    // A session that logs out is a guest again: refused.
    carol.request(ClientMsg::Logout).await.unwrap();
    assert!(my_tables(&mut carol).await.is_err());
}
