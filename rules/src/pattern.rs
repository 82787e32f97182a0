//! The line-pattern table behind the forbidden-move judge.
//!
//! Every question the renju rules ask about one line through a point P (is
//! there a five, an overline, how many fours, which points would turn a three
//! into a straight four) depends only on the five cells on each side of P.
//! Each of those ten cells is empty, black or blocked (white or off the
//! board), so there are 3^10 = 59,049 neighbourhoods. They are all judged once,
//! once, on first use, into [`table()`]; at run time one line of a position costs
//! two shifts and two small look-ups. P itself is always taken as black.
//!
//! An entry (`u16`) holds:
//! - bit 0: P makes exactly five in this line;
//! - bit 1: P makes six or more (an overline) in this line;
//! - bits 2–3: the number of fours P makes in this line (0, 1 or 2), that is
//!   the distinct empty points that would then make exactly five with P,
//!   counting a straight four (two such points five apart) as one four;
//! - bits 4–9: for lines that hold no four, the points Q at offsets
//!   −3, −2, −1, +1, +2, +3 from P where one more black stone makes a
//!   straight four containing P and Q. A non-empty set is a *candidate three*:
//!   whether it is a real three depends on whether some Q is itself a legal
//!   move, which the judge decides recursively on the whole board.

/// Ten-bit cell mask (offsets −5..−1 in bits 0..4, +1..+5 in bits 5..9) to the
/// base-3 number with a 1 in the digit of each set bit.
pub(crate) static TERNARY: [u16; 1024] = build_ternary();
/// Number of neighbourhoods (3^10).
pub(crate) const ENTRIES: usize = 59049;
/// The judged neighbourhoods, indexed by `TERNARY[black] + 2 * TERNARY[blocked]`.
pub(crate) type Table = [u16; ENTRIES];

/// The table, built on first use (a few milliseconds; building it in const
/// evaluation cost the compiler 18 s, on every build of this crate).
pub(crate) fn table() -> &'static Table {
    static TABLE: std::sync::OnceLock<Box<Table>> = std::sync::OnceLock::new();
    TABLE.get_or_init(build_table)
}

pub(crate) const FIVE: u16 = 1;
pub(crate) const OVERLINE: u16 = 2;
pub(crate) const FOURS_SHIFT: u16 = 2;
pub(crate) const THREE_SHIFT: u16 = 4;
/// Offsets of the six three-completion bits, in bit order.
pub(crate) const THREE_OFFSETS: [i32; 6] = [-3, -2, -1, 1, 2, 3];

/// The number of fours recorded in an entry.
pub(crate) const fn fours(entry: u16) -> u16 {
    (entry >> FOURS_SHIFT) & 3
}

/// The three-completion bits of an entry (bit k is `THREE_OFFSETS[k]`).
pub(crate) const fn three_points(entry: u16) -> u16 {
    entry >> THREE_SHIFT
}

/// Index of the neighbourhood given the eleven-bit windows (centre in bit 5)
/// of black stones and of blocked cells.
#[inline]
pub(crate) fn index(black: u32, blocked: u32) -> usize {
    let squeeze = |w: u32| ((w & 0x1F) | ((w >> 6) << 5)) as usize;
    TERNARY[squeeze(black)] as usize + 2 * TERNARY[squeeze(blocked)] as usize
}

const fn build_ternary() -> [u16; 1024] {
    let mut t = [0u16; 1024];
    let mut m = 0;
    while m < 1024 {
        let mut v = 0u16;
        let mut pow = 1u16;
        let mut k = 0;
        while k < 10 {
            if m & (1 << k) != 0 {
                v += pow;
            }
            pow *= 3;
            k += 1;
        }
        t[m] = v;
        m += 1;
    }
    t
}

const EMPTY: u8 = 0;
const BLACK: u8 = 1;

/// Cells at offsets −5..=+5 (index offset + 5), centre black.
type Cells = [u8; 11];

const fn decode(mut idx: usize) -> Cells {
    let mut c = [EMPTY; 11];
    let mut k = 0;
    while k < 10 {
        let slot = if k < 5 { k } else { k + 1 };
        // Digit 0 empty, 1 black, 2 blocked.
        c[slot] = (idx % 3) as u8;
        idx /= 3;
        k += 1;
    }
    c[5] = BLACK;
    c
}

const fn is_black(c: &Cells, off: i32) -> bool {
    off >= -5 && off <= 5 && c[(off + 5) as usize] == BLACK
}

const fn is_empty(c: &Cells, off: i32) -> bool {
    off >= -5 && off <= 5 && c[(off + 5) as usize] == EMPTY
}

/// Length of the black run through offset 0. Runs reaching the window's edge
/// are at least that long, which is all any caller needs (≥ 6 is an overline).
const fn run_through_centre(c: &Cells) -> i32 {
    let mut n = 1;
    let mut o = -1;
    while is_black(c, o) {
        n += 1;
        o -= 1;
    }
    o = 1;
    while is_black(c, o) {
        n += 1;
        o += 1;
    }
    n
}

/// Whether the black run through offset 0 also covers offset `q`.
const fn run_covers(c: &Cells, q: i32) -> bool {
    let step = if q < 0 { -1 } else { 1 };
    let mut o = step;
    loop {
        if !is_black(c, o) {
            return false;
        }
        if o == q {
            return true;
        }
        o += step;
    }
}

/// Whether the cells hold a straight four through offsets 0 and `q`: four
/// blacks at `i..i+3` with both ends empty and each end making exactly five.
const fn straight_four_through(c: &Cells, q: i32) -> bool {
    let mut i = -3;
    while i <= 0 {
        let covers_q = q >= i && q <= i + 3;
        if covers_q
            && is_black(c, i)
            && is_black(c, i + 1)
            && is_black(c, i + 2)
            && is_black(c, i + 3)
            && is_empty(c, i - 1)
            && is_empty(c, i + 4)
            && !is_black(c, i - 2)
            && !is_black(c, i + 5)
        {
            return true;
        }
        i += 1;
    }
    false
}

const fn judge(c: &Cells) -> u16 {
    let run = run_through_centre(c);
    if run == 5 {
        return FIVE;
    }
    if run >= 6 {
        return OVERLINE;
    }
    // Fours: empty points that make exactly five together with the centre.
    let mut first = 0;
    let mut count = 0;
    let mut q = -4;
    while q <= 4 {
        if q != 0 && is_empty(c, q) {
            let mut d = *c;
            d[(q + 5) as usize] = BLACK;
            if run_through_centre(&d) == 5 && run_covers(&d, q) {
                if count == 0 {
                    first = q;
                }
                count += 1;
            }
        }
        q += 1;
    }
    let fours: u16 = if count == 2 && (q_last(c, first) - first) == 5 {
        1
    } else {
        count
    };
    if fours > 0 {
        return fours << FOURS_SHIFT;
    }
    let mut threes = 0u16;
    let mut k = 0;
    while k < 6 {
        let q = THREE_OFFSETS[k];
        if is_empty(c, q) {
            let mut d = *c;
            d[(q + 5) as usize] = BLACK;
            if straight_four_through(&d, q) {
                threes |= 1 << k;
            }
        }
        k += 1;
    }
    threes << THREE_SHIFT
}

/// The second five-making point after `first` (used only when there are two).
const fn q_last(c: &Cells, first: i32) -> i32 {
    let mut q = 4;
    while q > first {
        if is_empty(c, q) {
            let mut d = *c;
            d[(q + 5) as usize] = BLACK;
            if run_through_centre(&d) == 5 && run_covers(&d, q) {
                return q;
            }
        }
        q -= 1;
    }
    first
}

fn build_table() -> Box<Table> {
    let mut t = Box::new([0u16; ENTRIES]);
    for (i, e) in t.iter_mut().enumerate() {
        *e = judge(&decode(i));
    }
    t
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Looks up a line written as text: `x` the point judged, `B` black,
    /// `W` blocked, `.` empty; the text is centred on `x`.
    fn entry(line: &str) -> u16 {
        let centre = line.find('x').unwrap();
        let (mut black, mut blocked) = (0u32, 0u32);
        for (i, ch) in line.bytes().enumerate() {
            let off = i as i32 - centre as i32;
            if !(-5..=5).contains(&off) {
                continue;
            }
            let bit = 1 << (off + 5);
            match ch {
                b'B' => black |= bit,
                b'W' => blocked |= bit,
                _ => {}
            }
        }
        table()[index(black, blocked)]
    }

    fn three_offsets(e: u16) -> Vec<i32> {
        (0..6)
            .filter(|k| three_points(e) & (1 << k) != 0)
            .map(|k| THREE_OFFSETS[k])
            .collect()
    }

    #[test]
    fn fives_and_overlines() {
        assert_eq!(entry("..BBxBB.."), FIVE);
        assert_eq!(entry("W.BBBBx.W"), FIVE);
        assert_eq!(entry(".BBBxBB."), OVERLINE);
        assert_eq!(entry("BBBBBx"), OVERLINE);
    }

    #[test]
    fn four_counts() {
        assert_eq!(fours(entry("..BBx...")), 0);
        assert_eq!(fours(entry("..BBBx..")), 1, "straight four counts once");
        assert_eq!(fours(entry("W.BBBx.W")), 1);
        assert_eq!(fours(entry("WBBBx.W")), 1, "rush four");
        assert_eq!(fours(entry("B.BxB.B")), 2, "two fours on one line");
        assert_eq!(fours(entry("BB.xB.BB")), 2);
        assert_eq!(fours(entry("BBB.x.BBB")), 2);
        assert_eq!(fours(entry("B.BBx..")), 1);
        assert_eq!(fours(entry("BB.Bx.")), 1);
        assert_eq!(fours(entry("BB.BBx.")), 0, "the gap would make six");
        assert_eq!(fours(entry("B.BBBxW")), 0, "only an overline can follow");
    }

    #[test]
    fn candidate_threes() {
        assert_eq!(three_offsets(entry("...Bx..B..")), Vec::<i32>::new());
        assert_eq!(three_offsets(entry("...Bx.B...")), vec![1]);
        assert_eq!(three_offsets(entry("...BxB...")), vec![-2, 2]);
        assert_eq!(three_offsets(entry("..B.xB...")), vec![-1]);
        assert_eq!(
            three_offsets(entry("W.BxB..W")),
            vec![2],
            "one side blocked at distance"
        );
        assert_eq!(three_offsets(entry("WBxB..")), Vec::<i32>::new());
        assert_eq!(
            three_offsets(entry("B.BxB..")),
            Vec::<i32>::new(),
            "B.BBB is a four, not a three"
        );
        assert_eq!(
            three_offsets(entry("B..BxB...")),
            vec![2],
            "the left extension would be an overline skeleton"
        );
        assert_eq!(three_offsets(entry(".B.xB..")), vec![-1]);
        assert!(three_points(entry("...BBx...")) != 0);
    }
}
