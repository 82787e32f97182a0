//! The trainer: exercises found where a forbidden point mattered, and
//! answers judged against the referee.

use tengen_rules::game::ForbiddenPoint;
use tengen_rules::{Board, Color, Forbidden, Point};
use tengen_study::trainer::{Exercise, exercise_id, exercises, judge};

fn p(s: &str) -> Point {
    s.parse().unwrap()
}

fn moves(text: &str) -> Vec<(Color, Option<Point>)> {
    text.split_whitespace()
        .enumerate()
        .map(|(i, s)| {
            (
                if i % 2 == 0 {
                    Color::Black
                } else {
                    Color::White
                },
                Some(p(s)),
            )
        })
        .collect()
}

#[test]
fn a_foul_and_a_trap_make_exercises_and_ordinary_moves_do_not() {
    // Black builds G8, I8, H7, H9 around H8 and then plays H8: a double
    // three (a foul); the position before it is an exercise.
    let foul = moves("G8 A1 I8 A3 H7 A5 H9 A7 H8");
    let found = exercises("g1", 15, &foul);
    assert_eq!(found.len(), 1);
    assert_eq!(found[0].move_number, 9);
    assert_eq!(found[0].black.len(), 4);
    let board = Board::with_stones(15, &found[0].black, &found[0].white).unwrap();
    assert!(!board.forbidden_points().is_empty());
    // The same game without the foul: none.
    assert!(exercises("g1", 15, &foul[..8]).is_empty());
    // Mirrored, the same exercise.
    let mirrored = moves("I8 O1 G8 O3 H7 O5 H9 O7 H8");
    let again = exercises("g2", 15, &mirrored);
    assert_eq!(again[0].id, found[0].id);
    assert_eq!(
        exercise_id(15, &again[0].black, &again[0].white),
        found[0].id
    );
}

#[test]
fn answers_are_judged_point_by_point_and_kind_by_kind() {
    let e = Exercise {
        id: "e".into(),
        size: 15,
        black: vec![p("G8"), p("I8"), p("H7"), p("H9")],
        white: vec![p("A1"), p("A3"), p("A5"), p("A7")],
        game: "g".into(),
        move_number: 9,
    };
    let board = Board::with_stones(15, &e.black, &e.white).unwrap();
    let truth = board.forbidden_points();
    assert!(
        truth
            .iter()
            .any(|&(q, k)| q == p("H8") && k == Forbidden::DoubleThree)
    );
    let all: Vec<ForbiddenPoint> = truth
        .iter()
        .map(|&(point, kind)| ForbiddenPoint { point, kind })
        .collect();
    let v = judge(&e, &all).unwrap();
    assert!(v.correct, "{v:?}");
    assert_eq!(v.right.len(), all.len());
    // One missed, one wrong, one of the wrong kind.
    let mut marks = all[1..].to_vec();
    marks.push(ForbiddenPoint {
        point: p("O15"),
        kind: Forbidden::Overline,
    });
    if let Some(m) = marks.first_mut() {
        m.kind = Forbidden::Overline;
    }
    let v = judge(&e, &marks).unwrap();
    assert!(!v.correct);
    assert_eq!(v.missed, vec![all[0].point]);
    assert_eq!(v.wrong, vec![p("O15")]);
    assert_eq!(v.wrong_kind.len(), usize::from(all.len() > 1));
}
