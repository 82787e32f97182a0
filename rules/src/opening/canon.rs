//! The 26 canonical renju openings (docs/rules.md §6, the national rules
//! art. 3) as data,
//! and their recognition from the first three stones.
//!
//! Every designated opening puts black 1 on H8, white 2 on one of its eight
//! neighbours and black 3 inside the 5 x 5 square around H8. Up to the 8
//! symmetries of the board about H8 there are exactly 26 such shapes, 13
//! *indirect* (white 2 diagonal to black 1, 斜指) and 13 *direct* (white 2
//! orthogonal, 直指). The opening rules need to name the shape a player laid
//! down (RIF's tentative black may lay any legal three stones; Yamaguchi and
//! Soosõrv require one of the 26), so each opening is stored once, in the
//! orientation of the docs/rules.md table, and recognised by trying the 8
//! symmetries.

use serde::Serialize;

use super::symmetry::{Symmetry, offset_from};
use super::zones::CentralSquare;
use crate::point::{Point, STANDARD_SIZE};

/// Where white 2 stands relative to black 1 on H8.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum OpeningKind {
    /// 直指: white 2 orthogonally next to black 1 (canonically on H9).
    Direct,
    /// 斜指: white 2 diagonally next to black 1 (canonically on I9).
    Indirect,
}

impl OpeningKind {
    /// White 2's offset from H8 in the canonical orientation.
    pub const fn white_offset(self) -> (i32, i32) {
        match self {
            OpeningKind::Direct => (0, 1),
            OpeningKind::Indirect => (1, 1),
        }
    }
}

/// One of the 26 openings, in the orientation of the docs/rules.md §6 table.
#[derive(Debug, PartialEq, Eq, Hash, Serialize)]
pub struct CanonicalOpening {
    /// Short code, `I1`..`I13` for the indirect and `D1`..`D13` for the
    /// direct openings, in the order of the docs/rules.md table (the customary
    /// renju numbering).
    pub code: &'static str,
    /// Chinese name in simplified characters, as in docs/rules.md (`花月`).
    pub chinese: &'static str,
    /// Chinese name in traditional characters, as in the national rules
    /// (`長星`), except 松月: their `鬆月` is a mechanical conversion of the
    /// simplified 松 (pine, the Japanese name's 松月 Shogetsu) into 鬆
    /// (loose); [`CanonicalOpening::by_name`] accepts it all the same.
    pub chinese_traditional: &'static str,
    /// Romanised Japanese name, as in docs/rules.md (`Kagetsu`).
    pub romanized: &'static str,
    /// Direct or indirect.
    pub kind: OpeningKind,
    /// Black 3's offset `(dx, dy)` from H8 (x right, y up) when white 2 is
    /// on H9 (direct) or I9 (indirect).
    pub third: (i32, i32),
}

/// The three stones of an opening, by move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct OpeningStones {
    pub black1: Point,
    pub white2: Point,
    pub black3: Point,
}

/// An opening recognised on the board, with the symmetry that takes its
/// canonical orientation to the stones found
/// (`opening.stones(symmetry)` gives them back).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Recognized {
    pub opening: &'static CanonicalOpening,
    pub symmetry: Symmetry,
}

pub(super) const fn op(
    code: &'static str,
    chinese: &'static str,
    chinese_traditional: &'static str,
    romanized: &'static str,
    kind: OpeningKind,
    third: (i32, i32),
) -> CanonicalOpening {
    CanonicalOpening {
        code,
        chinese,
        chinese_traditional,
        romanized,
        kind,
        third,
    }
}

use OpeningKind::{Direct, Indirect};

/// The 26 openings: the 13 indirect ones, then the 13 direct ones, each in
/// the order of the docs/rules.md §6 table.
pub static OPENINGS: [CanonicalOpening; 26] = [
    op("I1", "长星", "長星", "Chosei", Indirect, (2, 2)),
    op("I2", "峡月", "峽月", "Kyogetsu", Indirect, (2, 1)),
    op("I3", "恒星", "恆星", "Kosei", Indirect, (2, 0)),
    op("I4", "水月", "水月", "Suigetsu", Indirect, (2, -1)),
    op("I5", "流星", "流星", "Ryusei", Indirect, (2, -2)),
    op("I6", "云月", "雲月", "Ungetsu", Indirect, (1, 0)),
    op("I7", "浦月", "浦月", "Hogetsu", Indirect, (1, -1)),
    op("I8", "岚月", "嵐月", "Rangetsu", Indirect, (1, -2)),
    op("I9", "银月", "銀月", "Gingetsu", Indirect, (0, -1)),
    op("I10", "明星", "明星", "Myojo", Indirect, (0, -2)),
    op("I11", "斜月", "斜月", "Shagetsu", Indirect, (-1, -1)),
    op("I12", "名月", "名月", "Meigetsu", Indirect, (-1, -2)),
    op("I13", "彗星", "彗星", "Suisei", Indirect, (-2, -2)),
    op("D1", "寒星", "寒星", "Kansei", Direct, (0, 2)),
    op("D2", "溪月", "溪月", "Keigetsu", Direct, (1, 2)),
    op("D3", "疏星", "疏星", "Sosei", Direct, (2, 2)),
    op("D4", "花月", "花月", "Kagetsu", Direct, (1, 1)),
    op("D5", "残月", "殘月", "Zangetsu", Direct, (2, 1)),
    op("D6", "雨月", "雨月", "Ugetsu", Direct, (1, 0)),
    op("D7", "金星", "金星", "Kinsei", Direct, (2, 0)),
    op("D8", "松月", "松月", "Shogetsu", Direct, (0, -1)),
    op("D9", "丘月", "丘月", "Kyugetsu", Direct, (1, -1)),
    op("D10", "新月", "新月", "Shingetsu", Direct, (2, -1)),
    op("D11", "瑞星", "瑞星", "Zuisei", Direct, (0, -2)),
    op("D12", "山月", "山月", "Sangetsu", Direct, (1, -2)),
    op("D13", "游星", "遊星", "Yusei", Direct, (2, -2)),
];

fn centre() -> Point {
    Point::center(STANDARD_SIZE)
}

impl CanonicalOpening {
    /// The opening with this code (`D4`), romanised name (`Kagetsu`, any
    /// case) or Chinese name (simplified `长星` or traditional `長星`; the
    /// national rules' `鬆月` is accepted for 松月 too).
    pub fn by_name(name: &str) -> Option<&'static CanonicalOpening> {
        let name = name.trim();
        let name = name.strip_suffix('局').unwrap_or(name);
        if name == "鬆月" {
            return CanonicalOpening::by_name("松月");
        }
        OPENINGS.iter().find(|o| {
            o.code.eq_ignore_ascii_case(name)
                || o.romanized.eq_ignore_ascii_case(name)
                || o.chinese == name
                || o.chinese_traditional == name
        })
    }

    /// The opening's stones on the standard board in the orientation given
    /// by `symmetry` about H8 (`Symmetry::Identity` is the docs/rules.md table's:
    /// white 2 on H9 or I9).
    pub fn stones(&self, symmetry: Symmetry) -> OpeningStones {
        let at = |d: (i32, i32)| {
            let (dx, dy) = symmetry.apply(d);
            centre()
                .offset(dx, dy, STANDARD_SIZE)
                .expect("opening stones lie within two points of H8")
        };
        OpeningStones {
            black1: centre(),
            white2: at(self.kind.white_offset()),
            black3: at(self.third),
        }
    }

    /// The opening formed by black 1, white 2 and black 3 in move order,
    /// under any rotation or reflection of the board about H8. `None` when
    /// black 1 is not on H8, white 2 is not one of H8's eight neighbours,
    /// black 3 is outside the 5 x 5 square around H8, or two stones share a
    /// point. Every other placement is exactly one of the 26.
    pub fn recognize(
        black1: Point,
        white2: Point,
        black3: Point,
    ) -> Option<&'static CanonicalOpening> {
        CanonicalOpening::recognize_oriented(black1, white2, black3).map(|r| r.opening)
    }

    /// Like [`CanonicalOpening::recognize`], also telling the orientation.
    pub fn recognize_oriented(black1: Point, white2: Point, black3: Point) -> Option<Recognized> {
        recognize_in(&OPENINGS, CentralSquare::SQUARE_5, black1, white2, black3)
    }

    /// The opening formed by the stones on a board, whatever the order they
    /// were played in: exactly two black stones, one of them on H8, and one
    /// white stone. `None` for any other stone count or colouring, or when
    /// [`CanonicalOpening::recognize`] finds none.
    pub fn recognize_stones(black: &[Point], white: &[Point]) -> Option<&'static CanonicalOpening> {
        let (&[b1, b2], &[w]) = (black, white) else {
            return None;
        };
        match (b1 == centre(), b2 == centre()) {
            (true, false) => CanonicalOpening::recognize(b1, w, b2),
            (false, true) => CanonicalOpening::recognize(b2, w, b1),
            _ => None,
        }
    }
}

/// The opening of `table` that black 1, white 2 and black 3 form under
/// some symmetry about H8, black 3 confined to `third_in`; shared by the 26
/// and the 52 (`super::extended`).
pub(super) fn recognize_in(
    table: &'static [CanonicalOpening],
    third_in: CentralSquare,
    black1: Point,
    white2: Point,
    black3: Point,
) -> Option<Recognized> {
    if black1 != centre()
        || !CentralSquare::SQUARE_3.contains(white2)
        || !third_in.contains(black3)
        || white2 == black1
        || black3 == black1
        || black3 == white2
    {
        return None;
    }
    let white = offset_from(centre(), white2);
    let third = offset_from(centre(), black3);
    table.iter().find_map(|opening| {
        Symmetry::ALL
            .into_iter()
            .find(|s| {
                s.apply(opening.kind.white_offset()) == white && s.apply(opening.third) == third
            })
            .map(|symmetry| Recognized { opening, symmetry })
    })
}

/// How many openings of `table` put white 2 on `w2` and black 3 on `b3`
/// (black 1 on H8) under some symmetry: the tests' independent check that
/// recognition finds the only one.
#[cfg(test)]
pub(super) fn shapes_matching(table: &[CanonicalOpening], w2: Point, b3: Point) -> usize {
    table
        .iter()
        .filter(|c| {
            Symmetry::ALL.iter().any(|&s| {
                let st = c.stones(s);
                st.white2 == w2 && st.black3 == b3
            })
        })
        .count()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::point::Point;

    fn pt(s: &str) -> Point {
        s.parse().unwrap()
    }

    fn all_points() -> impl Iterator<Item = Point> {
        (0..STANDARD_SIZE).flat_map(|y| (0..STANDARD_SIZE).map(move |x| Point::new(x, y)))
    }

    #[test]
    fn the_table_has_26_distinct_names_and_shapes() {
        let mut seen = std::collections::HashSet::new();
        for o in &OPENINGS {
            assert!(seen.insert(o.code));
            assert!(seen.insert(o.chinese));
            assert!(seen.insert(o.romanized));
            assert_eq!(
                o.chinese.chars().count(),
                2,
                "{} has a two-character name",
                o.romanized
            );
            assert!(o.chinese.ends_with('星') || o.chinese.ends_with('月'));
            assert!(o.third.0.abs() <= 2 && o.third.1.abs() <= 2);
            assert_ne!(o.third, (0, 0));
            assert_ne!(o.third, o.kind.white_offset());
        }
        let direct = OPENINGS.iter().filter(|o| o.kind == Direct).count();
        assert_eq!(direct, 13);
        // docs/rules.md §6 lists the names in this order.
        let names: String = OPENINGS.iter().map(|o| o.chinese).collect();
        assert_eq!(
            names,
            "长星峡月恒星水月流星云月浦月岚月银月明星斜月名月彗星\
             寒星溪月疏星花月残月雨月金星松月丘月新月瑞星山月游星"
        );
    }

    #[test]
    fn every_opening_is_recognised_from_all_eight_orientations() {
        for o in &OPENINGS {
            let mut placements = std::collections::HashSet::new();
            for s in Symmetry::ALL {
                let st = o.stones(s);
                assert_eq!(st.black1, pt("H8"));
                placements.insert((st.white2, st.black3));
                assert_eq!(
                    CanonicalOpening::recognize(st.black1, st.white2, st.black3),
                    Some(o)
                );
                let r =
                    CanonicalOpening::recognize_oriented(st.black1, st.white2, st.black3).unwrap();
                assert!(std::ptr::eq(r.opening, o));
                assert_eq!(r.opening.stones(r.symmetry), st);
                // From a board, in either order of the black stones.
                for black in [[st.black1, st.black3], [st.black3, st.black1]] {
                    assert_eq!(
                        CanonicalOpening::recognize_stones(&black, &[st.white2]),
                        Some(o)
                    );
                }
                // Colours swapped: white on H8, black on the other two.
                assert_eq!(
                    CanonicalOpening::recognize_stones(&[st.white2, st.black3], &[st.black1]),
                    None
                );
                // White 2 and black 3 swapped: an opening again exactly
                // when black 3 touched black 1.
                assert_eq!(
                    CanonicalOpening::recognize_stones(&[st.black1, st.white2], &[st.black3])
                        .is_some(),
                    CentralSquare::SQUARE_3.contains(st.black3),
                    "{} with 2 and 3 swapped",
                    o.romanized
                );
            }
            // An opening symmetric about H8 shows fewer distinct placements.
            assert!(placements.len() == 8 || placements.len() == 4);
        }
    }

    #[test]
    fn known_positions_by_name() {
        // Kagetsu: h8 h9 i9; Chosei: h8 i9 j10; Suisei: h8 i9 f6.
        let k = CanonicalOpening::by_name("kagetsu").unwrap();
        assert_eq!(k.chinese, "花月");
        assert_eq!(
            CanonicalOpening::recognize(pt("H8"), pt("H9"), pt("I9")),
            Some(k)
        );
        assert_eq!(
            CanonicalOpening::recognize(pt("H8"), pt("G8"), pt("G9")).map(|o| o.romanized),
            Some("Kagetsu")
        );
        assert_eq!(
            CanonicalOpening::recognize(pt("H8"), pt("I9"), pt("J10")).map(|o| o.chinese),
            Some("长星")
        );
        assert_eq!(
            CanonicalOpening::recognize(pt("H8"), pt("G7"), pt("J10")).map(|o| o.romanized),
            Some("Suisei")
        );
        assert_eq!(
            CanonicalOpening::recognize(pt("H8"), pt("H7"), pt("H6")).map(|o| o.code),
            Some("D1")
        );
        assert_eq!(
            CanonicalOpening::by_name("長星局").map(|o| o.code),
            Some("I1")
        );
        assert_eq!(
            CanonicalOpening::by_name("鬆月").map(|o| o.romanized),
            Some("Shogetsu")
        );
        assert_eq!(
            CanonicalOpening::by_name(" d13 ").map(|o| o.chinese),
            Some("游星")
        );
        assert_eq!(CanonicalOpening::by_name("Sakata"), None);
    }

    /// Every placement of three stones on the board, in move order:
    /// recognised exactly when legal (1 on H8, 2 touching, 3 in the 5x5,
    /// all distinct), and then as exactly one opening, with each opening
    /// taking 8 placements, or 4 when it is symmetric about a line through H8.
    #[test]
    fn exhaustive_recognition_of_three_stones() {
        let h8 = pt("H8");
        let mut per_opening = std::collections::HashMap::<&str, usize>::new();
        let mut recognised = 0;
        for b1 in all_points() {
            for w2 in all_points() {
                for b3 in all_points() {
                    let got = CanonicalOpening::recognize(b1, w2, b3);
                    let (dx2, dy2) = offset_from(h8, w2);
                    let (dx3, dy3) = offset_from(h8, b3);
                    let legal = b1 == h8
                        && dx2.abs() <= 1
                        && dy2.abs() <= 1
                        && (dx2, dy2) != (0, 0)
                        && dx3.abs() <= 2
                        && dy3.abs() <= 2
                        && (dx3, dy3) != (0, 0)
                        && b3 != w2;
                    assert_eq!(got.is_some(), legal, "{b1} {w2} {b3}");
                    if let Some(o) = got {
                        recognised += 1;
                        *per_opening.entry(o.romanized).or_default() += 1;
                        // Exactly one opening matches under some symmetry.
                        assert_eq!(shapes_matching(&OPENINGS, w2, b3), 1, "{b1} {w2} {b3}");
                    }
                }
            }
        }
        // 8 places for white 2, 23 for black 3.
        assert_eq!(recognised, 8 * 23);
        assert_eq!(per_opening.len(), 26);
        let symmetric_about_h8 = [
            "Kansei", "Shogetsu", "Zuisei", "Chosei", "Shagetsu", "Suisei",
        ];
        for (name, n) in per_opening {
            let expected = if symmetric_about_h8.contains(&name) {
                4
            } else {
                8
            };
            assert_eq!(n, expected, "{name}");
        }
    }

    #[test]
    fn the_26_are_pairwise_not_equivalent() {
        for (i, a) in OPENINGS.iter().enumerate() {
            for b in &OPENINGS[i + 1..] {
                for s in Symmetry::ALL {
                    let st = b.stones(s);
                    let a0 = a.stones(Symmetry::Identity);
                    assert!(
                        (a0.white2, a0.black3) != (st.white2, st.black3),
                        "{} and {} coincide",
                        a.romanized,
                        b.romanized
                    );
                }
            }
        }
    }

    #[test]
    fn board_stone_lists_of_the_wrong_shape_are_not_openings() {
        let h8 = pt("H8");
        assert_eq!(CanonicalOpening::recognize_stones(&[h8], &[pt("H9")]), None);
        assert_eq!(
            CanonicalOpening::recognize_stones(&[h8, pt("I9")], &[pt("H9"), pt("J9")]),
            None
        );
        assert_eq!(
            CanonicalOpening::recognize_stones(&[h8, pt("I9"), pt("J9")], &[pt("H9")]),
            None
        );
        // Neither black stone on H8, though the shape is Kagetsu's.
        assert_eq!(
            CanonicalOpening::recognize_stones(&[pt("I8"), pt("J9")], &[pt("I9")]),
            None
        );
        // White 2 not touching black 1, or black 3 outside the 5x5.
        assert_eq!(CanonicalOpening::recognize(h8, pt("H10"), pt("I9")), None);
        assert_eq!(CanonicalOpening::recognize(h8, pt("H9"), pt("H11")), None);
        assert_eq!(CanonicalOpening::recognize(h8, pt("I9"), pt("K10")), None);
    }
}
