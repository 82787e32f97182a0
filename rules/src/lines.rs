//! Line bitboards: every row, column and diagonal of the board as a pair of
//! bit masks (black stones, blocked cells), so that the eleven cells around a
//! point in any direction come out with one shift.
//!
//! Cell `pos` of a line sits at bit `pos + PAD`; the `PAD` bits below and the
//! bits above the line's last cell are permanently *blocked*, so the board's
//! edge looks exactly like a white stone to the pattern table, and windows
//! near the edge need no special case. Blocked also holds white stones.

use crate::point::{Color, MAX_SIZE, Point};

/// Bits of padding below each line's first cell (half a window).
const PAD: u32 = 5;
/// Lines per direction: rows/columns need `size`, diagonals `2 * size - 1`.
const LINES: usize = 2 * MAX_SIZE as usize - 1;

/// The four line directions as `(dx, dy)` steps: row, column, diagonal,
/// anti-diagonal. A positive window offset in direction `d` is `+DIRS[d]`.
pub(crate) const DIRS: [(i32, i32); 4] = [(1, 0), (0, 1), (1, 1), (1, -1)];

#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Lines {
    size: u8,
    black: [[u32; LINES]; 4],
    blocked: [[u32; LINES]; 4],
}

/// Which line of direction `d` holds `p`, and `p`'s position along it.
#[inline]
fn locate(d: usize, p: Point, size: u8) -> (usize, u32) {
    let (x, y) = (p.x as usize, p.y as usize);
    match d {
        0 => (y, x as u32),
        1 => (x, y as u32),
        2 => (x + size as usize - 1 - y, x as u32),
        _ => (x + y, x as u32),
    }
}

impl Lines {
    pub(crate) fn new(size: u8) -> Lines {
        let n = size as usize;
        // Bits `lo..=hi` (line positions) are on the board; all else is blocked.
        let open = |lo: usize, hi: usize| !(((1u32 << (hi - lo + 1)) - 1) << (lo as u32 + PAD));
        let mut blocked = [[u32::MAX; LINES]; 4];
        let [rows, cols, diags, antis] = &mut blocked;
        rows[..n].fill(open(0, n - 1));
        cols[..n].fill(open(0, n - 1));
        // Both diagonal kinds index their lines so that line `l` holds the
        // columns `max(0, l - (n - 1))..=min(n - 1, l)`.
        for (l, (d, a)) in diags
            .iter_mut()
            .zip(antis.iter_mut())
            .enumerate()
            .take(2 * n - 1)
        {
            let m = open(l.saturating_sub(n - 1), l.min(n - 1));
            *d = m;
            *a = m;
        }
        Lines {
            size,
            black: [[0; LINES]; 4],
            blocked,
        }
    }

    #[inline]
    pub(crate) fn set(&mut self, p: Point, color: Color) {
        for d in 0..4 {
            let (l, pos) = locate(d, p, self.size);
            let bit = 1 << (pos + PAD);
            match color {
                Color::Black => self.black[d][l] |= bit,
                Color::White => self.blocked[d][l] |= bit,
            }
        }
    }

    #[inline]
    pub(crate) fn clear(&mut self, p: Point) {
        for d in 0..4 {
            let (l, pos) = locate(d, p, self.size);
            let bit = !(1 << (pos + PAD));
            self.black[d][l] &= bit;
            self.blocked[d][l] &= bit;
        }
    }

    /// The eleven-bit windows (black, blocked) centred on `p` in direction
    /// `d`: bit 5 is `p`, bit 5 + k the cell at offset k.
    #[inline]
    pub(crate) fn window(&self, d: usize, p: Point) -> (u32, u32) {
        let (l, pos) = locate(d, p, self.size);
        (
            (self.black[d][l] >> pos) & 0x7FF,
            (self.blocked[d][l] >> pos) & 0x7FF,
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The arithmetic masks of `new` agree with locating every point.
    #[test]
    fn open_cells_are_exactly_the_board() {
        for size in [5u8, 15, 19] {
            let lines = Lines::new(size);
            let mut expect = [[u32::MAX; LINES]; 4];
            for y in 0..size {
                for x in 0..size {
                    for (d, e) in expect.iter_mut().enumerate() {
                        let (l, pos) = locate(d, Point::new(x, y), size);
                        e[l] &= !(1 << (pos + PAD));
                    }
                }
            }
            assert_eq!(lines.blocked, expect, "size {size}");
        }
    }
}
