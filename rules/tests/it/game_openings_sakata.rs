//! Sakata and Super Sakata through the machine: the opener's 26, the other
//! seat's white 4 in the 7x7 and black 5 in the 9x9, the opener's colour
//! choice, Super Sakata's option (c) handed back and forth up to its bound,
//! and every refusal of the way (docs/rules.md §6).

use crate::common;

use common::*;
use tengen_rules::game::{
    Action, ActionKind, ForbiddenHandling, Game, GameConfig, GameError, Opening, RuleSet,
    SUPER_SAKATA_MAX_ROUNDS, Seat, Task, TimeControl,
};
use tengen_rules::{Color, Forbidden};

const F: Seat = Seat::First;
const S: Seat = Seat::Second;

fn choice(color: Color) -> Task {
    Task::SuperSakataChoice { color }
}

/// The opener's D4 (H8 H9 I9), then the other seat's white 4 and black 5.
fn to_move_five(opening: Opening, white4: &str, black5: &str) -> Game {
    let mut g = renju_game(opening);
    asks(&g, F, place_task(Color::Black, 1, Some(1)));
    play(&mut g, "H8");
    asks(&g, F, place_task(Color::White, 2, Some(3)));
    play(&mut g, "H9");
    asks(&g, F, place_task(Color::Black, 3, Some(5)));
    assert_eq!(formed(&play(&mut g, "I9")), Some("D4"));
    play(&mut g, &format!("{white4} {black5}"));
    g
}

#[test]
fn sakata_the_other_seat_places_four_and_five_then_the_opener_keeps_black() {
    let mut g = renju_game(Opening::Sakata);
    play(&mut g, "H8 H9 I9");
    // White 4 by the other seat, in the 7x7; the opener may not place it.
    asks(&g, S, place_task(Color::White, 4, Some(7)));
    assert_eq!(
        refused(&mut g, F, Action::place(p("K11")), 0),
        GameError::NotYourTurn
    );
    assert_eq!(
        refused(&mut g, S, Action::place(p("L12")), 0),
        GameError::OutsideZone { within: 7 }
    );
    assert_eq!(
        refused(&mut g, S, Action::pass(), 0),
        GameError::PassDuringOpening
    );
    play(&mut g, "K11");
    // Black 5 by the same seat, in the 9x9.
    asks(&g, S, place_task(Color::Black, 5, Some(9)));
    assert_eq!(
        refused(&mut g, S, Action::place(p("M13")), 0),
        GameError::OutsideZone { within: 9 }
    );
    assert_eq!(g.moves()[3].seat, S);
    play(&mut g, "L12");
    assert_eq!((g.moves()[4].seat, g.moves()[4].color), (S, Color::Black));
    // The opener chooses its colour: a plain swap decision, no third way.
    asks(&g, F, swap_task(Color::Black));
    assert_eq!(refused(&mut g, S, Action::Keep, 0), GameError::NotYourTurn);
    assert_eq!(
        refused(&mut g, F, Action::place(p("A1")), 0),
        GameError::SwapDecisionPending
    );
    assert_eq!(
        refused(&mut g, F, token_action("two:A1,O15"), 0),
        GameError::WrongAction {
            task: swap_task(Color::Black)
        }
    );
    play(&mut g, "keep");
    // Keeping black, the other seat plays white 6 anywhere: the opening is over.
    asks(&g, S, place_task(Color::White, 6, None));
    play(&mut g, "A1");
    assert!(!g.in_opening());
    assert!(g.allowed(F, 0).contains(&ActionKind::Pass));
    check_progress(&g, "D4", None);
}

#[test]
fn sakata_the_opener_takes_white_and_plays_six() {
    let mut g = to_move_five(Opening::Sakata, "E5", "D4");
    let ev = play(&mut g, "swap");
    assert!(swap_taken(&ev, F, S));
    asks(&g, F, place_task(Color::White, 6, None));
    play(&mut g, "O15");
    asks(&g, S, place_task(Color::Black, 7, None));
    check_progress(&g, "D4", None);
}

/// A renju game with `opening` and a minute each, sudden death.
fn sudden_death(opening: Opening) -> Game {
    let sd = TimeControl::SuddenDeath { main_ms: 60_000 };
    game(
        GameConfig::new(RuleSet::Renju)
            .with_opening(opening)
            .with_time(sd),
    )
}

#[test]
fn sakata_clocks_follow_who_acts() {
    let mut g = sudden_death(Opening::Sakata);
    // The opener's three stones are one turn: 3 s.
    play_at(&mut g, "H8 H9 I9", 1_000, 1_000);
    let c = g.clocks(3_000).unwrap();
    assert_eq!((c.first.main_ms, c.running), (57_000, Some(S)));
    // The other seat's two stones are one turn: 4 s.
    play_at(&mut g, "K11 L12", 5_000, 2_000);
    let c = g.clocks(7_000).unwrap();
    assert_eq!((c.second.main_ms, c.running), (56_000, Some(F)));
    // Taking white, the opener plays on: its clock runs through white 6.
    play_at(&mut g, "swap", 9_000, 0);
    assert_eq!(g.clocks(9_000).unwrap().running, Some(F));
    play_at(&mut g, "A1", 10_000, 0);
    let c = g.clocks(10_000).unwrap();
    assert_eq!((c.first.main_ms, c.running), (54_000, Some(S)));
}

#[test]
fn super_sakata_options_a_and_b_at_once() {
    // (b): the opener keeps black, the other seat plays white 6.
    let mut g = to_move_five(Opening::SuperSakata, "K11", "L12");
    asks(&g, F, choice(Color::Black));
    let may = g.allowed(F, 0);
    for kind in [ActionKind::Swap, ActionKind::Keep, ActionKind::PlaceTwo] {
        assert!(may.contains(&kind), "{kind:?} in {may:?}");
    }
    assert!(!may.contains(&ActionKind::Place) && !may.contains(&ActionKind::Pass));
    play(&mut g, "keep");
    asks(&g, S, place_task(Color::White, 6, None));
    play(&mut g, "A1");
    asks(&g, F, place_task(Color::Black, 7, None));
    check_progress(&g, "D4", None);
    // (a): the opener takes white and plays 6 itself.
    let mut g = to_move_five(Opening::SuperSakata, "K11", "L12");
    play(&mut g, "swap");
    asks(&g, F, place_task(Color::White, 6, None));
    play(&mut g, "A1");
    asks(&g, S, place_task(Color::Black, 7, None));
    assert_eq!(g.record().replay().unwrap(), g);
}

#[test]
fn super_sakata_option_c_hands_the_choice_to_the_other_seat() {
    let mut g = to_move_five(Opening::SuperSakata, "K11", "L12");
    // (c) by the opener: white 6 and black 7, anywhere.
    let ev = play(&mut g, "two:A1,O15");
    let moved: Vec<_> = ev
        .iter()
        .filter_map(|e| match e {
            tengen_rules::game::Event::Moved { mv, .. } => Some((mv.number, mv.seat, mv.color)),
            _ => None,
        })
        .collect();
    assert_eq!(moved, [(6, F, Color::White), (7, F, Color::Black)]);
    // Now the other seat, still holding white, chooses.
    asks(&g, S, choice(Color::White));
    assert_eq!(refused(&mut g, F, Action::Swap, 0), GameError::NotYourTurn);
    assert_eq!(
        refused(&mut g, S, Action::place(p("B1")), 0),
        GameError::SwapDecisionPending
    );
    assert_eq!(
        refused(&mut g, S, Action::DeclareOffers { count: 2 }, 0),
        GameError::WrongAction {
            task: choice(Color::White)
        }
    );
    // (a) for it is keeping white: it plays white 8.
    let mut keep = g.clone();
    play(&mut keep, "keep");
    asks(&keep, S, place_task(Color::White, 8, None));
    play(&mut keep, "B1");
    asks(&keep, F, place_task(Color::Black, 9, None));
    check_progress(&keep, "D4", None);
    // (b) for it is taking black: the opener, now white, plays 8.
    let ev = play(&mut g, "swap");
    assert!(swap_taken(&ev, S, S));
    asks(&g, F, place_task(Color::White, 8, None));
    check_progress(&g, "D4", None);
}

#[test]
fn super_sakata_option_c_refusals() {
    let mut g = to_move_five(Opening::SuperSakata, "K11", "L12");
    let two =
        |g: &mut Game, seat, pts: &str| refused(g, seat, token_action(&format!("two:{pts}")), 0);
    assert_eq!(two(&mut g, S, "A1,O15"), GameError::NotYourTurn);
    assert_eq!(
        two(&mut g, F, "H8,O15"),
        GameError::Occupied { point: p("H8") }
    );
    assert_eq!(
        two(&mut g, F, "A1,A1"),
        GameError::Occupied { point: p("A1") }
    );
    assert_eq!(
        refused(
            &mut g,
            F,
            Action::PlaceTwo {
                white: p("A1"),
                black: tengen_rules::Point::new(15, 0)
            },
            0
        ),
        GameError::OffBoard {
            point: tengen_rules::Point::new(15, 0)
        }
    );
    // Four rounds of (c): white A1-D1, black A15-D15, chooser by turns.
    for (i, pts) in ["A1,A15", "B1,B15", "C1,C15", "D1,D15"].iter().enumerate() {
        let chooser = [F, S][i % 2];
        asks(&g, chooser, choice([Color::Black, Color::White][i % 2]));
        play(&mut g, &format!("two:{pts}"));
    }
    // Neither stone may make a five, white's nor black's.
    assert_eq!(
        two(&mut g, F, "E1,O15"),
        GameError::OpeningFive { point: p("E1") }
    );
    assert_eq!(
        two(&mut g, F, "O1,E15"),
        GameError::OpeningFive { point: p("E15") }
    );
    assert!(!g.is_over());
}

#[test]
fn super_sakata_option_c_is_bounded() {
    let mut g = to_move_five(Opening::SuperSakata, "K11", "L12");
    let pairs = ["A1,O1", "A3,O3", "A5,O5", "A7,O7", "A9,O9"];
    assert_eq!(pairs.len(), SUPER_SAKATA_MAX_ROUNDS as usize);
    for pts in pairs {
        play(&mut g, &format!("two:{pts}"));
    }
    // Five rounds taken (move 15 stands): the chooser, the seat holding
    // white, has (a) and (b) only.
    assert_eq!(g.moves().len(), 15);
    asks(&g, S, swap_task(Color::White));
    assert_eq!(
        refused(&mut g, S, token_action("two:A11,O11"), 0),
        GameError::WrongAction {
            task: swap_task(Color::White)
        }
    );
    play(&mut g, "keep B2");
    asks(&g, F, place_task(Color::Black, 17, None));
    check_progress(&g, "D4", None);
}

/// Blacks H8 I9 J7 and J9 (from (c)); J10 then makes two threes: the
/// diagonal H8 I9 J10 and the column J7 . J9 J10.
fn double_three_at_j10(forbidden: ForbiddenHandling) -> Game {
    let config = GameConfig::new(RuleSet::Renju)
        .with_opening(Opening::SuperSakata)
        .with_forbidden(forbidden);
    let mut g = game(config);
    play(&mut g, "H8 H9 I9 E5 J7 two:A1,J9");
    g
}

#[test]
fn super_sakata_option_c_black_may_not_be_forbidden_in_any_room() {
    for handling in [
        ForbiddenHandling::Claim,
        ForbiddenHandling::Lose,
        ForbiddenHandling::Block,
    ] {
        let mut g = double_three_at_j10(handling);
        asks(&g, S, choice(Color::White));
        assert_eq!(
            refused(&mut g, S, token_action("two:B1,J10"), 0),
            GameError::ForbiddenPoint {
                point: p("J10"),
                kind: Forbidden::DoubleThree
            },
            "{handling:?}"
        );
        // Judged with the white stone down: white on G7 blocks the
        // diagonal, and J10 is a single three.
        play(&mut g, "two:G7,J10");
        asks(&g, F, choice(Color::Black));
    }
}

#[test]
fn super_sakata_clocks_pass_with_each_choice() {
    let mut g = sudden_death(Opening::SuperSakata);
    play_at(&mut g, "H8 H9 I9 K11 L12", 0, 0);
    // The opener thinks 3 s and places two: the other seat's clock runs.
    play_at(&mut g, "two:A1,O15", 3_000, 0);
    let c = g.clocks(3_000).unwrap();
    assert_eq!((c.first.main_ms, c.running), (57_000, Some(S)));
    // It thinks 2 s and keeps white: its clock runs on through white 8.
    play_at(&mut g, "keep", 5_000, 0);
    assert_eq!(g.clocks(5_000).unwrap().running, Some(S));
    play_at(&mut g, "B1", 6_000, 0);
    let c = g.clocks(6_000).unwrap();
    assert_eq!((c.second.main_ms, c.running), (57_000, Some(F)));
}

#[test]
fn sakata_rules_are_renju_only() {
    for o in [Opening::Sakata, Opening::SuperSakata] {
        for rs in [RuleSet::Gomoku, RuleSet::Freestyle] {
            assert!(GameConfig::new(rs).with_opening(o).validate().is_err());
        }
        assert!(
            GameConfig::new(RuleSet::Renju)
                .with_opening(o)
                .validate()
                .is_ok()
        );
    }
}
