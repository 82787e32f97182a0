//! What one stone makes along one line: the pattern table.
//!
//! Everything the search knows about a point P in one direction depends on
//! the five cells on each side of it, each empty, own, or blocked (the
//! opponent's stone or off the board): 3^10 = 59,049 neighbourhoods. Each
//! is judged once, on first use, into a [`Shape`]: a five, an overline, a
//! four with two winning points (an open four, or two fours in one line),
//! a four, a three that can become an open four, a three that can only
//! become a four, and the twos before them.
//!
//! What a five is is the referee's: a run of `len` stones is a five when
//! [`Variant::wins`] says so for the colour, so there is one table for
//! "five or more" and one for "exactly five" (renju's black, gomoku), each
//! built from that predicate. The table judges shapes for evaluation and
//! move ordering only: whether a move is legal (renju's forbidden points)
//! is always asked of [`tengen_rules::Board::forbidden`].

use std::sync::OnceLock;

use tengen_rules::{Color, Variant};

/// Number of neighbourhoods (3^10).
pub const ENTRIES: usize = 59_049;

/// The powers of three of the ten neighbour slots: offsets -5..-1 are
/// slots 0..4, +1..+5 slots 5..9.
pub const POW3: [u32; 10] = [1, 3, 9, 27, 81, 243, 729, 2187, 6561, 19683];

/// A neighbour's state in a key digit.
pub const EMPTY: u32 = 0;
pub const OWN: u32 = 1;
pub const BLOCKED: u32 = 2;

/// What a stone at P makes in one line, weakest first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(u8)]
pub enum Shape {
    None = 0,
    /// Six or more in a row where only exactly five wins.
    Overline,
    /// One more stone makes a three that can only become a four.
    Two,
    /// One more stone makes an open three.
    OpenTwo,
    /// One more stone makes a four (one winning point).
    Three,
    /// One more stone makes an open four.
    OpenThree,
    /// One winning point.
    Four,
    /// Two winning points (an open four, or two fours in this line).
    OpenFour,
    Five,
}

impl Shape {
    const ALL: [Shape; 9] = [
        Shape::None,
        Shape::Overline,
        Shape::Two,
        Shape::OpenTwo,
        Shape::Three,
        Shape::OpenThree,
        Shape::Four,
        Shape::OpenFour,
        Shape::Five,
    ];

    fn from_u8(v: u8) -> Shape {
        Shape::ALL[v as usize]
    }
}

/// The table for one five rule: `exact` when only exactly five wins.
pub struct Table {
    shapes: Box<[u8; ENTRIES]>,
}

impl Table {
    /// The shape of the neighbourhood `key` (see [`POW3`]).
    #[inline]
    pub fn shape(&self, key: u32) -> Shape {
        Shape::from_u8(self.shapes[key as usize])
    }
}

/// The table for `color` under `variant`, built on first use.
pub fn table(variant: Variant, color: Color) -> &'static Table {
    static LOOSE: OnceLock<Table> = OnceLock::new();
    static EXACT: OnceLock<Table> = OnceLock::new();
    let wins = move |len: u32| variant.wins(color, len);
    if wins(6) {
        LOOSE.get_or_init(|| build(&wins))
    } else {
        EXACT.get_or_init(|| build(&wins))
    }
}

/// The eleven cells of a neighbourhood, P (index 5) empty.
pub fn cells(key: u32) -> [u32; 11] {
    let mut out = [EMPTY; 11];
    let mut k = key;
    for slot in 0..10 {
        let i = if slot < 5 { slot } else { slot + 1 };
        out[i] = k % 3;
        k /= 3;
    }
    out
}

fn key_of(cells: &[u32; 11]) -> u32 {
    (0..10)
        .map(|slot| {
            let i = if slot < 5 { slot } else { slot + 1 };
            cells[i] * POW3[slot]
        })
        .sum()
}

/// The run of own stones through `i` if an own stone stood there.
fn run(cells: &[u32; 11], i: usize) -> u32 {
    let mut n = 1;
    let mut j = i;
    while j > 0 && cells[j - 1] == OWN {
        n += 1;
        j -= 1;
    }
    let mut j = i;
    while j < 10 && cells[j + 1] == OWN {
        n += 1;
        j += 1;
    }
    n
}

/// Whether the run through `i` (an own stone placed there) reaches P.
fn through_p(cells: &[u32; 11], i: usize) -> bool {
    let (lo, hi) = if i < 5 { (i, 5) } else { (5, i) };
    (lo..=hi).all(|j| j == i || cells[j] == OWN)
}

fn build(wins: &dyn Fn(u32) -> bool) -> Table {
    let mut shapes = Box::new([0u8; ENTRIES]);
    // More own stones first: a neighbourhood's threes and twos are read
    // from the neighbourhoods with one own stone more, judged already.
    let mut order: Vec<u32> = (0..ENTRIES as u32).collect();
    let owns = |key: u32| cells(key).iter().filter(|&&c| c == OWN).count();
    order.sort_by_key(|&k| std::cmp::Reverse(owns(k)));
    for key in order {
        shapes[key as usize] = judge(key, wins, &shapes) as u8;
    }
    Table { shapes }
}

fn judge(key: u32, wins: &dyn Fn(u32) -> bool, shapes: &[u8; ENTRIES]) -> Shape {
    let mut c = cells(key);
    let len = run(&c, 5);
    if wins(len) {
        return Shape::Five;
    }
    if len >= 6 {
        return Shape::Overline;
    }
    // With P placed: the points that would make a five through P.
    c[5] = OWN;
    let fives = (0..11)
        .filter(|&i| c[i] == EMPTY && through_p(&c, i) && wins(run(&c, i)))
        .count();
    match fives {
        0 => {}
        1 => return Shape::Four,
        _ => return Shape::OpenFour,
    }
    c[5] = EMPTY;
    // One more own stone Q (P still empty): what P makes then.
    let mut best = Shape::None;
    let empties: Vec<usize> = (1..10).filter(|&q| q != 5 && c[q] == EMPTY).collect();
    for q in empties {
        c[q] = OWN;
        let then = Shape::from_u8(shapes[key_of(&c) as usize]);
        c[q] = EMPTY;
        let now = match then {
            Shape::OpenFour => Shape::OpenThree,
            Shape::Four => Shape::Three,
            Shape::OpenThree => Shape::OpenTwo,
            Shape::Three => Shape::Two,
            _ => Shape::None,
        };
        best = best.max(now);
    }
    best
}

/// The key of P's neighbourhood in a line given as eleven cells (P in the
/// middle); for tests and the position's first build.
pub fn key(cells11: &[u32; 11]) -> u32 {
    key_of(cells11)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shape_of(s: &str, variant: Variant, color: Color) -> Shape {
        // `s`: eleven characters, `x` own, `o` blocked, `.` empty, the
        // middle one P (empty).
        let mut c = [EMPTY; 11];
        for (i, ch) in s.chars().enumerate() {
            c[i] = match ch {
                'x' => OWN,
                'o' => BLOCKED,
                _ => EMPTY,
            };
        }
        table(variant, color).shape(key(&c))
    }

    #[test]
    fn the_shapes_of_common_lines() {
        let f = |s| shape_of(s, Variant::Freestyle, Color::Black);
        assert_eq!(f("...xx.xx..."), Shape::Five);
        assert_eq!(f("..xxx.xx..."), Shape::Five);
        assert_eq!(f("....x.xx..."), Shape::OpenFour);
        assert_eq!(f("...ox.xx..."), Shape::Four);
        // x . . P x . x: no five fits the four stones; P x . x with room
        // on both sides is a split three (its middle makes an open four).
        assert_eq!(f("...x..x.x.."), Shape::OpenThree);
        // x x . P x: a split four, its one winning point the gap.
        assert_eq!(f("..xx..x...."), Shape::Four);
        assert_eq!(f("....x.x...."), Shape::OpenThree);
        assert_eq!(f("...ox.x...."), Shape::Three);
        assert_eq!(f("....x......"), Shape::OpenTwo);
        assert_eq!(f("...ox......"), Shape::Two);
        assert_eq!(f("ooooo.ooooo"), Shape::None);
        // Two fours in one line: x.xx P xx.x... two winning points.
        assert_eq!(f(".x.xx.x.x.."), Shape::OpenFour);
    }

    #[test]
    fn exactly_five_has_overlines() {
        let renju_black = |s| shape_of(s, Variant::Renju, Color::Black);
        let renju_white = |s| shape_of(s, Variant::Renju, Color::White);
        assert_eq!(renju_black("..xxx.xx..."), Shape::Overline);
        assert_eq!(renju_white("..xxx.xx..."), Shape::Five);
        // x xxx P . x: P makes four; its winning point would make six.
        assert_eq!(renju_black(".xxxx.....o"), Shape::Five);
        // x.xxxP: one winning point on the right; the left one makes six.
        assert_eq!(renju_black("x.xxx......"), Shape::Four);
        assert_eq!(
            shape_of("x.xxx......", Variant::Freestyle, Color::Black),
            Shape::OpenFour
        );
    }
}
