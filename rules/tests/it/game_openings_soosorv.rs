//! Soosõrv-N and Taraguchi-N through the machine: each swap point taken
//! and not, both Taraguchi options, refusals and clocks (docs/rules.md §6).

use crate::common;

use common::*;
use tengen_rules::Color;
use tengen_rules::game::{
    Action, Event, Game, GameConfig, GameError, Opening, Outcome, RuleSet, Seat, TaraguchiOption,
    Task, TimeControl,
};

fn renju(opening: Opening) -> Game {
    game(GameConfig::new(RuleSet::Renju).with_opening(opening))
}

fn task(g: &Game) -> (Seat, Task) {
    g.task().expect("the game is on")
}

fn place(color: Color, move_number: u32, within: Option<u8>) -> Task {
    Task::Place {
        color,
        move_number,
        within,
    }
}

fn swap_for(color: Color) -> Task {
    Task::DecideSwap { color }
}

#[test]
fn soosorv_keeping_both_times() {
    let mut g = renju(Opening::SOOSORV);
    play(&mut g, "H8 H9 I9");
    assert_eq!(task(&g), (Seat::Second, swap_for(Color::White)));
    play(&mut g, "keep J7");
    // White declares after its 4th, from 1 to N.
    assert_eq!(task(&g), (Seat::Second, Task::DeclareOffers { max: 8 }));
    assert_eq!(
        refused(&mut g, Seat::Second, Action::DeclareOffers { count: 9 }, 0),
        GameError::OfferCountOutOfRange { count: 9, max: 8 }
    );
    play(&mut g, "n=2");
    // Then black may swap.
    assert_eq!(task(&g), (Seat::First, swap_for(Color::Black)));
    play(&mut g, "keep");
    assert_eq!(task(&g), (Seat::First, Task::OfferFifths { count: 2 }));
    play(&mut g, "offer:J10,G6 keep:J10");
    assert_eq!(task(&g), (Seat::Second, place(Color::White, 6, None)));
    let ev = play(&mut g, "A1 K11 A3 L12");
    assert_eq!(
        game_over(&ev).unwrap().outcome,
        Outcome::Win {
            seat: Seat::First,
            color: Color::Black
        }
    );
    assert_eq!(g.record().replay().unwrap(), g);
}

#[test]
fn soosorv_swapping_both_times() {
    let mut g = renju(Opening::Soosorv { n: 4 });
    play(&mut g, "H8 H9 I9 swap");
    assert_eq!(g.seat_of(Color::Black), Seat::Second);
    assert_eq!(task(&g), (Seat::First, place(Color::White, 4, None)));
    play(&mut g, "J7");
    assert_eq!(task(&g), (Seat::First, Task::DeclareOffers { max: 4 }));
    assert_eq!(
        refused(&mut g, Seat::First, Action::DeclareOffers { count: 5 }, 0),
        GameError::OfferCountOutOfRange { count: 5, max: 4 }
    );
    play(&mut g, "n=3");
    // The seat holding black (the second) may give black back.
    assert_eq!(task(&g), (Seat::Second, swap_for(Color::Black)));
    let ev = play(&mut g, "swap");
    assert!(ev.iter().any(|e| matches!(
        e,
        Event::SwapDecided {
            seat: Seat::Second,
            swapped: true,
            black: Seat::First,
            ..
        }
    )));
    assert_eq!(task(&g), (Seat::First, Task::OfferFifths { count: 3 }));
    play(&mut g, "offer:J10,G6,K11");
    assert_eq!(task(&g).0, Seat::Second);
    play(&mut g, "keep:G6 F5");
    assert_eq!(task(&g), (Seat::First, place(Color::Black, 7, None)));
    assert_eq!(g.record().replay().unwrap(), g);
}

#[test]
fn soosorv_declaration_and_swap_are_one_turn_then_black_clock_runs() {
    let fischer = TimeControl::Fischer {
        main_ms: 60_000,
        increment_ms: 1_000,
    };
    let mut g = game(
        GameConfig::new(RuleSet::Renju)
            .with_opening(Opening::SOOSORV)
            .with_time(fischer),
    );
    play_at(&mut g, "H8 H9 I9", 0, 0);
    play_at(&mut g, "keep J7", 2_000, 1_000);
    assert_eq!(g.clocks(3_000).unwrap().running, Some(Seat::Second));
    // Declaring ends white's turn (begun at 0): 4 s, one increment.
    play_at(&mut g, "n=2", 4_000, 0);
    let c = g.clocks(4_000).unwrap();
    assert_eq!(c.running, Some(Seat::First), "black decides the swap");
    assert_eq!(c.second.main_ms, 57_000);
    play_at(&mut g, "keep", 5_000, 0);
    assert_eq!(g.clocks(5_000).unwrap().running, Some(Seat::First));
    play_at(&mut g, "offer:J10,G6", 7_000, 0);
    let c = g.clocks(7_000).unwrap();
    assert_eq!(c.running, Some(Seat::Second));
    // The first seat's stones were pressed at 0 (61 s); its turn resumed at
    // 4 s: 3 s charged, one increment.
    assert_eq!(c.first.main_ms, 59_000);
}

#[test]
fn taraguchi_single_option_keeping_throughout() {
    let mut g = renju(Opening::TARAGUCHI);
    assert_eq!(task(&g), (Seat::First, place(Color::Black, 1, Some(1))));
    play(&mut g, "H8");
    assert_eq!(task(&g), (Seat::Second, swap_for(Color::White)));
    play(&mut g, "keep");
    assert_eq!(task(&g), (Seat::Second, place(Color::White, 2, Some(3))));
    play(&mut g, "H9");
    assert_eq!(task(&g), (Seat::First, swap_for(Color::Black)));
    play(&mut g, "keep");
    assert_eq!(task(&g), (Seat::First, place(Color::Black, 3, Some(5))));
    let ev = play(&mut g, "J10");
    assert!(ev.iter().any(|e| matches!(e, Event::OpeningFormed { .. })));
    play(&mut g, "keep");
    assert_eq!(task(&g), (Seat::Second, place(Color::White, 4, Some(7))));
    assert_eq!(
        refused(&mut g, Seat::Second, Action::place(p("L8")), 0),
        GameError::OutsideZone { within: 7 }
    );
    play(&mut g, "K7");
    // No swap after 4: black chooses the option.
    assert_eq!(task(&g), (Seat::First, Task::ChooseOption { offers: 10 }));
    let ev = play(&mut g, "single");
    assert!(matches!(
        ev[0],
        Event::OptionChosen {
            seat: Seat::First,
            option: TaraguchiOption::Single,
            ..
        }
    ));
    assert_eq!(task(&g), (Seat::First, swap_for(Color::Black)));
    play(&mut g, "keep");
    assert_eq!(task(&g), (Seat::First, place(Color::Black, 5, Some(9))));
    assert_eq!(
        refused(&mut g, Seat::First, Action::place(p("M8")), 0),
        GameError::OutsideZone { within: 9 }
    );
    play(&mut g, "L12");
    assert_eq!(task(&g), (Seat::Second, swap_for(Color::White)));
    assert_eq!(
        refused(&mut g, Seat::Second, Action::pass(), 0),
        GameError::PassDuringOpening,
        "five stones stand, but a decision is pending"
    );
    play(&mut g, "keep");
    assert_eq!(task(&g), (Seat::Second, place(Color::White, 6, None)));
    play(&mut g, "A1 I9 A3");
    let ev = g.apply(Seat::First, Action::Resign, 0).unwrap();
    assert_eq!(game_over(&ev).unwrap().winner(), Some(Seat::Second));
    assert_eq!(g.snapshot(0).opening.option, Some(TaraguchiOption::Single));
    assert_eq!(g.record().replay().unwrap(), g);
}

#[test]
fn taraguchi_single_option_swapping_throughout() {
    let mut g = renju(Opening::TARAGUCHI);
    // Each swap hands the colour to move to the seat that just placed.
    play(&mut g, "H8 swap");
    assert_eq!(task(&g), (Seat::First, place(Color::White, 2, Some(3))));
    play(&mut g, "I9 swap");
    assert_eq!(task(&g), (Seat::First, place(Color::Black, 3, Some(5))));
    play(&mut g, "G10 swap");
    assert_eq!(task(&g), (Seat::First, place(Color::White, 4, Some(7))));
    play(&mut g, "E5");
    assert_eq!(g.seat_of(Color::Black), Seat::Second);
    assert_eq!(task(&g), (Seat::Second, Task::ChooseOption { offers: 10 }));
    play(&mut g, "single swap");
    assert_eq!(task(&g), (Seat::First, place(Color::Black, 5, Some(9))));
    play(&mut g, "D4 swap");
    assert_eq!(g.seat_of(Color::White), Seat::First);
    assert_eq!(task(&g), (Seat::First, place(Color::White, 6, None)));
    play(&mut g, "O15 H10");
    assert_eq!(g.moves().len(), 7);
    assert_eq!(g.record().replay().unwrap(), g);
}

#[test]
fn taraguchi_offers_option() {
    let mut g = renju(Opening::TARAGUCHI);
    play(&mut g, "H8 keep H9 swap");
    // The first seat, holding black after white 2, took white: the second
    // seat, which placed white 2, now holds black and plays 3.
    assert_eq!(task(&g), (Seat::Second, place(Color::Black, 3, Some(5))));
    play(&mut g, "J10 keep K7");
    assert_eq!(task(&g), (Seat::Second, Task::ChooseOption { offers: 10 }));
    play(&mut g, "offers");
    assert_eq!(task(&g), (Seat::Second, Task::OfferFifths { count: 10 }));
    // Offers go anywhere: the 9x9 square does not bind them.
    let ten = "B2,D2,F2,B14,D14,F14,N2,N4,N13,M14";
    let nine = "B2,D2,F2,B14,D14,F14,N2,N4,N13";
    assert_eq!(
        refused(
            &mut g,
            Seat::Second,
            token_action(&format!("offer:{nine}")),
            0
        ),
        GameError::WrongOfferCount {
            expected: 10,
            got: 9
        }
    );
    play(&mut g, &format!("offer:{ten}"));
    assert!(matches!(task(&g), (Seat::First, Task::KeepFifth { offers }) if offers.len() == 10));
    play(&mut g, "keep:N13 G7");
    assert_eq!(g.moves()[4].point, Some(p("N13")));
    assert_eq!(g.moves()[4].seat, Seat::Second);
    assert_eq!(task(&g), (Seat::Second, place(Color::Black, 7, None)));
    assert_eq!(g.record().replay().unwrap(), g);

    // Taraguchi-3 asks for three.
    let mut g = renju(Opening::Taraguchi { n: 3 });
    play(&mut g, "H8 keep H9 keep J10 keep K7");
    assert_eq!(task(&g), (Seat::First, Task::ChooseOption { offers: 3 }));
    play(&mut g, "offers");
    assert_eq!(task(&g), (Seat::First, Task::OfferFifths { count: 3 }));
    // Kagetsu-like symmetry is gone with k7; g11 and l6 are distinct offers.
    play(&mut g, "offer:G11,L6,C3");
    play(&mut g, "keep:L6");
    assert_eq!(g.moves().len(), 5);
}

#[test]
fn taraguchi_refusals_out_of_step() {
    let mut g = renju(Opening::TARAGUCHI);
    play(&mut g, "H8");
    assert_eq!(
        refused(&mut g, Seat::Second, Action::place(p("H9")), 0),
        GameError::SwapDecisionPending
    );
    assert_eq!(
        refused(&mut g, Seat::First, Action::Keep, 0),
        GameError::NotYourTurn
    );
    play(&mut g, "keep");
    assert_eq!(
        refused(&mut g, Seat::Second, Action::place(p("J10")), 0),
        GameError::OutsideZone { within: 3 }
    );
    play(&mut g, "H9 keep J10 keep K7");
    let option = Action::ChooseOption {
        option: TaraguchiOption::Offers,
    };
    assert_eq!(
        refused(&mut g, Seat::Second, option, 0),
        GameError::NotYourTurn
    );
    assert_eq!(
        refused(&mut g, Seat::First, Action::Swap, 0),
        GameError::NoSwapDecision
    );
    assert_eq!(
        refused(&mut g, Seat::First, Action::pass(), 0),
        GameError::PassDuringOpening
    );
    play(&mut g, "offers");
    assert!(matches!(
        refused(&mut g, Seat::First, option, 0),
        GameError::WrongAction {
            task: Task::OfferFifths { count: 10 }
        }
    ));
}
