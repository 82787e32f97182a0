//! Clocks inside the machine (docs/rules.md §7): who runs, charges, bonuses,
//! flag instants and the flag itself, byo-yomi periods, lag credit.

use crate::common;

use common::*;
use tengen_rules::Color;
use tengen_rules::game::{
    Action, ClockSnapshot, Event, GameConfig, Input, Opening, ResultReason, RuleSet, Seat,
    SeatClock, TimeControl,
};

fn main_ms(ms: u64) -> SeatClock {
    SeatClock {
        main_ms: ms,
        ..SeatClock::default()
    }
}

#[test]
fn sudden_death_charges_the_mover_and_flags() {
    let mut g = timed(TimeControl::SuddenDeath { main_ms: 60_000 });
    assert_eq!(
        g.flag_at(),
        Some(60_000),
        "black's clock starts with the game"
    );
    let ev = g.apply(Seat::First, Action::place(p("H8")), 5_000).unwrap();
    assert_eq!(
        moved_clocks(&ev),
        ClockSnapshot {
            running: Some(Seat::Second),
            first: main_ms(55_000),
            second: main_ms(60_000)
        }
    );
    g.apply(Seat::Second, Action::place(p("I9")), 12_000)
        .unwrap();
    assert_eq!(g.flag_at(), Some(12_000 + 55_000));
    assert_eq!(g.next_deadline(), g.flag_at());
    let live = g.clocks(30_000).unwrap();
    assert_eq!(live.first.main_ms, 37_000);
    assert_eq!(live.second.main_ms, 53_000);
    assert!(g.tick(66_999).is_empty());
    let ev = g.tick(67_000);
    let r = game_over(&ev).unwrap();
    assert_eq!(r.reason, ResultReason::Time { seat: Seat::First });
    assert_eq!(r.winner(), Some(Seat::Second));
    assert_eq!(r.winner_color(), Some(Color::White));
    let Some(Event::GameOver {
        clocks: Some(c), ..
    }) = ev.last()
    else {
        panic!()
    };
    assert_eq!(c.running, None);
    assert_eq!(c.first.main_ms, 0);
    assert_eq!(c.second.main_ms, 53_000);
    assert!(matches!(g.entries().last().unwrap().input, Input::Tick));
}

#[test]
fn fischer_adds_the_increment_after_each_move() {
    let mut g = timed(TimeControl::Fischer {
        main_ms: 30_000,
        increment_ms: 5_000,
    });
    let ev = g
        .apply(Seat::First, Action::place(p("H8")), 10_000)
        .unwrap();
    assert_eq!(moved_clocks(&ev).first.main_ms, 25_000);
    let ev = g
        .apply(Seat::Second, Action::place(p("I9")), 11_000)
        .unwrap();
    assert_eq!(moved_clocks(&ev).second.main_ms, 34_000);
    assert_eq!(g.flag_at(), Some(11_000 + 25_000));
    // Resigning ends the clocks without an increment.
    let ev = g.apply(Seat::First, Action::Resign, 21_000).unwrap();
    let Some(Event::GameOver {
        clocks: Some(c), ..
    }) = ev.last()
    else {
        panic!()
    };
    assert_eq!(c.first.main_ms, 15_000);
}

#[test]
fn byo_yomi_periods_through_a_game() {
    let tc = TimeControl::ByoYomi {
        main_ms: 10_000,
        periods: 3,
        period_ms: 5_000,
        moves_per_period: 1,
    };
    let mut g = timed(tc);
    // 12 s: main time gone, 2 s into the first period, which is not used up.
    let ev = g
        .apply(Seat::First, Action::place(p("H8")), 12_000)
        .unwrap();
    assert_eq!(
        moved_clocks(&ev).first,
        SeatClock {
            main_ms: 0,
            periods: 3,
            period_ms: 5_000,
            period_moves: 1,
            ..SeatClock::default()
        }
    );
    g.apply(Seat::Second, Action::place(p("I9")), 13_000)
        .unwrap();
    assert_eq!(g.flag_at(), Some(13_000 + 15_000));
    // 6 s: one period used up.
    let ev = g
        .apply(Seat::First, Action::place(p("J10")), 19_000)
        .unwrap();
    assert_eq!(moved_clocks(&ev).first.periods, 2);
    assert_eq!(moved_clocks(&ev).first.period_ms, 5_000);
    g.apply(Seat::Second, Action::place(p("A1")), 20_000)
        .unwrap();
    // Live view while thinking: 7 s in, one more period gone.
    let live = g.clocks(27_000).unwrap();
    assert_eq!((live.first.periods, live.first.period_ms), (1, 3_000));
    assert_eq!(g.flag_at(), Some(30_000));
    let ev = g.tick(30_000);
    assert_eq!(
        game_over(&ev).unwrap().reason,
        ResultReason::Time { seat: Seat::First }
    );
}

#[test]
fn byo_yomi_with_moves_per_period_through_a_game() {
    let tc = TimeControl::ByoYomi {
        main_ms: 0,
        periods: 2,
        period_ms: 10_000,
        moves_per_period: 2,
    };
    let mut g = timed(tc);
    // Black: 4 s for move 1, 4 s for move 3: the quota is met in time.
    g.apply(Seat::First, Action::place(p("H8")), 4_000).unwrap();
    let c = g.clocks(4_000).unwrap().first;
    assert_eq!((c.periods, c.period_ms, c.period_moves), (2, 6_000, 1));
    g.apply(Seat::Second, Action::place(p("A1")), 5_000)
        .unwrap();
    let ev = g.apply(Seat::First, Action::place(p("I8")), 9_000).unwrap();
    let c = moved_clocks(&ev).first;
    assert_eq!((c.periods, c.period_ms, c.period_moves), (2, 10_000, 2));
    // Move 5 takes 3 s, move 7 takes 8 s: the period runs out first.
    g.apply(Seat::Second, Action::place(p("A3")), 10_000)
        .unwrap();
    g.apply(Seat::First, Action::place(p("J8")), 13_000)
        .unwrap();
    g.apply(Seat::Second, Action::place(p("A5")), 14_000)
        .unwrap();
    assert_eq!(g.flag_at(), Some(14_000 + 7_000 + 10_000));
    let ev = g
        .apply(Seat::First, Action::place(p("K8")), 22_000)
        .unwrap();
    let c = moved_clocks(&ev).first;
    assert_eq!((c.periods, c.period_ms, c.period_moves), (1, 9_000, 1));
}

#[test]
fn the_seat_to_act_runs_in_the_opening_too() {
    let mut g = game(
        GameConfig::new(RuleSet::Gomoku)
            .with_opening(Opening::SwapAfterThree)
            .with_time(TimeControl::Fischer {
                main_ms: 60_000,
                increment_ms: 1_000,
            }),
    );
    play_at(&mut g, "H8 I9 J10", 1_000, 1_000);
    assert_eq!(
        g.clocks(3_000).unwrap().running,
        Some(Seat::Second),
        "the decider's clock"
    );
    // Keeping is no move: the same clock runs on, no increment.
    let ev = g.apply(Seat::Second, Action::Keep, 5_000).unwrap();
    let Event::SwapDecided {
        clocks: Some(c), ..
    } = ev[0]
    else {
        panic!()
    };
    assert_eq!(c.running, Some(Seat::Second));
    assert_eq!(c.second.main_ms, 60_000 - 1_000 + 1_000 - 2_000);
    // Swapping is a move: increment, and the new white's clock starts.
    let mut g2 = game(
        GameConfig::new(RuleSet::Gomoku).with_time(TimeControl::Fischer {
            main_ms: 60_000,
            increment_ms: 1_000,
        }),
    );
    play_at(&mut g2, "H8 I9 J10", 1_000, 1_000);
    let ev = g2.apply(Seat::Second, Action::Swap, 5_000).unwrap();
    let Event::SwapDecided {
        clocks: Some(c),
        black,
        ..
    } = ev[0]
    else {
        panic!()
    };
    assert_eq!(black, Seat::Second);
    assert_eq!(c.running, Some(Seat::First), "the new white must play 4");
    assert_eq!(c.second.main_ms, 60_000 - 1_000 + 1_000 - 2_000 + 1_000);
}

#[test]
fn lag_credit_is_capped_and_never_runs_a_clock_backwards() {
    let mut g = game(
        GameConfig::free(RuleSet::Gomoku)
            .with_time(TimeControl::SuddenDeath { main_ms: 60_000 })
            .with_lag_credit_cap(500),
    );
    let ev = g
        .apply_with_lag(Seat::First, Action::place(p("H8")), 3_000, 2_000)
        .unwrap();
    assert_eq!(
        moved_clocks(&ev).first.main_ms,
        60_000 - 2_500,
        "credit capped at 500"
    );
    let ev = g
        .apply_with_lag(Seat::Second, Action::place(p("I9")), 3_100, 2_000)
        .unwrap();
    assert_eq!(
        moved_clocks(&ev).second.main_ms,
        60_000,
        "no more than the 100 ms elapsed"
    );
    let granted: Vec<u64> = g
        .entries()
        .iter()
        .map(|e| match e.input {
            Input::Act { lag_credit_ms, .. } => lag_credit_ms,
            _ => unreachable!(),
        })
        .collect();
    assert_eq!(granted, vec![500, 100]);
    // Credit saves a move that arrives within it after the flag (the grace
    // a laggy mover gets), never one beyond the cap, and never a move
    // without credit.
    let flag = g.flag_at().unwrap();
    let before = g.clone();
    assert!(matches!(
        g.apply_with_lag(Seat::First, Action::place(p("J10")), flag, 0),
        Err(tengen_rules::game::GameError::TimeUp { .. })
    ));
    assert!(matches!(
        g.apply_with_lag(Seat::First, Action::place(p("J10")), flag + 500, 2_000),
        Err(tengen_rules::game::GameError::TimeUp { .. })
    ));
    assert_eq!(g, before, "refusals change nothing");
    let mut late = g.clone();
    late.apply_with_lag(Seat::First, Action::place(p("J10")), flag + 499, 500)
        .expect("499 ms after the flag with 500 ms of credit is on time");
    assert_eq!(
        late.clocks(flag + 499).unwrap().first.main_ms,
        1,
        "the credited move leaves 1 ms on the clock, no more"
    );
    // A non-move gets no credit.
    g.apply_with_lag(Seat::First, Action::place(p("J10")), 4_000, 0)
        .unwrap();
    g.apply_with_lag(Seat::First, Action::OfferDraw, 4_500, 300)
        .unwrap();
    assert!(matches!(
        g.entries().last().unwrap().input,
        Input::Act {
            lag_credit_ms: 0,
            ..
        }
    ));
}

#[test]
fn untimed_games_have_no_clocks() {
    let mut g = new_game(RuleSet::Renju);
    assert_eq!(g.flag_at(), None);
    assert_eq!(g.next_deadline(), None);
    let ev = play_at(&mut g, "H8", 1_000_000, 0);
    assert_eq!(
        ev,
        vec![Event::Moved {
            mv: g.moves()[0],
            clocks: None
        }]
    );
    assert!(g.tick(u64::MAX).is_empty());
}
