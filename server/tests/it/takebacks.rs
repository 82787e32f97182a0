//! Takebacks through the server: asked and granted in a casual game (the
//! record keeps them), refused in a rated one; and a declined draw offer,
//! which the offerer is told of.

use crate::common;

use std::time::Duration;

use common::*;
use tengen_protocol::{ClientMsg, Encoding, RecordFormat, ServerMsg};
use tengen_rules::game::{Action, ActionKind, Event, GameConfig, GameError, Input, RuleSet};

#[tokio::test]
async fn a_casual_game_takes_a_move_back_and_records_it() {
    let server = server().await;
    let mut t = table(&server, GameConfig::free(RuleSet::Gomoku), Encoding::Json).await;
    assert!(
        t.snapshot.snapshot.config.takebacks,
        "casual rooms allow them"
    );
    let black = t.opener();
    let white = black.other();
    t.act_as(black, place("H8")).await;
    t.act_as(white, place("H9")).await;
    // With white to move, the prompt tells what black may do meanwhile.
    let seq = t.act_as(black, place("J10")).await;
    let e = loop {
        let e = next_event(t.conn(white)).await;
        if e.seq == seq {
            break e;
        }
    };
    let prompt = e.prompt.unwrap();
    assert_eq!(prompt.seat, white);
    assert!(prompt.other_may.contains(&ActionKind::RequestTakeback));
    t.act_as(black, Action::RequestTakeback).await;
    let e = next_event(t.conn(white)).await;
    assert_eq!(e.event, Event::TakebackRequested { seat: black });
    t.act_as(white, Action::AcceptTakeback).await;
    let e = loop {
        let e = next_event(t.conn(black)).await;
        if matches!(e.event, Event::TakenBack { .. }) {
            break e;
        }
    };
    let Event::TakenBack { seat, undone, .. } = e.event else {
        panic!("{e:?}")
    };
    assert_eq!((seat, undone.len()), (black, 1));
    assert_eq!(e.prompt.unwrap().seat, black, "black moves again");
    t.act_as(black, place("K11")).await;
    t.act_as(white, Action::Resign).await;
    tokio::time::sleep(Duration::from_millis(200)).await;
    let table = t.table.clone();
    match t
        .conn(white)
        .request(ClientMsg::GameRecord {
            game: table,
            format: RecordFormat::Json,
        })
        .await
        .unwrap()
    {
        ServerMsg::GameRecord(r) => {
            let r = r.record.unwrap();
            let inputs: Vec<_> = r
                .entries
                .iter()
                .filter_map(|e| match e.input {
                    Input::Act { action, .. } => Some(action),
                    _ => None,
                })
                .collect();
            assert!(inputs.contains(&Action::RequestTakeback));
            assert!(inputs.contains(&Action::AcceptTakeback));
            assert_eq!(r.renju_notation(), "h8 h9 k11");
            assert_eq!(r.replay().unwrap().moves().len(), 3);
        }
        other => panic!("{other:?}"),
    }
}

#[tokio::test]
async fn a_rated_game_refuses_takebacks() {
    let server = server().await;
    let mut ann = account(&server, "annika").await;
    let mut bob = account(&server, "bobby").await;
    let room = match ann
        .request(ClientMsg::CreateRoom {
            config: GameConfig::free(RuleSet::Gomoku),
            public: true,
            name: None,
            chat: true,
            rated: true,
        })
        .await
        .unwrap()
    {
        ServerMsg::RoomCreated { room, .. } => room,
        other => panic!("{other:?}"),
    };
    bob.request(ClientMsg::JoinRoom { room }).await.unwrap();
    let snap = snapshot_push(&mut ann).await;
    snapshot_push(&mut bob).await;
    assert!(!snap.snapshot.config.takebacks);
    let (black, white) = if snap.snapshot.black == snap.seat.unwrap() {
        (&mut ann, &mut bob)
    } else {
        (&mut bob, &mut ann)
    };
    act(black, &snap.table, place("H8")).await;
    act(white, &snap.table, place("H9")).await;
    match white
        .request(ClientMsg::Act {
            table: snap.table.clone(),
            action: Action::RequestTakeback,
        })
        .await
    {
        Err(tengen_client::ClientError::Refused(e)) => {
            assert_eq!(e.game_error, Some(GameError::TakebacksOff))
        }
        other => panic!("{other:?}"),
    }
}

#[tokio::test]
async fn the_offerer_hears_that_its_draw_was_declined() {
    let server = server().await;
    let mut t = table(&server, GameConfig::free(RuleSet::Gomoku), Encoding::Json).await;
    let black = t.opener();
    let white = black.other();
    t.act_as(
        black,
        Action::Place {
            point: "H8".parse().unwrap(),
            board: 0,
            offer_draw: true,
        },
    )
    .await;
    t.act_as(white, Action::DeclineDraw).await;
    loop {
        let e = next_event(t.conn(black)).await;
        if let Event::DrawDeclined { seat, by_move } = e.event {
            assert_eq!((seat, by_move), (white, false));
            break;
        }
    }
    // A move declines it too, and the offerer hears that as well.
    t.act_as(
        white,
        Action::Place {
            point: "A1".parse().unwrap(),
            board: 0,
            offer_draw: true,
        },
    )
    .await;
    t.act_as(black, place("J10")).await;
    // (White's connection heard its own decline first.)
    loop {
        let e = next_event(t.conn(white)).await;
        if let Event::DrawDeclined { seat, by_move } = e.event
            && seat == black
        {
            assert!(by_move);
            break;
        }
    }
}
