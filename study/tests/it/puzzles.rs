//! Puzzles: games with planted missed VCFs (a random player that, each
//! time the side to move has a VCF, either follows it or plays a move
//! that begins none), mined; every planted miss is found, every puzzle
//! made is a forced win the referee confirms move by move, and tries are
//! judged: the stored line solves, a wrong move fails, a forbidden one
//! fails as such.

use rand::rngs::StdRng;
use rand::seq::IndexedRandom;
use rand::{Rng, SeedableRng};
use tengen_rules::analysis::{Budget, Outcome, first_move_wins, vcf};
use tengen_rules::game::{Action, Game, GameConfig, GameRecord, RuleSet, Seat};
use tengen_rules::{Board, Color, Point, Variant};
use tengen_study::puzzle::{Attempt, Judged, MineBudget, Puzzle, five_points, mine};

const BUDGET: Budget = Budget::new(100_000, u8::MAX);

fn budget() -> MineBudget {
    MineBudget {
        vcf: BUDGET,
        vct: Budget::new(100_000, 3),
    }
}

/// A random game of `rule_set` (free opening) with planted misses: the
/// record, and the numbers of the moves that missed a VCF on purpose.
fn planted(rng: &mut StdRng, rule_set: RuleSet) -> (GameRecord, Vec<u32>) {
    let mut game = Game::new(GameConfig::free(rule_set), Seat::First, 0).unwrap();
    let variant = rule_set.variant();
    let mut misses = Vec::new();
    let mut at = 0;
    while !game.is_over() && game.moves().len() < 60 {
        at += 1000;
        let seat = game.to_act().unwrap();
        let color = game.color_of(seat);
        let board = game.board().clone();
        let legal = |p: Point| {
            board.is_empty_point(p)
                && !(variant == Variant::Renju
                    && color == Color::Black
                    && board.forbidden(p).is_some())
        };
        let near: Vec<Point> = board
            .points()
            .filter(|&p| legal(p))
            .filter(|&p| {
                board.stone_count() == 0
                    || board.stones().any(|(q, _)| {
                        (p.x as i32 - q.x as i32).abs() <= 2 && (p.y as i32 - q.y as i32).abs() <= 2
                    })
            })
            .collect();
        let first = board.stone_count() == 0;
        let p = if first {
            Point::center(15)
        } else if let Outcome::Win(line) = vcf(&board, color, variant, BUDGET) {
            if rng.random_bool(0.3) {
                line[0]
            } else {
                // A move that begins no VCF, as the solver decides it.
                let Some(&miss) = near
                    .iter()
                    .filter(|&&p| {
                        first_move_wins(&board, color, variant, p, BUDGET, false) == Some(false)
                    })
                    .collect::<Vec<_>>()
                    .choose(rng)
                    .copied()
                else {
                    break;
                };
                misses.push(game.moves().len() as u32 + 1);
                miss
            }
        } else {
            *near.choose(rng).unwrap()
        };
        game.apply(seat, Action::place(p), at).unwrap();
    }
    if !game.is_over() {
        let seat = game.to_act().unwrap();
        game.apply(seat, Action::Resign, at + 1000).unwrap();
    }
    (game.record(), misses)
}

/// Plays the puzzle's line on its position and checks that it is a
/// forced win as the referee sees it: for a VCF every attacker move but
/// the last makes a four whose one block the defender plays, and the last
/// makes five or a four the defender cannot block (two points, or a black
/// block that is forbidden).
fn confirm(p: &Puzzle) {
    let variant = p.rule_set.variant();
    let mut board = Board::with_stones(p.size, &p.black, &p.white).unwrap();
    let a = p.to_move;
    for (i, &m) in p.line.iter().enumerate() {
        let attacker = i % 2 == 0;
        let c = if attacker { a } else { a.opponent() };
        if attacker && variant == Variant::Renju && c == Color::Black {
            assert!(board.forbidden(m).is_none(), "{}: forbidden {m}", p.id);
        }
        if !attacker {
            let fives = five_points(&board, a, variant);
            if !p.threats {
                assert_eq!(fives, vec![m], "{}: the block of move {i}", p.id);
            }
        }
        board.place(m, c).unwrap();
    }
    let fives = five_points(&board, a, variant);
    let won = board.makes_five(*p.line.last().unwrap(), a, variant)
        || fives.len() >= 2
        || (fives.len() == 1
            && variant == Variant::Renju
            && a == Color::White
            && board.forbidden(fives[0]).is_some());
    assert!(won, "{}: the line ends without a win", p.id);
    // And the solver, with ten times the budget, agrees from the start.
    let start = Board::with_stones(p.size, &p.black, &p.white).unwrap();
    if !p.threats {
        assert!(matches!(
            vcf(&start, a, variant, Budget::new(1_000_000, u8::MAX)),
            Outcome::Win(_)
        ));
    }
}

#[test]
fn planted_misses_are_found_and_every_puzzle_is_a_forced_win() {
    let mut rng = StdRng::seed_from_u64(11);
    let mut planted_total = 0;
    let mut puzzles = 0;
    for i in 0..24 {
        let rule_set = [RuleSet::Renju, RuleSet::Gomoku, RuleSet::Freestyle][i % 3];
        let (record, misses) = planted(&mut rng, rule_set);
        let mined = mine(&format!("g{i}"), &record, budget()).unwrap();
        for m in &misses {
            assert!(
                mined
                    .puzzles
                    .iter()
                    .any(|p| p.move_number == *m && !p.threats),
                "game {i} ({rule_set}): the miss at move {m} was not made a puzzle: {:?}",
                mined
                    .puzzles
                    .iter()
                    .map(|p| p.move_number)
                    .collect::<Vec<_>>()
            );
        }
        planted_total += misses.len();
        for p in &mined.puzzles {
            confirm(p);
            assert_eq!(p.game, format!("g{i}"));
            puzzles += 1;
        }
    }
    assert!(planted_total >= 20, "only {planted_total} planted");
    assert!(puzzles >= planted_total);
}

#[test]
fn a_try_is_judged_move_by_move() {
    let mut rng = StdRng::seed_from_u64(5);
    let mut solved = 0;
    for i in 0..12 {
        let (record, _) = planted(&mut rng, [RuleSet::Renju, RuleSet::Gomoku][i % 2]);
        let mined = mine("g", &record, budget()).unwrap();
        for p in mined.puzzles.iter().filter(|p| !p.threats) {
            // The stored line solves it, the defender answering as in it.
            let mut t = Attempt::new(p).unwrap();
            let mut i = 0;
            loop {
                match t.play(p.line[i], BUDGET).unwrap() {
                    Judged::Continue(reply) => {
                        assert_eq!(Some(&reply), p.line.get(i + 1), "{}", p.id);
                        i += 2;
                    }
                    Judged::Solved => break,
                    Judged::Failed(why) => panic!("{}: the line failed ({why}) at {i}", p.id),
                }
            }
            assert!(t.is_over());
            assert!(t.play(p.line[0], BUDGET).is_err());
            solved += 1;
            // A move far from the fight fails, and ends the try.
            let mut t = Attempt::new(p).unwrap();
            let board = Board::with_stones(p.size, &p.black, &p.white).unwrap();
            let far = board
                .points()
                .find(|&q| {
                    board.is_empty_point(q)
                        && board.forbidden(q).is_none()
                        && first_move_wins(
                            &board,
                            p.to_move,
                            p.rule_set.variant(),
                            q,
                            BUDGET,
                            false,
                        ) == Some(false)
                })
                .unwrap();
            assert_eq!(t.play(far, BUDGET).unwrap(), Judged::Failed("no_win"));
            assert!(t.is_over());
            // An occupied point is refused and changes nothing.
            let mut t = Attempt::new(p).unwrap();
            let taken = p.black.first().copied().unwrap();
            assert!(t.play(taken, BUDGET).is_err());
            assert!(!t.is_over());
        }
    }
    assert!(solved >= 5, "{solved}");
}

#[test]
fn black_may_not_solve_through_a_forbidden_point() {
    // Black to play: a double three at H8 (G8-I8 made a three twice)
    // would be forbidden. Black has stones F8? No: build it directly:
    // black G8, I8 (row) and H7, H9 (column): H8 makes two open threes.
    let p = |s: &str| -> Point { s.parse().unwrap() };
    let puzzle = Puzzle {
        id: "x".into(),
        rule_set: RuleSet::Renju,
        size: 15,
        black: vec![p("G8"), p("I8"), p("H7"), p("H9")],
        white: vec![p("A1"), p("A3"), p("A5"), p("A7")],
        to_move: Color::Black,
        threats: true,
        line: vec![],
        themes: vec![],
        game: "g".into(),
        move_number: 9,
        rating: 1500.0,
        deviation: 350.0,
        volatility: 0.06,
        plays: 0,
        solved: 0,
    };
    let board = Board::with_stones(15, &puzzle.black, &puzzle.white).unwrap();
    assert!(board.forbidden(p("H8")).is_some());
    let mut t = Attempt::new(&puzzle).unwrap();
    assert_eq!(
        t.play(p("H8"), BUDGET).unwrap(),
        Judged::Failed("forbidden")
    );
}
