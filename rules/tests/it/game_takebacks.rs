//! Takebacks (docs/rules.md §5): asked by a player, granted or refused by
//! the other; only in rooms that allow them, never of the opening; the
//! record replays them exactly.

use crate::common;

use common::*;
use tengen_rules::game::{
    Action, ActionKind, Event, ForbiddenHandling, Game, GameConfig, GameError, Opening, RuleSet,
    Seat, TimeControl,
};
use tengen_rules::{Color, Forbidden};

fn casual(config: GameConfig) -> Game {
    game(config.with_takebacks(true))
}

#[test]
fn the_requesters_last_move_goes_and_it_moves_again() {
    let time = TimeControl::Fischer {
        main_ms: 60_000,
        increment_ms: 1_000,
    };
    let mut g = casual(GameConfig::free(RuleSet::Gomoku).with_time(time));
    play_at(&mut g, "H8 H9 J10", 1_000, 1_000);
    // White (second) to move; black (first) regrets J10.
    assert!(
        g.allowed(Seat::First, 4_000)
            .contains(&ActionKind::RequestTakeback)
    );
    assert!(
        g.prompt(4_000)
            .unwrap()
            .other_may
            .contains(&ActionKind::RequestTakeback),
        "the prompt tells the other seat's actions"
    );
    let ev = g
        .apply(Seat::First, Action::RequestTakeback, 4_000)
        .unwrap();
    assert_eq!(ev, vec![Event::TakebackRequested { seat: Seat::First }]);
    assert_eq!(g.snapshot(4_000).takeback, Some(Seat::First));
    let may = g.allowed(Seat::Second, 4_500);
    assert!(
        may.contains(&ActionKind::AcceptTakeback) && may.contains(&ActionKind::DeclineTakeback)
    );
    let before_clocks = g.clocks(5_000).unwrap();
    let ev = g
        .apply(Seat::Second, Action::AcceptTakeback, 5_000)
        .unwrap();
    let Event::TakenBack {
        seat,
        undone,
        clocks,
    } = &ev[0]
    else {
        panic!("{ev:?}")
    };
    assert_eq!(*seat, Seat::First);
    assert_eq!(undone.len(), 1);
    assert_eq!(undone[0].point, Some(p("J10")));
    assert_eq!(g.moves().len(), 2);
    assert_eq!(g.board().get(p("J10")), None);
    assert_eq!(g.to_act(), Some(Seat::First));
    // The clocks are not turned back: white was charged its 2 s, no
    // increment, and black's clock runs from now.
    let c = clocks.unwrap();
    assert_eq!(c.running, Some(Seat::First));
    assert_eq!(c.second.main_ms, before_clocks.second.main_ms);
    assert_eq!(c.first.main_ms, before_clocks.first.main_ms);
    play_at(&mut g, "K11", 6_000, 0);
    assert_eq!(g.board().get(p("K11")), Some(Color::Black));
    let record = g.record();
    let again = record.replay().unwrap();
    assert_eq!(again.moves(), g.moves());
    assert_eq!(
        record.renju_notation(),
        "h8 h9 k11",
        "moves taken back are not listed"
    );
}

#[test]
fn asked_on_ones_own_turn_the_opponents_reply_goes_too() {
    let mut g = casual(GameConfig::free(RuleSet::Gomoku));
    play(&mut g, "H8 H9 J10 J11");
    // Black to move; black asks to take back J10: J11 goes with it.
    g.apply(Seat::First, Action::RequestTakeback, 0).unwrap();
    let ev = g.apply(Seat::Second, Action::AcceptTakeback, 0).unwrap();
    let Event::TakenBack { undone, .. } = &ev[0] else {
        panic!("{ev:?}")
    };
    let points: Vec<_> = undone.iter().map(|m| m.point).collect();
    assert_eq!(points, [Some(p("J10")), Some(p("J11"))]);
    assert_eq!(g.to_act(), Some(Seat::First));
    assert_eq!(g.moves().len(), 2);
}

#[test]
fn declined_or_answered_by_a_move_and_not_asked_again_at_once() {
    let mut g = casual(GameConfig::free(RuleSet::Gomoku));
    play(&mut g, "H8 H9 J10");
    g.apply(Seat::First, Action::RequestTakeback, 0).unwrap();
    assert_eq!(
        refused(&mut g, Seat::First, Action::RequestTakeback, 0),
        GameError::TakebackPending
    );
    let ev = g.apply(Seat::Second, Action::DeclineTakeback, 0).unwrap();
    assert_eq!(
        ev,
        vec![Event::TakebackDeclined {
            seat: Seat::Second,
            by_move: false
        }]
    );
    assert_eq!(
        refused(&mut g, Seat::First, Action::RequestTakeback, 0),
        GameError::TakebackDeclinedAlready
    );
    assert!(
        !g.allowed(Seat::First, 0)
            .contains(&ActionKind::RequestTakeback)
    );
    // A move lets it be asked again; and a move declines a standing one.
    play(&mut g, "K11");
    g.apply(Seat::First, Action::RequestTakeback, 0).unwrap();
    let ev = play(&mut g, "L12");
    assert!(
        ev.contains(&Event::TakebackDeclined {
            seat: Seat::First,
            by_move: true
        }),
        "the requester's own move withdraws it: {ev:?}"
    );
    assert_eq!(g.snapshot(0).takeback, None);
    assert_eq!(
        refused(&mut g, Seat::First, Action::AcceptTakeback, 0),
        GameError::NoTakebackRequest
    );
}

#[test]
fn refused_where_takebacks_are_off_and_for_the_opening() {
    // A rated or tournament game's configuration has them off.
    let mut g = game(GameConfig::free(RuleSet::Gomoku));
    play(&mut g, "H8 H9 J10");
    assert_eq!(
        refused(&mut g, Seat::First, Action::RequestTakeback, 0),
        GameError::TakebacksOff
    );
    assert!(
        !g.allowed(Seat::First, 0)
            .contains(&ActionKind::RequestTakeback)
    );
    // Nothing to take back before one's first move.
    let mut g = casual(GameConfig::free(RuleSet::Gomoku));
    play(&mut g, "H8");
    assert_eq!(
        refused(&mut g, Seat::Second, Action::RequestTakeback, 0),
        GameError::NothingToTakeBack
    );
    // The opening's stones and decisions are never taken back: in a RIF
    // game, nothing before move 6.
    let mut g = casual(GameConfig::new(RuleSet::Renju).with_opening(Opening::Rif));
    play(&mut g, "H8 H9 J10 keep K7 offer:K11,G7 keep:K11");
    let white = g.seat_of(Color::White);
    assert_eq!(
        refused(&mut g, white, Action::RequestTakeback, 0),
        GameError::NothingToTakeBack
    );
    play(&mut g, "A1");
    g.apply(white, Action::RequestTakeback, 0).unwrap();
    g.apply(white.other(), Action::AcceptTakeback, 0).unwrap();
    assert_eq!(g.moves().len(), 5);
    assert_eq!(g.to_act(), Some(white));
}

#[test]
fn a_forbidden_stone_taken_back_is_forgotten_and_its_claim_comes_back() {
    let mut g = casual(GameConfig::new(RuleSet::Renju).with_forbidden(ForbiddenHandling::Claim));
    // I8 is a double three (black H8 G8 I9 I10 I8).
    play(&mut g, &with_far_white(&["H8", "G8", "I9", "I10", "I8"]));
    play(&mut g, "C9");
    // White regrets C9: back to white's turn after I8, whose claim is open
    // again, and holds.
    let white = g.seat_of(Color::White);
    g.apply(white, Action::RequestTakeback, 0).unwrap();
    g.apply(white.other(), Action::AcceptTakeback, 0).unwrap();
    let ev = g.apply(white, Action::claim(p("I8")), 0).unwrap();
    assert!(matches!(
        ev[0],
        Event::ClaimUpheld {
            kind: Forbidden::DoubleThree,
            ..
        }
    ));
    assert_eq!(g.record().replay().unwrap().result(), g.result());
}
