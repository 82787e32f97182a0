//! The room's opening rule and the values its decisions carry (docs/rules.md §6).
//!
//! An opening rule says who lays the first stones, where they may go, when
//! colours may change hands and whether black's 5th move is chosen from a
//! set of offers. The rule is a room choice ([`Opening`], a field of
//! [`super::GameConfig`]); the machine sequences it (`machine::openings`).
//! The small values that players' opening decisions carry (a set of
//! fifth-move offers, Taraguchi's option) live here too, because actions,
//! prompts, events and the record all share them.

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::point::Point;

/// The most fifth-move offers any rule may ask for: Yamaguchi's declared N,
/// Soosõrv-N's and Taraguchi-N's N are all at most this. Ten is the largest
/// N of the rules in use (Taraguchi-10); any early position has far more
/// than ten non-equivalent points, so the bound never makes a declaration
/// impossible to fulfil.
pub const MAX_FIFTH_OFFERS: u8 = 10;

/// Soosõrv-N's default N (the world championship rule since 2017).
pub const DEFAULT_SOOSORV_N: u8 = 8;

/// Taraguchi-N's default N.
pub const DEFAULT_TARAGUCHI_N: u8 = 10;

/// The most fifth-move offers Jonsson's white may declare (1, 2 or 3).
pub const JONSSON_MAX_OFFERS: u8 = 3;

/// How many times Super Sakata's option (c), two more stones and the
/// choice handed back, may be taken in one game (docs/rules.md §6). The
/// RIF's text sets no limit; Tengen's is five, so that the colours are
/// settled by move 15 at the latest: five rounds add ten stones, twice the
/// opening's own five, a position still unbalanced after that is no longer
/// an opening question, and an untimed room has no clock to end the loop
/// otherwise. At the limit the chooser has only options (a) and
/// (b), a plain swap decision.
pub const SUPER_SAKATA_MAX_ROUNDS: u8 = 5;

/// How the opening is played: who places the first stones and when colours
/// may change hands (docs/rules.md §6). New openings are added as new variants.
///
/// Serialized in snake case (`yamaguchi_52` for [`Opening::Yamaguchi52`]);
/// the variants with a parameter as an object, `{"soosorv": {"n": 8}}` (a
/// missing `n` takes the default). The text form ([`std::fmt::Display`],
/// [`std::str::FromStr`]) is `soosorv-8`, `taraguchi-10`, `rif`, ...;
/// `soosorv` alone means the default N.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum Opening {
    /// Free opening: black and white alternate from move 1 (renju: black 1
    /// on the centre).
    Free,
    /// Swap after move 3 (三手交换): after black's 3rd stone the player
    /// holding white may take black instead, once.
    SwapAfterThree,
    /// RIF: the opener (tentative black) places moves 1-3 (1 on H8, 2 in the
    /// 3x3, 3 in the 5x5 square: one of the 26 openings); the other seat may
    /// swap; white plays 4 anywhere; black offers two non-equivalent 5ths;
    /// white keeps one and plays 6. Renju only.
    Rif,
    /// Yamaguchi: the opener places one of the 26 openings and declares N
    /// (1..=[`MAX_FIFTH_OFFERS`]); the other seat may swap; white 4
    /// anywhere; black offers N non-equivalent 5ths; white keeps one and
    /// plays 6. Renju only.
    Yamaguchi,
    /// Soosõrv-N: one of the 26 by the opener; swap option; white 4 anywhere
    /// and a declared 1..=`n` offers; swap option; black's offers; white
    /// keeps one and plays 6. Renju only.
    Soosorv {
        #[serde(default = "default_soosorv_n")]
        n: u8,
    },
    /// Taraguchi-N: moves 1-4 in the centre, 3x3, 5x5, 7x7 squares, a swap
    /// option after each of moves 1-3; then black chooses
    /// [`TaraguchiOption::Single`] (a swap option, a 5th inside the 9x9, a
    /// swap option) or [`TaraguchiOption::Offers`] (`n` offers anywhere,
    /// white keeping one). Renju only.
    Taraguchi {
        #[serde(default = "default_taraguchi_n")]
        n: u8,
    },
    /// Tarannikov: moves 1-5 in the centre, 3x3 ... 9x9 squares, a swap
    /// option after each, 6 anywhere. Renju only.
    Tarannikov,
    /// Jonsson: one of the 26 by the opener; swap option; white 4 anywhere
    /// and a declared 1..=[`JONSSON_MAX_OFFERS`] offers; swap option;
    /// black's offers; white keeps one and plays 6 (the variants list rule
    /// 7). Renju only.
    Jonsson,
    /// Yamaguchi with the 52 openings: as [`Opening::Yamaguchi`], but black
    /// 3 anywhere in the 7x7 square (one of the 26 or of their 26
    /// extensions; the variants list rule 8). Renju only.
    // The extensions: `crate::opening::extended`.
    #[serde(rename = "yamaguchi_52")]
    Yamaguchi52,
    /// The Yamaguchi variant: black 1 on H8, white 2 (by the second seat)
    /// in the 3x3, black 3 in the 7x7 and a declared N; swap option; white
    /// 4 anywhere; N offers; white keeps one and plays 6 (the variants list
    /// rule 9). Renju only.
    YamaguchiVariant,
    /// Sakata: the opener places one of the 26 openings; the other seat
    /// places white 4 in the 7x7 and black 5 in the 9x9; the opener then
    /// chooses its colour (a swap option) and white 6 follows (the rules
    /// introduction, Sakata). Renju only.
    Sakata,
    /// Super Sakata: as [`Opening::Sakata`] to black 5; then the chooser
    /// (the seat that did not place the last two stones) takes white and
    /// plays 6, takes black, or places a white and a black stone anywhere
    /// and hands the choice back, at most [`SUPER_SAKATA_MAX_ROUNDS`] times
    /// (the RIF's Super Sakata description). Renju only.
    SuperSakata,
    /// Swap2: the opener places black, white, black; the other seat places
    /// white 4, or takes black (the opener then places white 4), or places
    /// white 4 and black 5 and the opener chooses the colour. Gomoku and
    /// free-style only.
    Swap2,
}

fn default_soosorv_n() -> u8 {
    DEFAULT_SOOSORV_N
}

fn default_taraguchi_n() -> u8 {
    DEFAULT_TARAGUCHI_N
}

impl Opening {
    /// Whether this is one of the renju opening rules (the opener places
    /// one of the designated openings): played in renju rooms only.
    pub fn is_renju_only(self) -> bool {
        matches!(
            self,
            Opening::Rif
                | Opening::Yamaguchi
                | Opening::Soosorv { .. }
                | Opening::Taraguchi { .. }
                | Opening::Tarannikov
                | Opening::Jonsson
                | Opening::Yamaguchi52
                | Opening::YamaguchiVariant
                | Opening::Sakata
                | Opening::SuperSakata
        )
    }

    /// Soosõrv with the default N.
    pub const SOOSORV: Opening = Opening::Soosorv {
        n: DEFAULT_SOOSORV_N,
    };
    /// Taraguchi with the default N.
    pub const TARAGUCHI: Opening = Opening::Taraguchi {
        n: DEFAULT_TARAGUCHI_N,
    };
}

impl std::fmt::Display for Opening {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Opening::Free => f.write_str("free"),
            Opening::SwapAfterThree => f.write_str("swap_after_three"),
            Opening::Rif => f.write_str("rif"),
            Opening::Yamaguchi => f.write_str("yamaguchi"),
            Opening::Soosorv { n } => write!(f, "soosorv-{n}"),
            Opening::Taraguchi { n } => write!(f, "taraguchi-{n}"),
            Opening::Tarannikov => f.write_str("tarannikov"),
            Opening::Jonsson => f.write_str("jonsson"),
            Opening::Yamaguchi52 => f.write_str("yamaguchi_52"),
            Opening::YamaguchiVariant => f.write_str("yamaguchi_variant"),
            Opening::Sakata => f.write_str("sakata"),
            Opening::SuperSakata => f.write_str("super_sakata"),
            Opening::Swap2 => f.write_str("swap2"),
        }
    }
}

/// Taraguchi's choice after move 4 (the variants list rule 6, docs/rules.md
/// §6), made by the seat holding black.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum TaraguchiOption {
    /// Option (a): a swap option, black 5 inside the 9x9 square, another
    /// swap option, then white 6 anywhere.
    Single,
    /// Option (b): black offers N fifth moves anywhere; white keeps one and
    /// plays 6.
    Offers,
}

/// A set of black fifth-move offers as one value: at most
/// [`MAX_FIFTH_OFFERS`] points, in the order given. It is `Copy` (a fixed
/// array inside) so that actions and record entries stay plain values; on
/// the wire it is a JSON list of points, `["J10", "G9"]`. Whether the
/// points are on the board, empty and pairwise non-equivalent is the
/// machine's business, not this type's.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct OfferSet {
    len: u8,
    points: [Point; MAX_FIFTH_OFFERS as usize],
}

/// More than [`MAX_FIFTH_OFFERS`] points for an [`OfferSet`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0} offers are too many: at most {MAX_FIFTH_OFFERS}")]
pub struct TooManyOffers(pub usize);

impl OfferSet {
    /// The set of `points`, in order; refused beyond [`MAX_FIFTH_OFFERS`].
    pub fn new(points: &[Point]) -> Result<OfferSet, TooManyOffers> {
        if points.len() > MAX_FIFTH_OFFERS as usize {
            return Err(TooManyOffers(points.len()));
        }
        let mut set = OfferSet {
            len: points.len() as u8,
            points: [Point::new(0, 0); MAX_FIFTH_OFFERS as usize],
        };
        set.points[..points.len()].copy_from_slice(points);
        Ok(set)
    }

    /// The points, in the order given.
    pub fn as_slice(&self) -> &[Point] {
        &self.points[..self.len as usize]
    }

    pub fn len(&self) -> usize {
        self.len as usize
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    pub fn contains(&self, p: Point) -> bool {
        self.as_slice().contains(&p)
    }
}

impl std::fmt::Debug for OfferSet {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.as_slice()).finish()
    }
}

impl std::fmt::Display for OfferSet {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let names: Vec<String> = self.as_slice().iter().map(Point::to_string).collect();
        f.write_str(&names.join(" "))
    }
}

impl Serialize for OfferSet {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.as_slice())
    }
}

impl<'de> Deserialize<'de> for OfferSet {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<OfferSet, D::Error> {
        let points = Vec::<Point>::deserialize(d)?;
        OfferSet::new(&points).map_err(serde::de::Error::custom)
    }
}

/// An offer set is a list of points on the wire (at most
/// [`MAX_FIFTH_OFFERS`]); the schema says so.
#[cfg(feature = "schema")]
impl schemars::JsonSchema for OfferSet {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "OfferSet".into()
    }

    fn json_schema(generator: &mut schemars::SchemaGenerator) -> schemars::Schema {
        let point = generator.subschema_for::<Point>();
        schemars::json_schema!({
            "description": "Black's fifth-move offers, in the order given. Whether they are on the board, free and pairwise non-equivalent is the referee's to judge.",
            "type": "array",
            "items": point,
            "maxItems": MAX_FIFTH_OFFERS
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::config::{ConfigError, RuleSet};

    fn pt(s: &str) -> Point {
        s.parse().unwrap()
    }

    #[test]
    fn rule_set_combinations() {
        use RuleSet::*;
        let renju_only = [
            Opening::Rif,
            Opening::Yamaguchi,
            Opening::SOOSORV,
            Opening::TARAGUCHI,
            Opening::Tarannikov,
            Opening::Jonsson,
            Opening::Yamaguchi52,
            Opening::YamaguchiVariant,
            Opening::Sakata,
            Opening::SuperSakata,
        ];
        for o in renju_only {
            assert_eq!(o.check(Renju), Ok(()), "{o}");
            for rs in [Gomoku, Freestyle] {
                assert_eq!(
                    o.check(rs),
                    Err(ConfigError::Opening {
                        rule_set: rs,
                        opening: o
                    })
                );
            }
        }
        for o in [Opening::Swap2, Opening::SwapAfterThree] {
            assert!(o.check(Renju).is_err());
            assert_eq!(o.check(Gomoku), Ok(()));
            assert_eq!(o.check(Freestyle), Ok(()));
        }
        for n in [0, MAX_FIFTH_OFFERS + 1] {
            for o in [Opening::Soosorv { n }, Opening::Taraguchi { n }] {
                assert_eq!(
                    o.check(Renju),
                    Err(ConfigError::OfferCount { opening: o, n })
                );
            }
        }
        assert_eq!(Opening::Taraguchi { n: 1 }.check(Renju), Ok(()));
    }

    #[test]
    fn serde_and_text_forms() {
        let j = |o: Opening| serde_json::to_string(&o).unwrap();
        assert_eq!(j(Opening::Rif), r#""rif""#);
        assert_eq!(j(Opening::Swap2), r#""swap2""#);
        assert_eq!(j(Opening::SOOSORV), r#"{"soosorv":{"n":8}}"#);
        assert_eq!(j(Opening::Yamaguchi), r#""yamaguchi""#);
        assert_eq!(j(Opening::Jonsson), r#""jonsson""#);
        assert_eq!(j(Opening::Yamaguchi52), r#""yamaguchi_52""#);
        assert_eq!(j(Opening::YamaguchiVariant), r#""yamaguchi_variant""#);
        assert_eq!(j(Opening::Sakata), r#""sakata""#);
        assert_eq!(j(Opening::SuperSakata), r#""super_sakata""#);
        assert_eq!(j(Opening::TARAGUCHI), r#"{"taraguchi":{"n":10}}"#);
        assert_eq!(j(Opening::Tarannikov), r#""tarannikov""#);
        assert_eq!(j(Opening::SwapAfterThree), r#""swap_after_three""#);
        let back: Opening = serde_json::from_str(r#"{"taraguchi":{}}"#).unwrap();
        assert_eq!(back, Opening::TARAGUCHI);
        let back: Opening = serde_json::from_str(r#"{"soosorv":{"n":4}}"#).unwrap();
        assert_eq!(back, Opening::Soosorv { n: 4 });
        for o in [
            Opening::Free,
            Opening::SwapAfterThree,
            Opening::Rif,
            Opening::Yamaguchi,
            Opening::Soosorv { n: 5 },
            Opening::Taraguchi { n: 10 },
            Opening::Tarannikov,
            Opening::Jonsson,
            Opening::Yamaguchi52,
            Opening::YamaguchiVariant,
            Opening::Sakata,
            Opening::SuperSakata,
            Opening::Swap2,
        ] {
            assert_eq!(o.to_string().parse::<Opening>(), Ok(o));
            let json = serde_json::to_string(&o).unwrap();
            assert_eq!(serde_json::from_str::<Opening>(&json).unwrap(), o);
        }
        assert_eq!("Yamaguchi-52".parse(), Ok(Opening::Yamaguchi52));
        assert_eq!("yamaguchi-variant".parse(), Ok(Opening::YamaguchiVariant));
        assert!("yamaguchi52".parse::<Opening>().is_err());
        assert_eq!("Soosorv".parse::<Opening>(), Ok(Opening::SOOSORV));
        assert_eq!("swap-after-three".parse(), Ok(Opening::SwapAfterThree));
        assert!("soosorv-x".parse::<Opening>().is_err());
        assert_eq!("Sakata".parse(), Ok(Opening::Sakata));
        assert_eq!("super-sakata".parse(), Ok(Opening::SuperSakata));
        assert!("supersakata".parse::<Opening>().is_err());
    }

    #[test]
    fn offer_sets() {
        let s = OfferSet::new(&[pt("J10"), pt("G9")]).unwrap();
        assert_eq!(s.len(), 2);
        assert!(s.contains(pt("G9")) && !s.contains(pt("H8")));
        assert_eq!(serde_json::to_string(&s).unwrap(), r#"["J10","G9"]"#);
        let back: OfferSet = serde_json::from_str(r#"["j10","g9"]"#).unwrap();
        assert_eq!(back, s);
        assert_eq!(s.to_string(), "J10 G9");
        let eleven = vec![pt("A1"); 11];
        assert_eq!(OfferSet::new(&eleven), Err(TooManyOffers(11)));
        assert!(
            serde_json::from_str::<OfferSet>(&serde_json::to_string(&eleven).unwrap()).is_err()
        );
        assert!(OfferSet::new(&[]).unwrap().is_empty());
    }
}
