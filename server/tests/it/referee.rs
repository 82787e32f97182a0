//! The referee over the wire: forbidden moves in each mode (and what a
//! spectator learns in `claim` rooms), draw offers, flags for each clock
//! type, aborts.

use crate::common;

use std::time::Duration;

use common::*;
use tengen_client::Connection;
use tengen_protocol::{ClientMsg, Encoding, ErrorCode, ServerMsg, TableEvent, TableId};
use tengen_rules::game::{
    Action, Event, ForbiddenHandling, GameConfig, GameError, Outcome, ResultReason, RuleSet, Seat,
    TimeControl,
};
use tengen_rules::{Color, Forbidden};

fn black(t: &Table) -> Seat {
    t.opener()
}

/// Plays `moves` alternately from black, and returns the acted seq.
async fn play(t: &mut Table, moves: &[&str]) -> u64 {
    let b = black(t);
    let mut seq = 0;
    for (i, p) in moves.iter().enumerate() {
        let seat = if i % 2 == 0 { b } else { b.other() };
        seq = t.act_as(seat, place(p)).await;
    }
    seq
}

async fn refused(
    c: &mut Connection,
    table: &TableId,
    action: Action,
) -> tengen_protocol::ErrorBody {
    match c
        .request(ClientMsg::Act {
            table: table.clone(),
            action,
        })
        .await
    {
        Err(tengen_client::ClientError::Refused(e)) => e,
        other => panic!("expected a refusal, got {other:?}"),
    }
}

async fn watch(server: &tengen_server::Server, table: &TableId) -> Connection {
    let mut c = client(server, "spy", Encoding::Json).await;
    match c
        .request(ClientMsg::Watch {
            table: table.clone(),
            since: None,
        })
        .await
        .unwrap()
    {
        ServerMsg::TableSnapshot(_) => c,
        other => panic!("{other:?}"),
    }
}

async fn events_through(c: &mut Connection, seq: u64) -> Vec<TableEvent> {
    let mut out = Vec::new();
    loop {
        let e = next_event(c).await;
        let last = e.seq;
        out.push(e);
        if last >= seq {
            return out;
        }
    }
}

// Black's stones H10 I10 and J11 J12 make J10 a double three (open threes
// across and down). In the control game white's last stone is K10, which
// blocks the row: J10 is then legal.
const DOUBLE_THREE_AT_J10: [&str; 10] = [
    "H8", "A1", "H10", "A3", "I10", "A5", "J11", "A7", "J12", "A9",
];

fn renju(handling: ForbiddenHandling) -> GameConfig {
    GameConfig::new(RuleSet::Renju).with_forbidden(handling)
}

#[tokio::test]
async fn claim_rooms_reveal_nothing_until_white_claims() {
    let server = server().await;
    // Game A: J10 will be forbidden. Game B: the same but for K10.
    let mut a = table(&server, renju(ForbiddenHandling::Claim), Encoding::Json).await;
    let mut b = table(&server, renju(ForbiddenHandling::Claim), Encoding::Json).await;
    let mut spy_a = watch(&server, &a.table).await;
    let mut spy_b = watch(&server, &b.table).await;
    let mut control = DOUBLE_THREE_AT_J10;
    control[9] = "K10";
    play(&mut a, &DOUBLE_THREE_AT_J10).await;
    play(&mut b, &control).await;
    let seq_a = a.act_as(black(&a), place("J10")).await;
    let seq_b = b.act_as(black(&b), place("J10")).await;
    assert_eq!(seq_a, seq_b);
    // Everything a spectator got for the forbidden stone is exactly what it
    // got for the legal one (table ids aside).
    let seen_a = events_through(&mut spy_a, seq_a).await;
    let seen_b = events_through(&mut spy_b, seq_b).await;
    // Table ids differ, and so may the seat drawn to open: name seats by
    // the colour they started with.
    let norm = |e: &TableEvent, t: &TableId, opener: Seat| {
        let s = serde_json::to_string(e).unwrap().replace(t.as_str(), "T");
        match opener {
            Seat::First => s,
            Seat::Second => s
                .replace("\"first\"", "\"X\"")
                .replace("\"second\"", "\"first\"")
                .replace("\"X\"", "\"second\""),
        }
    };
    let last_a = norm(seen_a.last().unwrap(), &a.table, black(&a));
    let last_b = norm(seen_b.last().unwrap(), &b.table, black(&b));
    assert_eq!(last_a, last_b);
    assert!(
        !last_a.contains("\"forbidden\":") && !last_a.contains("double-three"),
        "{last_a}"
    );
    // Snapshots say nothing either.
    for (spy, t) in [(&mut spy_a, &a.table), (&mut spy_b, &b.table)] {
        let snap = match spy
            .request(ClientMsg::Snapshot { table: t.clone() })
            .await
            .unwrap()
        {
            ServerMsg::TableSnapshot(s) => *s,
            other => panic!("{other:?}"),
        };
        assert!(snap.snapshot.forbidden.is_empty());
    }
    // A claim names its point: one without is refused, and changes nothing.
    let wa = black(&a).other();
    let table = a.table.clone();
    match a
        .conn(wa)
        .request(ClientMsg::Act {
            table,
            action: Action::ClaimForbidden { point: None },
        })
        .await
    {
        Err(tengen_client::ClientError::Refused(e)) => {
            assert_eq!(e.code, tengen_protocol::ErrorCode::BadRequest)
        }
        other => panic!("{other:?}"),
    }
    // White claims J10: upheld in A, a violation in B.
    a.act_as(wa, Action::claim("J10".parse().unwrap())).await;
    let claim = next_event(&mut spy_a).await;
    assert!(
        matches!(
            claim.event,
            Event::ClaimUpheld {
                kind: Forbidden::DoubleThree,
                ..
            }
        ),
        "{claim:?}"
    );
    let over = next_event(&mut spy_a).await;
    let Event::GameOver { result, .. } = over.event else {
        panic!("{over:?}")
    };
    assert_eq!(
        result.outcome,
        Outcome::Win {
            seat: wa,
            color: Color::White
        }
    );
    // The result shows the point and the kind.
    assert_eq!(
        result.reason,
        tengen_rules::game::ResultReason::ForbiddenClaimed {
            point: "J10".parse().unwrap(),
            forbidden: Forbidden::DoubleThree
        }
    );
    let wb = black(&b).other();
    b.act_as(wb, Action::claim("J10".parse().unwrap())).await;
    let v = next_event(&mut spy_b).await;
    assert!(
        matches!(v.event, Event::Violation { count: 1, point: Some(p), .. } if p == "J10".parse().unwrap()),
        "{v:?}"
    );
}

#[tokio::test]
async fn lose_rooms_end_on_a_forbidden_move() {
    let server = server().await;
    let mut t = table(&server, renju(ForbiddenHandling::Lose), Encoding::MsgPack).await;
    play(&mut t, &DOUBLE_THREE_AT_J10).await;
    let b = black(&t);
    t.act_as(b, place("J10")).await;
    let mut seen = events_through(&mut t.first, 12).await;
    let over = seen.pop().unwrap();
    let Event::GameOver { result, .. } = over.event else {
        panic!("{over:?}")
    };
    assert_eq!(
        result.outcome,
        Outcome::Win {
            seat: b.other(),
            color: Color::White
        }
    );
    assert!(matches!(
        result.reason,
        ResultReason::ForbiddenPlayed {
            forbidden: Forbidden::DoubleThree,
            ..
        }
    ));
}

#[tokio::test]
async fn block_rooms_refuse_the_point_and_change_nothing() {
    let server = server().await;
    let mut t = table(&server, renju(ForbiddenHandling::Block), Encoding::Json).await;
    let seq = play(&mut t, &DOUBLE_THREE_AT_J10).await;
    let b = black(&t);
    let table = t.table.clone();
    let e = refused(t.conn(b), &table, place("J10")).await;
    assert_eq!(e.code, ErrorCode::Game);
    assert!(matches!(
        e.game_error,
        Some(GameError::ForbiddenPoint {
            kind: Forbidden::DoubleThree,
            ..
        })
    ));
    // The same player can still move elsewhere, and the next seq follows on.
    let next = t.act_as(b, place("J9")).await;
    assert_eq!(next, seq + 1);
}

#[tokio::test]
async fn draw_offers_accepted_declined_and_declined_by_a_move() {
    let server = server().await;
    let mut t = table(&server, GameConfig::new(RuleSet::Freestyle), Encoding::Json).await;
    let (b, w) = (black(&t), black(&t).other());
    let table = t.table.clone();
    play(&mut t, &["H8", "H9", "I8", "I9", "J10", "J9"]).await;
    // Offered with a move; declined by the opponent's move.
    t.act_as(
        b,
        Action::Place {
            point: "A1".parse().unwrap(),
            board: 0,
            offer_draw: true,
        },
    )
    .await;
    t.act_as(w, place("O15")).await;
    // Offered separately, declined explicitly.
    t.act_as(w, Action::OfferDraw).await;
    t.act_as(b, Action::DeclineDraw).await;
    // Accepting when nothing is offered is refused.
    let e = refused(t.conn(b), &table, Action::AcceptDraw).await;
    assert!(matches!(e.game_error, Some(GameError::NoDrawOffer)));
    // Offered and accepted: a draw.
    t.act_as(b, place("A3")).await;
    t.act_as(b, Action::OfferDraw).await;
    let seq = t.act_as(w, Action::AcceptDraw).await;
    let seen = events_through(&mut t.first, seq).await;
    let kinds: Vec<&'static str> = seen
        .iter()
        .filter_map(|e| match &e.event {
            Event::DrawOffered { .. } => Some("offered"),
            Event::DrawDeclined { by_move: true, .. } => Some("declined_by_move"),
            Event::DrawDeclined { by_move: false, .. } => Some("declined"),
            Event::DrawAccepted { .. } => Some("accepted"),
            Event::GameOver { .. } => Some("over"),
            _ => None,
        })
        .collect();
    assert_eq!(
        kinds,
        [
            "offered",
            "declined_by_move",
            "offered",
            "declined",
            "offered",
            "accepted",
            "over"
        ]
    );
    let Event::GameOver { result, .. } = &seen.last().unwrap().event else {
        unreachable!()
    };
    assert_eq!(result.outcome, Outcome::Draw);
    assert_eq!(result.reason, ResultReason::DrawAgreed);
}

/// Black moves once, then nobody moves: white's clock runs out, and the
/// server flags it on its own (no message from anyone).
async fn flag(time: TimeControl) -> (Seat, ResultReason, Duration) {
    let server = server().await;
    let config = GameConfig::new(RuleSet::Gomoku).with_time(time);
    let mut t = table(&server, config, Encoding::Json).await;
    let b = black(&t);
    t.act_as(b, place("H8")).await;
    let start = std::time::Instant::now();
    let w = b.other();
    loop {
        let e = next_event(&mut t.first).await;
        if let Event::GameOver { result, .. } = e.event {
            assert_eq!(
                result.outcome,
                Outcome::Win {
                    seat: b,
                    color: Color::Black
                }
            );
            return (w, result.reason, start.elapsed());
        }
    }
}

#[tokio::test]
async fn flags_for_every_clock_type() {
    let (w, reason, took) = flag(TimeControl::SuddenDeath { main_ms: 300 }).await;
    assert_eq!(reason, ResultReason::Time { seat: w });
    assert!(took >= Duration::from_millis(250), "{took:?}");
    let (w, reason, _) = flag(TimeControl::Fischer {
        main_ms: 300,
        increment_ms: 100,
    })
    .await;
    assert_eq!(reason, ResultReason::Time { seat: w });
    // Main time 200 ms, then 2 periods of 150 ms: flagged after 500 ms.
    let (w, reason, took) = flag(TimeControl::ByoYomi {
        main_ms: 200,
        periods: 2,
        period_ms: 150,
        moves_per_period: 1,
    })
    .await;
    assert_eq!(reason, ResultReason::Time { seat: w });
    assert!(took >= Duration::from_millis(450), "{took:?}");
}

#[tokio::test]
async fn aborts_by_a_player_and_by_the_server() {
    let server = server_with(|s| s.first_move_timeout = Duration::from_millis(300)).await;
    // A player aborts before both have acted.
    let mut t = table(&server, GameConfig::new(RuleSet::Freestyle), Encoding::Json).await;
    let w = black(&t).other();
    let seq = t.act_as(w, Action::Abort).await;
    let seen = events_through(&mut t.first, seq).await;
    let Event::GameOver { result, .. } = &seen.last().unwrap().event else {
        panic!()
    };
    assert_eq!(result.outcome, Outcome::Aborted);
    // Nobody moves: the server aborts the game itself.
    let server2 = server_with(|s| s.first_move_timeout = Duration::from_millis(300)).await;
    let mut t = table(
        &server2,
        GameConfig::new(RuleSet::Freestyle),
        Encoding::Json,
    )
    .await;
    let e = next_event(&mut t.second).await;
    let Event::GameOver { result, .. } = e.event else {
        panic!("{e:?}")
    };
    assert_eq!(result.outcome, Outcome::Aborted);
    assert_eq!(result.reason, ResultReason::Aborted { seat: None });
}

#[tokio::test]
async fn an_unanswered_draw_offer_lapses_on_time() {
    let server = server().await;
    let config = GameConfig::new(RuleSet::Freestyle).with_draw(tengen_rules::game::DrawPolicy {
        max_offers: None,
        answer_ms: Some(200),
    });
    let mut t = table(&server, config, Encoding::Json).await;
    let b = black(&t);
    t.act_as(
        b,
        Action::Place {
            point: "H8".parse().unwrap(),
            board: 0,
            offer_draw: true,
        },
    )
    .await;
    let started = std::time::Instant::now();
    // Nobody sends anything: the table's own timer lapses the offer.
    loop {
        let e = next_event(&mut t.second).await;
        if let Event::DrawOfferLapsed { seat } = e.event {
            assert_eq!(seat, b);
            break;
        }
    }
    assert!(started.elapsed() >= Duration::from_millis(150));
    let table = t.table.clone();
    let e = refused(t.conn(b.other()), &table, Action::AcceptDraw).await;
    assert!(matches!(e.game_error, Some(GameError::NoDrawOffer)));
}
