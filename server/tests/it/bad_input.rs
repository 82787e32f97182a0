//! Bad input over a real socket: every kind gets its documented error or
//! close code, and nobody else's game changes.

use crate::common;

use std::time::Duration;

use common::*;
use tengen_client::{ClientError, Connection};
use tengen_protocol::{
    ClientMsg, Encoding, Envelope, ErrorCode, Hello, PROTOCOL_VERSION, ServerMsg, TableId,
};
use tengen_rules::game::{Action, GameConfig, GameError, RuleSet};
use tokio_tungstenite::tungstenite::Message;

fn refused(r: Result<ServerMsg, ClientError>) -> tengen_protocol::ErrorBody {
    match r {
        Err(ClientError::Refused(e)) => e,
        other => panic!("expected a refusal, got {other:?}"),
    }
}

/// Reads until the server closes; returns the close code.
async fn close_code(c: &mut Connection) -> u16 {
    loop {
        match c.next().await {
            Err(ClientError::Closed { code, .. }) => return code,
            Ok(_) => continue,
            Err(e) => panic!("expected a close, got {e:?}"),
        }
    }
}

/// The next frame, which must be an error; returns it.
async fn next_error(c: &mut Connection) -> tengen_protocol::ErrorBody {
    match c.next().await.expect("a frame").msg {
        ServerMsg::Error(e) => e,
        other => panic!("expected an error, got {other:?}"),
    }
}

async fn snapshot_seq(c: &mut Connection, table: &TableId) -> u64 {
    match c
        .request(ClientMsg::Snapshot {
            table: table.clone(),
        })
        .await
        .unwrap()
    {
        ServerMsg::TableSnapshot(s) => s.seq,
        other => panic!("{other:?}"),
    }
}

#[tokio::test]
async fn malformed_unknown_and_oversize_frames_get_typed_errors() {
    let server = server().await;
    let mut c = client(&server, "eve", Encoding::Json).await;
    c.send_raw(Message::Text("{not json".into())).await.unwrap();
    assert_eq!(next_error(&mut c).await.code, ErrorCode::BadFrame);
    c.send_raw(Message::Text(r#"{"type":"teleport","id":5}"#.into()))
        .await
        .unwrap();
    let e = c.next().await.unwrap();
    assert_eq!(e.id, Some(5), "the id is echoed");
    assert!(matches!(e.msg, ServerMsg::Error(ref b) if b.code == ErrorCode::UnknownType));
    c.send_raw(Message::Text(r#"{"type":"act","id":6,"table":"x"}"#.into()))
        .await
        .unwrap();
    let e = c.next().await.unwrap();
    assert_eq!(e.id, Some(6));
    assert!(matches!(e.msg, ServerMsg::Error(ref b) if b.code == ErrorCode::BadRequest));
    // Over the frame limit (16 KiB) but under the message limit: refused,
    // and the connection stays usable.
    let big = format!(r#"{{"type":"ping","pad":"{}"}}"#, "x".repeat(20_000));
    c.send_raw(Message::Text(big.into())).await.unwrap();
    assert_eq!(next_error(&mut c).await.code, ErrorCode::TooLarge);
    assert!(matches!(
        c.request(ClientMsg::Ping).await,
        Ok(ServerMsg::Pong { .. })
    ));
    // A second hello is a bad request.
    let e = refused(
        c.request(ClientMsg::Hello(Hello {
            token: None,
            resume: None,
            version: PROTOCOL_VERSION,
            client: None,
            name: None,
        }))
        .await,
    );
    assert_eq!(e.code, ErrorCode::BadRequest);
    // Over 64 KiB: not even read; close 1009.
    let huge = "x".repeat(70_000);
    c.send_raw(Message::Text(huge.into())).await.unwrap();
    assert_eq!(close_code(&mut c).await, 1009);
}

/// A `ping` (id 9) whose ignored field nests arrays so that the message
/// is `depth` deep, its own map counted.
fn nested_ping(depth: usize) -> serde_json::Value {
    let mut x = serde_json::json!([]);
    for _ in 2..depth {
        x = serde_json::json!([x]);
    }
    serde_json::json!({"type": "ping", "id": 9, "x": x})
}

/// Sends `frame` and reads the answer's type (`pong` or an error's code;
/// a frame too deep to read has no id to echo).
async fn answer_to(c: &mut Connection, frame: Message) -> String {
    c.send_raw(frame).await.unwrap();
    let f = c.next().await.expect("an answer");
    match f.msg {
        ServerMsg::Pong { .. } if f.id == Some(9) => "pong".into(),
        ServerMsg::Error(e) => e.code.as_str().into(),
        other => panic!("{other:?}"),
    }
}

#[tokio::test]
async fn nesting_is_read_to_the_documented_depth_and_no_deeper() {
    let server = server().await;
    let mut j = client(&server, "deep-json", Encoding::Json).await;
    let text = |d: usize| Message::Text(nested_ping(d).to_string().into());
    assert_eq!(answer_to(&mut j, text(128)).await, "pong");
    assert_eq!(answer_to(&mut j, text(129)).await, "bad_frame");
    let mut m = client(&server, "deep-msgpack", Encoding::MsgPack).await;
    let packed =
        |d: usize| Message::Binary(rmp_serde::to_vec_named(&nested_ping(d)).unwrap().into());
    assert_eq!(answer_to(&mut m, packed(32)).await, "pong");
    assert_eq!(answer_to(&mut m, packed(33)).await, "bad_frame");
}

#[tokio::test]
async fn handshake_rules() {
    let server = server().await;
    // Anything before hello: hello_required, and the connection stays open.
    let mut c = Connection::open(&url(&server), Encoding::Json)
        .await
        .unwrap();
    assert_eq!(
        refused(c.request(ClientMsg::Ping).await).code,
        ErrorCode::HelloRequired
    );
    let w = c
        .request(ClientMsg::Hello(Hello {
            token: None,
            resume: None,
            version: PROTOCOL_VERSION,
            client: None,
            name: Some("late".into()),
        }))
        .await
        .unwrap();
    assert!(matches!(w, ServerMsg::Welcome(_)));
    // The other frame type after the handshake: close 1003.
    c.send_raw(Message::Binary(
        vec![0x81, 0xa4, b't', b'y', b'p', b'e'].into(),
    ))
    .await
    .unwrap();
    assert_eq!(close_code(&mut c).await, 1003);
    // An unsupported version: the error, then close 4003.
    let mut c = Connection::open(&url(&server), Encoding::MsgPack)
        .await
        .unwrap();
    let e = refused(
        c.request(ClientMsg::Hello(Hello {
            token: None,
            resume: None,
            version: 999,
            client: None,
            name: None,
        }))
        .await,
    );
    assert_eq!(e.code, ErrorCode::UnsupportedVersion);
    assert!(e.supported.unwrap().contains(PROTOCOL_VERSION));
    assert_eq!(close_code(&mut c).await, 4003);
}

#[tokio::test]
async fn no_hello_in_time_closes_4001() {
    let server = server().await;
    let mut c = Connection::open(&url(&server), Encoding::Json)
        .await
        .unwrap();
    c.timeout = Duration::from_secs(15);
    assert_eq!(close_code(&mut c).await, 4001);
}

#[tokio::test]
async fn a_flood_is_refused_then_closed_1008() {
    let server = server().await;
    let mut c = client(&server, "flood", Encoding::Json).await;
    // Far more than the burst (40) at once.
    for i in 0..200u64 {
        if c.send_frame(&Envelope::with_id(Some(i), ClientMsg::Ping))
            .await
            .is_err()
        {
            break;
        }
    }
    let mut pongs = 0;
    let mut limited = 0;
    let code = loop {
        match c.next().await {
            Ok(f) => match f.msg {
                ServerMsg::Pong { .. } => pongs += 1,
                ServerMsg::Error(e) => {
                    assert_eq!(e.code, ErrorCode::RateLimited);
                    assert!(e.retry_after_ms.is_some());
                    limited += 1;
                }
                other => panic!("{other:?}"),
            },
            Err(ClientError::Closed { code, .. }) => break code,
            Err(e) => panic!("{e:?}"),
        }
    };
    assert!((40..60).contains(&pongs), "the burst is served: {pongs}");
    assert!(limited > 0);
    assert_eq!(code, 1008);
}

#[tokio::test]
async fn acting_out_of_turn_elsewhere_or_as_a_spectator_changes_nothing() {
    let server = server().await;
    let mut t = table(&server, GameConfig::new(RuleSet::Freestyle), Encoding::Json).await;
    let mut other = table(&server, GameConfig::new(RuleSet::Freestyle), Encoding::Json).await;
    let mut spectator = client(&server, "sam", Encoding::Json).await;
    spectator
        .request(ClientMsg::Watch {
            table: t.table.clone(),
            since: None,
        })
        .await
        .unwrap();
    let (b, w) = (t.opener(), t.opener().other());
    t.act_as(b, place("H8")).await;
    let table = t.table.clone();
    // Out of turn.
    let e = refused(
        t.conn(b)
            .request(ClientMsg::Act {
                table: table.clone(),
                action: place("A1"),
            })
            .await,
    );
    assert_eq!(e.code, ErrorCode::Game);
    assert_eq!(e.game_error, Some(GameError::NotYourTurn));
    // Occupied.
    let e = refused(
        t.conn(w)
            .request(ClientMsg::Act {
                table: table.clone(),
                action: place("H8"),
            })
            .await,
    );
    assert!(matches!(e.game_error, Some(GameError::Occupied { .. })));
    // On a table one neither sits at nor watches.
    let e = refused(
        t.conn(w)
            .request(ClientMsg::Act {
                table: other.table.clone(),
                action: place("A1"),
            })
            .await,
    );
    assert_eq!(e.code, ErrorCode::WrongTable);
    // A table that does not exist.
    let e = refused(
        t.conn(w)
            .request(ClientMsg::Act {
                table: "nosuchtable".parse().unwrap(),
                action: place("A1"),
            })
            .await,
    );
    assert_eq!(e.code, ErrorCode::NotFound);
    // A spectator acting.
    let e = refused(
        spectator
            .request(ClientMsg::Act {
                table: table.clone(),
                action: Action::Resign,
            })
            .await,
    );
    assert_eq!(e.code, ErrorCode::NotAPlayer);
    // Nothing changed, for anyone: still seq 1, and the next move is 2.
    assert_eq!(snapshot_seq(&mut spectator, &table).await, 1);
    assert_eq!(snapshot_seq(&mut other.first, &other.table).await, 0);
    assert_eq!(t.act_as(w, place("H9")).await, 2);
    let seq = other.act_as(other.opener(), place("H8")).await;
    assert_eq!(seq, 1);
}

#[tokio::test]
async fn lobby_refusals() {
    let server = server().await;
    let mut a = client(&server, "ann", Encoding::Json).await;
    let mut b = client(&server, "bob", Encoding::Json).await;
    // A configuration the referee refuses.
    let bad = GameConfig::new(RuleSet::Renju).with_size(19);
    let e = refused(
        a.request(ClientMsg::CreateRoom {
            rated: false,
            config: bad,
            public: true,
            name: None,
            chat: true,
        })
        .await,
    );
    assert_eq!(e.code, ErrorCode::InvalidConfig);
    let room = match a
        .request(ClientMsg::CreateRoom {
            rated: false,
            config: GameConfig::new(RuleSet::Gomoku),
            public: false,
            name: Some("private".into()),
            chat: true,
        })
        .await
        .unwrap()
    {
        ServerMsg::RoomCreated { room, .. } => room,
        other => panic!("{other:?}"),
    };
    // Private rooms are not listed.
    match b.request(ClientMsg::ListRooms).await.unwrap() {
        ServerMsg::Rooms { rooms, .. } => assert!(rooms.iter().all(|r| r.room != room)),
        other => panic!("{other:?}"),
    }
    // Only the creator cancels; nobody joins their own room; seats are limited.
    assert_eq!(
        refused(
            b.request(ClientMsg::CancelRoom { room: room.clone() })
                .await
        )
        .code,
        ErrorCode::NotAPlayer
    );
    assert_eq!(
        refused(a.request(ClientMsg::JoinRoom { room: room.clone() }).await).code,
        ErrorCode::AlreadySeated
    );
    assert_eq!(
        refused(
            a.request(ClientMsg::CreateRoom {
                rated: false,
                config: GameConfig::new(RuleSet::Gomoku),
                public: true,
                name: None,
                chat: true,
            })
            .await
        )
        .code,
        ErrorCode::AlreadySeated
    );
    assert_eq!(
        refused(
            b.request(ClientMsg::JoinRoom {
                room: "nosuchroom".parse().unwrap()
            })
            .await
        )
        .code,
        ErrorCode::NotFound
    );
    // The creator cancels; the room is gone.
    assert!(matches!(
        a.request(ClientMsg::CancelRoom { room: room.clone() })
            .await
            .unwrap(),
        ServerMsg::RoomCancelled { .. }
    ));
    assert_eq!(
        refused(b.request(ClientMsg::JoinRoom { room }).await).code,
        ErrorCode::NotFound
    );
}

#[tokio::test]
async fn connections_past_the_cap_get_503_and_the_admitted_keep_working() {
    let server = server_with(|s| s.max_connections = 12).await;
    let u = url(&server);
    // 20 attempts at once: 12 are admitted, 8 refused before the upgrade.
    let attempts = (0..20).map(|i| {
        let u = u.clone();
        async move { (i, tokio_tungstenite::connect_async(u).await) }
    });
    let results = futures_util::future::join_all(attempts).await;
    let mut refused = 0;
    let mut open = Vec::new();
    for (_, r) in results {
        match r {
            Ok((ws, _)) => open.push(ws),
            Err(tokio_tungstenite::tungstenite::Error::Http(resp)) => {
                assert_eq!(resp.status(), 503);
                refused += 1;
            }
            Err(e) => panic!("{e:?}"),
        }
    }
    assert_eq!((open.len(), refused), (12, 8));
    // Every admitted connection works: hello, then a ping answered.
    drop(open);
    tokio::time::sleep(Duration::from_millis(300)).await;
    let mut clients = Vec::new();
    for i in 0..12 {
        clients.push(client(&server, &format!("c{i}"), Encoding::Json).await);
    }
    assert!(
        Connection::connect(&u, Encoding::Json, Some("extra"))
            .await
            .is_err(),
        "a thirteenth is refused"
    );
    for c in &mut clients {
        assert!(matches!(
            c.request(ClientMsg::Ping).await,
            Ok(ServerMsg::Pong { .. })
        ));
    }
    // A place freed is a place taken.
    drop(clients.pop());
    tokio::time::sleep(Duration::from_millis(300)).await;
    client(&server, "late", Encoding::Json).await;
}
