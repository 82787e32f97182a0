//! Equivalent fifth-move offers (docs/rules.md §6, the national rules art. 2.10).
//!
//! When black offers several fifth moves (RIF's two, Yamaguchi's and
//! Soosõrv's N, Taraguchi's option (b)), no two may be *the same offer*: two
//! offers are the same when the positions they make are congruent
//! ([`super::congruence`]). The isometry may have its centre or axis
//! anywhere and need not map offer to offer — it may carry an old stone onto
//! the other offer and the offer onto an old stone — which is why whole
//! resulting positions are compared rather than the offers' places.
//!
//! Fifth-move offers are black stones. An offer on an occupied point, or the
//! same point offered twice, is not an equivalence question and the raw
//! functions here do not look for it: the caller refuses those first.
//! [`check_offers`] does all the checks, in that order.

use super::congruence::CanonicalPosition;
use crate::point::Point;

/// The canonical form of the position after black adds `offer`.
pub fn position_with_offer(black: &[Point], white: &[Point], offer: Point) -> CanonicalPosition {
    let mut with = Vec::with_capacity(black.len() + 1);
    with.extend_from_slice(black);
    with.push(offer);
    CanonicalPosition::of(&with, white)
}

/// Whether the black fifth-move offers `a` and `b` are the same offer on the
/// position `black`/`white`: the two positions they make are congruent.
///
/// Both offers must be empty points of the position (the caller checks, see
/// [`check_offers`]); `equivalent_offers(.., a, a)` is true.
pub fn equivalent_offers(black: &[Point], white: &[Point], a: Point, b: Point) -> bool {
    a == b || position_with_offer(black, white, a) == position_with_offer(black, white, b)
}

/// The first two offers (in the order given, the earlier one first) that are
/// the same offer, if any. A point listed twice counts as such a pair. The
/// offers must be empty points (the caller checks, see [`check_offers`]).
pub fn first_equivalent_pair(
    black: &[Point],
    white: &[Point],
    offers: &[Point],
) -> Option<(Point, Point)> {
    let forms: Vec<CanonicalPosition> = offers
        .iter()
        .map(|&o| position_with_offer(black, white, o))
        .collect();
    (1..offers.len()).find_map(|j| {
        (0..j)
            .find(|&i| forms[i] == forms[j])
            .map(|i| (offers[i], offers[j]))
    })
}

/// Why a set of fifth-move offers is refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum OfferError {
    #[error("{0} is already occupied")]
    Occupied(Point),
    #[error("{0} is offered twice")]
    Repeated(Point),
    #[error("{0} and {1} are the same offer: the positions they make are symmetric")]
    Equivalent(Point, Point),
}

/// Checks a set of black fifth-move offers on the position `black`/`white`:
/// every offer on an empty point, no point twice, no two equivalent; the
/// first problem found is reported, in that order of checks. Whether the
/// points are on the board, and how many offers are due, is the caller's
/// business.
pub fn check_offers(black: &[Point], white: &[Point], offers: &[Point]) -> Result<(), OfferError> {
    if let Some(&p) = offers
        .iter()
        .find(|p| black.contains(p) || white.contains(p))
    {
        return Err(OfferError::Occupied(p));
    }
    for (j, p) in offers.iter().enumerate() {
        if offers[..j].contains(p) {
            return Err(OfferError::Repeated(*p));
        }
    }
    match first_equivalent_pair(black, white, offers) {
        Some((a, b)) => Err(OfferError::Equivalent(a, b)),
        None => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::opening::congruence::{Isometry, congruences};
    use crate::opening::{CanonicalOpening, OPENINGS, Symmetry, congruent};
    use proptest::prelude::*;

    fn pt(s: &str) -> Point {
        s.parse().unwrap()
    }

    fn pts(s: &str) -> Vec<Point> {
        s.split_whitespace().map(pt).collect()
    }

    /// Position after an opening and white 4: (black, white).
    fn after_four(opening: &str, white4: &str) -> (Vec<Point>, Vec<Point>) {
        let st = CanonicalOpening::by_name(opening)
            .unwrap()
            .stones(Symmetry::Identity);
        (vec![st.black1, st.black3], vec![st.white2, pt(white4)])
    }

    /// Every isometry taking the position with offer `a` to the one with
    /// offer `b`.
    fn witnesses(black: &[Point], white: &[Point], a: Point, b: Point) -> Vec<Isometry> {
        let with = |o: Point| -> Vec<Point> { black.iter().copied().chain([o]).collect() };
        congruences(&with(a), white, &with(b), white)
    }

    fn lands_on(iso: &Isometry, p: Point, q: Point) -> bool {
        iso.apply(p) == (i32::from(q.x), i32::from(q.y))
    }

    #[test]
    fn kansei_offers_mirrored_in_column_h_are_the_same() {
        // Kansei h8 h9 h10 is symmetric about column H; white 4 on h7 keeps it so.
        let (b, w) = after_four("Kansei", "H7");
        assert!(equivalent_offers(&b, &w, pt("G9"), pt("I9")));
        assert!(equivalent_offers(&b, &w, pt("F11"), pt("J11")));
        assert!(!equivalent_offers(&b, &w, pt("G9"), pt("I10")));
        assert!(!equivalent_offers(&b, &w, pt("G9"), pt("G7")));
        // White 4 off the axis breaks the symmetry.
        let (b, w) = after_four("Kansei", "I7");
        assert!(!equivalent_offers(&b, &w, pt("G9"), pt("I9")));
    }

    #[test]
    fn an_asymmetric_opening_has_no_mirrored_offers() {
        // Kyogetsu h8 i9 j9, white 4 on g9.
        let (b, w) = after_four("Kyogetsu", "G9");
        // Mirror images in column H, row 8, and a half turn about H8.
        for (p, q) in [("G7", "I7"), ("F10", "J10"), ("I10", "I6"), ("J10", "F6")] {
            assert!(!equivalent_offers(&b, &w, pt(p), pt(q)), "{p} {q}");
        }
        // No two empty points near the stones give the same position.
        let near: Vec<Point> = (4..11u8)
            .flat_map(|y| (4..11u8).map(move |x| Point::new(x, y)))
            .filter(|p| !b.contains(p) && !w.contains(p))
            .collect();
        assert_eq!(first_equivalent_pair(&b, &w, &near), None);
    }

    #[test]
    fn kagetsu_is_symmetric_about_the_h9_i8_diagonal() {
        // Kagetsu h8 h9 i9: black 1 and black 3 mirror each other in the
        // falling diagonal through white 2 (h9) and i8, a line missing h8.
        // White 4 on g10 lies on that line, so 5th moves mirrored in it are
        // one offer.
        let (b, w) = after_four("Kagetsu", "G10");
        for (p, q) in [("J8", "I7"), ("G9", "H10"), ("J10", "G7"), ("K8", "I6")] {
            assert!(equivalent_offers(&b, &w, pt(p), pt(q)), "{p} {q}");
            let maps = witnesses(&b, &w, pt(p), pt(q));
            assert_eq!(maps.len(), 1);
            assert_eq!(maps[0].symmetry, Symmetry::MirrorAntiDiagonal);
            // The mirror fixes h9 and i8 but moves h8.
            assert!(lands_on(&maps[0], pt("H9"), pt("H9")));
            assert!(lands_on(&maps[0], pt("I8"), pt("I8")));
            assert!(lands_on(&maps[0], pt("H8"), pt("I9")));
        }
        // Points on the axis are their own mirror; two of them differ.
        assert!(!equivalent_offers(&b, &w, pt("I8"), pt("J7")));
        assert!(!equivalent_offers(&b, &w, pt("J8"), pt("H7")));
        // Mirrored about H8's own axes instead: not the same.
        assert!(!equivalent_offers(&b, &w, pt("J8"), pt("F8")));
    }

    #[test]
    fn kosei_is_symmetric_about_column_i() {
        // Kosei h8 i9 j8: blacks mirror each other in column I.
        let (b, w) = after_four("Kosei", "I7");
        assert!(equivalent_offers(&b, &w, pt("H10"), pt("J10")));
        assert!(equivalent_offers(&b, &w, pt("G8"), pt("K8")));
        assert!(!equivalent_offers(&b, &w, pt("G8"), pt("J10")));
        // Column H (through H8) is not an axis of this position.
        assert!(!equivalent_offers(&b, &w, pt("G10"), pt("I10")));
    }

    #[test]
    fn half_turn_about_a_point_between_intersections() {
        // Black h8 j9, white i8 i9: the only symmetry is a half turn about
        // the midpoint of i8 and i9.
        let (b, w) = (pts("H8 J9"), pts("I8 I9"));
        for (p, q) in [("H9", "J8"), ("K9", "G8"), ("G6", "K11")] {
            assert!(equivalent_offers(&b, &w, pt(p), pt(q)), "{p} {q}");
            for m in witnesses(&b, &w, pt(p), pt(q)) {
                assert_eq!(m.symmetry, Symmetry::Rotate180);
                // Centre (tx/2, ty/2) is not an intersection.
                assert!(m.translation.0 % 2 != 0 || m.translation.1 % 2 != 0);
            }
        }
        assert!(!equivalent_offers(&b, &w, pt("H9"), pt("J10")));
        assert!(!equivalent_offers(&b, &w, pt("H9"), pt("H7")));
    }

    #[test]
    fn an_old_stone_may_be_carried_onto_the_offer() {
        // White j10; black pinwheel l11 i12 h9 k8 turns onto itself by a
        // quarter turn about j10. Black adds j11 and offers k10 or i10. The
        // quarter turn takes k10 to j11 and j11 to i10: the offer lands on
        // an old stone, and no map of the two positions takes k10 to i10.
        let black = pts("L11 I12 H9 K8 J11");
        let white = pts("J10");
        let (a, b) = (pt("K10"), pt("I10"));
        assert!(equivalent_offers(&black, &white, a, b));
        let maps = witnesses(&black, &white, a, b);
        assert!(!maps.is_empty());
        for m in &maps {
            assert!(lands_on(m, a, pt("J11")), "{m:?}");
            assert!(!lands_on(m, a, b));
        }
        assert_eq!(
            check_offers(&black, &white, &[a, b]),
            Err(OfferError::Equivalent(a, b))
        );
        // The other quarter turn's image is a different offer.
        assert!(!equivalent_offers(&black, &white, a, pt("J9")));
    }

    #[test]
    fn colours_count_not_just_shapes() {
        // Black h8, white i8: g8 makes black-black-white, j8 black-white-black.
        let (b, w) = (pts("H8"), pts("I8"));
        assert!(!equivalent_offers(&b, &w, pt("G8"), pt("J8")));
        // With no white, a 2-stone line is the same whichever end grows.
        assert!(equivalent_offers(&pts("H8 I8"), &[], pt("G8"), pt("J8")));
    }

    #[test]
    fn first_pair_and_checks() {
        let (b, w) = after_four("Kagetsu", "G10");
        let offers = pts("J8 H7 K10 I7 G9 H10");
        assert_eq!(
            first_equivalent_pair(&b, &w, &offers),
            Some((pt("J8"), pt("I7")))
        );
        assert_eq!(
            check_offers(&b, &w, &offers),
            Err(OfferError::Equivalent(pt("J8"), pt("I7")))
        );
        assert_eq!(check_offers(&b, &w, &pts("J8 H7 K10")), Ok(()));
        assert_eq!(first_equivalent_pair(&b, &w, &pts("J8 H7 K10")), None);
        assert_eq!(first_equivalent_pair(&b, &w, &[]), None);
        assert_eq!(check_offers(&b, &w, &pts("J8")), Ok(()));
        // An offer on a stone is refused before anything else, then a point
        // offered twice.
        assert_eq!(
            check_offers(&b, &w, &pts("J8 I7 H9")),
            Err(OfferError::Occupied(pt("H9")))
        );
        assert_eq!(
            check_offers(&b, &w, &pts("I9 J8")),
            Err(OfferError::Occupied(pt("I9")))
        );
        assert_eq!(
            check_offers(&b, &w, &pts("H7 J8 H7")),
            Err(OfferError::Repeated(pt("H7")))
        );
        assert_eq!(
            first_equivalent_pair(&b, &w, &pts("H7 J8 H7")),
            Some((pt("H7"), pt("H7")))
        );
        assert_eq!(
            OfferError::Equivalent(pt("J8"), pt("I7")).to_string(),
            "J8 and I7 are the same offer: the positions they make are symmetric"
        );
    }

    #[test]
    fn shapes_of_the_26_as_free_positions() {
        // As openings the 26 differ, but with H8 forgotten (as offers are
        // judged) two pairs are one shape: black 1 and black 3 swap roles.
        let mut pairs = Vec::new();
        for (i, a) in OPENINGS.iter().enumerate() {
            for b in &OPENINGS[i + 1..] {
                let (sa, sb) = (a.stones(Symmetry::Identity), b.stones(Symmetry::Identity));
                if congruent(
                    &[sa.black1, sa.black3],
                    &[sa.white2],
                    &[sb.black1, sb.black3],
                    &[sb.white2],
                ) {
                    pairs.push((a.romanized, b.romanized));
                }
            }
        }
        assert_eq!(pairs, [("Kyogetsu", "Keigetsu"), ("Ungetsu", "Ugetsu")]);
    }

    #[test]
    fn the_eight_symmetric_openings() {
        // Known to renju players: these openings are symmetric, so before
        // white 4 mirror-image 5ths are one offer. Kagetsu's and Kosei's
        // axes miss H8 (they run through H9-I8 and along column I).
        let symmetric: Vec<&str> = OPENINGS
            .iter()
            .filter(|o| {
                let st = o.stones(Symmetry::Identity);
                let (b, w) = ([st.black1, st.black3], [st.white2]);
                congruences(&b, &w, &b, &w).len() > 1
            })
            .map(|o| o.romanized)
            .collect();
        assert_eq!(
            symmetric,
            [
                "Chosei", "Kosei", "Shagetsu", "Suisei", "Kansei", "Kagetsu", "Shogetsu", "Zuisei"
            ]
        );
        let st = CanonicalOpening::by_name("Kosei")
            .unwrap()
            .stones(Symmetry::Identity);
        let (b, w) = ([st.black1, st.black3], [st.white2]);
        assert!(equivalent_offers(&b, &w, pt("H10"), pt("J10")));
        assert!(!equivalent_offers(&b, &w, pt("H10"), pt("F10")));
    }

    fn small_positions() -> impl Strategy<Value = (Vec<Point>, Vec<Point>, Point, Point)> {
        proptest::collection::btree_set((4u8..11, 4u8..11), 3..8).prop_flat_map(|set| {
            let p: Vec<Point> = set.into_iter().map(|(x, y)| Point::new(x, y)).collect();
            let n = p.len();
            (Just(p), 0..=n - 2).prop_map(move |(p, k)| {
                let (a, b) = (p[n - 2], p[n - 1]);
                (p[..k].to_vec(), p[k..n - 2].to_vec(), a, b)
            })
        })
    }

    proptest! {
        /// The canonical-form answer agrees with an explicit search for a
        /// map between the two positions, and does not depend on where the
        /// position stands or how it is turned.
        #[test]
        fn equivalence_agrees_with_searching_for_a_map(
            (black, white, a, b) in small_positions(),
            s in 0usize..8,
        ) {
            let eq = equivalent_offers(&black, &white, a, b);
            prop_assert_eq!(eq, !witnesses(&black, &white, a, b).is_empty());
            prop_assert_eq!(eq, equivalent_offers(&black, &white, b, a));
            let sym = Symmetry::ALL[s];
            let turn = |p: Point| sym.map_point(p).unwrap();
            let (tb, tw): (Vec<Point>, Vec<Point>) =
                (black.iter().map(|&p| turn(p)).collect(), white.iter().map(|&p| turn(p)).collect());
            prop_assert_eq!(eq, equivalent_offers(&tb, &tw, turn(a), turn(b)));
            // The image of an offer under a symmetry of the position is the
            // same offer.
            for m in congruences(&black, &white, &black, &white) {
                let (x, y) = m.apply(a);
                if (0..15).contains(&x) && (0..15).contains(&y) {
                    prop_assert!(equivalent_offers(&black, &white, a, Point::new(x as u8, y as u8)));
                }
            }
        }
    }
}
