//! Renju forbidden moves for black (docs/rules.md §2–3): double three, double four
//! and overline, with a five made at the same time beating all of them.
//!
//! The judge follows RIF rule 9.3 and the RIF definition of a three to the
//! letter, as the Gomocup referee and Rapfi do: a candidate three (a line
//! where one more stone makes a straight four through the new stone) is a
//! real three only if some such completion point Q is itself a legal move
//! for black that does not make a five — "legal" judged by this same rule
//! with the new stone on the board, recursively, with no depth cap.
//!
//! Speed comes from [`crate::pattern`]: each line through a point is judged
//! by a table look-up, and the board is touched (one stone set, then cleared,
//! on a single scratch copy of the line bitboards) only for the rare points
//! with two or more candidate threes.

use serde::{Deserialize, Serialize};

use crate::board::Board;
use crate::lines::{DIRS, Lines};
use crate::pattern::{self, FIVE, OVERLINE, THREE_OFFSETS, Table};
use crate::point::{Color, Point};

/// The kind of a forbidden point. When several apply the one reported is the
/// first of overline, double four, double three.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "kebab-case")]
pub enum Forbidden {
    /// Six or more black stones in a row (长连).
    Overline,
    /// Two or more fours at once, including two on one line (四四).
    DoubleFour,
    /// Two or more live threes at once (三三).
    DoubleThree,
}

impl Forbidden {
    /// The name used in `tengen analyze` output and on the wire.
    pub fn name(self) -> &'static str {
        match self {
            Forbidden::Overline => "overline",
            Forbidden::DoubleFour => "double-four",
            Forbidden::DoubleThree => "double-three",
        }
    }
}

impl std::fmt::Display for Forbidden {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// What a black stone at a point would be.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Verdict {
    /// It makes exactly five (which beats any forbidden shape).
    Five,
    Forbidden(Forbidden),
    Legal,
}

/// The first look at a point: either a final verdict, or the directions
/// holding candidate threes that need the recursive check.
enum Quick {
    Done(Verdict),
    Threes([u16; 4]),
}

#[inline]
fn quick(table: &Table, lines: &Lines, p: Point) -> Quick {
    let mut entries = [0u16; 4];
    let mut any_five = false;
    let mut any_overline = false;
    let mut fours = 0;
    let mut candidates = 0;
    for (d, e) in entries.iter_mut().enumerate() {
        let (black, blocked) = lines.window(d, p);
        *e = table[pattern::index(black, blocked)];
        any_five |= *e & FIVE != 0;
        any_overline |= *e & OVERLINE != 0;
        fours += pattern::fours(*e);
        candidates += (pattern::three_points(*e) != 0) as u32;
    }
    if any_five {
        Quick::Done(Verdict::Five)
    } else if any_overline {
        Quick::Done(Verdict::Forbidden(Forbidden::Overline))
    } else if fours >= 2 {
        Quick::Done(Verdict::Forbidden(Forbidden::DoubleFour))
    } else if candidates < 2 {
        Quick::Done(Verdict::Legal)
    } else {
        Quick::Threes(entries.map(pattern::three_points))
    }
}

/// Decides the candidate threes around `p` (empty in `lines`): places `p`,
/// checks each candidate's completion points, and clears `p` again.
fn resolve_threes(table: &Table, lines: &mut Lines, p: Point, threes: [u16; 4]) -> Verdict {
    lines.set(p, Color::Black);
    let mut remaining = threes.iter().filter(|&&t| t != 0).count();
    let mut live = 0;
    for (d, &t) in threes.iter().enumerate() {
        if t == 0 {
            continue;
        }
        remaining -= 1;
        let (dx, dy) = DIRS[d];
        let is_live = (0..THREE_OFFSETS.len())
            .filter(|k| t & (1 << k) != 0)
            .any(|k| {
                let off = THREE_OFFSETS[k];
                // The table only marks empty, on-board cells, so this stays on the board.
                let q = Point::new((p.x as i32 + off * dx) as u8, (p.y as i32 + off * dy) as u8);
                judge(table, lines, q) == Verdict::Legal
            });
        live += is_live as u32;
        if live >= 2 || live as usize + remaining < 2 {
            break;
        }
    }
    lines.clear(p);
    if live >= 2 {
        Verdict::Forbidden(Forbidden::DoubleThree)
    } else {
        Verdict::Legal
    }
}

/// The verdict for a black stone at empty `p`; `lines` is returned unchanged.
fn judge(table: &Table, lines: &mut Lines, p: Point) -> Verdict {
    match quick(table, lines, p) {
        Quick::Done(v) => v,
        Quick::Threes(t) => resolve_threes(table, lines, p, t),
    }
}

/// Judges every point in `points` (all empty in `board`), borrowing one
/// scratch copy of the line bitboards only if some point needs it.
fn judge_points(
    board: &Board,
    points: impl Iterator<Item = Point>,
    mut out: impl FnMut(Point, Forbidden),
) {
    let table = pattern::table();
    let mut scratch: Option<Lines> = None;
    for p in points {
        let verdict = match quick(table, &board.lines, p) {
            Quick::Done(v) => v,
            Quick::Threes(t) => {
                let lines = scratch.get_or_insert_with(|| board.lines.clone());
                resolve_threes(table, lines, p, t)
            }
        };
        if let Verdict::Forbidden(kind) = verdict {
            out(p, kind);
        }
    }
}

impl Board {
    /// Whether a black stone at `p` would be forbidden under renju rules, and
    /// why. `None` for legal moves, moves that make exactly five, occupied
    /// points and points off the board. Only black has forbidden moves.
    pub fn forbidden(&self, p: Point) -> Option<Forbidden> {
        let mut found = None;
        if self.is_empty_point(p) {
            judge_points(self, std::iter::once(p), |_, k| found = Some(k));
        }
        found
    }

    /// Every forbidden point for black, ordered by row (1 up) then column
    /// (A across).
    pub fn forbidden_points(&self) -> Vec<(Point, Forbidden)> {
        let mut out = Vec::new();
        self.forbidden_points_into(&mut out);
        out
    }

    /// [`Board::forbidden_points`] into a caller's buffer (cleared first), so
    /// a stream of positions needs no allocation per position.
    pub fn forbidden_points_into(&self, out: &mut Vec<(Point, Forbidden)>) {
        out.clear();
        let empties = self.points().filter(|&p| self.get(p).is_none());
        judge_points(self, empties, |p, k| out.push((p, k)));
    }
}
