//! A static judgement of a position, for the decisions that are not a
//! stone: which colour to take at a swap, which fifth-move offer to leave
//! black, whether black is ahead after Swap2's three stones.
//!
//! It is deliberately crude — the same one-move look-ahead as
//! [`super::choose_stone`], summed over the board — because the bot must
//! answer at once and be easy to predict in tests. Two parts:
//!
//! - **Tactics** decide outright: if the side to move can make a five, or a
//!   four with two five points, it is winning ([`WIN`], [`NEAR_WIN`]); if
//!   the other side already has a five point that the mover can block, the
//!   mover is not lost, so nothing is added.
//! - **Shape**: for each colour, the sum over the empty points near stones
//!   of how much a stone there would extend that colour's lines
//!   ([`super::local_shape`] above that of a lone stone), counting only
//!   points the colour may play (black's forbidden points in renju give
//!   black nothing). The side to move gets [`TEMPO`] on top.
//!
//! The result is from black's side: positive means black is better.

use tengen_rules::{Board, Color};

use super::stone::{Rules, candidates, five_points_after, local_shape};

/// The side to move makes five.
pub(crate) const WIN: i32 = 1_000_000;
/// The side to move makes a four with two five points.
pub(crate) const NEAR_WIN: i32 = 100_000;
/// Having the move is worth this much shape.
pub(crate) const TEMPO: i32 = 20;
/// `local_shape` of a stone with no friends: four open lines of one.
const LONE: i32 = 4 * 3;

/// How good the position is for black, `to_move` playing next.
pub(crate) fn balance(board: &Board, rules: Rules, to_move: Color) -> i32 {
    let sign = |c: Color| if c == Color::Black { 1 } else { -1 };
    let mut scratch = board.clone();
    let near: Vec<_> = candidates(board).collect();
    for &p in &near {
        if !rules.may_play(board, to_move, p) {
            continue;
        }
        if board.makes_five(p, to_move, rules.variant) {
            return sign(to_move) * WIN;
        }
    }
    let mut total = 0;
    let them = to_move.opponent();
    let they_threaten = near
        .iter()
        .any(|&p| rules.may_play(board, them, p) && board.makes_five(p, them, rules.variant));
    if !they_threaten
        && near
            .iter()
            .any(|&p| five_points_after(&mut scratch, to_move, p, rules) >= 2)
    {
        return sign(to_move) * NEAR_WIN;
    }
    for color in [Color::Black, Color::White] {
        let shape: i32 = near
            .iter()
            .filter(|&&p| rules.may_play(board, color, p))
            .map(|&p| (local_shape(board, color, p) - LONE).max(0))
            .sum();
        total += sign(color) * shape;
    }
    total + sign(to_move) * TEMPO
}

/// The colour to move next on `board`: black after an even number of
/// stones. Passes are not allowed while any opening decision is pending,
/// so during the opening this is exact.
pub(crate) fn to_move(board: &Board) -> Color {
    if board.stone_count().is_multiple_of(2) {
        Color::Black
    } else {
        Color::White
    }
}
