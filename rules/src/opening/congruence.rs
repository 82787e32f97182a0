//! Congruence of positions under isometries of the whole grid.
//!
//! docs/rules.md §6 calls two fifth-move offers the same when the positions they
//! make are congruent: some isometry of the grid — one of the 8 rotations
//! and reflections composed with any translation, board edges ignored — maps
//! one position onto the other, colours kept. The centre or axis of such a
//! map may be anywhere, even between intersections.
//!
//! Rather than search for the map, a position is reduced to a
//! [`CanonicalPosition`]: for each of the 8 symmetries, map every stone,
//! translate so that the smallest x and the smallest y become 0, sort; keep
//! the least of the 8. If `B = g(A) + t` then the 8 normalised images of `B`
//! are those of `A` (translation is normalised away, and `g` only permutes
//! the 8), so the least is the same; conversely equal forms give the map.
//! Whole stone sets are compared, so a map that carries an old stone onto a
//! new one needs no special case. [`congruences`] lists the maps themselves,
//! for explanations and tests.

use super::symmetry::Symmetry;
use crate::point::Point;

/// A position reduced to a form that is equal for two positions exactly when
/// they are congruent. Board edges are ignored.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct CanonicalPosition {
    /// `(x, y, colour)`, colour 0 for black and 1 for white, sorted, with the
    /// smallest x and the smallest y both 0.
    stones: Vec<(i32, i32, u8)>,
}

impl CanonicalPosition {
    /// The canonical form of the position with these black and white stones.
    /// A point listed twice gives a meaningless form: pass a real position.
    pub fn of(black: &[Point], white: &[Point]) -> CanonicalPosition {
        let stones: Vec<(i32, i32, u8)> = black
            .iter()
            .map(|p| (coords(*p), 0))
            .chain(white.iter().map(|p| (coords(*p), 1)))
            .map(|((x, y), c)| (x, y, c))
            .collect();
        Symmetry::ALL
            .into_iter()
            .map(|s| normalise(s, &stones))
            .min()
            .expect("eight symmetries")
    }

    /// Number of stones in the position.
    pub fn len(&self) -> usize {
        self.stones.len()
    }

    /// Whether the position has no stones.
    pub fn is_empty(&self) -> bool {
        self.stones.is_empty()
    }
}

fn coords(p: Point) -> (i32, i32) {
    (i32::from(p.x), i32::from(p.y))
}

/// The stones mapped by `s`, translated to touch both axes, sorted.
fn normalise(s: Symmetry, stones: &[(i32, i32, u8)]) -> CanonicalPosition {
    let mut mapped: Vec<(i32, i32, u8)> = stones
        .iter()
        .map(|&(x, y, c)| {
            let (x, y) = s.apply((x, y));
            (x, y, c)
        })
        .collect();
    let min_x = mapped.iter().map(|m| m.0).min().unwrap_or(0);
    let min_y = mapped.iter().map(|m| m.1).min().unwrap_or(0);
    for m in &mut mapped {
        m.0 -= min_x;
        m.1 -= min_y;
    }
    mapped.sort_unstable();
    CanonicalPosition { stones: mapped }
}

/// Whether two positions are congruent: some rotation or reflection followed
/// by some translation maps the stones of one onto the other, colours kept.
pub fn congruent(
    black_a: &[Point],
    white_a: &[Point],
    black_b: &[Point],
    white_b: &[Point],
) -> bool {
    CanonicalPosition::of(black_a, white_a) == CanonicalPosition::of(black_b, white_b)
}

/// An isometry of the integer grid: `symmetry` (about the origin, column A
/// row 1) and then a shift by `translation`. Every rotation or reflection of
/// the grid, whatever its centre or axis, is one of these.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Isometry {
    pub symmetry: Symmetry,
    pub translation: (i32, i32),
}

impl Isometry {
    /// The image of `p`, as grid coordinates `(x, y)` that may lie off any
    /// board.
    pub fn apply(self, p: Point) -> (i32, i32) {
        let (x, y) = self.symmetry.apply(coords(p));
        (x + self.translation.0, y + self.translation.1)
    }
}

/// Every isometry mapping position A onto position B, colours kept (empty
/// when they are not congruent). Points must not repeat within a position.
pub fn congruences(
    black_a: &[Point],
    white_a: &[Point],
    black_b: &[Point],
    white_b: &[Point],
) -> Vec<Isometry> {
    if black_a.len() != black_b.len() || white_a.len() != white_b.len() {
        return Vec::new();
    }
    let sorted = |ps: &mut dyn Iterator<Item = (i32, i32)>| {
        let mut v: Vec<(i32, i32)> = ps.collect();
        v.sort_unstable();
        v
    };
    let target_black = sorted(&mut black_b.iter().map(|&p| coords(p)));
    let target_white = sorted(&mut white_b.iter().map(|&p| coords(p)));
    // One stone of A must land on a stone of its colour in B: for each
    // choice, the translation is fixed.
    let (anchor, candidates) = match (black_a.first(), white_a.first()) {
        (Some(&a), _) => (a, &target_black),
        (None, Some(&a)) => (a, &target_white),
        (None, None) => {
            return vec![Isometry {
                symmetry: Symmetry::Identity,
                translation: (0, 0),
            }];
        }
    };
    let mut found = Vec::new();
    for symmetry in Symmetry::ALL {
        let image = symmetry.apply(coords(anchor));
        for &target in candidates {
            let iso = Isometry {
                symmetry,
                translation: (target.0 - image.0, target.1 - image.1),
            };
            if sorted(&mut black_a.iter().map(|&p| iso.apply(p))) == target_black
                && sorted(&mut white_a.iter().map(|&p| iso.apply(p))) == target_white
            {
                found.push(iso);
            }
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn pts(s: &str) -> Vec<Point> {
        s.split_whitespace().map(|p| p.parse().unwrap()).collect()
    }

    #[test]
    fn translation_rotation_and_reflection_are_congruences() {
        let (b, w) = (pts("H8 I9 J9"), pts("H9"));
        // Shifted two columns left and three rows up.
        assert!(congruent(&b, &w, &pts("F11 G12 H12"), &pts("F12")));
        // Quarter turn about a point far from H8.
        let turned = |ps: &[Point]| -> Vec<Point> {
            ps.iter()
                .map(|p| Point::new(12 - (p.y - 5), 2 + (p.x - 5)))
                .collect()
        };
        assert!(congruent(&b, &w, &turned(&b), &turned(&w)));
        // Mirrored left-right.
        assert!(congruent(&b, &w, &pts("H8 G9 F9"), &pts("H9")));
        // Colours matter: same points, one stone changes colour.
        assert!(!congruent(&b, &w, &pts("H8 I9 H9"), &pts("J9")));
        // Different shapes, same counts.
        assert!(!congruent(&b, &w, &pts("H8 I9 K9"), &pts("H9")));
        assert!(!congruent(&b, &w, &pts("H8 I9"), &pts("H9 J9")));
        assert!(congruent(&[], &[], &[], &[]));
    }

    #[test]
    fn congruences_lists_the_maps() {
        // A lone black stone maps onto any other by 8 maps.
        assert_eq!(congruences(&pts("H8"), &[], &pts("A1"), &[]).len(), 8);
        // An asymmetric position has only the identity.
        let (b, w) = (pts("H8 I8 H10"), pts("J8"));
        assert_eq!(
            congruences(&b, &w, &b, &w),
            vec![Isometry {
                symmetry: Symmetry::Identity,
                translation: (0, 0)
            }]
        );
        // Black H8 and I9 with white H9 and I8: symmetric about a point
        // between intersections, both diagonals and two more axes — but no
        // quarter turn keeps colours.
        let (b, w) = (pts("H8 I9"), pts("H9 I8"));
        let maps = congruences(&b, &w, &b, &w);
        assert_eq!(maps.len(), 4);
        assert!(
            maps.iter()
                .all(|m| !matches!(m.symmetry, Symmetry::Rotate90 | Symmetry::Rotate270))
        );
        assert!(congruences(&b, &w, &pts("H8 I8"), &pts("H9 I9")).is_empty());
    }

    fn stone_sets() -> impl Strategy<Value = (Vec<Point>, Vec<Point>)> {
        proptest::collection::btree_set((0u8..15, 0u8..15), 1..9).prop_flat_map(|set| {
            let points: Vec<Point> = set.into_iter().map(|(x, y)| Point::new(x, y)).collect();
            let n = points.len();
            (Just(points), 0..=n).prop_map(|(p, k)| (p[..k].to_vec(), p[k..].to_vec()))
        })
    }

    proptest! {
        /// Moving a whole position by any isometry leaves its canonical
        /// form unchanged, and `congruences` finds that isometry.
        #[test]
        fn canonical_form_ignores_isometries(
            (black, white) in stone_sets(),
            s in 0usize..8,
            tx in -3i32..4,
            ty in -3i32..4,
        ) {
            let iso = Isometry { symmetry: Symmetry::ALL[s], translation: (tx + 20, ty + 20) };
            let moved = |ps: &[Point]| -> Vec<Point> {
                ps.iter().map(|&p| {
                    let (x, y) = iso.apply(p);
                    Point::new(x as u8, y as u8)
                }).collect()
            };
            let (b2, w2) = (moved(&black), moved(&white));
            prop_assert!(congruent(&black, &white, &b2, &w2));
            prop_assert!(congruences(&black, &white, &b2, &w2).contains(&iso));
            // Recolouring one stone breaks congruence unless the colour
            // counts happen to match again (they cannot: one moves).
            if let Some((first, rest)) = b2.split_first() {
                let mut w3 = w2.clone();
                w3.push(*first);
                prop_assert!(!congruent(&black, &white, rest, &w3));
            }
        }
    }
}
