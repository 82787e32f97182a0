//! Jonsson through the machine: the opener's 26, a swap option, white 4 and
//! a declared 1..3 offers, a second swap option, the offers and white's
//! choice; every refusal of the way (docs/rules.md §6).

use crate::common;

use common::*;
use tengen_rules::Color;
use tengen_rules::game::{Action, Game, GameError, JONSSON_MAX_OFFERS, Opening, Seat, Task};

fn jonsson() -> Game {
    renju_game(Opening::Jonsson)
}

#[test]
fn keeping_both_times_to_move_seven() {
    let mut g = jonsson();
    asks(&g, Seat::First, place_task(Color::Black, 1, Some(1)));
    play(&mut g, "H8");
    // The opener lays all three stones.
    asks(&g, Seat::First, place_task(Color::White, 2, Some(3)));
    play(&mut g, "H9");
    let ev = play(&mut g, "I9");
    assert_eq!(formed(&ev), Some("D4"));
    asks(&g, Seat::Second, swap_task(Color::White));
    play(&mut g, "keep J7");
    // White declares after its 4th: 1, 2 or 3.
    asks(
        &g,
        Seat::Second,
        Task::DeclareOffers {
            max: JONSSON_MAX_OFFERS,
        },
    );
    refuse_counts(&mut g, Seat::Second, &[0, 4, 8], 3);
    assert_eq!(
        refused(&mut g, Seat::First, Action::DeclareOffers { count: 2 }, 0),
        GameError::NotYourTurn
    );
    let ev = play(&mut g, "n=3");
    assert!(declared(&ev, Seat::Second, 3));
    // Then the holder of black may swap.
    asks(&g, Seat::First, swap_task(Color::Black));
    assert_eq!(
        refused(&mut g, Seat::Second, Action::Swap, 0),
        GameError::NotYourTurn
    );
    play(&mut g, "keep");
    asks(&g, Seat::First, Task::OfferFifths { count: 3 });
    assert_eq!(
        refused(&mut g, Seat::First, token_action("offer:J10,G6"), 0),
        GameError::WrongOfferCount {
            expected: 3,
            got: 2
        }
    );
    play(&mut g, "offer:J10,G6,K11");
    assert!(matches!(task_of(&g), (Seat::Second, Task::KeepFifth { offers }) if offers.len() == 3));
    assert_eq!(
        refused(&mut g, Seat::Second, token_action("keep:L12"), 0),
        GameError::NotAnOffer { point: p("L12") }
    );
    play(&mut g, "keep:K11 L12");
    assert_eq!(g.moves()[4].point, Some(p("K11")));
    assert_eq!(g.moves()[5].point, Some(p("L12")));
    asks(&g, Seat::First, place_task(Color::Black, 7, None));
    check_progress(&g, "D4", Some(3));
}

#[test]
fn swapping_both_times() {
    let mut g = jonsson();
    play(&mut g, "H8 I9 J10 swap");
    assert_eq!(g.seat_of(Color::Black), Seat::Second);
    // The opener, now white, plays 4 and declares.
    asks(&g, Seat::First, place_task(Color::White, 4, None));
    play(&mut g, "E12");
    asks(&g, Seat::First, Task::DeclareOffers { max: 3 });
    play(&mut g, "n=1");
    asks(&g, Seat::Second, swap_task(Color::Black));
    let ev = play(&mut g, "swap");
    assert!(swap_taken(&ev, Seat::Second, Seat::First));
    // One offer: it stands as black 5 at once, and white plays 6.
    asks(&g, Seat::First, Task::OfferFifths { count: 1 });
    play(&mut g, "offer:G9");
    asks(&g, Seat::Second, place_task(Color::White, 6, None));
    play(&mut g, "G10");
    assert_eq!(g.moves().len(), 6);
    assert_eq!(g.record().replay().unwrap(), g);
}

#[test]
fn stones_outside_the_26_are_refused() {
    let mut g = jonsson();
    let bad = |g: &mut Game, s: &str| refused(g, Seat::First, Action::place(p(s)), 0);
    assert_eq!(bad(&mut g, "H9"), GameError::OutsideZone { within: 1 });
    play(&mut g, "H8");
    assert_eq!(bad(&mut g, "H10"), GameError::OutsideZone { within: 3 });
    play(&mut g, "H9");
    // Black 3 in the 7x7 but outside the 5x5: not one of the 26.
    assert_eq!(bad(&mut g, "H11"), GameError::OutsideZone { within: 5 });
    play(&mut g, "H10");
    // White 4 anywhere.
    play(&mut g, "keep A1");
    assert_eq!(g.moves().len(), 4);
}

#[test]
fn acting_out_of_turn_and_out_of_step() {
    let mut g = jonsson();
    let (f, s) = (Seat::First, Seat::Second);
    assert_eq!(
        refused(&mut g, s, Action::place(p("H8")), 0),
        GameError::NotYourTurn
    );
    play(&mut g, "H8 H9");
    assert_eq!(
        refused(&mut g, s, Action::place(p("I9")), 0),
        GameError::NotYourTurn
    );
    play(&mut g, "I9");
    // White declares only after its 4th.
    assert_eq!(
        refused(&mut g, s, Action::DeclareOffers { count: 2 }, 0),
        GameError::WrongAction {
            task: Task::DecideSwap {
                color: Color::White
            }
        }
    );
    play(&mut g, "keep");
    assert_eq!(
        refused(&mut g, s, Action::DeclareOffers { count: 2 }, 0),
        GameError::WrongAction {
            task: place_task(Color::White, 4, None)
        }
    );
    play(&mut g, "J7");
    assert_eq!(
        refused(&mut g, s, Action::place(p("J10")), 0),
        GameError::WrongAction {
            task: Task::DeclareOffers { max: 3 }
        }
    );
    play(&mut g, "n=2");
    // Black may not offer before deciding the swap.
    assert_eq!(
        refused(&mut g, f, token_action("offer:J10,G6"), 0),
        GameError::WrongAction {
            task: Task::DecideSwap {
                color: Color::Black
            }
        }
    );
    play(&mut g, "keep");
    assert_eq!(
        refused(&mut g, s, token_action("offer:J10,G6"), 0),
        GameError::NotYourTurn
    );
    assert_eq!(
        refused(&mut g, f, Action::pass(), 0),
        GameError::PassDuringOpening
    );
    play(&mut g, "offer:J10,G6");
    assert_eq!(
        refused(&mut g, f, token_action("keep:J10"), 0),
        GameError::NotYourTurn
    );
}

#[test]
fn equivalent_offers_are_refused() {
    // Kagetsu h8 h9 i9 with white 4 on g10: symmetric about the diagonal
    // through h9 and i8.
    let mut g = jonsson();
    play(&mut g, "H8 H9 I9 keep G10 n=2 keep");
    refuse_equivalent(&mut g, Seat::First, &[("J8", "I7"), ("G9", "H10")]);
    assert_eq!(
        refused(&mut g, Seat::First, token_action("offer:J8,G10"), 0),
        GameError::Occupied { point: p("G10") }
    );
    play(&mut g, "offer:J8,F8 keep:F8");
    assert_eq!(g.moves()[4].point, Some(p("F8")));
}
