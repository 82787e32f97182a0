//! Whole games over real WebSockets: two players and a spectator.

use crate::common;

use common::*;
use tengen_protocol::{ClientMsg, Encoding, ServerMsg, TableEvent};
use tengen_rules::game::{Event, GameConfig, Outcome, ResultReason, RuleSet, Seat};

/// Reads table events until `game_over`, checking `seq` has no gap.
async fn events_until_over(c: &mut tengen_client::Connection, mut seq: u64) -> Vec<TableEvent> {
    let mut out = Vec::new();
    loop {
        let f = c
            .next_matching(|m| matches!(m, ServerMsg::TableEvent(_)))
            .await
            .expect("an event");
        let ServerMsg::TableEvent(e) = f.msg else {
            unreachable!()
        };
        assert_eq!(e.seq, seq + 1, "events arrive in seq order, without gaps");
        seq = e.seq;
        let over = matches!(e.event, Event::GameOver { .. });
        out.push(e);
        if over {
            return out;
        }
    }
}

async fn freestyle_game(encoding: Encoding) {
    let server = server().await;
    let mut t = table(&server, GameConfig::new(RuleSet::Freestyle), encoding).await;
    let mut watcher = client(&server, "cat", encoding).await;
    let snap = match watcher
        .request(ClientMsg::Watch {
            table: t.table.clone(),
            since: None,
        })
        .await
        .unwrap()
    {
        ServerMsg::TableSnapshot(s) => *s,
        other => panic!("{other:?}"),
    };
    assert_eq!(snap.seat, None);
    assert_eq!(snap.seq, 0);
    // Black (the opener, drawn by lot) plays a row on 8, white on 9.
    let black = t.snapshot.snapshot.opener;
    let stones = ["H8", "H9", "I8", "I9", "J8", "J9", "K8", "K9", "L8"];
    let mut last = 0;
    for (i, p) in stones.iter().enumerate() {
        let seat = if i % 2 == 0 { black } else { black.other() };
        let c = if seat == Seat::First {
            &mut t.first
        } else {
            &mut t.second
        };
        last = act(c, &t.table, place(p)).await;
    }
    let seen = events_until_over(&mut watcher, 0).await;
    assert_eq!(seen.last().unwrap().seq, last);
    let Event::GameOver { result, .. } = &seen.last().unwrap().event else {
        unreachable!()
    };
    assert_eq!(
        result.outcome,
        Outcome::Win {
            seat: black,
            color: tengen_rules::Color::Black
        }
    );
    assert!(matches!(result.reason, ResultReason::Five { .. }));
    // Both players saw the same events, and the final snapshot agrees.
    let a = events_until_over(&mut t.first, 0).await;
    let b = events_until_over(&mut t.second, 0).await;
    assert_eq!(a, seen);
    assert_eq!(b, seen);
    let end = match watcher
        .request(ClientMsg::Snapshot {
            table: t.table.clone(),
        })
        .await
        .unwrap()
    {
        ServerMsg::TableSnapshot(s) => *s,
        other => panic!("{other:?}"),
    };
    assert_eq!(end.seq, last);
    assert_eq!(end.snapshot.moves.len(), stones.len());
    assert_eq!(end.snapshot.result.as_ref(), Some(result));
}

#[tokio::test]
async fn freestyle_game_over_json() {
    freestyle_game(Encoding::Json).await;
}

#[tokio::test]
async fn freestyle_game_over_msgpack() {
    freestyle_game(Encoding::MsgPack).await;
}
