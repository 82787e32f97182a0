//! Which points a defender's stone must touch to change how an attacker's
//! VCF replays: the VCT solver's shortcut past hundreds of replays per
//! threat, kept exact.
//!
//! Replaying a VCF reads three things: whether cells are empty, the stone
//! counts of the five-cell windows through the moves (fours, fives, the
//! defender's counter-fours), and, under renju, the forbidden-move judge's
//! verdicts on the black moves. A stone changes a window count only inside
//! that window, and changes a verdict only if it stands in one of the
//! eleven-cell line windows the judge reads, at the judged point or at any
//! point the judge recurses to (the completion points of candidate threes,
//! with the stones the judge places on the way). So the region is those
//! windows, found by walking the judge's recursion over the pattern table
//! without deciding anything (a superset of what the judge really reads).
//! A walk deeper than [`MAX_WALK`] gives up and claims the whole board,
//! which is always sound.

use crate::board::Board;
use crate::lines::{DIRS, Lines};
use crate::pattern::{self, FIVE, OVERLINE, THREE_OFFSETS, Table};
use crate::point::{Color, MAX_SIZE, Point};

/// Recursion depth after which the whole board is claimed.
const MAX_WALK: u32 = 6;

/// A set of points of the board.
pub(crate) struct Region {
    size: u8,
    cells: [bool; MAX_SIZE as usize * MAX_SIZE as usize],
    everything: bool,
}

impl Region {
    pub(crate) fn new(size: u8) -> Region {
        Region {
            size,
            cells: [false; MAX_SIZE as usize * MAX_SIZE as usize],
            everything: false,
        }
    }

    /// Makes the region the whole board.
    pub(crate) fn add_everything(&mut self) {
        self.everything = true;
    }

    pub(crate) fn contains(&self, p: Point) -> bool {
        self.everything || self.cells[p.y as usize * MAX_SIZE as usize + p.x as usize]
    }

    /// Adds `p` and the points up to `reach` away from it along its four
    /// lines.
    pub(crate) fn add_lines(&mut self, p: Point, reach: i32) {
        for (dx, dy) in DIRS {
            for k in -reach..=reach {
                if let Some(q) = p.offset(k * dx, k * dy, self.size) {
                    self.cells[q.y as usize * MAX_SIZE as usize + q.x as usize] = true;
                }
            }
        }
    }

    /// Adds every point the forbidden-move judge may read to judge a black
    /// stone at the empty point `p` of `board`.
    pub(crate) fn add_judge_reads(&mut self, board: &Board, p: Point) {
        let mut lines = board.lines.clone();
        self.walk(pattern::table(), &mut lines, p, 0);
    }

    fn walk(&mut self, table: &Table, lines: &mut Lines, p: Point, depth: u32) {
        if self.everything {
            return;
        }
        if depth > MAX_WALK {
            self.everything = true;
            return;
        }
        self.add_lines(p, 5);
        let mut threes = [0u16; 4];
        let mut fours = 0;
        for (d, t) in threes.iter_mut().enumerate() {
            let (black, blocked) = lines.window(d, p);
            let e = table[pattern::index(black, blocked)];
            if e & (FIVE | OVERLINE) != 0 {
                return;
            }
            fours += pattern::fours(e);
            *t = pattern::three_points(e);
        }
        if fours >= 2 || threes.iter().filter(|&&t| t != 0).count() < 2 {
            return;
        }
        lines.set(p, Color::Black);
        for (d, &t) in threes.iter().enumerate() {
            let (dx, dy) = DIRS[d];
            for (k, off) in THREE_OFFSETS.iter().enumerate() {
                if t & (1 << k) != 0 {
                    // The table marks only empty on-board cells.
                    let q =
                        Point::new((p.x as i32 + off * dx) as u8, (p.y as i32 + off * dy) as u8);
                    self.walk(table, lines, q, depth + 1);
                }
            }
        }
        lines.clear(p);
    }
}
