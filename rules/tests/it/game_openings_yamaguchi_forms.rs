//! The two other forms of Yamaguchi through the machine: with the 52
//! openings (black 3 anywhere in the 7x7) and the variant where each colour
//! lays its own stones; every phase and its refusals (docs/rules.md §6).

use crate::common;

use common::*;
use tengen_rules::Color;
use tengen_rules::game::{Action, Game, GameError, MAX_FIFTH_OFFERS, Opening, Seat, Task};

#[test]
fn yamaguchi_52_with_a_large_opening_to_move_seven() {
    let mut g = renju_game(Opening::Yamaguchi52);
    asks(&g, Seat::First, place_task(Color::Black, 1, Some(1)));
    play(&mut g, "H8");
    asks(&g, Seat::First, place_task(Color::White, 2, Some(3)));
    play(&mut g, "H9");
    asks(&g, Seat::First, place_task(Color::Black, 3, Some(7)));
    // H11: black 3 three points above H8, outside the 5x5.
    let ev = play(&mut g, "H11");
    assert_eq!(formed(&ev), Some("LD1"));
    asks(
        &g,
        Seat::First,
        Task::DeclareOffers {
            max: MAX_FIFTH_OFFERS,
        },
    );
    refuse_counts(
        &mut g,
        Seat::First,
        &[0, MAX_FIFTH_OFFERS + 1],
        MAX_FIFTH_OFFERS,
    );
    assert_eq!(
        refused(&mut g, Seat::Second, Action::DeclareOffers { count: 2 }, 0),
        GameError::NotYourTurn
    );
    let ev = play(&mut g, "n=2");
    assert!(declared(&ev, Seat::First, 2));
    asks(&g, Seat::Second, swap_task(Color::White));
    assert_eq!(
        refused(&mut g, Seat::First, Action::Keep, 0),
        GameError::NotYourTurn
    );
    play(&mut g, "keep");
    asks(&g, Seat::Second, place_task(Color::White, 4, None));
    // White 4 on column H keeps the position symmetric about it.
    play(&mut g, "H5");
    asks(&g, Seat::First, Task::OfferFifths { count: 2 });
    refuse_equivalent(&mut g, Seat::First, &[("G10", "I10")]);
    assert_eq!(
        refused(&mut g, Seat::First, token_action("offer:G10,J9,K9"), 0),
        GameError::WrongOfferCount {
            expected: 2,
            got: 3
        }
    );
    play(&mut g, "offer:G10,J9");
    assert_eq!(
        refused(&mut g, Seat::Second, token_action("keep:K9"), 0),
        GameError::NotAnOffer { point: p("K9") }
    );
    play(&mut g, "keep:J9 G7");
    assert_eq!(g.moves()[4].point, Some(p("J9")));
    asks(&g, Seat::First, place_task(Color::Black, 7, None));
    check_progress(&g, "LD1", Some(2));
}

#[test]
fn yamaguchi_52_zones_and_the_26_within_it() {
    let mut g = renju_game(Opening::Yamaguchi52);
    let bad = |g: &mut Game, s: &str| refused(g, Seat::First, Action::place(p(s)), 0);
    assert_eq!(bad(&mut g, "I8"), GameError::OutsideZone { within: 1 });
    play(&mut g, "H8");
    assert_eq!(bad(&mut g, "J10"), GameError::OutsideZone { within: 3 });
    assert_eq!(
        refused(&mut g, Seat::Second, Action::place(p("I9")), 0),
        GameError::NotYourTurn,
        "the opener lays all three"
    );
    play(&mut g, "I9");
    for s in ["L12", "H12", "D8"] {
        assert_eq!(bad(&mut g, s), GameError::OutsideZone { within: 7 }, "{s}");
    }
    // One of the 26 is one of the 52 too, and keeps its name.
    let ev = play(&mut g, "J10");
    assert_eq!(formed(&ev), Some("I1"));
    play(&mut g, "n=3 swap");
    assert_eq!(g.seat_of(Color::White), Seat::First);
    asks(&g, Seat::First, place_task(Color::White, 4, None));
    play(&mut g, "B2");
    asks(&g, Seat::Second, Task::OfferFifths { count: 3 });
    play(&mut g, "offer:K11,G9,F12 keep:F12 M13");
    assert_eq!(g.moves().len(), 6);
    assert_eq!(g.record().replay().unwrap(), g);
}

#[test]
fn variant_each_colour_lays_its_own_stones() {
    let mut g = renju_game(Opening::YamaguchiVariant);
    asks(&g, Seat::First, place_task(Color::Black, 1, Some(1)));
    assert_eq!(
        refused(&mut g, Seat::First, Action::place(p("H9")), 0),
        GameError::OutsideZone { within: 1 }
    );
    play(&mut g, "H8");
    // White 2 is the second seat's, inside the 3x3.
    asks(&g, Seat::Second, place_task(Color::White, 2, Some(3)));
    assert_eq!(
        refused(&mut g, Seat::First, Action::place(p("H9")), 0),
        GameError::NotYourTurn
    );
    assert_eq!(
        refused(&mut g, Seat::Second, Action::place(p("H10")), 0),
        GameError::OutsideZone { within: 3 }
    );
    play(&mut g, "H9");
    // Black 3 in the 7x7.
    asks(&g, Seat::First, place_task(Color::Black, 3, Some(7)));
    assert_eq!(
        refused(&mut g, Seat::First, Action::place(p("L8")), 0),
        GameError::OutsideZone { within: 7 }
    );
    assert_eq!(
        refused(&mut g, Seat::First, Action::DeclareOffers { count: 2 }, 0),
        GameError::WrongAction {
            task: place_task(Color::Black, 3, Some(7))
        }
    );
    let ev = play(&mut g, "K11");
    assert_eq!(formed(&ev), Some("LD4"));
    // Black declares N with its 3rd stone.
    asks(
        &g,
        Seat::First,
        Task::DeclareOffers {
            max: MAX_FIFTH_OFFERS,
        },
    );
    refuse_counts(&mut g, Seat::First, &[0, 11, 255], MAX_FIFTH_OFFERS);
    assert_eq!(
        refused(&mut g, Seat::Second, Action::DeclareOffers { count: 2 }, 0),
        GameError::NotYourTurn
    );
    play(&mut g, "n=2");
    asks(&g, Seat::Second, swap_task(Color::White));
    let ev = play(&mut g, "swap");
    assert!(swap_taken(&ev, Seat::Second, Seat::Second));
    // The first seat now holds white and plays 4 anywhere.
    asks(&g, Seat::First, place_task(Color::White, 4, None));
    play(&mut g, "O1");
    asks(&g, Seat::Second, Task::OfferFifths { count: 2 });
    assert_eq!(
        refused(&mut g, Seat::Second, token_action("offer:J10,J10"), 0),
        GameError::RepeatedOffer { point: p("J10") }
    );
    assert_eq!(
        refused(&mut g, Seat::First, token_action("offer:J10,G7"), 0),
        GameError::NotYourTurn
    );
    play(&mut g, "offer:J10,G7");
    assert_eq!(
        refused(&mut g, Seat::Second, token_action("keep:J10"), 0),
        GameError::NotYourTurn
    );
    play(&mut g, "keep:G7 F6");
    assert_eq!(g.moves()[4].point, Some(p("G7")));
    assert_eq!(g.moves()[4].seat, Seat::Second);
    assert_eq!(g.moves()[5].seat, Seat::First);
    asks(&g, Seat::Second, place_task(Color::Black, 7, None));
    check_progress(&g, "LD4", Some(2));
}

#[test]
fn variant_equivalent_offers_and_no_pass() {
    let mut g = renju_game(Opening::YamaguchiVariant);
    // LD1 h8 h9 h11 with white 4 on h5: symmetric about column H.
    play(&mut g, "H8 H9 H11 n=2 keep");
    assert_eq!(
        refused(&mut g, Seat::Second, Action::pass(), 0),
        GameError::PassDuringOpening
    );
    play(&mut g, "H5");
    refuse_equivalent(&mut g, Seat::First, &[("G10", "I10"), ("E8", "K8")]);
    play(&mut g, "offer:G10,K8 keep:G10");
    asks(&g, Seat::Second, place_task(Color::White, 6, None));
}
