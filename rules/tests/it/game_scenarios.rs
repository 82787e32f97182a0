//! Whole games, from the first action to each kind of result, for each rule
//! set of this issue.

use crate::common;

use common::*;
use tengen_rules::game::{
    Action, ActionKind, Event, GameConfig, GameError, Opening, Outcome, ResultReason, RuleSet,
    Seat, Task,
};
use tengen_rules::{Color, Point};

fn win(seat: Seat, color: Color) -> Outcome {
    Outcome::Win { seat, color }
}

fn pts(s: &str) -> Vec<Point> {
    s.split_whitespace().map(p).collect()
}

#[test]
fn freestyle_black_five() {
    let mut g = new_game(RuleSet::Freestyle);
    let ev = play(&mut g, &with_far_white(&["H8", "I8", "J8", "K8", "L8"]));
    let r = game_over(&ev).expect("black made five");
    assert_eq!(r.outcome, win(Seat::First, Color::Black));
    assert_eq!(
        r.reason,
        ResultReason::Five {
            line: pts("H8 I8 J8 K8 L8")
        }
    );
    assert_eq!(g.result(), Some(r));
    assert_eq!(g.moves().len(), 9);
    assert!(g.prompt(0).is_none() && g.to_act().is_none());
    assert_eq!(
        g.allowed(Seat::First, 0),
        vec![],
        "nothing is allowed after the end"
    );
}

#[test]
fn overlines_per_rule_set() {
    // Black H8 I8 J8 K8 . M8, then L8 makes six.
    let six = with_far_white(&["H8", "I8", "J8", "K8", "M8", "L8"]);
    let mut fs = new_game(RuleSet::Freestyle);
    let r = game_over(&play(&mut fs, &six))
        .cloned()
        .expect("freestyle: six wins");
    assert_eq!(
        r.reason,
        ResultReason::Five {
            line: pts("H8 I8 J8 K8 L8 M8")
        }
    );

    let mut gm = new_game(RuleSet::Gomoku);
    assert!(
        game_over(&play(&mut gm, &six)).is_none(),
        "gomoku: six does not win"
    );
    assert!(!gm.is_over());
    assert_eq!(gm.to_act(), Some(Seat::Second));

    // Renju (claim room): black's overline stands, unannounced, and does not win.
    let mut rj = new_game(RuleSet::Renju);
    assert!(game_over(&play(&mut rj, &six)).is_none());
    assert!(!rj.is_over());

    // White's overline: wins in renju and freestyle, not in gomoku.
    let black = ["H8", "L12", "D12", "L4", "D4", "H13", "H3"];
    let white = ["A1", "A2", "A3", "A4", "A6", "A5"];
    let mut seq = Vec::new();
    for i in 0..6 {
        seq.push(black[i]);
        seq.push(white[i]);
    }
    let seq = seq.join(" ");
    for (rs, wins) in [
        (RuleSet::Renju, true),
        (RuleSet::Freestyle, true),
        (RuleSet::Gomoku, false),
    ] {
        let mut g = new_game(rs);
        let r = game_over(&play(&mut g, &seq)).cloned();
        assert_eq!(r.is_some(), wins, "{rs}");
        if let Some(r) = r {
            assert_eq!(r.outcome, win(Seat::Second, Color::White));
            assert_eq!(
                r.reason,
                ResultReason::Five {
                    line: pts("A1 A2 A3 A4 A5 A6")
                }
            );
        }
    }
}

#[test]
fn renju_black_exact_five_and_white_five() {
    let mut g = new_game(RuleSet::Renju);
    let r = game_over(&play(
        &mut g,
        &with_far_white(&["H8", "G8", "F8", "E8", "D8"]),
    ))
    .cloned()
    .unwrap();
    assert_eq!(r.outcome, win(Seat::First, Color::Black));

    let mut g = game(GameConfig::free(RuleSet::Renju));
    let r = game_over(&play(&mut g, "H8 A1 L12 A2 D12 A3 L4 A4 D4 A5"))
        .cloned()
        .unwrap();
    assert_eq!(r.outcome, win(Seat::Second, Color::White));
    assert!(matches!(r.reason, ResultReason::Five { .. }));
}

#[test]
fn renju_first_move_prompt_names_the_centre() {
    let g = new_game(RuleSet::Renju);
    let pr = g.prompt(0).unwrap();
    assert_eq!(pr.seat, Seat::First);
    assert_eq!(
        pr.task,
        Task::Place {
            color: Color::Black,
            move_number: 1,
            within: Some(1)
        }
    );
    assert_eq!(
        pr.may,
        vec![ActionKind::Place, ActionKind::Resign, ActionKind::Abort]
    );
    let g = new_game(RuleSet::Gomoku);
    assert!(matches!(
        g.prompt(0).unwrap().task,
        Task::Place { within: None, .. }
    ));
}

fn swap_game(rs: RuleSet) -> tengen_rules::game::Game {
    let mut g = game(GameConfig::new(rs).with_opening(Opening::SwapAfterThree));
    play(&mut g, "H8 I9 J10");
    g
}

#[test]
fn swap_after_three_taken() {
    for rs in [RuleSet::Gomoku, RuleSet::Freestyle] {
        let mut g = swap_game(rs);
        let pr = g.prompt(0).unwrap();
        assert_eq!(pr.seat, Seat::Second, "white decides");
        assert_eq!(
            pr.task,
            Task::DecideSwap {
                color: Color::White
            }
        );
        assert!(pr.may.contains(&ActionKind::Swap) && pr.may.contains(&ActionKind::Keep));
        assert!(!pr.may.contains(&ActionKind::Place));
        let ev = g.apply(Seat::Second, Action::Swap, 0).unwrap();
        assert!(matches!(
            ev.as_slice(),
            [Event::SwapDecided {
                seat: Seat::Second,
                swapped: true,
                black: Seat::Second,
                ..
            }]
        ));
        assert_eq!(g.seat_of(Color::Black), Seat::Second);
        assert_eq!(g.color_of(Seat::First), Color::White);
        // The opener now plays white 4, and the swap is not offered again.
        let pr = g.prompt(0).unwrap();
        assert_eq!(pr.seat, Seat::First);
        assert_eq!(
            pr.task,
            Task::Place {
                color: Color::White,
                move_number: 4,
                within: None
            }
        );
        // Black (now the second seat) goes on to win with the stones it took.
        let ev = play(&mut g, "A1 H9 A3 H10 A5 H11 A7 H12");
        let r = game_over(&ev).unwrap();
        assert_eq!(r.outcome, win(Seat::Second, Color::Black), "{rs}");
        assert_eq!(
            g.moves()[0].seat,
            Seat::First,
            "history keeps who played what"
        );
        assert_eq!(g.moves()[4].seat, Seat::Second);
    }
}

#[test]
fn swap_after_three_kept() {
    let mut g = swap_game(RuleSet::Gomoku);
    let ev = g.apply(Seat::Second, Action::Keep, 0).unwrap();
    assert!(matches!(
        ev.as_slice(),
        [Event::SwapDecided {
            seat: Seat::Second,
            swapped: false,
            black: Seat::First,
            ..
        }]
    ));
    let pr = g.prompt(0).unwrap();
    assert_eq!(pr.seat, Seat::Second);
    assert_eq!(
        pr.task,
        Task::Place {
            color: Color::White,
            move_number: 4,
            within: None
        }
    );
    play(&mut g, "A1");
    assert_eq!(g.to_act(), Some(Seat::First));
}

#[test]
fn resignation_by_either_seat() {
    for seat in Seat::BOTH {
        let mut g = new_game(RuleSet::Gomoku);
        play(&mut g, "H8 I9");
        let ev = g.apply(seat, Action::Resign, 5).unwrap();
        let r = game_over(&ev).unwrap();
        assert_eq!(r.reason, ResultReason::Resignation { seat });
        assert_eq!(r.winner(), Some(seat.other()));
        assert_eq!(r.winner_color(), Some(g.color_of(seat.other())));
    }
}

#[test]
fn abort_while_a_seat_has_not_acted() {
    // Before anything.
    let mut g = new_game(RuleSet::Renju);
    let ev = g.apply(Seat::Second, Action::Abort, 1).unwrap();
    let r = game_over(&ev).unwrap();
    assert_eq!(r.outcome, Outcome::Aborted);
    assert_eq!(
        r.reason,
        ResultReason::Aborted {
            seat: Some(Seat::Second)
        }
    );
    // After black's first move, black itself may still abort.
    let mut g = new_game(RuleSet::Renju);
    play(&mut g, "H8");
    assert!(g.allowed(Seat::First, 0).contains(&ActionKind::Abort));
    g.apply(Seat::First, Action::Abort, 0).unwrap();
    assert!(g.is_over());
    // The server may abort too (no first move in time).
    let mut g = new_game(RuleSet::Renju);
    play(&mut g, "H8");
    let ev = g.declare_aborted(30_000).unwrap();
    assert_eq!(
        game_over(&ev).unwrap().reason,
        ResultReason::Aborted { seat: None }
    );
}

#[test]
fn an_arbiter_aborts_at_any_move_and_the_record_replays_it() {
    let mut g = new_game(RuleSet::Freestyle);
    // Both seats have acted: no player and no server abort is allowed now.
    play(&mut g, "H8 I9 J10 K11");
    assert_eq!(g.declare_aborted(5), Err(GameError::AbortNotAllowed));
    let ev = g.declare_arbiter_abort(6).unwrap();
    let r = game_over(&ev).unwrap();
    assert_eq!(r.outcome, Outcome::Aborted);
    assert_eq!(r.reason, ResultReason::Arbiter);
    assert_eq!(r.winner(), None);
    assert_eq!(r.describe(), "aborted: aborted by a moderator");
    // Once over, an arbiter cannot end it again.
    assert_eq!(g.declare_arbiter_abort(7), Err(GameError::GameOver));
    // The record carries the arbiter's input and replays to the same end.
    let record = g.record();
    let json = record.to_json();
    assert!(json.contains("\"arbiter_aborted\""), "{json}");
    let back = tengen_rules::game::GameRecord::from_json(&json).unwrap();
    assert_eq!(back.replay().unwrap().result(), g.result());
}

#[test]
fn abandonment_declared_by_the_server() {
    let mut g = new_game(RuleSet::Freestyle);
    play(&mut g, "H8 I9 J10");
    let ev = g.declare_abandoned(Seat::First, 100).unwrap();
    let r = game_over(&ev).unwrap();
    assert_eq!(r.outcome, win(Seat::Second, Color::White));
    assert_eq!(r.reason, ResultReason::Abandonment { seat: Seat::First });
    assert_eq!(
        g.declare_abandoned(Seat::Second, 200)
            .unwrap_err()
            .to_string(),
        "the game is over"
    );
}

#[test]
fn both_passed_is_a_draw() {
    let mut g = new_game(RuleSet::Renju);
    play(&mut g, "H8 A1 L12 A3 D12");
    let ev = play(&mut g, "pass");
    assert!(game_over(&ev).is_none());
    assert!(matches!(
        ev.as_slice(),
        [Event::Moved { mv, .. }] if mv.point.is_none() && mv.number == 6 && mv.color == Color::White
    ));
    // A stone in between: the next pass is not the second in a row.
    play(&mut g, "L4 pass");
    assert!(!g.is_over());
    let ev = play(&mut g, "pass");
    let r = game_over(&ev).unwrap();
    assert_eq!(r.outcome, Outcome::Draw);
    assert_eq!(r.reason, ResultReason::BothPassed);
    assert_eq!(g.renju_notation(), "h8 a1 l12 a3 d12 pass l4 pass pass");
}

/// A full board with no five: black where `(x + 2y) mod 4 < 2`. Every
/// line alternates in runs of at most two.
fn fill_order(size: u8) -> String {
    let mut black = Vec::new();
    let mut white = Vec::new();
    for y in 0..size {
        for x in 0..size {
            let pt = Point::new(x, y).to_string();
            if (x as u32 + 2 * y as u32) % 4 < 2 {
                black.push(pt)
            } else {
                white.push(pt)
            }
        }
    }
    assert_eq!(black.len(), white.len() + 1);
    let mut seq = Vec::new();
    for i in 0..black.len() {
        seq.push(black[i].clone());
        if i < white.len() {
            seq.push(white[i].clone());
        }
    }
    seq.join(" ")
}

#[test]
fn board_full_is_a_draw() {
    for (rs, size) in [
        (RuleSet::Freestyle, 15),
        (RuleSet::Freestyle, 19),
        (RuleSet::Gomoku, 15),
    ] {
        let mut g = game(GameConfig::free(rs).with_size(size));
        let ev = play(&mut g, &fill_order(size));
        let r = game_over(&ev).unwrap_or_else(|| panic!("{rs} {size}: not over"));
        assert_eq!(r.outcome, Outcome::Draw);
        assert_eq!(r.reason, ResultReason::BoardFull);
        assert!(g.board().is_full());
        assert_eq!(g.moves().len(), size as usize * size as usize);
        // Only the very last stone ended it.
        let overs = ev
            .iter()
            .filter(|e| matches!(e, Event::GameOver { .. }))
            .count();
        assert_eq!(overs, 1);
    }
}
