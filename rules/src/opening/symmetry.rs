//! The eight symmetries of the square (rotations and reflections), acting on
//! offsets and on points of the standard board about H8.
//!
//! Two uses need them, with different fixed points, which is why they act on
//! plain integer offsets first: the 26 openings are the same opening under
//! any of the 8 symmetries *about H8* (docs/rules.md §6), while equivalent
//! fifth-move offers are compared under the symmetries composed with any
//! translation, so that the centre or axis may lie anywhere
//! ([`super::offers`]). Coordinates follow the board: `x` grows to the right,
//! `y` grows upwards (row 1 is at the bottom).

use crate::point::{Point, STANDARD_SIZE};

/// One of the 8 symmetries of the square, as a linear map of offsets
/// `(dx, dy)` (x right, y up). Rotations are counter-clockwise as seen on the
/// board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Symmetry {
    /// Leaves everything where it is.
    Identity,
    /// A quarter turn counter-clockwise: `(x, y) -> (-y, x)`.
    Rotate90,
    /// A half turn: `(x, y) -> (-x, -y)`.
    Rotate180,
    /// Three quarter turns counter-clockwise (a quarter turn clockwise):
    /// `(x, y) -> (y, -x)`.
    Rotate270,
    /// Mirror in the vertical axis (left and right swap): `(x, y) -> (-x, y)`.
    MirrorVertical,
    /// Mirror in the horizontal axis (top and bottom swap): `(x, y) -> (x, -y)`.
    MirrorHorizontal,
    /// Mirror in the rising diagonal (bottom-left to top-right):
    /// `(x, y) -> (y, x)`.
    MirrorDiagonal,
    /// Mirror in the falling diagonal (top-left to bottom-right):
    /// `(x, y) -> (-y, -x)`.
    MirrorAntiDiagonal,
}

impl Symmetry {
    /// All eight, the identity first.
    pub const ALL: [Symmetry; 8] = [
        Symmetry::Identity,
        Symmetry::Rotate90,
        Symmetry::Rotate180,
        Symmetry::Rotate270,
        Symmetry::MirrorVertical,
        Symmetry::MirrorHorizontal,
        Symmetry::MirrorDiagonal,
        Symmetry::MirrorAntiDiagonal,
    ];

    /// The image of the offset `(x, y)`.
    pub const fn apply(self, (x, y): (i32, i32)) -> (i32, i32) {
        match self {
            Symmetry::Identity => (x, y),
            Symmetry::Rotate90 => (-y, x),
            Symmetry::Rotate180 => (-x, -y),
            Symmetry::Rotate270 => (y, -x),
            Symmetry::MirrorVertical => (-x, y),
            Symmetry::MirrorHorizontal => (x, -y),
            Symmetry::MirrorDiagonal => (y, x),
            Symmetry::MirrorAntiDiagonal => (-y, -x),
        }
    }

    /// The symmetry that undoes this one.
    pub const fn inverse(self) -> Symmetry {
        match self {
            Symmetry::Rotate90 => Symmetry::Rotate270,
            Symmetry::Rotate270 => Symmetry::Rotate90,
            other => other,
        }
    }

    /// The image of a point of the standard 15 x 15 board under this
    /// symmetry about H8; `None` when `p` is not on that board (the image of
    /// a point on it always is).
    pub fn map_point(self, p: Point) -> Option<Point> {
        if !p.on_board(STANDARD_SIZE) {
            return None;
        }
        let centre = Point::center(STANDARD_SIZE);
        let (dx, dy) = self.apply(offset_from(centre, p));
        centre.offset(dx, dy, STANDARD_SIZE)
    }
}

/// The offset of `p` from `origin`, `(x, y)` with y upwards.
pub(crate) fn offset_from(origin: Point, p: Point) -> (i32, i32) {
    (
        i32::from(p.x) - i32::from(origin.x),
        i32::from(p.y) - i32::from(origin.y),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pt(s: &str) -> Point {
        s.parse().unwrap()
    }

    #[test]
    fn the_eight_are_distinct_and_form_a_group() {
        // Distinct: the images of one asymmetric offset differ.
        let images: std::collections::BTreeSet<_> =
            Symmetry::ALL.iter().map(|s| s.apply((2, 1))).collect();
        assert_eq!(images.len(), 8);
        // Closed under composition, and every one has its inverse.
        for a in Symmetry::ALL {
            assert_eq!(a.inverse().apply(a.apply((2, 1))), (2, 1), "{a:?}");
            for b in Symmetry::ALL {
                let composed = b.apply(a.apply((2, 1)));
                assert!(
                    Symmetry::ALL.iter().any(|c| c.apply((2, 1)) == composed
                        && c.apply((-1, 3)) == b.apply(a.apply((-1, 3)))),
                    "{a:?} then {b:?} is not one of the eight"
                );
            }
        }
    }

    #[test]
    fn points_map_about_h8() {
        // I9 is up-right of H8.
        assert_eq!(Symmetry::Identity.map_point(pt("I9")), Some(pt("I9")));
        assert_eq!(Symmetry::Rotate90.map_point(pt("I9")), Some(pt("G9")));
        assert_eq!(Symmetry::Rotate180.map_point(pt("I9")), Some(pt("G7")));
        assert_eq!(Symmetry::Rotate270.map_point(pt("I9")), Some(pt("I7")));
        assert_eq!(Symmetry::MirrorVertical.map_point(pt("J9")), Some(pt("F9")));
        assert_eq!(
            Symmetry::MirrorHorizontal.map_point(pt("J9")),
            Some(pt("J7"))
        );
        assert_eq!(
            Symmetry::MirrorDiagonal.map_point(pt("J9")),
            Some(pt("I10"))
        );
        assert_eq!(
            Symmetry::MirrorAntiDiagonal.map_point(pt("J9")),
            Some(pt("G6"))
        );
        for s in Symmetry::ALL {
            assert_eq!(s.map_point(pt("H8")), Some(pt("H8")));
            // Corners go to corners: the whole board maps onto itself.
            let corner = s.map_point(pt("A1")).unwrap();
            assert!([pt("A1"), pt("A15"), pt("O1"), pt("O15")].contains(&corner));
        }
        assert_eq!(Symmetry::Identity.map_point(pt("P1")), None);
    }
}
