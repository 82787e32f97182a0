//! An absent player (docs/rules.md §4): what the server may declare once
//! the grace is over, each recorded so a record replays to its end.

use crate::common;

use common::*;
use tengen_rules::game::{Input, Outcome, ResultReason, RuleSet, Seat, TimeControl};

#[test]
fn a_claimed_win_a_called_draw_and_both_away() {
    let mut g = timed(TimeControl::SuddenDeath { main_ms: 120_000 });
    play_at(&mut g, "H8 H9 J10", 1_000, 1_000);
    // White is away past the grace; its clock runs, and black claims.
    let ev = g.declare_abandoned(Seat::Second, 20_000).unwrap();
    let r = game_over(&ev).unwrap();
    assert_eq!(r.reason, ResultReason::Abandonment { seat: Seat::Second });
    assert_eq!(r.winner(), Some(Seat::First));
    let c = g.clocks(20_000).unwrap();
    assert_eq!(
        c.second.main_ms,
        120_000 - 1_000 - 17_000,
        "white's clock ran while away"
    );

    let mut g = timed(TimeControl::SuddenDeath { main_ms: 120_000 });
    play_at(&mut g, "H8 H9 J10", 1_000, 1_000);
    let ev = g.declare_draw_called(Seat::Second, 20_000).unwrap();
    let r = game_over(&ev).unwrap();
    assert_eq!(
        (r.outcome, r.reason.clone()),
        (
            Outcome::Draw,
            ResultReason::DrawCalled { seat: Seat::Second }
        )
    );
    let record = g.record();
    assert!(matches!(
        record.entries.last().unwrap().input,
        Input::DrawCalled { seat: Seat::Second }
    ));
    assert_eq!(record.replay().unwrap().result(), g.result());
    assert!(r.describe().contains("away"));

    let mut g = new_game(RuleSet::Gomoku);
    play(&mut g, "H8 H9 J10");
    let ev = g.declare_both_away(0).unwrap();
    assert_eq!(game_over(&ev).unwrap().reason, ResultReason::BothAway);
    assert_eq!(g.record().replay().unwrap().result(), g.result());
    assert!(g.declare_both_away(0).is_err(), "the game is over");
}
