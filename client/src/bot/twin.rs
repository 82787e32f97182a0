//! The bot in twin rooms (two boards, docs/rules.md §9), where a five is
//! dangerous: a turn that completes a five on one board only loses, and
//! only fives on both boards in one turn win.
//!
//! So the bot makes a five only as half of a win: with two stones to place
//! and a five point open on each board it takes one (and the other with
//! its second stone); with its second stone, after its first completed a
//! five, it completes the other board's if it can. Otherwise it plays the
//! best-shaped point, on either board, that makes no five, and only when
//! every free point makes one does it take one anyway. Whether a point
//! makes a five is the referee's judgement ([`Board::makes_five`]).

use tengen_rules::{Board, Color, Point, Variant};

use super::stone::{Rules, candidates, score};

/// The board and point of the bot's next stone for `me`, with `left`
/// stones to place this turn (the due one included); `None` when both
/// boards are full.
pub(super) fn twin_stone(
    boards: [&Board; 2],
    me: Color,
    left: u8,
    seed: u64,
) -> Option<(u8, Point)> {
    let five = Variant::Freestyle;
    let makes_five = |b: usize, p: Point| boards[b].makes_five(p, me, five);
    let five_point = |b: usize| {
        boards[b]
            .points()
            .find(|&p| boards[b].is_empty_point(p) && makes_five(b, p))
    };
    let mine_done = |b: usize| boards[b].find_winner(five).is_some_and(|(c, _)| c == me);
    // Finishing a win: the other board's five after this turn's first.
    for b in 0..2 {
        if left == 1
            && mine_done(b)
            && let Some(p) = five_point(1 - b)
        {
            return Some((1 - b as u8, p));
        }
    }
    // Starting one: a five open on each board and two stones to place.
    if left == 2
        && let (Some(p), Some(_)) = (five_point(0), five_point(1))
    {
        return Some((0, p));
    }
    let rules = Rules { variant: five };
    let mut best: Option<((u8, i32, u64), u8, Point)> = None;
    for (b, board) in boards.iter().enumerate() {
        let mut scratch = (*board).clone();
        let near: Vec<Point> = candidates(board).collect();
        for p in near {
            if !board.is_empty_point(p) || makes_five(b, p) {
                continue;
            }
            // A five-making tier means nothing here: judge by shape.
            let (_, shape, tie) = score(&mut scratch, me, rules, p, seed ^ b as u64);
            let s = (0, shape, tie);
            if best.is_none_or(|(bs, _, _)| s > bs) {
                best = Some((s, b as u8, p));
            }
        }
    }
    if let Some((_, b, p)) = best {
        return Some((b, p));
    }
    // Nothing near the stones: any free point without a five, else any.
    let free = |avoid: bool| {
        (0..2u8).find_map(|b| {
            let board = boards[b as usize];
            board
                .points()
                .find(|&p| board.is_empty_point(p) && !(avoid && makes_five(b as usize, p)))
                .map(|p| (b, p))
        })
    };
    free(true).or_else(|| free(false))
}
