//! Every refusal path: each is a typed error and leaves the game exactly as
//! it was (the `refused` helper compares the whole game before and after).

use crate::common;

use common::*;
use tengen_rules::Point;
use tengen_rules::game::{
    Action, ActionKind, GameConfig, GameError, Opening, RuleSet, Seat, TimeControl,
};

#[test]
fn not_your_turn() {
    let mut g = new_game(RuleSet::Freestyle);
    assert_eq!(
        refused(&mut g, Seat::Second, Action::place(p("H8")), 0),
        GameError::NotYourTurn
    );
    play(&mut g, "H8 I9 J10 A1 A2");
    assert_eq!(
        refused(&mut g, Seat::First, Action::pass(), 0),
        GameError::NotYourTurn
    );
    assert!(!g.allowed(Seat::First, 0).contains(&ActionKind::Place));
}

#[test]
fn off_board_and_occupied() {
    let mut g = new_game(RuleSet::Gomoku);
    play(&mut g, "H8");
    let off = Point::new(15, 3);
    assert_eq!(
        refused(&mut g, Seat::Second, Action::place(off), 0),
        GameError::OffBoard { point: off }
    );
    assert_eq!(
        refused(&mut g, Seat::Second, Action::place(p("H8")), 0),
        GameError::Occupied { point: p("H8") }
    );
    // 19 x 19 free-style accepts what 15 x 15 refuses.
    let mut big = game(GameConfig::free(RuleSet::Freestyle).with_size(19));
    play(&mut big, "S19");
}

#[test]
fn renju_black_one_on_the_centre() {
    let mut g = new_game(RuleSet::Renju);
    assert_eq!(
        refused(&mut g, Seat::First, Action::place(p("I9")), 0),
        GameError::OutsideZone { within: 1 }
    );
    play(&mut g, "H8 I9");
    // Only the first move.
    play(&mut g, "A1");
}

#[test]
fn no_pass_before_five_stones() {
    let mut g = new_game(RuleSet::Renju);
    play(&mut g, "H8 A1 L12 A3");
    assert!(!g.allowed(Seat::First, 0).contains(&ActionKind::Pass));
    assert_eq!(
        refused(&mut g, Seat::First, Action::pass(), 0),
        GameError::PassNotAllowed
    );
    play(&mut g, "D12");
    assert!(g.allowed(Seat::Second, 0).contains(&ActionKind::Pass));
    play(&mut g, "pass");
}

#[test]
fn swap_decisions() {
    let mut g = game(GameConfig::new(RuleSet::Gomoku));
    assert_eq!(g.config().opening, Opening::SwapAfterThree);
    // No swap to decide yet.
    assert_eq!(
        refused(&mut g, Seat::First, Action::Swap, 0),
        GameError::NoSwapDecision
    );
    assert_eq!(
        refused(&mut g, Seat::Second, Action::Keep, 0),
        GameError::NotYourTurn
    );
    play(&mut g, "H8 I9 J10");
    assert_eq!(
        refused(&mut g, Seat::Second, Action::place(p("A1")), 0),
        GameError::SwapDecisionPending
    );
    assert_eq!(
        refused(&mut g, Seat::Second, Action::pass(), 0),
        GameError::SwapDecisionPending
    );
    assert_eq!(
        refused(&mut g, Seat::First, Action::Swap, 0),
        GameError::NotYourTurn
    );
    assert_eq!(
        refused(&mut g, Seat::First, Action::place(p("A1")), 0),
        GameError::NotYourTurn
    );
    g.apply(Seat::Second, Action::Swap, 0).unwrap();
    // Once only.
    assert_eq!(
        refused(&mut g, Seat::First, Action::Swap, 0),
        GameError::NoSwapDecision
    );
    assert_eq!(
        refused(&mut g, Seat::Second, Action::Keep, 0),
        GameError::NotYourTurn
    );
    // Free openings never ask.
    let mut g = new_game(RuleSet::Gomoku);
    play(&mut g, "H8 I9 J10");
    assert_eq!(
        refused(&mut g, Seat::Second, Action::Swap, 0),
        GameError::NoSwapDecision
    );
}

#[test]
fn abort_only_before_both_have_acted() {
    let mut g = new_game(RuleSet::Gomoku);
    play(&mut g, "H8 I9");
    for seat in Seat::BOTH {
        assert_eq!(
            refused(&mut g, seat, Action::Abort, 0),
            GameError::AbortNotAllowed
        );
        assert!(!g.allowed(seat, 0).contains(&ActionKind::Abort));
    }
    let before = g.clone();
    assert_eq!(g.declare_aborted(0), Err(GameError::AbortNotAllowed));
    assert_eq!(g, before);
}

#[test]
fn after_the_end_everything_is_refused() {
    let mut g = new_game(RuleSet::Gomoku);
    play(&mut g, "H8 I9");
    g.apply(Seat::First, Action::Resign, 0).unwrap();
    for seat in Seat::BOTH {
        for action in [
            Action::place(p("A1")),
            Action::pass(),
            Action::Swap,
            Action::Keep,
            Action::OfferDraw,
            Action::AcceptDraw,
            Action::DeclineDraw,
            Action::claim(p("H8")),
            Action::EndTurn,
            Action::RequestTakeback,
            Action::AcceptTakeback,
            Action::DeclineTakeback,
            Action::Resign,
            Action::Abort,
        ] {
            assert_eq!(
                refused(&mut g, seat, action, 1),
                GameError::GameOver,
                "{action:?}"
            );
        }
        assert!(g.allowed(seat, 1).is_empty());
    }
    let before = g.clone();
    assert!(g.tick(1_000_000).is_empty());
    assert_eq!(
        g.declare_abandoned(Seat::First, 5),
        Err(GameError::GameOver)
    );
    assert_eq!(g.declare_aborted(5), Err(GameError::GameOver));
    assert_eq!(g, before);
    assert_eq!(g.next_deadline(), None);
}

#[test]
fn time_up_and_time_going_backwards() {
    let mut g = game(
        GameConfig::free(RuleSet::Gomoku).with_time(TimeControl::SuddenDeath { main_ms: 10_000 }),
    );
    play_at(&mut g, "H8", 1_000, 0);
    assert_eq!(
        refused(&mut g, Seat::Second, Action::place(p("I9")), 500),
        GameError::TimeWentBackwards {
            now: 500,
            last: 1_000
        }
    );
    assert_eq!(g.flag_at(), Some(11_000));
    // At the flag instant every input is refused until the server ticks.
    for seat in Seat::BOTH {
        assert_eq!(
            refused(&mut g, seat, Action::Resign, 11_000),
            GameError::TimeUp { seat: Seat::Second }
        );
        assert!(g.allowed(seat, 11_000).is_empty());
    }
    let before = g.clone();
    assert_eq!(
        g.declare_abandoned(Seat::First, 11_000),
        Err(GameError::TimeUp { seat: Seat::Second })
    );
    assert_eq!(g, before);
    // A tick from the past does nothing.
    assert!(g.tick(900).is_empty());
    assert_eq!(g, before);
}

#[test]
fn invalid_configurations_make_no_game() {
    let bad = GameConfig::free(RuleSet::Renju).with_size(19);
    assert!(tengen_rules::game::Game::new(bad, Seat::First, 0).is_err());
}
