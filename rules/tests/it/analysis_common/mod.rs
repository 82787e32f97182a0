//! Helpers for the solver tests: reading boards, and an independent
//! checker of winning lines that uses nothing but the board's own rules.
#![allow(dead_code)]

use tengen_rules::{Board, Color, Point, Variant};

pub fn p(s: &str) -> Point {
    s.parse().unwrap()
}

pub fn pts(s: &str) -> Vec<Point> {
    s.split_whitespace().map(p).collect()
}

/// A 15 x 15 board from 15 rows of text, row 15 first: `X` black, `O`
/// white, anything else empty; spaces between cells are ignored.
pub fn board_from_rows(rows: &[&str]) -> Board {
    assert_eq!(rows.len(), 15, "15 rows");
    let mut board = Board::standard();
    for (i, row) in rows.iter().enumerate() {
        let y = 14 - i as u8;
        let cells: Vec<char> = row.chars().filter(|c| !c.is_whitespace()).collect();
        assert_eq!(cells.len(), 15, "row {}", y + 1);
        for (x, c) in cells.into_iter().enumerate() {
            let color = match c {
                'X' => Color::Black,
                'O' => Color::White,
                _ => continue,
            };
            board.place(Point::new(x as u8, y), color).unwrap();
        }
    }
    board
}

/// The empty points where `c` would win at once.
pub fn win_points(board: &Board, c: Color, variant: Variant) -> Vec<Point> {
    board
        .points()
        .filter(|&q| board.get(q).is_none() && board.makes_five(q, c, variant))
        .collect()
}

/// Whether `c` may play the empty point `q`.
pub fn legal(board: &Board, q: Point, c: Color, variant: Variant) -> bool {
    board.get(q).is_none()
        && !(c == Color::Black && variant == Variant::Renju && board.forbidden(q).is_some())
}

/// Checks that `line` (attacker and defender moves in turn) is a forced win
/// for `attacker`: every move legal, the defender never passing up a five
/// of its own, every attacker move a four (unless `threats`), every
/// defender reply to a four the forced block, and the last attacker move a
/// five or a four the defender cannot stop.
pub fn check_win(
    board: &Board,
    attacker: Color,
    variant: Variant,
    line: &[Point],
    threats: bool,
) -> Result<(), String> {
    if line.is_empty() || line.len().is_multiple_of(2) {
        return Err(format!("a line has an odd number of moves: {line:?}"));
    }
    let defender = attacker.opponent();
    let mut b = board.clone();
    for (i, &m) in line.iter().enumerate() {
        let color = if i % 2 == 0 { attacker } else { defender };
        let opponent_wins = win_points(&b, color.opponent(), variant);
        if !legal(&b, m, color, variant) {
            return Err(format!("move {} ({m}) is not legal for {color}", i + 1));
        }
        if b.makes_five(m, color, variant) {
            return if color == attacker && i == line.len() - 1 {
                Ok(())
            } else {
                Err(format!("move {} ({m}) makes five too early", i + 1))
            };
        }
        if !win_points(&b, color, variant).is_empty() {
            return Err(format!("move {} ({m}): {color} had a five", i + 1));
        }
        if color == attacker && opponent_wins.iter().any(|&q| q != m) {
            return Err(format!("move {} ({m}) leaves the defender a five", i + 1));
        }
        if color == defender && !opponent_wins.is_empty() && opponent_wins != [m] {
            return Err(format!("move {} ({m}) is not the forced block", i + 1));
        }
        b.place(m, color).unwrap();
        if color == attacker {
            let wins = win_points(&b, attacker, variant);
            if !threats && wins.is_empty() {
                return Err(format!("move {} ({m}) is not a four", i + 1));
            }
            if i == line.len() - 1 {
                let unstoppable =
                    wins.len() >= 2 || (wins.len() == 1 && !legal(&b, wins[0], defender, variant));
                return if unstoppable && win_points(&b, defender, variant).is_empty() {
                    Ok(())
                } else {
                    Err(format!("the last move ({m}) can be stopped: {wins:?}"))
                };
            }
        }
    }
    unreachable!("the loop returns at the last move")
}
