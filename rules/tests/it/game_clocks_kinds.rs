//! The eight-stone overtime and correspondence clocks inside the machine
//! (docs/rules.md §7): time is passed in, so days pass in a test as easily
//! as seconds.

use crate::common;

use common::*;
use tengen_rules::game::config::DAY_MS;
use tengen_rules::game::{
    Action, ConfigError, Game, GameConfig, GameError, Outcome, ResultReason, RuleSet, Seat,
    SeatClock, TimeControl,
};

fn overtime(period_ms: u64, period_moves: u32) -> SeatClock {
    SeatClock {
        period_ms,
        period_moves,
        ..SeatClock::default()
    }
}

const EIGHT: TimeControl = TimeControl::EightStone {
    main_ms: 10_000,
    move_ms: 3_000,
    stones: 2,
    move_limit_in_main: false,
    shared_main: false,
};

/// Black and white both move in main time; black's main time then runs
/// out on black's turn: both seats are in overtime at once.
fn into_overtime() -> Game {
    let mut g = timed(EIGHT);
    g.apply(Seat::First, Action::place(p("H8")), 4_000).unwrap();
    g.apply(Seat::Second, Action::place(p("A1")), 9_000)
        .unwrap();
    assert_eq!(
        g.flag_at(),
        Some(9_000 + 6_000 + 3_000),
        "black's main time left, then one overtime move"
    );
    g
}

#[test]
fn overtime_starts_for_both_when_either_main_time_runs_out() {
    let g = into_overtime();
    // Before black's main time is up, white still has its own.
    let before = g.clocks(14_999).unwrap();
    assert_eq!((before.first.main_ms, before.second.main_ms), (1, 5_000));
    assert_eq!(before.first.period_moves, 2);
    // 1 s later black is 1 s into its first overtime move, and white's
    // unused main time has lapsed.
    let c = g.clocks(16_000).unwrap();
    assert_eq!(c.first, overtime(2_000, 2));
    assert_eq!(c.second, overtime(3_000, 2));
}

#[test]
fn each_overtime_move_takes_a_stone_and_the_last_one_draws() {
    let mut g = into_overtime();
    let ev = g
        .apply(Seat::First, Action::place(p("J10")), 17_000)
        .unwrap();
    let c = moved_clocks(&ev);
    assert_eq!(c.first, overtime(3_000, 1), "a stone used, a fresh 3 s");
    assert_eq!(c.second, overtime(3_000, 2), "white is in overtime too");
    assert_eq!(g.flag_at(), Some(20_000), "white has 3 s for its move");
    g.apply(Seat::Second, Action::place(p("A3")), 19_500)
        .unwrap();
    g.apply(Seat::First, Action::place(p("L12")), 22_000)
        .unwrap();
    assert!(!g.is_over(), "one overtime stone of white's is left");
    let ev = g
        .apply(Seat::Second, Action::place(p("A5")), 24_000)
        .unwrap();
    let r = game_over(&ev).expect("the last overtime stone ends the game");
    assert_eq!(r.outcome, Outcome::Draw);
    assert_eq!(r.reason, ResultReason::OvertimeSpent);
    // The record replays to the same end.
    let replayed = g.record().replay().unwrap();
    assert_eq!(replayed.result(), g.result());
}

#[test]
fn a_late_overtime_move_loses() {
    let mut g = into_overtime();
    g.apply(Seat::First, Action::place(p("J10")), 17_000)
        .unwrap();
    assert!(g.tick(19_999).is_empty());
    let err = refused(&mut g, Seat::Second, Action::place(p("A3")), 20_000);
    assert_eq!(err, GameError::TimeUp { seat: Seat::Second });
    let ev = g.tick(20_000);
    let r = game_over(&ev).unwrap();
    assert_eq!(r.reason, ResultReason::Time { seat: Seat::Second });
    assert_eq!(r.winner(), Some(Seat::First));
}

#[test]
fn a_five_with_the_last_overtime_stone_wins() {
    let mut g = timed(TimeControl::eight_stone(10_000, 3_000, 1));
    let script = ["H8", "A1", "J10", "A2", "L12", "A3", "N14", "A4"];
    for (i, pt) in script.iter().enumerate() {
        let seat = if i % 2 == 0 {
            Seat::First
        } else {
            Seat::Second
        };
        g.apply(seat, Action::place(p(pt)), 100 * (i as u64 + 1))
            .unwrap();
    }
    // Black's main time (9.6 s left) runs out at 10.4 s: overtime, one
    // stone each.
    g.apply(Seat::First, Action::place(p("O1")), 11_000)
        .unwrap();
    let ev = g
        .apply(Seat::Second, Action::place(p("A5")), 12_000)
        .unwrap();
    let r = game_over(&ev).unwrap();
    assert_eq!(r.winner(), Some(Seat::Second));
    assert!(matches!(r.reason, ResultReason::Five { .. }));
}

const CORR: TimeControl = TimeControl::Correspondence {
    move_ms: 3 * DAY_MS,
    vacation_ms: 5 * DAY_MS,
};

fn days(d: u64, v: u64) -> SeatClock {
    SeatClock {
        main_ms: d,
        vacation_ms: v,
        ..SeatClock::default()
    }
}

#[test]
fn correspondence_gives_each_move_its_days_and_spends_vacation_when_late() {
    let mut g = timed(CORR);
    assert_eq!(g.flag_at(), Some(8 * DAY_MS), "3 days, then 5 of vacation");
    // Black moves after a day: the next move has 3 full days again (the
    // unused 2 are not carried over).
    let ev = g
        .apply(Seat::First, Action::place(p("H8")), DAY_MS)
        .unwrap();
    assert_eq!(moved_clocks(&ev).first, days(3 * DAY_MS, 5 * DAY_MS));
    // White is a day and a half past its move time: vacation is being used.
    let c = g.clocks(DAY_MS + 4 * DAY_MS + DAY_MS / 2).unwrap();
    assert_eq!(c.second, days(0, 5 * DAY_MS - (DAY_MS + DAY_MS / 2)));
    assert_eq!(c.running, Some(Seat::Second));
    // White moves 4 days after black: one vacation day is gone for good.
    let ev = g
        .apply(Seat::Second, Action::place(p("A1")), 5 * DAY_MS)
        .unwrap();
    assert_eq!(moved_clocks(&ev).second, days(3 * DAY_MS, 4 * DAY_MS));
    // Black never moves again: 3 days and 5 of vacation after 5 days.
    assert_eq!(g.flag_at(), Some(13 * DAY_MS));
    assert!(g.tick(13 * DAY_MS - 1).is_empty());
    let r = game_over(&g.tick(13 * DAY_MS)).unwrap().clone();
    assert_eq!(r.reason, ResultReason::Time { seat: Seat::First });
    let replayed = g.record().replay().unwrap();
    assert_eq!(replayed.result(), Some(&r));
}

#[test]
fn new_kinds_are_validated_and_their_serde_forms_are_stable() {
    let check = |time| GameConfig::free(RuleSet::Gomoku).with_time(time).validate();
    let eight = TimeControl::eight_stone;
    assert_eq!(check(eight(300_000, 30_000, 8)), Ok(()));
    assert_eq!(check(eight(0, 30_000, 8)), Err(ConfigError::ZeroMainTime));
    assert_eq!(check(eight(1, 0, 8)), Err(ConfigError::ZeroMoveTime));
    assert_eq!(check(eight(1, 1, 0)), Err(ConfigError::OvertimeStones));
    assert_eq!(check(eight(1, 1, 101)), Err(ConfigError::OvertimeStones));
    assert_eq!(
        check(eight(31 * DAY_MS, 1, 8)),
        Err(ConfigError::TimeTooLong)
    );
    assert_eq!(check(eight(1, u64::MAX, 8)), Err(ConfigError::TimeTooLong));
    let corr = |move_ms, vacation_ms| TimeControl::Correspondence {
        move_ms,
        vacation_ms,
    };
    assert_eq!(check(corr(14 * DAY_MS, 0)), Ok(()));
    assert_eq!(check(corr(0, DAY_MS)), Err(ConfigError::ZeroMoveTime));
    assert_eq!(check(corr(31 * DAY_MS, 0)), Err(ConfigError::TimeTooLong));
    assert_eq!(
        check(corr(DAY_MS, 61 * DAY_MS)),
        Err(ConfigError::VacationTooLong)
    );
    let parsed: TimeControl =
        serde_json::from_str(r#"{"kind":"eight_stone","main_ms":300000,"move_ms":30000}"#).unwrap();
    assert_eq!(parsed, eight(300_000, 30_000, 8), "eight stones by default");
    let parsed: TimeControl =
        serde_json::from_str(r#"{"kind":"correspondence","move_ms":86400000}"#).unwrap();
    assert_eq!(parsed, corr(DAY_MS, 0), "no vacation by default");
    assert_eq!(
        serde_json::to_string(&corr(DAY_MS, 2 * DAY_MS)).unwrap(),
        r#"{"kind":"correspondence","move_ms":86400000,"vacation_ms":172800000}"#
    );
    // A seat clock of the older kinds keeps its form: no vacation field.
    assert_eq!(
        serde_json::to_string(&SeatClock {
            main_ms: 5,
            ..SeatClock::default()
        })
        .unwrap(),
        r#"{"main_ms":5}"#
    );
}
