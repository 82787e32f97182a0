//! The 52 openings of Yamaguchi's extended form (docs/rules.md §6, the
//! variants list rule 8: "摆出52种开局之一(在中央7×7区域内)") as data, and
//! their recognition.
//!
//! The variants list names the 52 only by where they lie: black 1 on H8,
//! white 2 touching it, black 3 anywhere inside the central 7 x 7 square.
//! With black 3 inside the 5 x 5 these are the 26 canonical openings
//! ([`super::canon`]); with black 3 on the ring of the 7 x 7 outside the
//! 5 x 5 (24 points) there are, up to the board's symmetries about H8,
//! exactly 26 more: 13 direct (white 2 on H9, the mirror in column H pairs
//! the ring's points, two of them on the axis) and 13 indirect (white 2 on
//! I9, the mirror in the diagonal through H8 and I9 pairs them). This
//! module lists those 26 extensions, in the orientation of the docs/rules.md
//! table, and recognises any of the 52; a test checks the count by brute
//! force. The sources give the extensions no names, so their codes and
//! labels (`LD1`…`LD13`, `LI1`…`LI13`, "large" as a 2005 RIF-rule
//! announcement called them) are Tengen's own.

use super::canon::{CanonicalOpening, OPENINGS, OpeningKind, Recognized, op, recognize_in};
use super::zones::CentralSquare;
use crate::point::Point;

use OpeningKind::{Direct, Indirect};

/// The 26 extensions: black 3 on the 7 x 7 ring, white 2 on I9 (indirect)
/// or H9 (direct); indirect first, each sweeping the ring from the top
/// right clockwise (black 3's offset from H8, x right, y up).
#[rustfmt::skip]
pub static EXTENDED_OPENINGS: [CanonicalOpening; 26] = [
    op("LI1", "斜指扩展1", "斜指擴展1", "Large indirect 1", Indirect, (3, 3)),
    op("LI2", "斜指扩展2", "斜指擴展2", "Large indirect 2", Indirect, (3, 2)),
    op("LI3", "斜指扩展3", "斜指擴展3", "Large indirect 3", Indirect, (3, 1)),
    op("LI4", "斜指扩展4", "斜指擴展4", "Large indirect 4", Indirect, (3, 0)),
    op("LI5", "斜指扩展5", "斜指擴展5", "Large indirect 5", Indirect, (3, -1)),
    op("LI6", "斜指扩展6", "斜指擴展6", "Large indirect 6", Indirect, (3, -2)),
    op("LI7", "斜指扩展7", "斜指擴展7", "Large indirect 7", Indirect, (3, -3)),
    op("LI8", "斜指扩展8", "斜指擴展8", "Large indirect 8", Indirect, (2, -3)),
    op("LI9", "斜指扩展9", "斜指擴展9", "Large indirect 9", Indirect, (1, -3)),
    op("LI10", "斜指扩展10", "斜指擴展10", "Large indirect 10", Indirect, (0, -3)),
    op("LI11", "斜指扩展11", "斜指擴展11", "Large indirect 11", Indirect, (-1, -3)),
    op("LI12", "斜指扩展12", "斜指擴展12", "Large indirect 12", Indirect, (-2, -3)),
    op("LI13", "斜指扩展13", "斜指擴展13", "Large indirect 13", Indirect, (-3, -3)),
    op("LD1", "直指扩展1", "直指擴展1", "Large direct 1", Direct, (0, 3)),
    op("LD2", "直指扩展2", "直指擴展2", "Large direct 2", Direct, (1, 3)),
    op("LD3", "直指扩展3", "直指擴展3", "Large direct 3", Direct, (2, 3)),
    op("LD4", "直指扩展4", "直指擴展4", "Large direct 4", Direct, (3, 3)),
    op("LD5", "直指扩展5", "直指擴展5", "Large direct 5", Direct, (3, 2)),
    op("LD6", "直指扩展6", "直指擴展6", "Large direct 6", Direct, (3, 1)),
    op("LD7", "直指扩展7", "直指擴展7", "Large direct 7", Direct, (3, 0)),
    op("LD8", "直指扩展8", "直指擴展8", "Large direct 8", Direct, (3, -1)),
    op("LD9", "直指扩展9", "直指擴展9", "Large direct 9", Direct, (3, -2)),
    op("LD10", "直指扩展10", "直指擴展10", "Large direct 10", Direct, (3, -3)),
    op("LD11", "直指扩展11", "直指擴展11", "Large direct 11", Direct, (2, -3)),
    op("LD12", "直指扩展12", "直指擴展12", "Large direct 12", Direct, (1, -3)),
    op("LD13", "直指扩展13", "直指擴展13", "Large direct 13", Direct, (0, -3)),
];

/// The one of the 52 openings (the 26, then the extensions) that black 1,
/// white 2 and black 3 form in move order, under any rotation or reflection
/// about H8. `None` when black 1 is not on H8, white 2 does not touch it,
/// black 3 is outside the 7 x 7 square or two stones share a point.
pub fn recognize_52(
    black1: Point,
    white2: Point,
    black3: Point,
) -> Option<&'static CanonicalOpening> {
    let within = |table, square| recognize_in(table, square, black1, white2, black3);
    within(&OPENINGS, CentralSquare::SQUARE_5)
        .or_else(|| within(&EXTENDED_OPENINGS, CentralSquare::SQUARE_7))
        .map(|r: Recognized| r.opening)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::opening::canon::shapes_matching;
    use crate::opening::symmetry::offset_from;
    use crate::point::STANDARD_SIZE;

    fn pt(s: &str) -> Point {
        s.parse().unwrap()
    }

    #[test]
    fn the_extensions_lie_on_the_ring_and_are_distinct() {
        let mut codes = std::collections::HashSet::new();
        for o in &EXTENDED_OPENINGS {
            assert!(codes.insert(o.code));
            assert_eq!(o.third.0.abs().max(o.third.1.abs()), 3, "{}", o.code);
        }
        for o in &OPENINGS {
            assert!(codes.insert(o.code));
        }
        assert_eq!(codes.len(), 52);
    }

    /// Every placement of white 2 and black 3 around black 1 on H8 (black 3
    /// anywhere on the board): recognised exactly when white 2 touches H8
    /// and black 3 lies in the 7 x 7; then as exactly one of the 52, each
    /// taking 8 placements or 4 when a line through H8 is its axis; the 26
    /// exactly as [`CanonicalOpening::recognize`] finds them.
    #[test]
    fn the_52_by_brute_force() {
        let h8 = pt("H8");
        let all =
            || (0..STANDARD_SIZE).flat_map(|y| (0..STANDARD_SIZE).map(move |x| Point::new(x, y)));
        let mut per = std::collections::HashMap::<&str, usize>::new();
        for w2 in all() {
            for b3 in all() {
                let got = recognize_52(h8, w2, b3);
                let (dx2, dy2) = offset_from(h8, w2);
                let (dx3, dy3) = offset_from(h8, b3);
                let legal = dx2.abs().max(dy2.abs()) == 1
                    && dx3.abs().max(dy3.abs()) <= 3
                    && (dx3, dy3) != (0, 0)
                    && b3 != w2;
                assert_eq!(got.is_some(), legal, "{w2} {b3}");
                if dx3.abs().max(dy3.abs()) <= 2 {
                    assert_eq!(got, CanonicalOpening::recognize(h8, w2, b3));
                }
                if let Some(o) = got {
                    *per.entry(o.code).or_default() += 1;
                    let matching = shapes_matching(&OPENINGS, w2, b3)
                        + shapes_matching(&EXTENDED_OPENINGS, w2, b3);
                    assert_eq!(matching, 1, "{w2} {b3}");
                }
            }
        }
        assert_eq!(per.len(), 52);
        // 8 places for white 2, 47 for black 3.
        assert_eq!(per.values().sum::<usize>(), 8 * 47);
        for (code, n) in per {
            assert!(n == 8 || n == 4, "{code}: {n}");
        }
        // Off H8 or a stone outside its square: none.
        assert_eq!(recognize_52(pt("H9"), pt("H8"), pt("I9")), None);
        assert_eq!(recognize_52(h8, pt("H9"), pt("H12")), None);
        assert_eq!(recognize_52(h8, pt("H10"), pt("H11")), None);
    }

    #[test]
    fn known_extensions() {
        let code = |w: &str, b: &str| recognize_52(pt("H8"), pt(w), pt(b)).map(|o| o.code);
        assert_eq!(code("H9", "H11"), Some("LD1"));
        assert_eq!(code("H7", "H5"), Some("LD1"));
        assert_eq!(code("H9", "E5"), Some("LD10"));
        assert_eq!(code("I9", "K11"), Some("LI1"));
        assert_eq!(code("G7", "E5"), Some("LI1"));
        assert_eq!(code("I9", "E5"), Some("LI13"));
        // I11 mirrored in the diagonal through H8 and I9 is K9: +3,+1.
        assert_eq!(code("I9", "I11"), Some("LI3"));
        assert_eq!(code("I9", "K9"), Some("LI3"));
        // Kagetsu is still one of the 26.
        assert_eq!(code("H9", "I9"), Some("D4"));
    }
}
