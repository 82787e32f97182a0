//! Ranked play end to end: two clients register, queue, are matched, play
//! a rated game to the end, and both ratings change in the store — and
//! are still there after the server restarts on the same data directory.
//! Then the leaderboard, the history and the record export.

use crate::common;

use std::path::Path;
use std::time::Duration;

use common::*;
use tengen_client::Connection;
use tengen_protocol::{
    ClientMsg, Encoding, RatingFamily, RecordFormat, ServerMsg, TableId, TableSnapshot,
};
use tengen_rules::Color;
use tengen_rules::game::{GameConfig, RuleSet, Seat};
use tengen_server::Server;

async fn start(dir: &Path) -> Server {
    server_on(dir, |s| {
        s.finished_table_linger = Duration::from_millis(200)
    })
    .await
}

/// Waits for `matched` and the table's snapshot.
async fn matched(c: &mut Connection) -> (Seat, TableId, TableSnapshot) {
    c.timeout = Duration::from_secs(10);
    let (seat, table) = match c
        .next_matching(|m| matches!(m, ServerMsg::Matched { .. }))
        .await
        .expect("matched")
        .msg
    {
        ServerMsg::Matched {
            seat,
            table,
            room: _,
            ..
        } => (seat, table),
        _ => unreachable!(),
    };
    let snap = snapshot_push(c).await;
    assert_eq!(snap.table, table);
    assert_eq!(snap.seat, Some(seat));
    (seat, table, snap)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rated_game_changes_both_ratings_and_survives_a_restart() {
    let dir = tempfile::tempdir().unwrap();
    let dir_path = dir.path().to_path_buf();
    let server = start(&dir_path).await;
    let mut ann = account(&server, "annika").await;
    let mut bob = account(&server, "bobby").await;
    let config = GameConfig::new(RuleSet::Renju);
    for c in [&mut ann, &mut bob] {
        match c
            .request(ClientMsg::Queue {
                config: config.clone(),
                bots: false,
            })
            .await
        {
            Ok(ServerMsg::Queued { config: q }) => assert_eq!(q, config),
            other => panic!("{other:?}"),
        }
    }
    let (seat_a, table, snap) = matched(&mut ann).await;
    let (seat_b, table_b, _) = matched(&mut bob).await;
    assert_eq!(table, table_b);
    assert_ne!(seat_a, seat_b);
    // The room spells out its forbidden-move handling, and a rated game
    // has no takebacks.
    assert_eq!(
        snap.snapshot.config,
        config
            .clone()
            .with_forbidden(tengen_rules::game::ForbiddenHandling::Claim)
    );
    assert!(!snap.snapshot.config.takebacks);

    // Black plays H8..H12 (a five), white far away.
    let black_seat = snap.snapshot.black;
    let (black, white) = if black_seat == seat_a {
        (&mut ann, &mut bob)
    } else {
        (&mut bob, &mut ann)
    };
    let black_name = if black_seat == seat_a {
        "annika"
    } else {
        "bobby"
    };
    let white_name = if black_seat == seat_a {
        "bobby"
    } else {
        "annika"
    };
    for (b, w) in ["H8", "H9", "H10", "H11"]
        .iter()
        .zip(["A1", "A3", "A5", "A7"])
    {
        act(black, &table, place(b)).await;
        act(white, &table, place(w)).await;
    }
    act(black, &table, place("H12")).await;
    let over = black
        .next_matching(|m| {
            matches!(m, ServerMsg::TableEvent(e) if matches!(e.event, tengen_rules::game::Event::GameOver { .. }))
        })
        .await
        .expect("game over");
    let ServerMsg::TableEvent(e) = over.msg else {
        unreachable!()
    };
    let tengen_rules::game::Event::GameOver { result, .. } = e.event else {
        unreachable!()
    };
    assert!(matches!(
        result.outcome,
        tengen_rules::game::Outcome::Win {
            color: Color::Black,
            ..
        }
    ));

    // The store has both new ratings (written just after the game ends).
    let mut winner = None;
    for _ in 0..50 {
        let p = profile(white, black_name).await;
        if !p.ratings.is_empty() {
            winner = Some(p);
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let winner = winner.expect("the winner's rating is stored");
    let loser = profile(black, white_name).await;
    let (w, l) = (&winner.ratings[0], &loser.ratings[0]);
    assert_eq!(
        (w.family, l.family),
        (RatingFamily::Renju, RatingFamily::Renju)
    );
    assert!(w.rating > 1500.0 && l.rating < 1500.0, "{w:?} {l:?}");
    assert!((w.rating - 1662.31).abs() < 0.01, "{}", w.rating);
    assert!((l.rating - 1337.69).abs() < 0.01, "{}", l.rating);
    assert!(w.deviation < 350.0 && l.deviation < 350.0);
    assert_eq!((w.games, w.wins, l.games, l.losses), (1, 1, 1, 1));
    assert!(w.provisional && l.provisional, "one game: provisional");
    assert_eq!(w.history.len(), 1);
    assert_eq!(w.history[0].game, table);
    assert_eq!(w.history[0].opponent, white_name);

    // Provisional players are not on the leaderboard.
    match white
        .request(ClientMsg::Leaderboard {
            family: RatingFamily::Renju,
            bots: false,
        })
        .await
    {
        Ok(ServerMsg::Leaderboard(b)) => {
            assert!(b.players.is_empty() && b.inactive.is_empty(), "{b:?}")
        }
        other => panic!("{other:?}"),
    }
    // The history and the record.
    match white
        .request(ClientMsg::History {
            player: black_name.into(),
            before: None,
        })
        .await
    {
        Ok(ServerMsg::History { games, more, .. }) => {
            assert!(!more);
            assert_eq!(games.len(), 1);
            assert_eq!(games[0].game, table);
            // Each game in a history carries its result, colours and rules.
            let g = &games[0];
            assert_eq!(
                g.result.as_ref().and_then(|r| r.winner_color()),
                Some(Color::Black)
            );
            assert_eq!(g.players[g.black.unwrap().index()], black_name);
            assert_eq!(g.config.as_ref().unwrap().rule_set, RuleSet::Renju);
        }
        other => panic!("{other:?}"),
    }
    match white
        .request(ClientMsg::GameRecord {
            game: table.clone(),
            format: RecordFormat::Renju,
        })
        .await
    {
        Ok(ServerMsg::GameRecord(r)) => {
            let text = r.text.unwrap();
            for want in [
                "[Game \"renju\"]".to_string(),
                format!("[Black \"{black_name}\"]"),
                format!("[White \"{white_name}\"]"),
                "[Result \"black wins\"]".to_string(),
                "1. h8 2. a1 3. h9 4. a3 5. h10 6. a5 7. h11 8. a7 9. h12".to_string(),
            ] {
                assert!(text.contains(&want), "{want} in {text}");
            }
        }
        other => panic!("{other:?}"),
    }
    match white
        .request(ClientMsg::GameRecord {
            game: table.clone(),
            format: RecordFormat::Psq,
        })
        .await
    {
        Ok(ServerMsg::GameRecord(r)) => {
            let text = r.text.unwrap();
            assert!(text.starts_with("Piskvorky 15x15"), "{text}");
            assert!(
                text.ends_with(&format!("{black_name}\n{white_name}\n-1\n")),
                "{text}"
            );
        }
        other => panic!("{other:?}"),
    }
    match white
        .request(ClientMsg::GameRecord {
            game: table.clone(),
            format: RecordFormat::Json,
        })
        .await
    {
        Ok(ServerMsg::GameRecord(r)) => {
            let rec = r.record.unwrap();
            assert!(rec.replay().is_ok());
            assert_eq!(
                rec.tags.get("first").map(String::as_str),
                Some(if seat_a == Seat::First {
                    "annika"
                } else {
                    "bobby"
                })
            );
        }
        other => panic!("{other:?}"),
    }

    // Restart on the same data directory: the ratings are still there.
    drop((ann, bob));
    server.shutdown();
    server.wait().await.unwrap();
    tokio::time::sleep(Duration::from_millis(400)).await;
    let server = start(&dir_path).await;
    let mut c = client(&server, "later", Encoding::Json).await;
    let again = profile(&mut c, black_name).await;
    assert_eq!(again.ratings, winner.ratings);
    let again = profile(&mut c, white_name).await;
    assert_eq!(again.ratings, loser.ratings);
    // And the accounts: logging in works.
    match c
        .request(ClientMsg::Login {
            name: black_name.into(),
            password: "long enough".into(),
        })
        .await
    {
        Ok(ServerMsg::LoggedIn(li)) => assert_eq!(li.player.name, black_name),
        other => panic!("{other:?}"),
    }
}

#[tokio::test]
async fn unqueue_and_a_dropped_connection_leave_the_queue() {
    let server = server().await;
    let config = GameConfig::new(RuleSet::Gomoku);
    let mut ann = account(&server, "annika").await;
    let mut bob = account(&server, "bobby").await;
    let mut cid = account(&server, "cidney").await;
    for c in [&mut ann, &mut bob] {
        assert!(matches!(
            c.request(ClientMsg::Queue {
                config: config.clone(),
                bots: false,
            })
            .await,
            Ok(ServerMsg::Queued { .. })
        ));
    }
    // Both queued at once: matched on the next pass. Unqueue from a third
    // that never queued is still answered.
    assert!(matches!(
        cid.request(ClientMsg::Unqueue).await,
        Ok(ServerMsg::Unqueued)
    ));
    let (_, table, _) = matched(&mut ann).await;
    let (_, table_b, _) = matched(&mut bob).await;
    assert_eq!(table, table_b);
    // cid queues and leaves; dee queues and drops; eve queues: nobody
    // is there for her.
    assert!(matches!(
        cid.request(ClientMsg::Queue {
            config: config.clone(),
            bots: false,
        })
        .await,
        Ok(ServerMsg::Queued { .. })
    ));
    assert!(matches!(
        cid.request(ClientMsg::Unqueue).await,
        Ok(ServerMsg::Unqueued)
    ));
    let mut dee = account(&server, "deedee").await;
    assert!(matches!(
        dee.request(ClientMsg::Queue {
            config: config.clone(),
            bots: false,
        })
        .await,
        Ok(ServerMsg::Queued { .. })
    ));
    drop(dee);
    tokio::time::sleep(Duration::from_millis(300)).await;
    let mut eve = account(&server, "evelyn").await;
    assert!(matches!(
        eve.request(ClientMsg::Queue {
            config: config.clone(),
            bots: false,
        })
        .await,
        Ok(ServerMsg::Queued { .. })
    ));
    eve.timeout = Duration::from_millis(1500);
    let next = eve
        .next_matching(|m| matches!(m, ServerMsg::Matched { .. }))
        .await;
    assert!(next.is_err(), "nobody waits: {next:?}");
}
