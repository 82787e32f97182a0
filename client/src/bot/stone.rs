//! Choosing a stone: the candidate points near the stones, each scored by
//! what it makes and stops (fives, fours, threes, local shape) with a
//! seeded tie-break, for any rule set (the referee judges renju's
//! forbidden points).

use tengen_rules::{Board, Color, Point, Variant};

/// What the bot knows about the game it plays.
#[derive(Clone, Copy, Debug)]
pub struct Rules {
    pub variant: Variant,
}

impl Rules {
    pub(crate) fn may_play(self, board: &Board, color: Color, p: Point) -> bool {
        board.is_empty_point(p)
            && !(self.variant == Variant::Renju
                && color == Color::Black
                && board.forbidden(p).is_some())
    }
}

/// How good a point is, compared as a tuple: the first field is the tier
/// (win, block a five, ...), the second the local shape, the third the
/// seeded tie-break.
pub(crate) type Score = (u8, i32, u64);

/// The stone the bot plays for `me` on `board`, if any point is playable.
/// `within`, when set, confines it to the centred square of that side (as
/// opening rules do); `seed` varies the choice among equal points.
pub fn choose_stone(
    board: &Board,
    me: Color,
    rules: Rules,
    within: Option<u8>,
    seed: u64,
) -> Option<Point> {
    let in_zone = |p: Point| in_zone(board, within, p);
    let near: Vec<Point> = candidates(board).filter(|&p| in_zone(p)).collect();
    let pool: Vec<Point> = if near.is_empty() {
        board
            .points()
            .filter(|&p| in_zone(p) && board.is_empty_point(p))
            .collect()
    } else {
        near
    };
    let mut scratch = board.clone();
    pool.into_iter()
        .filter(|&p| rules.may_play(board, me, p))
        .map(|p| (score(&mut scratch, me, rules, p, seed), p))
        .max_by(|a, b| a.0.cmp(&b.0))
        .map(|(_, p)| p)
}

/// The first point `me` may play near the stones (the centre of an empty
/// board), else anywhere, with no look-ahead: the answer when there is no
/// time to think.
pub fn quick_stone(board: &Board, me: Color, rules: Rules) -> Option<Point> {
    candidates(board)
        .chain(board.points())
        .find(|&p| rules.may_play(board, me, p))
}

/// Whether `p` lies in the centred square of side `within` (anywhere when
/// `None`).
pub(crate) fn in_zone(board: &Board, within: Option<u8>, p: Point) -> bool {
    match within {
        None => true,
        Some(side) => {
            let c = (board.size() / 2) as i32;
            let r = (side as i32 - 1) / 2;
            (p.x as i32 - c).abs() <= r && (p.y as i32 - c).abs() <= r
        }
    }
}

/// Empty points within two of a stone (or the centre of an empty board).
pub(crate) fn candidates(board: &Board) -> impl Iterator<Item = Point> + '_ {
    let n = board.size();
    let empty_board = board.stone_count() == 0;
    board.points().filter(move |&p| {
        if !board.is_empty_point(p) {
            return false;
        }
        if empty_board {
            return p == Point::center(n);
        }
        (-2..=2).any(|dy| {
            (-2..=2).any(|dx| p.offset(dx, dy, n).is_some_and(|q| board.get(q).is_some()))
        })
    })
}

pub(crate) fn score(board: &mut Board, me: Color, rules: Rules, p: Point, seed: u64) -> Score {
    let v = rules.variant;
    let them = me.opponent();
    let tie = mix(seed ^ ((p.x as u64) << 8 | p.y as u64));
    if board.makes_five(p, me, v) {
        return (6, 0, tie);
    }
    if board.makes_five(p, them, v) {
        return (5, 0, tie);
    }
    let mine = five_points_after(board, me, p, rules);
    let theirs = five_points_after(board, them, p, rules);
    let shape = local_shape(board, me, p) * 2 + local_shape(board, them, p);
    if mine >= 2 {
        return (4, shape, tie);
    }
    if theirs >= 2 {
        return (3, shape, tie);
    }
    // A plain four forces an answer; worth a little over shape alone.
    (1 + (mine > 0) as u8, shape, tie)
}

/// How many points would make a five for `color` once it has a stone at
/// `p` (two or more: the opponent cannot stop them all). A point `color`
/// may not play (black's forbidden points in renju) gives none.
pub(crate) fn five_points_after(board: &mut Board, color: Color, p: Point, rules: Rules) -> usize {
    let n = board.size();
    // A five needs four own stones besides `p` within four points of it
    // along one line; with at most two in every window there is nothing to
    // count (this keeps the bot quick in debug builds).
    let crowded = [(1, 0), (0, 1), (1, 1), (1, -1)].iter().any(|&(dx, dy)| {
        (-4..=4)
            .filter_map(|k| p.offset(dx * k, dy * k, n))
            .filter(|&q| board.get(q) == Some(color))
            .count()
            >= 3
    });
    if !crowded || !rules.may_play(board, color, p) || board.place(p, color).is_err() {
        return 0;
    }
    let mut count = 0;
    for (dx, dy) in [(1, 0), (0, 1), (1, 1), (1, -1)] {
        for k in -4..=4 {
            if let Some(q) = p.offset(dx * k, dy * k, n)
                && board.is_empty_point(q)
                && board.makes_five(q, color, rules.variant)
            {
                count += 1;
            }
        }
    }
    board.remove(p);
    count
}

/// Own stones in a row with `p` along each line (open ends count a bit),
/// squared so that building long lines beats spreading out.
pub(crate) fn local_shape(board: &Board, color: Color, p: Point) -> i32 {
    let n = board.size();
    let mut total = 0;
    for (dx, dy) in [(1, 0), (0, 1), (1, 1), (1, -1)] {
        let mut run = 0;
        let mut open = 0;
        for sign in [1, -1] {
            let mut k = 1;
            loop {
                match p.offset(sign * dx * k, sign * dy * k, n) {
                    Some(q) if board.get(q) == Some(color) => run += 1,
                    Some(q) if board.get(q).is_none() => {
                        open += 1;
                        break;
                    }
                    _ => break,
                }
                k += 1;
            }
        }
        total += (run + 1) * (run + 1) * (open + 1);
    }
    total
}

/// A 64-bit mixer (splitmix64's finaliser) for seeded tie-breaks.
pub(crate) fn mix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}
