//! The centred squares that opening rules confine early moves to.
//!
//! RIF (moves 1-3), Taraguchi (moves 1-4, and the 5th in option (a)) and
//! Tarannikov (moves 1-5) all use the same ladder: move `n` must lie in the
//! `(2n-1) x (2n-1)` square centred on H8 — 1x1 (H8 itself), 3x3, 5x5, 7x7,
//! 9x9 (docs/rules.md §6; the variants list rules 5 and 6). The squares
//! are kept here, in one place, so that the state machine, the prompts
//! ("black 3 must be inside the 5x5 square around H8") and the opening
//! recogniser agree.

use std::fmt;

use super::symmetry::offset_from;
use crate::point::{Point, STANDARD_SIZE};

/// A square of `side` x `side` intersections centred on H8 of the standard
/// board; `side` is odd.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct CentralSquare {
    side: u8,
}

impl CentralSquare {
    /// H8 alone.
    pub const CENTRE: CentralSquare = CentralSquare { side: 1 };
    /// H8 and its eight neighbours (G7..I9).
    pub const SQUARE_3: CentralSquare = CentralSquare { side: 3 };
    /// F6..J10.
    pub const SQUARE_5: CentralSquare = CentralSquare { side: 5 };
    /// E5..K11.
    pub const SQUARE_7: CentralSquare = CentralSquare { side: 7 };
    /// D4..M12 (the square whose corners are the four stars).
    pub const SQUARE_9: CentralSquare = CentralSquare { side: 9 };

    /// The square of `side` x `side` around H8; `None` unless `side` is odd
    /// and at most 15.
    pub const fn new(side: u8) -> Option<CentralSquare> {
        if side % 2 == 1 && side <= STANDARD_SIZE {
            Some(CentralSquare { side })
        } else {
            None
        }
    }

    /// The square move `n` (1-based) must lie in under the confined opening
    /// rules: side `2n - 1`. Defined for moves 1 to 5 (centre .. 9x9); which
    /// of these a rule confines is the rule's business: RIF confines moves
    /// 1-3, Taraguchi 1-4 (and the 5th in its option (a)), Tarannikov 1-5.
    pub const fn for_move(n: u32) -> Option<CentralSquare> {
        match n {
            1..=5 => Some(CentralSquare {
                side: (2 * n - 1) as u8,
            }),
            _ => None,
        }
    }

    /// The side length in intersections.
    pub const fn side(self) -> u8 {
        self.side
    }

    /// How far from H8 a point may be, along each axis.
    pub const fn radius(self) -> u8 {
        self.side / 2
    }

    /// Whether `p` lies inside the square (edges included).
    pub fn contains(self, p: Point) -> bool {
        let (dx, dy) = offset_from(Point::center(STANDARD_SIZE), p);
        let r = i32::from(self.radius());
        dx.abs() <= r && dy.abs() <= r
    }

    /// Every point of the square, row by row from the bottom left.
    pub fn points(self) -> impl Iterator<Item = Point> {
        let c = Point::center(STANDARD_SIZE);
        let lo = c.x - self.radius();
        let hi = c.x + self.radius();
        (lo..=hi).flat_map(move |y| (lo..=hi).map(move |x| Point::new(x, y)))
    }

    /// The bottom-left and top-right corners.
    pub fn corners(self) -> (Point, Point) {
        let c = Point::center(STANDARD_SIZE);
        let r = self.radius();
        (Point::new(c.x - r, c.y - r), Point::new(c.x + r, c.y + r))
    }
}

/// `"H8"` for the centre, otherwise e.g. `"5x5 square around H8 (F6-J10)"`,
/// for prompts and refusals.
impl fmt::Display for CentralSquare {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (lo, hi) = self.corners();
        if self.side == 1 {
            write!(f, "{lo}")
        } else {
            let c = Point::center(STANDARD_SIZE);
            write!(f, "{0}x{0} square around {c} ({lo}-{hi})", self.side)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pt(s: &str) -> Point {
        s.parse().unwrap()
    }

    #[test]
    fn move_n_goes_in_the_square_of_side_2n_minus_1() {
        let expected = [
            CentralSquare::CENTRE,
            CentralSquare::SQUARE_3,
            CentralSquare::SQUARE_5,
            CentralSquare::SQUARE_7,
            CentralSquare::SQUARE_9,
        ];
        for (i, sq) in expected.iter().enumerate() {
            let n = i as u32 + 1;
            assert_eq!(CentralSquare::for_move(n), Some(*sq));
            assert_eq!(sq.side() as u32, 2 * n - 1);
            assert_eq!(sq.points().count(), (sq.side() as usize).pow(2));
        }
        assert_eq!(CentralSquare::for_move(0), None);
        assert_eq!(CentralSquare::for_move(6), None);
        assert_eq!(CentralSquare::new(5), Some(CentralSquare::SQUARE_5));
        assert_eq!(CentralSquare::new(4), None);
        assert_eq!(CentralSquare::new(17), None);
    }

    #[test]
    fn membership_on_the_edges() {
        assert!(CentralSquare::CENTRE.contains(pt("H8")));
        assert!(!CentralSquare::CENTRE.contains(pt("H9")));
        assert!(CentralSquare::SQUARE_3.contains(pt("G7")));
        assert!(CentralSquare::SQUARE_3.contains(pt("I9")));
        assert!(!CentralSquare::SQUARE_3.contains(pt("J9")));
        assert!(!CentralSquare::SQUARE_3.contains(pt("I10")));
        assert!(CentralSquare::SQUARE_5.contains(pt("F10")));
        assert!(CentralSquare::SQUARE_5.contains(pt("J6")));
        assert!(!CentralSquare::SQUARE_5.contains(pt("K8")));
        assert!(!CentralSquare::SQUARE_5.contains(pt("E8")));
        assert!(CentralSquare::SQUARE_7.contains(pt("K5")));
        assert!(!CentralSquare::SQUARE_7.contains(pt("L8")));
        assert!(!CentralSquare::SQUARE_7.contains(pt("H4")));
        // The 9x9 square's corners are the stars.
        for star in ["D4", "D12", "L12", "L4"] {
            assert!(CentralSquare::SQUARE_9.contains(pt(star)));
            assert!(!CentralSquare::SQUARE_7.contains(pt(star)));
        }
        assert!(!CentralSquare::SQUARE_9.contains(pt("C8")));
        assert!(!CentralSquare::SQUARE_9.contains(pt("H13")));
        // Every point of a square is in it; counts over the whole board agree.
        for sq in [CentralSquare::SQUARE_7, CentralSquare::new(15).unwrap()] {
            assert!(sq.points().all(|p| sq.contains(p)));
            let inside = (0..15u8)
                .flat_map(|y| (0..15u8).map(move |x| Point::new(x, y)))
                .filter(|&p| sq.contains(p))
                .count();
            assert_eq!(inside, (sq.side() as usize).pow(2));
        }
    }

    #[test]
    fn display_names_the_square() {
        assert_eq!(CentralSquare::CENTRE.to_string(), "H8");
        assert_eq!(
            CentralSquare::SQUARE_5.to_string(),
            "5x5 square around H8 (F6-J10)"
        );
        assert_eq!(
            CentralSquare::SQUARE_9.to_string(),
            "9x9 square around H8 (D4-L12)"
        );
    }
}
