//! The search position shared by the VCF and VCT solvers: a [`Board`] (so
//! every renju question goes to the crate's own forbidden-move judge), plus
//! what a threat search asks thousands of times per second and the board
//! does not keep: the count of each colour in every five-cell window of the
//! board, and a Zobrist hash of the stones.
//!
//! A *window* is five consecutive cells of a row, column or diagonal. A
//! colour can only make five where one of its windows holds four of its
//! stones and one empty cell, and can only make a four (a move after which
//! it threatens five) where a window holds three of its stones and two
//! empty cells. The windows find the candidates; whether a candidate really
//! wins under the variant (exactly five, or five or more) is always decided
//! by [`Board::makes_five`], and whether black may play it by
//! [`Board::forbidden`].

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::sync::OnceLock;

use crate::board::{Board, Variant};
use crate::lines::DIRS;
use crate::point::{Color, MAX_SIZE, Point};

const CELLS: usize = MAX_SIZE as usize * MAX_SIZE as usize;

/// Zobrist keys, one per colour and cell, from a fixed SplitMix64 stream.
static ZOBRIST: [[u64; CELLS]; 2] = build_zobrist();

const fn build_zobrist() -> [[u64; CELLS]; 2] {
    let mut keys = [[0u64; CELLS]; 2];
    let mut state: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut c = 0;
    while c < 2 {
        let mut i = 0;
        while i < CELLS {
            state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
            let mut z = state;
            z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            keys[c][i] = z ^ (z >> 31);
            i += 1;
        }
        c += 1;
    }
    keys
}

const fn side(c: Color) -> usize {
    match c {
        Color::Black => 0,
        Color::White => 1,
    }
}

/// A table keyed by Zobrist hashes, which need no further hashing.
pub(crate) type HashTable<V> = HashMap<u64, V, BuildHasherDefault<ZobristHasher>>;

/// Passes a `u64` key through unchanged.
#[derive(Default)]
pub(crate) struct ZobristHasher(u64);

impl Hasher for ZobristHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = self.0.rotate_left(8) ^ u64::from(b);
        }
    }

    fn write_u64(&mut self, n: u64) {
        self.0 = n;
    }
}

/// A set of points of the board, as bits.
#[derive(Clone, Copy, Default)]
pub(crate) struct PointSet([u64; CELLS.div_ceil(64)]);

impl PointSet {
    /// Adds `i`; returns whether it was new.
    fn insert(&mut self, i: usize) -> bool {
        let (w, b) = (i / 64, 1u64 << (i % 64));
        let new = self.0[w] & b == 0;
        self.0[w] |= b;
        new
    }

    fn contains(&self, i: usize) -> bool {
        self.0[i / 64] & (1u64 << (i % 64)) != 0
    }
}

/// The windows of one board size, built once per size.
struct Geometry {
    /// Cells of each window, as indices `y * size + x`.
    windows: Vec<[u16; 5]>,
    /// The windows each cell belongs to (at most 5 per direction).
    cell_windows: Vec<([u16; 20], u8)>,
}

impl Geometry {
    fn of(size: u8) -> &'static Geometry {
        static GEOMETRIES: [OnceLock<Geometry>; MAX_SIZE as usize + 1] =
            [const { OnceLock::new() }; MAX_SIZE as usize + 1];
        GEOMETRIES[size as usize].get_or_init(|| Geometry::build(size))
    }

    fn build(size: u8) -> Geometry {
        let n = size as usize;
        let mut windows = Vec::new();
        let mut cell_windows = vec![([0u16; 20], 0u8); n * n];
        for y in 0..size {
            for x in 0..size {
                let p = Point::new(x, y);
                for (dx, dy) in DIRS {
                    if p.offset(4 * dx, 4 * dy, size).is_none() {
                        continue;
                    }
                    let cells: [u16; 5] = std::array::from_fn(|k| {
                        let (cx, cy) = (x as i32 + k as i32 * dx, y as i32 + k as i32 * dy);
                        (cy as usize * n + cx as usize) as u16
                    });
                    for &c in &cells {
                        let (list, len) = &mut cell_windows[c as usize];
                        list[*len as usize] = windows.len() as u16;
                        *len += 1;
                    }
                    windows.push(cells);
                }
            }
        }
        Geometry {
            windows,
            cell_windows,
        }
    }

    fn windows_of(&self, i: usize) -> &[u16] {
        let (list, len) = &self.cell_windows[i];
        &list[..*len as usize]
    }
}

/// The position a solver searches.
#[derive(Clone)]
pub(crate) struct Pos {
    pub(crate) board: Board,
    pub(crate) variant: Variant,
    size: u8,
    geometry: &'static Geometry,
    /// Stones of each colour in each window.
    counts: Vec<[u8; 2]>,
    hash: u64,
}

impl Pos {
    pub(crate) fn new(board: &Board, variant: Variant) -> Pos {
        let size = board.size();
        let geometry = Geometry::of(size);
        let mut pos = Pos {
            board: Board::new(size).expect("the size of an existing board"),
            variant,
            size,
            counts: vec![[0, 0]; geometry.windows.len()],
            geometry,
            hash: 0,
        };
        for (p, c) in board.stones() {
            pos.play(p, c);
        }
        pos
    }

    pub(crate) fn hash(&self) -> u64 {
        self.hash
    }

    fn index(&self, p: Point) -> usize {
        p.y as usize * self.size as usize + p.x as usize
    }

    fn point(&self, i: usize) -> Point {
        let n = self.size as usize;
        Point::new((i % n) as u8, (i / n) as u8)
    }

    pub(crate) fn is_empty(&self, p: Point) -> bool {
        self.board.is_empty_point(p)
    }

    /// Places a stone on an empty point.
    pub(crate) fn play(&mut self, p: Point, c: Color) {
        self.board
            .place(p, c)
            .expect("solvers play only empty points");
        let i = self.index(p);
        for &w in self.geometry.windows_of(i) {
            self.counts[w as usize][side(c)] += 1;
        }
        self.hash ^= ZOBRIST[side(c)][p.y as usize * MAX_SIZE as usize + p.x as usize];
    }

    /// Takes back the stone at `p`.
    pub(crate) fn undo(&mut self, p: Point) {
        let c = self
            .board
            .remove(p)
            .expect("solvers undo only their stones");
        let i = self.index(p);
        for &w in self.geometry.windows_of(i) {
            self.counts[w as usize][side(c)] -= 1;
        }
        self.hash ^= ZOBRIST[side(c)][p.y as usize * MAX_SIZE as usize + p.x as usize];
    }

    /// Whether `c` may play the empty point `p`: always, except a black
    /// stone on a renju forbidden point (a black five is never forbidden).
    pub(crate) fn legal(&self, p: Point, c: Color) -> bool {
        !(c == Color::Black && self.variant == Variant::Renju && self.board.forbidden(p).is_some())
    }

    /// Whether a stone of `c` on the empty point `p` wins (a five under the
    /// variant's rule: exactly five, or five or more).
    pub(crate) fn wins_at(&self, p: Point, c: Color) -> bool {
        self.board.makes_five(p, c, self.variant)
    }

    /// The empty points where `c` would win, anywhere on the board.
    pub(crate) fn win_points(&self, c: Color, out: &mut Vec<Point>) {
        out.clear();
        let mut seen = PointSet::default();
        for (w, cells) in self.geometry.windows.iter().enumerate() {
            let [own, other] = self.own_other(w, c);
            if own != 4 || other != 0 {
                continue;
            }
            for &i in cells {
                let p = self.point(i as usize);
                if self.is_empty(p) && seen.insert(i as usize) && self.wins_at(p, c) {
                    out.push(p);
                }
            }
        }
    }

    /// The empty points where `c` would win that lie in a window through
    /// `p`: after `c` plays `p`, the fives it threatens anew; after the
    /// other colour plays `p`, nothing of `c`'s is new here.
    pub(crate) fn win_points_through(&self, p: Point, c: Color, out: &mut Vec<Point>) {
        out.clear();
        for &w in self.geometry.windows_of(self.index(p)) {
            let [own, other] = self.own_other(w as usize, c);
            if own != 4 || other != 0 {
                continue;
            }
            for &i in &self.geometry.windows[w as usize] {
                let q = self.point(i as usize);
                if self.is_empty(q) && !out.contains(&q) && self.wins_at(q, c) {
                    out.push(q);
                }
            }
        }
    }

    fn own_other(&self, w: usize, c: Color) -> [u8; 2] {
        let counts = self.counts[w];
        [counts[side(c)], counts[1 - side(c)]]
    }

    /// The candidates of `c` in one pass over the windows: `fours` gets
    /// those of [`Pos::candidates`] with `min_own = 3`, `threes` those with
    /// 2 that are not already fours, each list in window order.
    pub(crate) fn fours_and_threes(
        &self,
        c: Color,
        fours: &mut Vec<Point>,
        threes: &mut Vec<Point>,
    ) {
        fours.clear();
        threes.clear();
        let (mut in_fours, mut in_threes) = (PointSet::default(), PointSet::default());
        for (w, cells) in self.geometry.windows.iter().enumerate() {
            let [own, other] = self.own_other(w, c);
            if own < 2 || own == 5 || other != 0 {
                continue;
            }
            for &i in cells {
                let p = self.point(i as usize);
                if !self.is_empty(p) {
                    continue;
                }
                if own >= 3 {
                    if in_fours.insert(i as usize) {
                        fours.push(p);
                    }
                } else if in_threes.insert(i as usize) {
                    threes.push(p);
                }
            }
        }
        threes.retain(|p| !in_fours.contains(self.index(*p)));
    }

    /// Candidate moves of `c` from the windows holding at least `min_own`
    /// stones of `c` and none of the other colour: with `min_own = 3`, every
    /// move that could make a four; with 2, also every move that could make
    /// a three. Each point once, in window order.
    pub(crate) fn candidates(&self, c: Color, min_own: u8, out: &mut Vec<Point>) {
        out.clear();
        let mut seen = PointSet::default();
        for (w, cells) in self.geometry.windows.iter().enumerate() {
            let [own, other] = self.own_other(w, c);
            if own < min_own || own == 5 || other != 0 {
                continue;
            }
            for &i in cells {
                let p = self.point(i as usize);
                if self.is_empty(p) && seen.insert(i as usize) {
                    out.push(p);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pts(s: &str) -> Vec<Point> {
        s.split_whitespace().map(|t| t.parse().unwrap()).collect()
    }

    #[test]
    fn counts_and_hash_follow_play_and_undo() {
        let board = Board::with_stones(15, &pts("H8 I8 J8"), &pts("H9")).unwrap();
        let mut pos = Pos::new(&board, Variant::Renju);
        let (h, counts) = (pos.hash(), pos.counts.clone());
        let k8 = "K8".parse().unwrap();
        pos.play(k8, Color::Black);
        assert_ne!(pos.hash(), h);
        let mut wins = Vec::new();
        pos.win_points(Color::Black, &mut wins);
        wins.sort();
        assert_eq!(wins, pts("G8 L8"));
        pos.win_points_through(k8, Color::Black, &mut wins);
        wins.sort();
        assert_eq!(wins, pts("G8 L8"));
        pos.undo(k8);
        assert_eq!((pos.hash(), &pos.counts), (h, &counts));
    }

    #[test]
    fn overline_points_do_not_win_for_black_in_renju() {
        // B B B B . B: the gap makes six.
        let board = Board::with_stones(15, &pts("D8 E8 F8 G8 I8"), &[]).unwrap();
        let pos = Pos::new(&board, Variant::Renju);
        let mut wins = Vec::new();
        pos.win_points(Color::Black, &mut wins);
        assert_eq!(wins, pts("C8"));
        let free = Pos::new(&board, Variant::Freestyle);
        free.win_points(Color::Black, &mut wins);
        wins.sort();
        assert_eq!(wins, pts("C8 H8"));
    }
}
