//! Points, colours and board sizes, with the `H8` notation of docs/rules.md §1.
//!
//! Columns are letters `A`.. left to right (no letter is skipped, unlike Go's
//! `I`), rows are numbers `1`.. bottom to top. Input accepts either case;
//! [`Point`]'s `Display` prints upper case, [`Point::to_lower`] the lower case
//! used in renju game records.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

/// The largest board any rule set uses (free-style rooms may choose 19 x 19).
pub const MAX_SIZE: u8 = 19;
/// The standard board (every rule set; the only size for renju).
pub const STANDARD_SIZE: u8 = 15;

/// A stone colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum Color {
    Black,
    White,
}

impl Color {
    /// The other colour.
    pub fn opponent(self) -> Color {
        match self {
            Color::Black => Color::White,
            Color::White => Color::Black,
        }
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Color::Black => "black",
            Color::White => "white",
        })
    }
}

/// An intersection, zero-based: `x` is the column (A = 0), `y` the row
/// (row 1 = 0). A `Point` itself knows no board size; [`crate::Board`]
/// checks that it lies on the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Point {
    pub x: u8,
    pub y: u8,
}

/// Why a coordinate could not be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PointError {
    #[error("empty point")]
    Empty,
    #[error("'{0}' is not a point: expected a column letter and a row number, like H8")]
    Syntax(String),
    #[error("{0} is off the {1}x{1} board")]
    OffBoard(String, u8),
}

impl Point {
    /// A point from zero-based column and row.
    pub const fn new(x: u8, y: u8) -> Point {
        Point { x, y }
    }

    /// The centre of a board of `size` (H8 on 15 x 15, J10 on 19 x 19: no
    /// column letter is skipped).
    pub const fn center(size: u8) -> Point {
        Point::new(size / 2, size / 2)
    }

    /// Whether the point lies on a board of `size`.
    pub const fn on_board(self, size: u8) -> bool {
        self.x < size && self.y < size
    }

    /// Parses `H8`/`h8` and checks it lies on a board of `size`.
    pub fn parse_on(s: &str, size: u8) -> Result<Point, PointError> {
        let p: Point = s.parse()?;
        if p.on_board(size) {
            Ok(p)
        } else {
            Err(PointError::OffBoard(s.trim().to_string(), size))
        }
    }

    /// Lower-case notation as used in renju records (`h8`).
    pub fn to_lower(self) -> String {
        self.to_string().to_ascii_lowercase()
    }

    /// The point moved by `(dx, dy)` steps, if it stays on a board of `size`.
    pub fn offset(self, dx: i32, dy: i32, size: u8) -> Option<Point> {
        let x = self.x as i32 + dx;
        let y = self.y as i32 + dy;
        if x < 0 || y < 0 || x >= size as i32 || y >= size as i32 {
            None
        } else {
            Some(Point::new(x as u8, y as u8))
        }
    }
}

impl FromStr for Point {
    type Err = PointError;

    /// Parses renju notation: a column letter `A`..`Z` (either case) and a
    /// row number `1`..`99` without leading zeros, surrounding spaces
    /// ignored. Any such coordinate is a `Point`, whether or not some board
    /// has it: whether it lies on a particular board is checked by
    /// [`Point::parse_on`] or the board itself, so every well-formed point
    /// off the board is refused the same way (`T1` on 15 x 15 or 19 x 19,
    /// `P16` on 15 x 15), and only malformed text (`H0`, `H08`, `8H`) is a
    /// syntax error.
    fn from_str(s: &str) -> Result<Point, PointError> {
        let t = s.trim();
        if t.is_empty() {
            return Err(PointError::Empty);
        }
        let bad = || PointError::Syntax(t.to_string());
        let mut chars = t.chars();
        let col = chars.next().ok_or_else(bad)?.to_ascii_uppercase();
        if !col.is_ascii_uppercase() {
            return Err(bad());
        }
        let digits = chars.as_str();
        if digits.is_empty() || digits.len() > 2 || !digits.bytes().all(|b| b.is_ascii_digit()) {
            return Err(bad());
        }
        let row: u32 = digits.parse().map_err(|_| bad())?;
        let x = col as u32 - 'A' as u32;
        if row == 0 || digits.starts_with('0') {
            return Err(bad());
        }
        Ok(Point::new(x as u8, (row - 1) as u8))
    }
}

impl fmt::Display for Point {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'A' + self.x) as char, self.y + 1)
    }
}

impl Serialize for Point {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Point {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Point, D::Error> {
        let s = <std::borrow::Cow<'de, str>>::deserialize(d)?;
        s.parse().map_err(serde::de::Error::custom)
    }
}

/// On the wire a point is its notation, not a map of `x` and `y`: the
/// schema says so, and what each side writes and reads.
#[cfg(feature = "schema")]
impl schemars::JsonSchema for Point {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "Point".into()
    }

    fn json_schema(generator: &mut schemars::SchemaGenerator) -> schemars::Schema {
        if generator.contract().is_serialize() {
            schemars::json_schema!({
                "description": "A point in renju notation: a column letter from A (none is skipped), a row number from 1, bottom to top; H8 is the centre of a 15 x 15 board. Written in upper case.",
                "type": "string",
                "pattern": "^[A-S](?:[1-9]|1[0-9])$",
                "examples": ["H8"]
            })
        } else {
            schemars::json_schema!({
                "description": "A point in renju notation: a column letter from A (none is skipped; either case), a row number from 1 without leading zeros, bottom to top; H8 is the centre of a 15 x 15 board. Whether it lies on the board is the referee's to judge (`off_board`).",
                "type": "string",
                "pattern": "^\\s*[A-Za-z][1-9][0-9]?\\s*$",
                "examples": ["H8"]
            })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_either_case_and_prints_upper() {
        assert_eq!("h8".parse::<Point>().unwrap(), Point::new(7, 7));
        assert_eq!("H8".parse::<Point>().unwrap().to_string(), "H8");
        assert_eq!("o15".parse::<Point>().unwrap(), Point::new(14, 14));
        assert_eq!("A1".parse::<Point>().unwrap(), Point::new(0, 0));
        assert_eq!(Point::new(8, 9).to_string(), "I10");
        assert_eq!(Point::new(8, 9).to_lower(), "i10");
    }

    #[test]
    fn column_letters_skip_nothing() {
        let cols: String = (0..15)
            .map(|x| Point::new(x, 0).to_string().remove(0))
            .collect();
        assert_eq!(cols, "ABCDEFGHIJKLMNO");
        assert_eq!("I9".parse::<Point>().unwrap().x, 8);
    }

    #[test]
    fn rejects_bad_text_and_off_board_points() {
        for bad in ["", "8H", "H", "H0", "H08", "HH8", "H8x", "1", "H-1", "H100"] {
            assert!(bad.parse::<Point>().is_err(), "{bad:?} should not parse");
        }
        assert_eq!(
            Point::parse_on("P1", 15),
            Err(PointError::OffBoard("P1".into(), 15))
        );
        assert_eq!(
            Point::parse_on("A16", 15),
            Err(PointError::OffBoard("A16".into(), 15))
        );
        assert!(Point::parse_on("S19", 19).is_ok());
        // Well-formed but on no board of ours: a point all the same, off
        // every board, so refused as off the board rather than malformed.
        for far in ["T1", "Z1", "A99", "z99"] {
            let p: Point = far.parse().unwrap();
            assert!(!p.on_board(MAX_SIZE), "{far}");
            assert_eq!(p.to_string(), far.to_ascii_uppercase());
            assert!(matches!(
                Point::parse_on(far, 19),
                Err(PointError::OffBoard(..))
            ));
        }
    }

    #[test]
    fn serde_uses_the_notation() {
        let p = Point::new(7, 7);
        assert_eq!(serde_json::to_string(&p).unwrap(), "\"H8\"");
        assert_eq!(
            serde_json::from_str::<Point>("\"j10\"").unwrap(),
            Point::new(9, 9)
        );
    }
}
