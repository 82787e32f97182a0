//! The Piskvork (Gomocup) text protocol's vocabulary, shared by both ends
//! we speak: [`crate::pbrain`] (our bot as an engine) and
//! [`crate::engine`] (a bridge driving someone else's engine).
//!
//! Why one module: the coordinate convention and the line formats must be
//! written once, so that the two ends cannot drift apart.
//!
//! **Coordinates.** The protocol writes a point as `x,y`, zero-based, `x`
//! the column from the left and `y` the row from the *top*. Our notation
//! (`H8`, [`Point`]) counts rows from the *bottom* (row 1 is `y = 0`). So
//! `x` is the same and the row is flipped: protocol `y` = `size - 1 -
//! point.y`. On 15 x 15 the centre `H8` is `7,7`, `A15` is `0,0`, `A1` is
//! `0,14`. The same flip as PSQ records (whose numbers are one-based).

use tengen_rules::Point;
use tengen_rules::game::RuleSet;

/// A protocol coordinate that is not a point of the board.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum CoordError {
    #[error("'{0}' is not a point: expected x,y (two numbers from 0)")]
    Syntax(String),
    #[error("{0} is off the {1}x{1} board")]
    OffBoard(String, u8),
}

/// Our point as the protocol's `x,y` on a board of `size`.
pub fn to_xy(p: Point, size: u8) -> String {
    format!("{},{}", p.x, size - 1 - p.y)
}

/// The protocol's `x,y` (spaces around the numbers allowed) as our point on
/// a board of `size`.
pub fn from_xy(s: &str, size: u8) -> Result<Point, CoordError> {
    let t = s.trim();
    let bad = || CoordError::Syntax(t.to_string());
    let (x, y) = t.split_once(',').ok_or_else(bad)?;
    let num = |v: &str| -> Result<u32, CoordError> {
        let v = v.trim();
        if v.is_empty() || v.len() > 3 || !v.bytes().all(|b| b.is_ascii_digit()) {
            return Err(bad());
        }
        v.parse().map_err(|_| bad())
    };
    let (x, y) = (num(x)?, num(y)?);
    if x >= size as u32 || y >= size as u32 {
        return Err(CoordError::OffBoard(t.to_string(), size));
    }
    Ok(Point::new(x as u8, size - 1 - y as u8))
}

/// A point as an engine labels it in its own notes (Rapfi's `MESSAGE`
/// lines: `H8`, `G9`): the column's letter from `A` (none skipped) and the
/// protocol's row from the *top*, one-based. So on 15 x 15 Rapfi's `G9`
/// is `6,8`, our `G7`. `None` for anything else.
pub fn from_label(s: &str, size: u8) -> Option<Point> {
    let s = s.trim();
    let mut chars = s.chars();
    let letter = chars.next()?.to_ascii_uppercase();
    if !letter.is_ascii_uppercase() {
        return None;
    }
    let row: u32 = chars.as_str().parse().ok()?;
    let x = letter as u32 - 'A' as u32;
    if row == 0 {
        return None;
    }
    from_xy(&format!("{x},{}", row - 1), size).ok()
}

/// `INFO rule`'s bits: 1 exactly five, 2 continuous game, 4 renju, 8 caro.
pub const RULE_EXACT_FIVE: u32 = 1;
pub const RULE_RENJU: u32 = 4;
pub const RULE_CARO: u32 = 8;

/// The `INFO rule` value for our rule set: free-style 0, gomoku 1, renju 4;
/// `None` for the two-board game, which the protocol cannot describe (an
/// engine plays one board).
pub fn rule_value(rule_set: RuleSet) -> Option<u32> {
    match rule_set {
        RuleSet::Freestyle => Some(0),
        RuleSet::Gomoku => Some(RULE_EXACT_FIVE),
        RuleSet::Renju => Some(RULE_RENJU),
        RuleSet::Twin => None,
    }
}

/// Our rule set for an `INFO rule` value; `None` for rules we do not have
/// (caro). The continuous-game bit changes nothing for one game.
pub fn rule_set_of(value: u32) -> Option<RuleSet> {
    if value & RULE_CARO != 0 {
        None
    } else if value & RULE_RENJU != 0 {
        Some(RuleSet::Renju)
    } else if value & RULE_EXACT_FIVE != 0 {
        Some(RuleSet::Gomoku)
    } else {
        Some(RuleSet::Freestyle)
    }
}

/// The kinds of lines an engine may print besides its answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NoteKind {
    Message,
    Debug,
    Error,
    Unknown,
    Suggest,
}

/// A line of the engine's own (`MESSAGE text`, …): its kind and text.
pub fn note(line: &str) -> Option<(NoteKind, &str)> {
    let (word, rest) = line.split_once(' ').unwrap_or((line, ""));
    let kind = match word.to_ascii_uppercase().as_str() {
        "MESSAGE" => NoteKind::Message,
        "DEBUG" => NoteKind::Debug,
        "ERROR" => NoteKind::Error,
        "UNKNOWN" => NoteKind::Unknown,
        "SUGGEST" => NoteKind::Suggest,
        _ => return None,
    };
    Some((kind, rest.trim()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(s: &str) -> Point {
        s.parse().unwrap()
    }

    #[test]
    fn the_corners_and_centre_of_15() {
        assert_eq!(to_xy(p("H8"), 15), "7,7");
        assert_eq!(to_xy(p("A15"), 15), "0,0");
        assert_eq!(to_xy(p("A1"), 15), "0,14");
        assert_eq!(to_xy(p("O1"), 15), "14,14");
        assert_eq!(to_xy(p("O15"), 15), "14,0");
        assert_eq!(to_xy(p("J10"), 15), "9,5");
        assert_eq!(from_xy("7,7", 15), Ok(p("H8")));
        assert_eq!(from_xy("0,0", 15), Ok(p("A15")));
        assert_eq!(from_xy(" 0 , 14 ", 15), Ok(p("A1")));
        assert_eq!(from_xy("9,5", 15), Ok(p("J10")));
    }

    #[test]
    fn the_corners_and_centre_of_19() {
        // The centre: J10 (no letter is skipped).
        assert_eq!(to_xy(p("J10"), 19), "9,9");
        assert_eq!(to_xy(Point::center(19), 19), "9,9");
        assert_eq!(to_xy(p("A19"), 19), "0,0");
        assert_eq!(to_xy(p("S1"), 19), "18,18");
        assert_eq!(from_xy("18,0", 19), Ok(p("S19")));
        assert_eq!(from_xy("0,18", 19), Ok(p("A1")));
        // The same text is a different point on another board.
        assert_eq!(from_xy("0,0", 15), Ok(p("A15")));
    }

    #[test]
    fn every_point_goes_both_ways() {
        for size in [15u8, 19] {
            for x in 0..size {
                for y in 0..size {
                    let q = Point::new(x, y);
                    assert_eq!(from_xy(&to_xy(q, size), size), Ok(q));
                }
            }
        }
    }

    #[test]
    fn bad_coordinates_are_refused() {
        assert!(matches!(from_xy("15,0", 15), Err(CoordError::OffBoard(..))));
        assert!(matches!(from_xy("0,15", 15), Err(CoordError::OffBoard(..))));
        assert!(from_xy("18,18", 19).is_ok());
        for bad in ["", "7", "7,", ",7", "a,b", "-1,3", "7;7", "7,7,7", "1e3,2"] {
            assert!(
                matches!(from_xy(bad, 15), Err(CoordError::Syntax(_))),
                "{bad}"
            );
        }
    }

    #[test]
    fn engine_labels_count_rows_from_the_top() {
        // Rapfi's G9 is 6,8: our G7.
        assert_eq!(from_label("G9", 15), Some(p("G7")));
        assert_eq!(from_label("h8", 15), Some(p("H8")));
        assert_eq!(from_label("A1", 15), Some(p("A15")));
        assert_eq!(from_label("O15", 15), Some(p("O1")));
        assert_eq!(from_label("S19", 19), Some(p("S1")));
        for bad in ["", "P1", "A0", "A16", "7,7", "H", "Pass", "None"] {
            assert_eq!(from_label(bad, 15), None, "{bad}");
        }
    }

    #[test]
    fn rules_map_both_ways() {
        for r in [RuleSet::Freestyle, RuleSet::Gomoku, RuleSet::Renju] {
            assert_eq!(rule_value(r).and_then(rule_set_of), Some(r));
        }
        assert_eq!(rule_value(RuleSet::Twin), None);
        assert_eq!(rule_set_of(2), Some(RuleSet::Freestyle));
        assert_eq!(rule_set_of(3), Some(RuleSet::Gomoku));
        assert_eq!(rule_set_of(8), None);
    }

    #[test]
    fn notes_are_told_apart_from_answers() {
        assert_eq!(
            note("MESSAGE hi there"),
            Some((NoteKind::Message, "hi there"))
        );
        assert_eq!(note("DEBUG x"), Some((NoteKind::Debug, "x")));
        assert_eq!(note("UNKNOWN"), Some((NoteKind::Unknown, "")));
        assert_eq!(note("7,7"), None);
        assert_eq!(note("OK"), None);
    }
}
