//! The lobby over the wire, and the HTTP side of the port.

use crate::common;

use std::time::Duration;

use common::*;
use tengen_protocol::{ClientMsg, Encoding, RoomStatus, ServerMsg};
use tengen_rules::game::{GameConfig, RuleSet};

#[tokio::test]
async fn watchers_get_the_list_then_coalesced_updates() {
    let server = server().await;
    let mut watcher = client(&server, "wes", Encoding::MsgPack).await;
    match watcher.request(ClientMsg::LobbySubscribe).await.unwrap() {
        ServerMsg::Rooms { rooms, truncated } => {
            assert!(rooms.is_empty());
            assert!(!truncated);
        }
        other => panic!("{other:?}"),
    }
    // A room is created and joined within one coalescing interval or two.
    let mut t = table(&server, GameConfig::new(RuleSet::Gomoku), Encoding::Json).await;
    let mut seen_playing = false;
    let mut added = false;
    while !seen_playing {
        let f = watcher.next().await.unwrap();
        let ServerMsg::LobbyUpdate(u) = f.msg else {
            continue;
        };
        for r in u.added.iter().chain(u.changed.iter()) {
            assert_eq!(r.room, t.room);
            added = true;
            if r.status == RoomStatus::Playing {
                assert_eq!(r.table.as_ref(), Some(&t.table));
                assert_eq!(r.players.first.as_ref().unwrap().name, "ann");
                assert_eq!(r.players.second.as_ref().unwrap().name, "bob");
                seen_playing = true;
            }
        }
    }
    assert!(added);
    // A spectator arrives: the players and the lobby hear the count.
    let mut sam = client(&server, "sam", Encoding::Json).await;
    sam.request(ClientMsg::Watch {
        table: t.table.clone(),
        since: None,
    })
    .await
    .unwrap();
    let count = loop {
        if let ServerMsg::Spectators { count, .. } = t.first.next().await.unwrap().msg {
            break count;
        }
    };
    assert_eq!(count, 1);
    loop {
        let ServerMsg::LobbyUpdate(u) = watcher.next().await.unwrap().msg else {
            continue;
        };
        if u.changed.iter().any(|r| r.spectators == 1) {
            break;
        }
    }
    // The game ends by resignation: the room is finished; it goes when
    // both players have left.
    let b = t.opener();
    t.act_as(b, tengen_rules::game::Action::Resign).await;
    loop {
        let ServerMsg::LobbyUpdate(u) = watcher.next().await.unwrap().msg else {
            continue;
        };
        if u.changed
            .iter()
            .any(|r| r.room == t.room && r.status == RoomStatus::Finished)
        {
            break;
        }
    }
    // Still seated in the finished room: no new room until one leaves.
    let e = t
        .first
        .request(ClientMsg::CreateRoom {
            rated: false,
            config: GameConfig::new(RuleSet::Gomoku),
            public: true,
            name: None,
            chat: true,
        })
        .await;
    assert!(
        matches!(e, Err(tengen_client::ClientError::Refused(ref b)) if b.code == tengen_protocol::ErrorCode::AlreadySeated),
        "{e:?}"
    );
    for c in [&mut t.first, &mut t.second] {
        assert!(matches!(
            c.request(ClientMsg::LeaveRoom {
                room: t.room.clone()
            })
            .await
            .unwrap(),
            ServerMsg::Left { .. }
        ));
    }
    loop {
        let ServerMsg::LobbyUpdate(u) = watcher.next().await.unwrap().msg else {
            continue;
        };
        if u.removed.contains(&t.room) {
            break;
        }
    }
    // A creator who disconnects takes the waiting room along.
    let mut c = client(&server, "cid", Encoding::Json).await;
    let room = create_room(&mut c, GameConfig::new(RuleSet::Freestyle), true).await;
    loop {
        let ServerMsg::LobbyUpdate(u) = watcher.next().await.unwrap().msg else {
            continue;
        };
        if u.added.iter().any(|r| r.room == room) {
            break;
        }
    }
    drop(c);
    tokio::time::timeout(Duration::from_secs(5), async {
        loop {
            let ServerMsg::LobbyUpdate(u) = watcher.next().await.unwrap().msg else {
                continue;
            };
            if u.removed.contains(&room) {
                break;
            }
        }
    })
    .await
    .expect("the room is removed");
}

#[tokio::test]
async fn healthz_and_metrics() {
    let server = server().await;
    let health = http_get(&server, "/healthz").await;
    assert!(health.starts_with("HTTP/1.1 200"), "{health}");
    assert!(health.ends_with("ok"), "{health}");
    // Some traffic, so every family has a sample.
    let mut t = table(&server, GameConfig::new(RuleSet::Freestyle), Encoding::Json).await;
    t.act_as(t.opener(), place("H8")).await;
    let _ = t
        .first
        .request(ClientMsg::JoinRoom {
            room: "nosuch".parse().unwrap(),
        })
        .await;
    let m = http_get(&server, "/metrics").await;
    for family in [
        "tengen_connections",
        "tengen_tables",
        "tengen_messages_in_total",
        "tengen_messages_out_total",
        "tengen_errors_total",
        "tengen_move_handling_seconds_bucket",
        "process_resident_memory_bytes",
    ] {
        assert!(m.contains(family), "{family} missing from:\n{m}");
    }
}

/// A player who leaves the room the instant `game_over` arrives finds it
/// finished (`left`), never still playing (`game_in_progress`): the table
/// tells the lobby before it tells anyone else. On worker threads so the
/// table, the lobby and the connections really run side by side.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn leaving_on_game_over_finds_the_room_finished() {
    let server = server().await;
    for _ in 0..25 {
        let mut t = table(&server, GameConfig::new(RuleSet::Gomoku), Encoding::Json).await;
        let resigner = t.opener();
        let table_id = t.table.clone();
        let room = t.room.clone();
        t.conn(resigner)
            .send(ClientMsg::Act {
                table: table_id,
                action: tengen_rules::game::Action::Resign,
            })
            .await
            .unwrap();
        let other = t.conn(resigner.other());
        other
            .next_matching(|m| {
                matches!(m, ServerMsg::TableEvent(te)
                    if matches!(te.event, tengen_rules::game::Event::GameOver { .. }))
            })
            .await
            .unwrap();
        let left = other
            .request(ClientMsg::LeaveRoom { room: room.clone() })
            .await;
        assert!(matches!(left, Ok(ServerMsg::Left { .. })), "{left:?}");
        let left = t
            .conn(resigner)
            .request(ClientMsg::LeaveRoom { room })
            .await;
        assert!(matches!(left, Ok(ServerMsg::Left { .. })), "{left:?}");
    }
}
