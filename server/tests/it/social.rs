//! Chat (players and spectators apart, limited, switchable) and rematches.

use crate::common;

use common::*;
use tengen_client::ClientError;
use tengen_protocol::{ChatChannel, ClientMsg, Encoding, ErrorCode, ServerMsg, TableSnapshot};
use tengen_rules::game::{Action, GameConfig, RuleSet, Seat};

fn refused(r: Result<ServerMsg, ClientError>) -> ErrorCode {
    match r {
        Err(ClientError::Refused(e)) => e.code,
        other => panic!("expected a refusal, got {other:?}"),
    }
}

fn chat(t: &tengen_protocol::TableId, text: &str) -> ClientMsg {
    ClientMsg::Chat {
        table: t.clone(),
        text: text.into(),
    }
}

/// The chat texts a connection has received so far (pushes only), waiting
/// until a final `ping` comes back so nothing in flight is missed.
async fn chats_seen(c: &mut tengen_client::Connection) -> Vec<(ChatChannel, String)> {
    let id = c.send(ClientMsg::Ping).await.unwrap();
    let mut out = Vec::new();
    loop {
        let f = c.next().await.unwrap();
        if f.id == Some(id) {
            return out;
        }
        if let ServerMsg::Chat { channel, text, .. } = f.msg {
            out.push((channel, text));
        }
    }
}

#[tokio::test]
async fn players_and_spectators_chat_apart() {
    let server = server().await;
    let mut t = table(&server, GameConfig::new(RuleSet::Gomoku), Encoding::Json).await;
    let mut s1 = client(&server, "sue", Encoding::Json).await;
    let mut s2 = client(&server, "sid", Encoding::MsgPack).await;
    for s in [&mut s1, &mut s2] {
        s.request(ClientMsg::Watch {
            table: t.table.clone(),
            since: None,
        })
        .await
        .unwrap();
    }
    let mut outsider = client(&server, "oz", Encoding::Json).await;
    let table = t.table.clone();
    // A player speaks: the reply is the message itself, on the players' channel.
    match t.first.request(chat(&table, "good luck")).await.unwrap() {
        ServerMsg::Chat {
            channel,
            from,
            text,
            ..
        } => {
            assert_eq!(channel, ChatChannel::Players);
            assert_eq!(from.name, "ann");
            assert_eq!(text, "good luck");
        }
        other => panic!("{other:?}"),
    }
    // A spectator speaks (perhaps to coach): only spectators hear it.
    s1.request(chat(&table, "play H8!")).await.unwrap();
    assert_eq!(
        chats_seen(&mut t.second).await,
        vec![(ChatChannel::Players, "good luck".into())]
    );
    assert_eq!(
        chats_seen(&mut t.first).await,
        vec![],
        "the sender got the reply only"
    );
    assert_eq!(
        chats_seen(&mut s2).await,
        vec![(ChatChannel::Spectators, "play H8!".into())]
    );
    assert_eq!(
        chats_seen(&mut s1).await,
        vec![],
        "spectators never see player chat"
    );
    // Someone neither seated nor watching cannot speak there.
    assert_eq!(
        refused(outsider.request(chat(&table, "hi")).await),
        ErrorCode::WrongTable
    );
    // Limits: length, blank text, and rate (3 at once, then one a second).
    let long = "x".repeat(281);
    assert_eq!(
        refused(t.first.request(chat(&table, &long)).await),
        ErrorCode::BadRequest
    );
    assert_eq!(
        refused(t.first.request(chat(&table, "  ")).await),
        ErrorCode::BadRequest
    );
    for i in 0..2 {
        t.first
            .request(chat(&table, &format!("m{i}")))
            .await
            .unwrap();
    }
    assert_eq!(
        refused(t.first.request(chat(&table, "too fast")).await),
        ErrorCode::RateLimited
    );
}

#[tokio::test]
async fn chat_can_be_switched_off() {
    let server = server().await;
    let mut a = client(&server, "ann", Encoding::Json).await;
    let mut b = client(&server, "bob", Encoding::Json).await;
    let room = match a
        .request(ClientMsg::CreateRoom {
            rated: false,
            config: GameConfig::new(RuleSet::Freestyle),
            public: true,
            name: None,
            chat: false,
        })
        .await
        .unwrap()
    {
        ServerMsg::RoomCreated { room, .. } => room,
        other => panic!("{other:?}"),
    };
    b.request(ClientMsg::JoinRoom { room }).await.unwrap();
    let snap = snapshot_push(&mut a).await;
    assert_eq!(
        refused(a.request(chat(&snap.table, "hello")).await),
        ErrorCode::ChatOff
    );
}

#[tokio::test]
async fn rematch_when_both_ask_with_the_opener_switched() {
    let server = server().await;
    let mut t = table(&server, GameConfig::new(RuleSet::Freestyle), Encoding::Json).await;
    let mut sam = client(&server, "sam", Encoding::Json).await;
    sam.request(ClientMsg::Watch {
        table: t.table.clone(),
        since: None,
    })
    .await
    .unwrap();
    let table = t.table.clone();
    let opener = t.opener();
    // Not before the game is over; never from a spectator.
    assert_eq!(
        refused(
            t.first
                .request(ClientMsg::Rematch {
                    table: table.clone()
                })
                .await
        ),
        ErrorCode::NoRematch
    );
    t.act_as(opener, Action::Resign).await;
    assert_eq!(
        refused(
            sam.request(ClientMsg::Rematch {
                table: table.clone()
            })
            .await
        ),
        ErrorCode::NotAPlayer
    );
    // The first asks; the other hears it, then accepts.
    match t
        .first
        .request(ClientMsg::Rematch {
            table: table.clone(),
        })
        .await
        .unwrap()
    {
        ServerMsg::RematchOffered { seat, .. } => assert_eq!(seat, Seat::First),
        other => panic!("{other:?}"),
    }
    t.second
        .next_matching(|m| {
            matches!(
                m,
                ServerMsg::RematchOffered {
                    seat: Seat::First,
                    ..
                }
            )
        })
        .await
        .unwrap();
    t.second
        .request(ClientMsg::Rematch {
            table: table.clone(),
        })
        .await
        .unwrap();
    // Both players: rematch_started, then the new table's snapshot.
    let mut new_tables = Vec::new();
    for c in [&mut t.first, &mut t.second] {
        let started = c
            .next_matching(|m| {
                matches!(
                    m,
                    ServerMsg::RematchStarted { .. } | ServerMsg::TableSnapshot(_)
                )
            })
            .await
            .unwrap();
        let ServerMsg::RematchStarted { rematch, room, .. } = started.msg else {
            panic!("rematch_started comes before the new snapshot: {started:?}")
        };
        assert_eq!(room, t.room);
        let snap: TableSnapshot = snapshot_push(c).await;
        assert_eq!(snap.table, rematch);
        assert_eq!(snap.seq, 0);
        assert_eq!(snap.snapshot.opener, opener.other(), "the opener switches");
        new_tables.push(rematch);
    }
    assert_eq!(new_tables[0], new_tables[1]);
    assert_ne!(new_tables[0], table);
    // The old table's spectators hear where the game went.
    let f = sam
        .next_matching(|m| matches!(m, ServerMsg::RematchStarted { .. }))
        .await
        .unwrap();
    assert!(
        matches!(f.msg, ServerMsg::RematchStarted { ref rematch, .. } if *rematch == new_tables[0])
    );
    // The new game is played at the new table, by the same seats.
    let new = new_tables[0].clone();
    let seq = act(
        if opener.other() == Seat::First {
            &mut t.first
        } else {
            &mut t.second
        },
        &new,
        place("H8"),
    )
    .await;
    assert_eq!(seq, 1);
    // After that game, players who left the room (back to the lobby) still
    // get their rematch: both are seated in it again.
    act(
        if opener == Seat::First {
            &mut t.first
        } else {
            &mut t.second
        },
        &new,
        Action::Resign,
    )
    .await;
    for c in [&mut t.first, &mut t.second] {
        c.request(ClientMsg::LeaveRoom {
            room: t.room.clone(),
        })
        .await
        .unwrap();
    }
    ask_rematch(&mut t.second, &new).await;
    ask_rematch(&mut t.first, &new).await;
    for c in [&mut t.first, &mut t.second] {
        assert!(rematch_started(c).await.seat.is_some());
    }
}

#[tokio::test]
async fn a_rematch_room_outlives_the_first_table() {
    let server =
        server_with(|s| s.finished_table_linger = std::time::Duration::from_millis(200)).await;
    let mut t = table(&server, GameConfig::new(RuleSet::Freestyle), Encoding::Json).await;
    let table = t.table.clone();
    t.act_as(t.opener(), Action::Resign).await;
    t.first
        .request(ClientMsg::Rematch {
            table: table.clone(),
        })
        .await
        .unwrap();
    t.second
        .request(ClientMsg::Rematch {
            table: table.clone(),
        })
        .await
        .unwrap();
    let snap = snapshot_push(&mut t.first).await;
    assert_ne!(snap.table, table);
    // The first table closes (its linger is over); the room, now playing
    // the rematch, stays listed.
    tokio::time::sleep(std::time::Duration::from_millis(500)).await;
    match t.second.request(ClientMsg::ListRooms).await.unwrap() {
        ServerMsg::Rooms { rooms, .. } => {
            let r = rooms
                .iter()
                .find(|r| r.room == t.room)
                .expect("the room stays");
            assert_eq!(r.table.as_ref(), Some(&snap.table));
            assert_eq!(r.status, tengen_protocol::RoomStatus::Playing);
        }
        other => panic!("{other:?}"),
    }
}

#[tokio::test]
async fn challenges_to_a_named_player() {
    let server = server().await;
    let mut ann = client(&server, "ann", Encoding::Json).await;
    let mut bob = client(&server, "bob", Encoding::MsgPack).await;
    let mut carl = client(&server, "carl", Encoding::Json).await;
    // Names are unique among the sessions online.
    let (_bob2, w) = tengen_client::Connection::connect(&url(&server), Encoding::Json, Some("bob"))
        .await
        .unwrap();
    assert_eq!(w.player.name, "bob-2");
    let challenge = |player: &str| ClientMsg::Challenge {
        player: player.into(),
        config: GameConfig::new(RuleSet::Gomoku),
        chat: true,
        rated: false,
    };
    assert_eq!(
        refused(ann.request(challenge("nobody")).await),
        ErrorCode::NotFound
    );
    assert_eq!(
        refused(ann.request(challenge("ann")).await),
        ErrorCode::BadRequest
    );
    // Bob is challenged, and declines.
    let room = match ann.request(challenge("bob")).await.unwrap() {
        ServerMsg::RoomCreated { room, seat } => {
            assert_eq!(seat, Seat::First);
            room
        }
        other => panic!("{other:?}"),
    };
    let f = bob
        .next_matching(|m| matches!(m, ServerMsg::Challenged { .. }))
        .await
        .unwrap();
    let ServerMsg::Challenged {
        room: r,
        from,
        config,
        rated,
    } = f.msg
    else {
        unreachable!()
    };
    assert!(!rated, "a challenge is casual unless asked");
    assert_eq!(
        (r.clone(), from.name.as_str(), config.rule_set),
        (room.clone(), "ann", RuleSet::Gomoku)
    );
    // Only Bob may take it up; nobody else may decline it.
    assert_eq!(
        refused(
            carl.request(ClientMsg::JoinRoom { room: room.clone() })
                .await
        ),
        ErrorCode::NotFound
    );
    assert_eq!(
        refused(
            carl.request(ClientMsg::DeclineChallenge { room: room.clone() })
                .await
        ),
        ErrorCode::NotFound
    );
    assert!(matches!(
        bob.request(ClientMsg::DeclineChallenge { room: room.clone() })
            .await
            .unwrap(),
        ServerMsg::RoomCancelled {
            reason: tengen_protocol::CancelReason::Declined,
            ..
        }
    ));
    let f = ann
        .next_matching(|m| matches!(m, ServerMsg::RoomCancelled { .. }))
        .await
        .unwrap();
    assert!(
        matches!(f.msg, ServerMsg::RoomCancelled { room: ref r2, reason: tengen_protocol::CancelReason::Declined } if *r2 == room)
    );
    // Challenged again, Bob accepts by joining: the game starts.
    let room = match ann.request(challenge("bob")).await.unwrap() {
        ServerMsg::RoomCreated { room, .. } => room,
        other => panic!("{other:?}"),
    };
    bob.next_matching(|m| matches!(m, ServerMsg::Challenged { .. }))
        .await
        .unwrap();
    assert!(matches!(
        bob.request(ClientMsg::JoinRoom { room }).await.unwrap(),
        ServerMsg::Joined {
            seat: Seat::Second,
            ..
        }
    ));
    let a = snapshot_push(&mut ann).await;
    let b = snapshot_push(&mut bob).await;
    assert_eq!(a.table, b.table);
    assert_eq!(a.snapshot.config.rule_set, RuleSet::Gomoku);
}
