//! What `protocol/README.md` promises, held to through a real server and
//! real WebSocket clients: replays of the whole event log, actions that
//! refuse unknown fields, one point syntax with one off-board error, a
//! claim that outlives a declined draw, and close 1002 for broken
//! WebSocket framing.

use crate::common;

use std::time::Duration;

use common::*;
use tengen_client::Connection;
use tengen_protocol::{ClientMsg, Encoding, ErrorCode, ServerMsg, TableId};
use tengen_rules::game::{
    Action, Event, ForbiddenHandling, GameConfig, GameError, Opening, RuleSet,
};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio_tungstenite::tungstenite::Message;

/// The points of a 15 x 15 board that never make five in a row: black where
/// `(x + 2y) mod 4 < 2`, white elsewhere (runs of at most two along every
/// line). Black's first point is H8.
fn fiveless(moves: usize) -> Vec<String> {
    let point = |x: u8, y: u8| format!("{}{}", (b'A' + x) as char, y + 1);
    let cells = (0..15u8).flat_map(|y| (0..15u8).map(move |x| (x, y)));
    let (mut black, mut white): (Vec<_>, Vec<_>) =
        cells.partition(|(x, y)| (*x as u32 + 2 * *y as u32) % 4 < 2);
    black.retain(|&p| p != (7, 7));
    black.insert(0, (7, 7));
    white.retain(|&p| p != (7, 8));
    let mut out = Vec::new();
    for i in 0..moves {
        let (x, y) = if i % 2 == 0 {
            black[i / 2]
        } else {
            white[i / 2]
        };
        out.push(point(x, y));
    }
    out
}

/// Plays `moves` fiveless moves at `t`, each with a draw offer (three
/// events a move: moved, draw_offered, and the next move's decline).
/// Returns the table's seq.
async fn play_offering(t: &mut Table, moves: usize) -> u64 {
    let black = t.opener();
    let mut seq = 0;
    for (i, p) in fiveless(moves).into_iter().enumerate() {
        let seat = if i % 2 == 0 { black } else { black.other() };
        let action = Action::Place {
            point: p.parse().unwrap(),
            board: 0,
            offer_draw: true,
        };
        seq = t.act_as(seat, action).await;
    }
    seq
}

/// Sends `watch` with `since` and reads to `replayed`: the events must be
/// every seq after `since`, once and in order. Returns the last seq.
async fn replay(c: &mut Connection, table: &TableId, since: u64) -> u64 {
    let id = c
        .send(ClientMsg::Watch {
            table: table.clone(),
            since: Some(since),
        })
        .await
        .unwrap();
    let mut seqs = Vec::new();
    loop {
        let f = match c.next().await {
            Ok(f) => f,
            Err(e) => panic!("after {} replayed events: {e:?}", seqs.len()),
        };
        match f.msg {
            ServerMsg::TableEvent(e) => seqs.push(e.seq),
            ServerMsg::Replayed { seq, .. } if f.id == Some(id) => {
                assert_eq!(seqs, (since + 1..=seq).collect::<Vec<_>>());
                return seq;
            }
            ServerMsg::TableSnapshot(_) => panic!("a snapshot instead of a replay"),
            _ => {}
        }
    }
}

fn fast(s: &mut tengen_server::Settings) {
    s.limits.rate_per_sec = 10_000;
    s.limits.rate_burst = 10_000;
}

fn gomoku() -> GameConfig {
    GameConfig::new(RuleSet::Gomoku).with_opening(Opening::Free)
}

#[tokio::test]
async fn a_fresh_guest_gets_a_replay_of_the_whole_event_log() {
    let server = server_with(fast).await;
    let mut t = table(&server, gomoku(), Encoding::Json).await;
    let seq = play_offering(&mut t, 200).await;
    assert!(seq >= 512 + 80, "the game is long enough: seq {seq}");
    // A fresh guest asks for 256, 400 and 512 events (512: the most the
    // table keeps): every one arrives, then `replayed`, and the
    // connection stays open.
    let mut g = client(&server, "gus", Encoding::Json).await;
    for back in [256, 400, 512] {
        assert_eq!(replay(&mut g, &t.table, seq - back).await, seq);
    }
    assert!(matches!(
        g.request(ClientMsg::Ping).await,
        Ok(ServerMsg::Pong { .. })
    ));
    // One more than the table keeps: a snapshot instead.
    match g
        .request(ClientMsg::Watch {
            table: t.table.clone(),
            since: Some(seq - 513),
        })
        .await
        .unwrap()
    {
        ServerMsg::TableSnapshot(s) => assert_eq!(s.seq, seq),
        other => panic!("{other:?}"),
    }
}

#[tokio::test]
async fn a_resumed_player_gets_512_missed_events_back_and_plays_on() {
    let server = server_with(fast).await;
    let u = url(&server);
    let (mut a, wa) = Connection::connect(&u, Encoding::Json, Some("ann"))
        .await
        .unwrap();
    let (mut b, wb) = Connection::connect(&u, Encoding::Json, Some("bob"))
        .await
        .unwrap();
    let room = create_room(&mut a, gomoku(), true).await;
    b.request(ClientMsg::JoinRoom { room: room.clone() })
        .await
        .unwrap();
    let snapshot = snapshot_push(&mut a).await;
    snapshot_push(&mut b).await;
    let mut t = Table {
        first: a,
        second: b,
        table: snapshot.table.clone(),
        room,
        snapshot,
    };
    let seq = play_offering(&mut t, 200).await;
    // White's connection vanishes (black is to move after 200 stones);
    // the server notices and starts the countdown. White comes back with
    // the token and asks for the last 512 events.
    let white = t.opener().other();
    let (name, token) = match white {
        tengen_rules::game::Seat::First => ("ann", wa.resume_token.unwrap()),
        tengen_rules::game::Seat::Second => ("bob", wb.resume_token.unwrap()),
    };
    let dead = std::mem::replace(
        t.conn(white),
        Connection::open(&u, Encoding::Json).await.unwrap(),
    );
    drop(dead);
    tokio::time::sleep(Duration::from_millis(100)).await;
    let (mut b2, w) = Connection::reconnect(
        &u,
        Encoding::Json,
        Some(name),
        &token,
        Duration::from_secs(5),
    )
    .await
    .unwrap();
    assert!(w.resumed);
    assert_eq!(w.tables, vec![t.table.clone()]);
    assert_eq!(replay(&mut b2, &t.table, seq - 512).await, seq);
    // White is back: black's 101st stone reaches the new connection.
    let p = fiveless(201).pop().unwrap();
    let next = t
        .act_as(t.opener(), Action::place(p.parse().unwrap()))
        .await;
    let f = b2
        .next_matching(|m| matches!(m, ServerMsg::TableEvent(e) if e.seq == next))
        .await
        .unwrap();
    assert!(matches!(f.msg, ServerMsg::TableEvent(_)));
}

async fn raw_act(c: &mut Connection, table: &TableId, action: &str, id: u64) -> ServerMsg {
    let text = format!(r#"{{"type":"act","table":"{table}","action":{action},"id":{id}}}"#);
    c.send_raw(Message::Text(text.into())).await.unwrap();
    loop {
        let f = c.next().await.unwrap();
        if f.id == Some(id) {
            return f.msg;
        }
    }
}

fn code_of(msg: &ServerMsg) -> ErrorCode {
    match msg {
        ServerMsg::Error(e) => e.code,
        other => panic!("expected an error, got {other:?}"),
    }
}

#[tokio::test]
async fn actions_without_fields_refuse_unknown_fields_and_change_nothing() {
    let server = server().await;
    let config = GameConfig::new(RuleSet::Renju)
        .with_opening(Opening::Rif)
        .with_forbidden(ForbiddenHandling::Claim);
    let mut t = table(&server, config, Encoding::Json).await;
    let black = t.opener();
    let table = t.table.clone();
    // The swap prompt comes after three stones; white is to decide.
    let mut before = 0;
    for p in ["H8", "H9", "I9"] {
        before = t.act_as(black, Action::place(p.parse().unwrap())).await;
    }
    let white = black.other();
    let bad = [
        (white, r#"{"type":"resign","seat":"first"}"#),
        (white, r#"{"type":"offer_draw","x":true}"#),
        (white, r#"{"type":"claim_forbidden","point":"H8","x":1}"#),
        (white, r#"{"type":"abort","reason":"bored"}"#),
        (white, r#"{"type":"swap","x":1}"#),
        (white, r#"{"type":"keep","x":null}"#),
        (white, r#"{"type":"pass","offer_draw":false,"x":1}"#),
        (white, r#"{"type":"place","point":"H10","x":1}"#),
    ];
    for (n, (seat, action)) in bad.into_iter().enumerate() {
        let reply = raw_act(t.conn(seat), &table, action, 100 + n as u64).await;
        assert_eq!(code_of(&reply), ErrorCode::BadRequest, "{action}");
    }
    // Nothing changed: no violation counted, no result, white still to
    // decide the swap, and the same seq.
    let s = match t
        .conn(white)
        .request(ClientMsg::Snapshot {
            table: table.clone(),
        })
        .await
        .unwrap()
    {
        ServerMsg::TableSnapshot(s) => s,
        other => panic!("{other:?}"),
    };
    assert_eq!(s.seq, before);
    assert_eq!(s.snapshot.violations, [0, 0]);
    assert!(s.snapshot.result.is_none());
    assert_eq!(s.snapshot.prompt.unwrap().seat, white);
    // The same actions without the extra field are accepted.
    let reply = raw_act(t.conn(white), &table, r#"{"type":"keep"}"#, 200).await;
    assert!(matches!(reply, ServerMsg::Acted { .. }), "{reply:?}");
}

#[tokio::test]
async fn every_well_formed_point_off_the_board_is_off_board() {
    let server = server().await;
    for (size, config) in [
        (15, GameConfig::new(RuleSet::Freestyle)),
        (19, GameConfig::new(RuleSet::Freestyle).with_size(19)),
    ] {
        let mut t = table(&server, config, Encoding::Json).await;
        let black = t.opener();
        let table = t.table.clone();
        let off: &[&str] = if size == 15 {
            &["P16", "P1", "A16", "T1", "Z1", "A99", "z99"]
        } else {
            &["T1", "A20", "Z1", "A99"]
        };
        for (n, p) in off.iter().enumerate() {
            let action = format!(r#"{{"type":"place","point":"{p}"}}"#);
            match raw_act(t.conn(black), &table, &action, 300 + n as u64).await {
                ServerMsg::Error(e) => {
                    assert_eq!(e.code, ErrorCode::Game, "{p} on {size}: {e:?}");
                    assert_eq!(
                        e.game_error,
                        Some(GameError::OffBoard {
                            point: p.parse().unwrap()
                        }),
                        "{p} on {size}"
                    );
                }
                other => panic!("{p}: {other:?}"),
            }
        }
        // Malformed text is a bad request, the same on every board.
        for (n, p) in ["H0", "H08", "8H", "HH8", "H100", ""].iter().enumerate() {
            let action = format!(r#"{{"type":"place","point":"{p}"}}"#);
            let reply = raw_act(t.conn(black), &table, &action, 400 + n as u64).await;
            assert_eq!(code_of(&reply), ErrorCode::BadRequest, "{p:?} on {size}");
        }
        // Surrounding spaces and lower case are fine.
        let reply = raw_act(
            t.conn(black),
            &table,
            r#"{"type":"place","point":" h8 "}"#,
            500,
        )
        .await;
        assert!(
            matches!(reply, ServerMsg::Acted { seq: 1, .. }),
            "{reply:?}"
        );
    }
}

#[tokio::test]
async fn declining_a_draw_leaves_whites_claim_standing() {
    let server = server().await;
    let config = GameConfig::new(RuleSet::Renju).with_forbidden(ForbiddenHandling::Claim);
    let mut t = table(&server, config, Encoding::Json).await;
    let black = t.opener();
    let white = black.other();
    // Black G8 H8 I9 I10 with far white stones; black I8 is a double three.
    for (seat, p) in [
        (black, "H8"),
        (white, "A1"),
        (black, "G8"),
        (white, "A3"),
        (black, "I9"),
        (white, "A5"),
        (black, "I10"),
        (white, "A7"),
    ] {
        t.act_as(seat, Action::place(p.parse().unwrap())).await;
    }
    t.act_as(
        black,
        Action::Place {
            point: "I8".parse().unwrap(),
            board: 0,
            offer_draw: true,
        },
    )
    .await;
    t.act_as(white, Action::DeclineDraw).await;
    let table = t.table.clone();
    match t
        .conn(white)
        .request(ClientMsg::Act {
            table,
            action: Action::claim("I8".parse().unwrap()),
        })
        .await
        .unwrap()
    {
        ServerMsg::Acted { .. } => {}
        other => panic!("{other:?}"),
    }
    let f = t
        .conn(black)
        .next_matching(|m| {
            matches!(m, ServerMsg::TableEvent(e) if matches!(e.event, Event::ClaimUpheld { .. }))
        })
        .await
        .unwrap();
    let ServerMsg::TableEvent(e) = f.msg else {
        unreachable!()
    };
    assert_eq!(
        e.event,
        Event::ClaimUpheld {
            seat: white,
            point: "I8".parse().unwrap(),
            kind: tengen_rules::Forbidden::DoubleThree
        }
    );
}

/// Opens a WebSocket by hand (the handshake over a plain TCP socket), so
/// that frames no client library would send can be written.
async fn raw_socket(server: &tengen_server::Server) -> tokio::net::TcpStream {
    let mut s = tokio::net::TcpStream::connect(server.addr()).await.unwrap();
    let req = format!(
        "GET /ws HTTP/1.1\r\nHost: {}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\
         Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n",
        server.addr()
    );
    s.write_all(req.as_bytes()).await.unwrap();
    let mut head = Vec::new();
    while !head.ends_with(b"\r\n\r\n") {
        let mut b = [0u8; 1];
        s.read_exact(&mut b).await.unwrap();
        head.push(b[0]);
    }
    assert!(
        head.starts_with(b"HTTP/1.1 101"),
        "{}",
        String::from_utf8_lossy(&head)
    );
    s
}

/// A masked client frame with `opcode` and `payload`.
fn masked(opcode: u8, payload: &[u8]) -> Vec<u8> {
    let key = [1u8, 2, 3, 4];
    let mut f = vec![0x80 | opcode, 0x80 | payload.len() as u8];
    f.extend_from_slice(&key);
    f.extend(payload.iter().enumerate().map(|(i, b)| b ^ key[i % 4]));
    f
}

/// Reads server frames until a close frame; returns its code (`None` if
/// the socket ended without one).
async fn close_code_raw(s: &mut tokio::net::TcpStream) -> Option<u16> {
    let read = async {
        loop {
            let mut h = [0u8; 2];
            s.read_exact(&mut h).await.ok()?;
            let mut len = (h[1] & 0x7f) as usize;
            if len == 126 {
                let mut l = [0u8; 2];
                s.read_exact(&mut l).await.ok()?;
                len = u16::from_be_bytes(l) as usize;
            } else if len == 127 {
                let mut l = [0u8; 8];
                s.read_exact(&mut l).await.ok()?;
                len = u64::from_be_bytes(l) as usize;
            }
            let mut body = vec![0u8; len];
            s.read_exact(&mut body).await.ok()?;
            if h[0] & 0x0f == 0x8 {
                return (body.len() >= 2).then(|| u16::from_be_bytes([body[0], body[1]]));
            }
        }
    };
    tokio::time::timeout(Duration::from_secs(5), read)
        .await
        .expect("the server answers within 5 s")
}

#[tokio::test]
async fn broken_websocket_framing_closes_1002() {
    let server = server().await;
    let hello = br#"{"type":"hello","version":1,"name":"raw"}"#;
    // Before and after the hello: an unmasked frame, a reserved opcode, a
    // continuation with nothing to continue.
    for after_hello in [false, true] {
        for bad in [
            {
                let mut f = vec![0x81, 2];
                f.extend_from_slice(b"{}");
                f
            },
            masked(0x3, b"x"),
            masked(0x0, b"x"),
        ] {
            let mut s = raw_socket(&server).await;
            if after_hello {
                s.write_all(&masked(0x1, hello)).await.unwrap();
            }
            s.write_all(&bad).await.unwrap();
            assert_eq!(
                close_code_raw(&mut s).await,
                Some(1002),
                "after hello: {after_hello}, frame {bad:02x?}"
            );
        }
    }
}
