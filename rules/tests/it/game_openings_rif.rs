//! RIF and Yamaguchi through the machine: every branch to a middle game,
//! every refusal, clocks, records (docs/rules.md §6).

use crate::common;

use common::*;
use tengen_rules::game::{
    Action, ActionKind, Event, GameConfig, GameError, GameRecord, Input, MAX_FIFTH_OFFERS,
    OfferSet, Opening, Outcome, ResultReason, RuleSet, Seat, Task, TimeControl,
};
use tengen_rules::{Color, Point};

fn rif() -> GameConfig {
    GameConfig::new(RuleSet::Renju).with_opening(Opening::Rif)
}

fn yamaguchi() -> GameConfig {
    GameConfig::new(RuleSet::Renju).with_opening(Opening::Yamaguchi)
}

fn task(g: &tengen_rules::game::Game) -> (Seat, Task) {
    g.task().expect("the game is on")
}

fn place(color: Color, move_number: u32, within: Option<u8>) -> Task {
    Task::Place {
        color,
        move_number,
        within,
    }
}

fn offers(s: &str) -> OfferSet {
    OfferSet::new(&s.split_whitespace().map(p).collect::<Vec<_>>()).unwrap()
}

#[test]
fn rif_without_swap_to_a_black_five() {
    let mut g = game(rif());
    // The opener lays moves 1-3, each in its square.
    assert_eq!(task(&g), (Seat::First, place(Color::Black, 1, Some(1))));
    play(&mut g, "H8");
    assert_eq!(task(&g), (Seat::First, place(Color::White, 2, Some(3))));
    play(&mut g, "H9");
    assert_eq!(task(&g), (Seat::First, place(Color::Black, 3, Some(5))));
    let ev = play(&mut g, "I9");
    assert!(ev.contains(&Event::OpeningFormed {
        code: "D4".into(),
        name: "Kagetsu".into(),
        chinese: "花月".into()
    }));
    assert_eq!(g.moves()[1].seat, Seat::First, "white 2 is the opener's");
    assert_eq!(g.moves()[1].color, Color::White);
    // The other seat, holding white, may swap.
    assert_eq!(
        task(&g),
        (
            Seat::Second,
            Task::DecideSwap {
                color: Color::White
            }
        )
    );
    assert_eq!(
        g.allowed(Seat::Second, 0)[..2],
        [ActionKind::Swap, ActionKind::Keep]
    );
    play(&mut g, "keep");
    assert_eq!(task(&g), (Seat::Second, place(Color::White, 4, None)));
    play(&mut g, "J7");
    assert_eq!(task(&g), (Seat::First, Task::OfferFifths { count: 2 }));
    let ev = play(&mut g, "offer:J10,G6");
    assert!(
        matches!(ev[0], Event::FifthsOffered { seat: Seat::First, points, .. } if points == offers("J10 G6"))
    );
    assert_eq!(g.moves().len(), 4, "the offers are not on the board yet");
    assert_eq!(g.board().get(p("J10")), None);
    assert_eq!(
        task(&g),
        (
            Seat::Second,
            Task::KeepFifth {
                offers: offers("J10 G6")
            }
        )
    );
    let ev = play(&mut g, "keep:J10");
    assert_eq!(
        ev[0],
        Event::FifthKept {
            seat: Seat::Second,
            kept: p("J10"),
            removed: vec![p("G6")]
        }
    );
    let Event::Moved { mv, .. } = ev[1] else {
        panic!("move 5 follows: {ev:?}")
    };
    assert_eq!(
        (mv.number, mv.seat, mv.color, mv.point),
        (5, Seat::First, Color::Black, Some(p("J10")))
    );
    assert_eq!(g.board().get(p("G6")), None, "the other offer is removed");
    // White plays 6 (it may pass now: five stones stand).
    assert_eq!(task(&g), (Seat::Second, place(Color::White, 6, None)));
    assert!(g.allowed(Seat::Second, 0).contains(&ActionKind::Pass));
    let ev = play(&mut g, "A1 K11 A3 L12");
    let r = game_over(&ev).expect("H8 I9 J10 K11 L12");
    assert_eq!(
        r.outcome,
        Outcome::Win {
            seat: Seat::First,
            color: Color::Black
        }
    );
    assert_eq!(g.renju_notation(), "h8 h9 i9 j7 j10 a1 k11 a3 l12");
    assert_eq!(g.record().renju_notation(), g.renju_notation());
    let snap = g.snapshot(0);
    assert_eq!(snap.opening.canonical.as_deref(), Some("D4"));
    assert_eq!(snap.opening.fifth_offers, Some(offers("J10 G6")));
    assert_eq!(snap.swapped, Some(false));
}

#[test]
fn rif_with_swap_the_opener_plays_white() {
    let mut g = game(rif());
    play(&mut g, "H8 I9 J10");
    play(&mut g, "swap");
    // The second seat took black; the opener now holds white and plays 4.
    assert_eq!(g.seat_of(Color::Black), Seat::Second);
    assert_eq!(task(&g), (Seat::First, place(Color::White, 4, None)));
    play(&mut g, "H7");
    assert_eq!(task(&g), (Seat::Second, Task::OfferFifths { count: 2 }));
    play(&mut g, "offer:K11,G9");
    assert_eq!(task(&g).0, Seat::First);
    play(&mut g, "keep:G9");
    assert_eq!(g.moves()[4].seat, Seat::Second);
    assert_eq!(task(&g), (Seat::First, place(Color::White, 6, None)));
    let ev = play(&mut g, "K11");
    assert!(game_over(&ev).is_none());
    let ev = g.apply(Seat::First, Action::Resign, 0).unwrap();
    let r = game_over(&ev).unwrap();
    assert_eq!(
        r.outcome,
        Outcome::Win {
            seat: Seat::Second,
            color: Color::Black
        }
    );
    assert_eq!(g.snapshot(0).swapped, Some(true));
}

#[test]
fn stones_outside_their_square_are_refused() {
    let mut g = game(rif());
    let bad =
        |g: &mut tengen_rules::game::Game, s: &str| refused(g, Seat::First, Action::place(p(s)), 0);
    assert_eq!(bad(&mut g, "H9"), GameError::OutsideZone { within: 1 });
    play(&mut g, "H8");
    // White 2 must touch black 1: H10 would not make one of the 26.
    assert_eq!(bad(&mut g, "H10"), GameError::OutsideZone { within: 3 });
    assert_eq!(bad(&mut g, "H8"), GameError::Occupied { point: p("H8") });
    play(&mut g, "G7");
    assert_eq!(bad(&mut g, "K8"), GameError::OutsideZone { within: 5 });
    assert_eq!(bad(&mut g, "E5"), GameError::OutsideZone { within: 5 });
    play(&mut g, "J6");
    // White 4 may go anywhere.
    play(&mut g, "keep A15");
    assert_eq!(g.moves().len(), 4);
}

#[test]
fn offers_refused_for_count_place_and_equivalence() {
    let mut g = game(rif());
    // Kagetsu h8 h9 i9 with white 4 on g10: symmetric about the diagonal
    // through h9 and i8, a line that misses H8.
    play(&mut g, "H8 H9 I9 keep G10");
    let offer = |s: &str| token_action(&format!("offer:{s}"));
    let f = Seat::First;
    assert_eq!(
        refused(&mut g, f, offer("J10"), 0),
        GameError::WrongOfferCount {
            expected: 2,
            got: 1
        }
    );
    assert_eq!(
        refused(&mut g, f, offer("J10,G6,K4"), 0),
        GameError::WrongOfferCount {
            expected: 2,
            got: 3
        }
    );
    assert_eq!(
        refused(&mut g, f, offer("J10,G10"), 0),
        GameError::Occupied { point: p("G10") }
    );
    assert_eq!(
        refused(&mut g, f, offer("J10,J10"), 0),
        GameError::RepeatedOffer { point: p("J10") }
    );
    let off = Action::OfferFifths {
        points: OfferSet::new(&[p("J10"), Point::new(16, 3)]).unwrap(),
    };
    assert_eq!(
        refused(&mut g, f, off, 0),
        GameError::OffBoard {
            point: Point::new(16, 3)
        }
    );
    for (a, b) in [("J8", "I7"), ("G9", "H10"), ("J10", "G7")] {
        assert_eq!(
            refused(&mut g, f, offer(&format!("{a},{b}")), 0),
            GameError::EquivalentOffers {
                first: p(a),
                second: p(b)
            }
        );
    }
    // Mirrored about H8's own axes instead: two offers.
    play(&mut g, "offer:J8,F8");
    assert_eq!(task(&g).0, Seat::Second);
}

#[test]
fn equivalence_with_centres_off_h8() {
    // Kosei h8 i9 j8, white 4 on i7: symmetric about column I.
    let mut g = game(rif());
    play(&mut g, "H8 I9 J8 keep I7");
    let e = refused(&mut g, Seat::First, token_action("offer:H10,J10"), 0);
    assert_eq!(
        e,
        GameError::EquivalentOffers {
            first: p("H10"),
            second: p("J10")
        }
    );
    // Column H, through H8, is no axis here.
    play(&mut g, "offer:G10,I10");

    // Black h8 j9, white i8 i9: only a half turn about the midpoint of i8
    // and i9, a centre that is no intersection.
    let mut g = game(rif());
    play(&mut g, "H8 I8 J9 keep I9");
    for (a, b) in [("H9", "J8"), ("K9", "G8")] {
        let e = refused(
            &mut g,
            Seat::First,
            token_action(&format!("offer:{a},{b}")),
            0,
        );
        assert_eq!(
            e,
            GameError::EquivalentOffers {
                first: p(a),
                second: p(b)
            }
        );
    }
    play(&mut g, "offer:H9,J10");
}

#[test]
fn acting_out_of_turn_and_out_of_step() {
    let mut g = game(rif());
    let (f, s) = (Seat::First, Seat::Second);
    assert_eq!(
        refused(&mut g, s, Action::place(p("H8")), 0),
        GameError::NotYourTurn
    );
    play(&mut g, "H8");
    // The opener lays white 2; the second seat may not.
    assert_eq!(
        refused(&mut g, s, Action::place(p("H9")), 0),
        GameError::NotYourTurn
    );
    assert_eq!(
        refused(&mut g, f, Action::Swap, 0),
        GameError::NoSwapDecision
    );
    assert_eq!(
        refused(&mut g, f, Action::DeclareOffers { count: 2 }, 0),
        GameError::WrongAction {
            task: place(Color::White, 2, Some(3))
        }
    );
    play(&mut g, "H9 I9");
    assert_eq!(refused(&mut g, f, Action::Keep, 0), GameError::NotYourTurn);
    assert_eq!(
        refused(&mut g, s, Action::place(p("J7")), 0),
        GameError::SwapDecisionPending
    );
    play(&mut g, "keep J7");
    assert_eq!(
        refused(&mut g, f, Action::place(p("J10")), 0),
        GameError::WrongAction {
            task: Task::OfferFifths { count: 2 }
        }
    );
    assert_eq!(
        refused(&mut g, s, token_action("offer:J10,G6"), 0),
        GameError::NotYourTurn
    );
    play(&mut g, "offer:J10,G6");
    assert_eq!(
        refused(&mut g, f, token_action("keep:J10"), 0),
        GameError::NotYourTurn
    );
    assert_eq!(
        refused(&mut g, s, token_action("keep:K11"), 0),
        GameError::NotAnOffer { point: p("K11") }
    );
    assert_eq!(
        refused(&mut g, s, Action::place(p("K11")), 0),
        GameError::WrongAction {
            task: Task::KeepFifth {
                offers: offers("J10 G6")
            }
        }
    );
}

#[test]
fn no_pass_during_the_opening() {
    let mut g = game(rif());
    for script in ["", "H8", "H9", "I9", "keep", "J7", "offer:J10,G6"] {
        if !script.is_empty() {
            play(&mut g, script);
        }
        let (seat, _) = task(&g);
        assert!(!g.allowed(seat, 0).contains(&ActionKind::Pass));
        assert_eq!(
            refused(&mut g, seat, Action::pass(), 0),
            GameError::PassDuringOpening,
            "after {script}"
        );
        assert_eq!(
            refused(&mut g, seat.other(), Action::pass(), 0),
            GameError::NotYourTurn
        );
    }
    play(&mut g, "keep:J10");
    play(&mut g, "pass");
    assert_eq!(g.moves()[5].point, None);
}

#[test]
fn clocks_run_for_the_deciding_seat_and_are_pressed_once_a_turn() {
    let fischer = TimeControl::Fischer {
        main_ms: 60_000,
        increment_ms: 1_000,
    };
    let mut g = game(rif().with_time(fischer));
    let running = |g: &tengen_rules::game::Game, at| g.clocks(at).unwrap().running;
    let main = |g: &tengen_rules::game::Game, seat, at| g.clocks(at).unwrap().seat(seat).main_ms;
    play_at(&mut g, "H8 H9", 1_000, 1_000);
    assert_eq!(running(&g, 2_000), Some(Seat::First));
    assert_eq!(
        main(&g, Seat::First, 2_000),
        58_000,
        "no press within a turn"
    );
    // The opener's third stone ends its turn: one press, one increment.
    g.apply_with_lag(Seat::First, Action::place(p("I9")), 3_000, 400)
        .unwrap();
    assert_eq!(running(&g, 3_000), Some(Seat::Second));
    assert_eq!(main(&g, Seat::First, 3_000), 58_400);
    let lags: Vec<u64> = g
        .entries()
        .iter()
        .map(|e| match e.input {
            Input::Act { lag_credit_ms, .. } => lag_credit_ms,
            _ => unreachable!(),
        })
        .collect();
    assert_eq!(lags, [0, 0, 400]);
    // The swap decision runs the second seat's clock; keeping is no press.
    play_at(&mut g, "keep", 5_000, 0);
    assert_eq!(running(&g, 5_000), Some(Seat::Second));
    assert_eq!(main(&g, Seat::Second, 5_000), 58_000);
    play_at(&mut g, "J7", 6_000, 0);
    assert_eq!(main(&g, Seat::Second, 6_000), 58_000);
    // Black's offers are one move.
    play_at(&mut g, "offer:J10,G6", 8_000, 0);
    assert_eq!(main(&g, Seat::First, 8_000), 57_400);
    assert_eq!(running(&g, 8_000), Some(Seat::Second));
    // White's choice and white 6 are one turn.
    play_at(&mut g, "keep:J10", 9_000, 0);
    assert_eq!(running(&g, 9_000), Some(Seat::Second));
    assert_eq!(main(&g, Seat::Second, 9_000), 57_000);
    play_at(&mut g, "K11", 10_000, 0);
    // Its turn began at 8 000: 2 s charged, one increment.
    assert_eq!(main(&g, Seat::Second, 10_000), 57_000);
    assert_eq!(running(&g, 10_000), Some(Seat::First));
    let replayed = GameRecord::from_json(&g.record().to_json())
        .unwrap()
        .replay()
        .unwrap();
    assert_eq!(replayed, g);
}

#[test]
fn yamaguchi_declares_n_then_n_offers() {
    let mut g = game(yamaguchi());
    play(&mut g, "H8 I9 J10");
    assert_eq!(
        task(&g),
        (
            Seat::First,
            Task::DeclareOffers {
                max: MAX_FIFTH_OFFERS
            }
        )
    );
    for count in [0, MAX_FIFTH_OFFERS + 1] {
        assert_eq!(
            refused(&mut g, Seat::First, Action::DeclareOffers { count }, 0),
            GameError::OfferCountOutOfRange {
                count,
                max: MAX_FIFTH_OFFERS
            }
        );
    }
    let ev = play(&mut g, "n=3");
    assert!(matches!(
        ev[0],
        Event::OffersDeclared {
            seat: Seat::First,
            count: 3,
            ..
        }
    ));
    assert_eq!(
        task(&g),
        (
            Seat::Second,
            Task::DecideSwap {
                color: Color::White
            }
        )
    );
    play(&mut g, "swap");
    assert_eq!(task(&g), (Seat::First, place(Color::White, 4, None)));
    play(&mut g, "G9");
    assert_eq!(task(&g), (Seat::Second, Task::OfferFifths { count: 3 }));
    assert_eq!(
        refused(&mut g, Seat::Second, token_action("offer:K8,H10"), 0),
        GameError::WrongOfferCount {
            expected: 3,
            got: 2
        }
    );
    play(&mut g, "offer:K8,H10,F7");
    play(&mut g, "keep:F7 K11");
    assert_eq!(g.moves()[4].point, Some(p("F7")));
    assert_eq!(g.snapshot(0).opening.declared_offers, Some(3));
    let ev = g.apply(Seat::Second, Action::Resign, 0).unwrap();
    assert_eq!(
        game_over(&ev).unwrap().reason,
        ResultReason::Resignation { seat: Seat::Second }
    );
    assert_eq!(g.record().replay().unwrap(), g);
}

#[test]
fn yamaguchi_with_one_offer_keeps_it_at_once() {
    let mut g = game(yamaguchi());
    play(&mut g, "H8 H9 J10 n=1 keep K7");
    assert_eq!(task(&g), (Seat::First, Task::OfferFifths { count: 1 }));
    let ev = play(&mut g, "offer:G7");
    assert!(matches!(ev[0], Event::FifthsOffered { .. }));
    assert!(matches!(ev[1], Event::Moved { mv, .. } if mv.number == 5 && mv.seat == Seat::First));
    assert_eq!(task(&g), (Seat::Second, place(Color::White, 6, None)));
    assert_eq!(g.record().renju_notation(), "h8 h9 j10 k7 g7");
    // Declaring before the opening stands is out of step.
    let mut g = game(yamaguchi());
    play(&mut g, "H8 H9");
    assert!(matches!(
        refused(&mut g, Seat::First, Action::DeclareOffers { count: 2 }, 0),
        GameError::WrongAction { .. }
    ));
}

#[test]
fn draw_offers_during_the_opening() {
    let mut g = game(rif());
    let with_offer = |s: &str| Action::Place {
        point: p(s),
        board: 0,
        offer_draw: true,
    };
    g.apply(Seat::First, with_offer("H8"), 0).unwrap();
    // The opener's own offer stands while it lays its next stone, and it
    // may not offer again meanwhile.
    assert_eq!(
        refused(&mut g, Seat::First, with_offer("H9"), 0),
        GameError::OfferPending
    );
    play(&mut g, "H9");
    assert_eq!(g.draw_offer(0), Some(Seat::First));
    let ev = g.apply(Seat::Second, Action::AcceptDraw, 0).unwrap();
    assert_eq!(game_over(&ev).unwrap().outcome, Outcome::Draw);

    // Declined by the other seat's move (its swap decision is no move;
    // taking black is).
    let mut g = game(rif());
    play(&mut g, "H8 H9");
    g.apply(Seat::First, with_offer("I9"), 0).unwrap();
    play(&mut g, "keep");
    assert_eq!(g.draw_offer(0), Some(Seat::First));
    let ev = play(&mut g, "J7");
    assert!(ev.contains(&Event::DrawDeclined {
        seat: Seat::Second,
        by_move: true
    }));
}
