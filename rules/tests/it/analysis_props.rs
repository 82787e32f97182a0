//! Properties of the VCF and VCT solvers on game-like random positions, in
//! every variant and for both colours:
//! - every solution replays legally to a win (checked independently);
//! - the VCF found is a shortest one: a brute-force iterative deepening
//!   over every empty point, with no tables, finds none shorter;
//! - a VCF is a VCT: the VCT solver finds a win no longer than the VCF.

use crate::analysis_common;

use analysis_common::{check_win, legal, win_points};
use proptest::prelude::*;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use tengen_rules::analysis::{Budget, vcf, vct};
use tengen_rules::{Board, Color, Point, Variant};

const VARIANTS: [Variant; 3] = [Variant::Renju, Variant::Gomoku, Variant::Freestyle];

/// A position grown like a game: `stones` stones, colours alternating,
/// each within two points of an earlier one, no five on the board (a stone
/// that would make one is skipped).
fn game_like(seed: u64, stones: usize, variant: Variant) -> Board {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut board = Board::standard();
    let mut placed = vec![Point::new(7, 7)];
    board.place(placed[0], Color::Black).unwrap();
    let mut color = Color::White;
    let mut tries = 0;
    while placed.len() < stones && tries < 10_000 {
        tries += 1;
        let base = placed[rng.random_range(0..placed.len())];
        let (dx, dy) = (rng.random_range(-2..=2), rng.random_range(-2..=2));
        let Some(q) = base.offset(dx, dy, 15) else {
            continue;
        };
        if board.get(q).is_some() || board.makes_five(q, color, variant) {
            continue;
        }
        if color == Color::Black && variant == Variant::Renju && board.forbidden(q).is_some() {
            continue;
        }
        board.place(q, color).unwrap();
        placed.push(q);
        color = color.opponent();
    }
    board
}

/// Whether `attacker` (to move) has a VCF of at most `depth` attacker
/// moves, by brute force: every legal attacker move that makes a four, the
/// defender's forced block, no memory.
fn brute_vcf(board: &mut Board, attacker: Color, variant: Variant, depth: usize) -> bool {
    let defender = attacker.opponent();
    if !win_points(board, attacker, variant).is_empty() {
        return true;
    }
    let threats = win_points(board, defender, variant);
    if depth == 0 || threats.len() > 1 {
        return false;
    }
    let moves: Vec<Point> = board.points().collect();
    for m in moves {
        if !legal(board, m, attacker, variant) || threats.iter().any(|&t| t != m) {
            continue;
        }
        board.place(m, attacker).unwrap();
        let wins = wins_through(board, m, attacker, variant);
        let won = match wins.len() {
            0 => false,
            1 if legal(board, wins[0], defender, variant) => {
                if depth == 1 {
                    false
                } else {
                    board.place(wins[0], defender).unwrap();
                    let won = brute_vcf(board, attacker, variant, depth - 1);
                    board.remove(wins[0]);
                    won
                }
            }
            _ => true,
        };
        board.remove(m);
        if won {
            return true;
        }
    }
    false
}

/// The empty points where `c` would win on the four lines through `m`,
/// within four points of it (where a stone at `m` can make new fives).
fn wins_through(board: &Board, m: Point, c: Color, variant: Variant) -> Vec<Point> {
    let mut out = Vec::new();
    for (dx, dy) in [(1, 0), (0, 1), (1, 1), (1, -1)] {
        for k in (-4..=4).filter(|&k| k != 0) {
            if let Some(q) = m.offset(k * dx, k * dy, board.size())
                && board.get(q).is_none()
                && board.makes_five(q, c, variant)
                && !out.contains(&q)
            {
                out.push(q);
            }
        }
    }
    out
}

/// The brute-force shortest VCF length, up to `max`.
fn brute_length(board: &Board, attacker: Color, variant: Variant, max: usize) -> Option<usize> {
    let mut b = board.clone();
    (1..=max).find(|&d| brute_vcf(&mut b, attacker, variant, d))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(40))]

    /// Solutions replay to wins, and no VCF of three moves or fewer is
    /// missed or beaten by the brute force.
    #[test]
    fn vcf_is_exact_and_shortest(seed in any::<u64>(), stones in 12usize..40) {
        for variant in VARIANTS {
            let board = game_like(seed, stones, variant);
            for attacker in [Color::Black, Color::White] {
                let found = vcf(&board, attacker, variant, Budget::new(200_000, u8::MAX));
                if let Some(line) = found.line() {
                    check_win(&board, attacker, variant, line, false)
                        .map_err(|e| TestCaseError::fail(format!("{variant:?} {attacker}: {e}\n{}", board.to_text())))?;
                }
                let brute = brute_length(&board, attacker, variant, 3);
                match (brute, found.attacker_moves()) {
                    (Some(b), found_len) => prop_assert_eq!(Some(b), found_len,
                        "{:?} {}: brute {} vs {:?}\n{}", variant, attacker, b, found, board.to_text()),
                    (None, Some(n)) => prop_assert!(n > 3, "{:?} {}: {:?} missed by brute\n{}",
                        variant, attacker, found, board.to_text()),
                    (None, None) => {}
                }
            }
        }
    }

    /// Every VCF is a VCT: the VCT solver wins too, in no more moves, and
    /// its line replays to a win.
    #[test]
    fn a_vcf_is_a_vct(seed in any::<u64>(), stones in 12usize..40) {
        for variant in VARIANTS {
            let board = game_like(seed, stones, variant);
            for attacker in [Color::Black, Color::White] {
                let found = vcf(&board, attacker, variant, Budget::new(200_000, 3));
                let Some(n) = found.attacker_moves() else { continue };
                let t = vct(&board, attacker, variant, Budget::new(2_000_000, 3));
                let line = t.line().ok_or_else(|| TestCaseError::fail(format!(
                    "{variant:?} {attacker}: VCF {found:?} but VCT {t:?}\n{}", board.to_text())))?;
                prop_assert!(t.attacker_moves().unwrap() <= n);
                check_win(&board, attacker, variant, line, true)
                    .map_err(|e| TestCaseError::fail(format!("{variant:?} {attacker}: {e}")))?;
            }
        }
    }
}

/// The properties above are not vacuous: the random positions do hold
/// VCFs of every length the brute force covers, and VCTs where no VCF is.
#[test]
fn random_positions_hold_wins_of_each_kind() {
    let (mut by_length, mut vct_only) = ([0usize; 4], 0usize);
    for seed in 0..60u64 {
        let board = game_like(seed, 30, Variant::Renju);
        for attacker in [Color::Black, Color::White] {
            let found = vcf(&board, attacker, Variant::Renju, Budget::new(200_000, 3));
            match found.attacker_moves() {
                Some(n) => by_length[n] += 1,
                None => {
                    let t = vct(&board, attacker, Variant::Renju, Budget::new(500_000, 4));
                    vct_only += t.line().is_some() as usize;
                }
            }
        }
    }
    assert!(by_length[1..].iter().all(|&n| n > 0), "{by_length:?}");
    assert!(vct_only > 0);
}

/// A VCT whose first move is quiet (a threat, not a four) is checked the
/// slow way: after that move, every legal reply of the defender, all over
/// the board, still leaves the attacker a win by brute force within the
/// VCT's remaining moves. Two-move VCTs on fixed game-like positions.
#[test]
fn a_threat_vct_wins_against_every_reply() {
    let mut checked = 0;
    for seed in 0..400u64 {
        if checked == 6 {
            break;
        }
        let variant = [Variant::Renju, Variant::Gomoku][seed as usize % 2];
        let board = game_like(seed, 16 + (seed % 20) as usize, variant);
        for attacker in [Color::Black, Color::White] {
            let found = vct(&board, attacker, variant, Budget::new(500_000, 2));
            let Some(line) = found.line() else { continue };
            if line.len() < 3 {
                continue;
            }
            let mut b = board.clone();
            b.place(line[0], attacker).unwrap();
            if !win_points(&b, attacker, variant).is_empty() {
                continue; // a four: the VCF tests cover it
            }
            let defender = attacker.opponent();
            let replies: Vec<Point> = b.points().collect();
            for r in replies {
                if !legal(&b, r, defender, variant) {
                    continue;
                }
                assert!(
                    !b.makes_five(r, defender, variant),
                    "{variant:?} {attacker}: the defender had a five at {r}"
                );
                b.place(r, defender).unwrap();
                assert!(
                    brute_vcf(&mut b, attacker, variant, 1),
                    "{variant:?} {attacker}: {line:?} refuted by {r}\n{}",
                    b.to_text()
                );
                b.remove(r);
            }
            checked += 1;
        }
    }
    assert!(checked >= 3, "only {checked} threat VCTs checked");
}
