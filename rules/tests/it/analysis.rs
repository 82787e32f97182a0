//! The VCF and VCT solvers against published problems and small hand-made
//! positions, judged by an independent checker built on the board's own
//! rules (`Board::makes_five`, `Board::forbidden`) only.
//!
//! The published problems are in `data/vcf-problems.txt`, which names
//! their sources.

use crate::analysis_common;

use analysis_common::{check_win, p, pts};
use tengen_rules::analysis::{Budget, Outcome, vcf, vct};
use tengen_rules::{Board, Color, Variant};

#[path = "../../benches/data/problems.rs"]
mod problem_sets;

fn problems() -> Vec<problem_sets::Problem> {
    problem_sets::vcf()
}

#[test]
fn published_problems_have_their_published_length() {
    let problems = problems();
    assert_eq!(problems.len(), 7);
    for pr in problems {
        match pr.length {
            Some(n) => {
                let found = vcf(&pr.board, pr.attacker, Variant::Renju, Budget::VCF_DEFAULT);
                let line = found
                    .line()
                    .unwrap_or_else(|| panic!("{}: no VCF found ({found:?})", pr.name));
                assert_eq!(found.attacker_moves(), Some(n), "{}: {line:?}", pr.name);
                check_win(&pr.board, pr.attacker, Variant::Renju, line, false)
                    .unwrap_or_else(|e| panic!("{}: {e}", pr.name));
            }
            None => {
                let n = pr.limit;
                let found = vcf(
                    &pr.board,
                    pr.attacker,
                    Variant::Renju,
                    Budget::new(1_000_000, n),
                );
                assert_eq!(found, Outcome::None, "{}", pr.name);
                // One move more and the published solution is there.
                let found = vcf(
                    &pr.board,
                    pr.attacker,
                    Variant::Renju,
                    Budget::new(1_000_000, n + 1),
                );
                assert_eq!(found.attacker_moves(), Some(n as usize + 1), "{}", pr.name);
            }
        }
    }
}

#[test]
fn a_vcf_is_a_vct_no_longer() {
    for pr in problems() {
        let Some(n) = pr.length else {
            continue;
        };
        if n > 6 {
            continue;
        }
        let found = vct(
            &pr.board,
            pr.attacker,
            Variant::Renju,
            Budget::new(2_000_000, 7),
        );
        let line = found
            .line()
            .unwrap_or_else(|| panic!("{}: no VCT found ({found:?})", pr.name));
        assert!(found.attacker_moves().unwrap() <= n, "{}", pr.name);
        check_win(&pr.board, pr.attacker, Variant::Renju, line, true)
            .unwrap_or_else(|e| panic!("{}: {e}", pr.name));
    }
}

/// Game positions with a known shortest VCT: the solver finds one no
/// longer, and it holds against every defence the checker tries.
#[test]
fn game_positions_have_their_known_vct() {
    let problems = problem_sets::vct();
    assert_eq!(problems.len(), 2);
    for pr in problems {
        let Some(n) = pr.length else {
            panic!("{}: a VCT length", pr.name)
        };
        let found = vct(
            &pr.board,
            pr.attacker,
            Variant::Renju,
            Budget::new(5_000_000, n as u8),
        );
        let line = found
            .line()
            .unwrap_or_else(|| panic!("{}: no VCT found ({found:?})", pr.name));
        assert!(
            found.attacker_moves().unwrap() <= n,
            "{}: {line:?}",
            pr.name
        );
        check_win(&pr.board, pr.attacker, Variant::Renju, line, true)
            .unwrap_or_else(|e| panic!("{}: {e}", pr.name));
        // No VCF does it: these are wins by threes.
        let f = vcf(&pr.board, pr.attacker, Variant::Renju, Budget::VCF_DEFAULT);
        assert_eq!(f, Outcome::None, "{}", pr.name);
    }
}

/// A white four whose only defence is a forbidden point for black wins at
/// once, in renju only.
#[test]
fn a_defence_on_a_forbidden_point_is_no_defence() {
    // H8 would give black two fours (row E8 F8 G8, column H5 H6 H7; D8 and
    // H4 are white): a forbidden double four.
    let black = pts("E8 F8 G8 H5 H6 H7");
    // White G9 . I7 J6, black K5 at the end: F10 makes a four whose one
    // point is H8 (H8 itself would be a four blocked at F10).
    let white = pts("D8 H4 G9 I7 J6");
    let black = [black, pts("K5")].concat();
    let board = Board::with_stones(15, &black, &white).unwrap();
    assert!(board.forbidden(p("H8")).is_some(), "H8 is a double four");
    let found = vcf(&board, Color::White, Variant::Renju, Budget::VCF_DEFAULT);
    let line = found
        .line()
        .expect("white wins through the forbidden point");
    assert_eq!(line, [p("F10")]);
    check_win(&board, Color::White, Variant::Renju, line, false).unwrap();
    // In gomoku black may block at H8 (and wins by it).
    let gomoku = vcf(&board, Color::White, Variant::Gomoku, Budget::VCF_DEFAULT);
    assert_ne!(gomoku.attacker_moves(), Some(1), "{gomoku:?}");
}

/// Black never plays a forbidden point, and an overline is no five for
/// black in renju or for anyone in gomoku; in free-style it is.
#[test]
fn overlines_and_forbidden_points_by_variant() {
    // B B B B . B with the gap the only five-making point: it is an
    // overline for black; the other end is blocked.
    let black = pts("D8 E8 F8 G8 I8");
    let white = pts("C8 A1 B1 A2 B2");
    let board = Board::with_stones(15, &black, &white).unwrap();
    assert_eq!(
        vcf(&board, Color::Black, Variant::Renju, Budget::VCF_DEFAULT),
        Outcome::None
    );
    assert_eq!(
        vcf(
            &board,
            Color::Black,
            Variant::Freestyle,
            Budget::VCF_DEFAULT
        ),
        Outcome::Win(vec![p("H8")])
    );
    // The same shape in white wins for white in renju, not in gomoku.
    let board = Board::with_stones(15, &white, &black).unwrap();
    assert_eq!(
        vcf(&board, Color::White, Variant::Renju, Budget::VCF_DEFAULT),
        Outcome::Win(vec![p("H8")])
    );
    assert_eq!(
        vcf(&board, Color::White, Variant::Gomoku, Budget::VCF_DEFAULT),
        Outcome::None
    );
}

#[test]
fn a_black_four_four_is_forbidden_but_a_five_is_not() {
    // H8 would give black two fours (row E8 F8 G8 . and column H5 H6 H7):
    // forbidden in renju, a winning double four in gomoku.
    let black = pts("E8 F8 G8 H5 H6 H7");
    let white = pts("D8 H4 A1 A2 B1 B2");
    let board = Board::with_stones(15, &black, &white).unwrap();
    let renju = vcf(&board, Color::Black, Variant::Renju, Budget::VCF_DEFAULT);
    if let Some(line) = renju.line() {
        assert!(!line.iter().step_by(2).any(|&m| m == p("H8")), "{line:?}");
        check_win(&board, Color::Black, Variant::Renju, line, false).unwrap();
    }
    let gomoku = vcf(&board, Color::Black, Variant::Gomoku, Budget::VCF_DEFAULT);
    assert_eq!(gomoku.attacker_moves(), Some(1));
    assert_eq!(gomoku.line(), Some(&[p("H8")][..]));
}

/// A node budget too small to finish says so instead of guessing.
#[test]
fn a_spent_budget_is_unknown_not_none() {
    let pr = problems()
        .into_iter()
        .find(|p| p.name == "shadows-and-fog")
        .unwrap();
    assert_eq!(
        vcf(
            &pr.board,
            pr.attacker,
            Variant::Renju,
            Budget::new(50, u8::MAX)
        ),
        Outcome::Unknown
    );
}

/// When the defender already threatens five, the attacker must make five
/// or block with a four; two threats and no five lose.
#[test]
fn the_defenders_fours_are_answered() {
    // White has a four (A1..A4, A5 open); black has an open three.
    let black = pts("F8 G8 H8");
    let white = pts("A1 A2 A3 A4");
    let board = Board::with_stones(15, &black, &white).unwrap();
    assert_eq!(
        vcf(&board, Color::Black, Variant::Renju, Budget::VCF_DEFAULT),
        Outcome::None
    );
    // With A5 taken by black the open three wins.
    let black = pts("F8 G8 H8 A5");
    let board = Board::with_stones(15, &black, &white).unwrap();
    let found = vcf(&board, Color::Black, Variant::Renju, Budget::VCF_DEFAULT);
    assert_eq!(found.attacker_moves(), Some(1), "{found:?}");
}

/// A double three is a VCT (two moves: the double three, then an open
/// four) for white, and for black in gomoku, but a forbidden move for
/// black in renju.
#[test]
fn a_double_three_is_a_vct_except_for_black_in_renju() {
    let two_twos = pts("G8 H8 I9 I10");
    let far = pts("A1 O1 A15 O15");
    let white_board = Board::with_stones(15, &far, &two_twos).unwrap();
    let found = vct(
        &white_board,
        Color::White,
        Variant::Renju,
        Budget::new(1_000_000, 3),
    );
    let line = found.line().unwrap_or_else(|| panic!("{found:?}"));
    assert_eq!(found.attacker_moves(), Some(2), "{line:?}");
    check_win(&white_board, Color::White, Variant::Renju, line, true).unwrap();
    assert_eq!(
        vcf(
            &white_board,
            Color::White,
            Variant::Renju,
            Budget::VCF_DEFAULT
        ),
        Outcome::None
    );
    let black_board = Board::with_stones(15, &two_twos, &far).unwrap();
    let gomoku = vct(
        &black_board,
        Color::Black,
        Variant::Gomoku,
        Budget::new(1_000_000, 3),
    );
    assert_eq!(gomoku.attacker_moves(), Some(2), "{gomoku:?}");
    let renju = vct(
        &black_board,
        Color::Black,
        Variant::Renju,
        Budget::new(1_000_000, 2),
    );
    assert_eq!(renju, Outcome::None, "I8 is a forbidden double three");
}
