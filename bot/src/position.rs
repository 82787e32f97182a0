//! The search's board: stones in a padded array, and for every empty point
//! and each colour what a stone there would make in each of the four
//! directions ([`Shape`]), kept up to date stone by stone, with the
//! evaluation's running sums and a Zobrist hash.
//!
//! Why it keeps the referee's [`Board`] beside its own array: whether
//! black may play a point in renju is asked of the referee's judge
//! ([`Board::forbidden`]) and nothing else; the array and its shapes are
//! only the search's fast view.

use std::sync::OnceLock;

use tengen_rules::{Board, Color, Point, Variant};

use crate::line::{self, BLOCKED, OWN, POW3, Shape, Table};

/// Cells of padding around the board: five, so every neighbourhood of a
/// board point lies in the array.
pub const PAD: usize = 5;

/// The four directions' steps are computed from the stride.
const DIRS: [(i32, i32); 4] = [(1, 0), (0, 1), (1, 1), (1, -1)];

/// A cell of the array.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cell {
    Empty,
    Stone(Color),
    Wall,
}

/// Index of a colour in per-colour arrays.
#[inline]
pub fn ci(c: Color) -> usize {
    match c {
        Color::Black => 0,
        Color::White => 1,
    }
}

/// What a stone of one colour at one point makes in all four directions,
/// combined: the strength of the threat, weakest first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(u8)]
pub enum Threat {
    None = 0,
    /// Twos.
    Two,
    /// A closed three, or two open twos.
    Three,
    /// An open three.
    OpenThree,
    /// An open three and more (a closed three or an open two beside it).
    ThreePlus,
    /// Two open threes (forbidden for black in renju, as the judge says).
    DoubleThree,
    /// A four.
    Four,
    /// A four and an open three.
    FourThree,
    /// Two winning points: an open four or two fours.
    OpenFour,
    Five,
}

/// The search's board.
#[derive(Clone)]
pub struct Position {
    size: u8,
    stride: usize,
    variant: Variant,
    cells: Vec<Cell>,
    /// Per cell, per colour, per direction: the neighbourhood key.
    keys: Vec<[[u32; 4]; 2]>,
    /// Per cell, per colour, per direction: the shape (empty cells).
    shapes: Vec<[[Shape; 4]; 2]>,
    /// Per cell, per colour: the evaluation's value of the point.
    value: Vec<[i32; 2]>,
    /// Per colour: the sum of `value` over empty points.
    total: [i32; 2],
    /// Stones within two cells (the candidate area).
    near: Vec<u8>,
    steps: [isize; 4],
    tables: [&'static Table; 2],
    board: Board,
    hash: u64,
    moves: Vec<usize>,
    /// Per cell, per colour: the combined threat (empty cells).
    threats: Vec<[Threat; 2]>,
    /// Per colour, the cells where a stone would make a five.
    fives: [u32; 2],
    /// Per colour, the cells where a stone would make a four or more.
    fours: [u32; 2],
    /// Stones per row and per column (the candidates' bounding box).
    rows: [u16; 19],
    cols: [u16; 19],
}

/// The value of a shape for the evaluation.
pub const SHAPE_VALUE: [i32; 9] = [0, 0, 2, 7, 6, 26, 28, 120, 400];

fn zobrist() -> &'static [[u64; 2]] {
    static Z: OnceLock<Vec<[u64; 2]>> = OnceLock::new();
    Z.get_or_init(|| {
        let n = (19 + 2 * PAD) * (19 + 2 * PAD);
        let mut s: u64 = 0x9E37_79B9_7F4A_7C15;
        let mut next = || {
            s = s.wrapping_add(0x9E37_79B9_7F4A_7C15);
            let mut z = s;
            z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            z ^ (z >> 31)
        };
        (0..n).map(|_| [next(), next()]).collect()
    })
}

impl Position {
    /// An empty board of `size` under `variant`.
    pub fn new(size: u8, variant: Variant) -> Position {
        let stride = size as usize + 2 * PAD;
        let n = stride * stride;
        let mut cells = vec![Cell::Wall; n];
        for y in 0..size as usize {
            for x in 0..size as usize {
                cells[(y + PAD) * stride + x + PAD] = Cell::Empty;
            }
        }
        let steps = DIRS.map(|(dx, dy)| dy as isize * stride as isize + dx as isize);
        let mut pos = Position {
            size,
            stride,
            variant,
            cells,
            keys: vec![[[0; 4]; 2]; n],
            shapes: vec![[[Shape::None; 4]; 2]; n],
            value: vec![[0; 2]; n],
            total: [0; 2],
            near: vec![0; n],
            steps,
            tables: [
                line::table(variant, Color::Black),
                line::table(variant, Color::White),
            ],
            board: Board::new(size).expect("a board size the referee takes"),
            hash: 0,
            moves: Vec::new(),
            threats: vec![[Threat::None; 2]; n],
            fives: [0; 2],
            fours: [0; 2],
            rows: [0; 19],
            cols: [0; 19],
        };
        for cell in 0..n {
            if pos.cells[cell] == Cell::Empty {
                for d in 0..4 {
                    for c in 0..2 {
                        pos.keys[cell][c][d] = pos.full_key(cell, d, c);
                    }
                }
                pos.refresh(cell);
            }
        }
        pos
    }

    /// The position of `board` (its stones; `to_move` is not needed: it
    /// follows from the moves made on it).
    pub fn from_board(board: &Board, variant: Variant) -> Position {
        let mut pos = Position::new(board.size(), variant);
        for (p, c) in board.stones() {
            pos.place(pos.cell(p), c);
        }
        pos.moves.clear();
        pos
    }

    fn full_key(&self, cell: usize, d: usize, c: usize) -> u32 {
        let mut key = 0;
        for (slot, pow) in POW3.iter().enumerate() {
            let off: isize = if slot < 5 {
                slot as isize - 5
            } else {
                slot as isize - 4
            };
            let q = (cell as isize + off * self.steps[d]) as usize;
            let digit = match self.cells[q] {
                Cell::Empty => 0,
                Cell::Wall => BLOCKED,
                Cell::Stone(s) if ci(s) == c => OWN,
                Cell::Stone(_) => BLOCKED,
            };
            key += digit * pow;
        }
        key
    }

    pub fn size(&self) -> u8 {
        self.size
    }

    pub fn variant(&self) -> Variant {
        self.variant
    }

    /// The referee's board of this position.
    pub fn board(&self) -> &Board {
        &self.board
    }

    pub fn hash(&self) -> u64 {
        self.hash
    }

    pub fn stones(&self) -> usize {
        self.board.stone_count()
    }

    /// Stones placed by [`Position::place`] since the position was built,
    /// in order.
    pub fn history(&self) -> &[usize] {
        &self.moves
    }

    /// The array index of a board point.
    #[inline]
    pub fn cell(&self, p: Point) -> usize {
        (p.y as usize + PAD) * self.stride + p.x as usize + PAD
    }

    /// The board point of an array index.
    #[inline]
    pub fn point(&self, cell: usize) -> Point {
        Point::new(
            (cell % self.stride - PAD) as u8,
            (cell / self.stride - PAD) as u8,
        )
    }

    #[inline]
    pub fn at(&self, cell: usize) -> Cell {
        self.cells[cell]
    }

    #[inline]
    pub fn is_empty(&self, cell: usize) -> bool {
        self.cells[cell] == Cell::Empty
    }

    /// Whether a stone is within two cells of `cell`.
    #[inline]
    pub fn is_near(&self, cell: usize) -> bool {
        self.near[cell] > 0
    }

    /// The shapes a stone of `c` at `cell` makes, per direction.
    #[inline]
    pub fn shapes(&self, cell: usize, c: Color) -> [Shape; 4] {
        self.shapes[cell][ci(c)]
    }

    /// The evaluation's value of `cell` for `c`.
    #[inline]
    pub fn value(&self, cell: usize, c: Color) -> i32 {
        self.value[cell][ci(c)]
    }

    /// The sum of the values of the empty points for `c`.
    #[inline]
    pub fn total(&self, c: Color) -> i32 {
        self.total[ci(c)]
    }

    /// The number of points where `c` would make a five.
    #[inline]
    pub fn five_points(&self, c: Color) -> u32 {
        self.fives[ci(c)]
    }

    /// The combined threat of a stone of `c` at `cell`.
    #[inline]
    pub fn threat(&self, cell: usize, c: Color) -> Threat {
        self.threats[cell][ci(c)]
    }

    /// The number of points where `c` would make a four or more.
    #[inline]
    pub fn four_points(&self, c: Color) -> u32 {
        self.fours[ci(c)]
    }

    /// Whether `c` may play `cell` (empty, and for black in renju not
    /// forbidden: the referee judges, asked only where a stone would make
    /// two threes, two fours or an overline).
    pub fn legal(&self, cell: usize, c: Color) -> bool {
        if self.cells[cell] != Cell::Empty {
            return false;
        }
        if self.variant != Variant::Renju || c == Color::White {
            return true;
        }
        let s = &self.shapes[cell][0];
        if s.contains(&Shape::Five) {
            return true;
        }
        let threes = s.iter().filter(|&&x| x == Shape::OpenThree).count();
        let fours = s
            .iter()
            .filter(|&&x| matches!(x, Shape::Four | Shape::OpenFour))
            .count();
        // An open four in one line may be two fours in it (forbidden):
        // the judge tells.
        let suspect = threes >= 2
            || fours >= 2
            || s.contains(&Shape::Overline)
            || s.contains(&Shape::OpenFour);
        !suspect || self.board.forbidden(self.point(cell)).is_none()
    }

    /// Places a stone of `c` at `cell` (empty).
    pub fn place(&mut self, cell: usize, c: Color) {
        debug_assert!(self.cells[cell] == Cell::Empty);
        self.unrefresh(cell);
        self.cells[cell] = Cell::Stone(c);
        self.board
            .place(self.point(cell), c)
            .expect("an empty point of the board");
        self.hash ^= zobrist()[cell][ci(c)];
        self.moves.push(cell);
        let p = self.point(cell);
        self.rows[p.y as usize] += 1;
        self.cols[p.x as usize] += 1;
        self.update_lines(cell, c, true);
    }

    /// Takes back the latest stone placed.
    pub fn undo(&mut self) {
        let cell = self.moves.pop().expect("a stone to take back");
        let Cell::Stone(c) = self.cells[cell] else {
            unreachable!("a placed stone");
        };
        self.cells[cell] = Cell::Empty;
        let p = self.point(cell);
        self.rows[p.y as usize] -= 1;
        self.cols[p.x as usize] -= 1;
        self.board.remove(p);
        self.hash ^= zobrist()[cell][ci(c)];
        self.update_lines(cell, c, false);
        self.refresh(cell);
    }

    fn update_lines(&mut self, cell: usize, c: Color, add: bool) {
        let own = ci(c);
        let other = 1 - own;
        for d in 0..4 {
            let step = self.steps[d];
            for k in 1..=5isize {
                for (q, slot) in [
                    ((cell as isize + k * step) as usize, 5 - k as usize),
                    ((cell as isize - k * step) as usize, 4 + k as usize),
                ] {
                    if self.cells[q] == Cell::Wall {
                        continue;
                    }
                    let (a, b) = (OWN * POW3[slot], BLOCKED * POW3[slot]);
                    if add {
                        self.keys[q][own][d] += a;
                        self.keys[q][other][d] += b;
                    } else {
                        self.keys[q][own][d] -= a;
                        self.keys[q][other][d] -= b;
                    }
                }
            }
        }
        // The candidate area.
        for dy in -2isize..=2 {
            for dx in -2isize..=2 {
                let q = (cell as isize + dy * self.stride as isize + dx) as usize;
                if q < self.near.len() {
                    if add {
                        self.near[q] += 1;
                    } else {
                        self.near[q] -= 1;
                    }
                }
            }
        }
        for d in 0..4 {
            let step = self.steps[d];
            for k in -5isize..=5 {
                if k == 0 {
                    continue;
                }
                let q = (cell as isize + k * step) as usize;
                if self.cells[q] == Cell::Empty {
                    self.unrefresh(q);
                    self.refresh(q);
                }
            }
        }
    }

    /// Removes an empty cell's contribution (before its keys change or it
    /// is filled).
    fn unrefresh(&mut self, cell: usize) {
        for c in 0..2 {
            self.total[c] -= self.value[cell][c];
            let t = self.threats[cell][c];
            if t == Threat::Five {
                self.fives[c] -= 1;
            }
            if t >= Threat::Four {
                self.fours[c] -= 1;
            }
            self.value[cell][c] = 0;
            self.shapes[cell][c] = [Shape::None; 4];
            self.threats[cell][c] = Threat::None;
        }
    }

    /// Judges an empty cell's shapes and adds its contribution.
    fn refresh(&mut self, cell: usize) {
        for c in 0..2 {
            let mut v = 0;
            for d in 0..4 {
                let s = self.tables[c].shape(self.keys[cell][c][d]);
                self.shapes[cell][c][d] = s;
                v += SHAPE_VALUE[s as usize];
            }
            let t = threat_of(&self.shapes[cell][c]);
            self.threats[cell][c] = t;
            if t == Threat::Five {
                self.fives[c] += 1;
            }
            if t >= Threat::Four {
                self.fours[c] += 1;
            }
            self.value[cell][c] = v;
            self.total[c] += v;
        }
    }

    /// Every empty cell near a stone (the centre on an empty board).
    pub fn candidates(&self) -> impl Iterator<Item = usize> + '_ {
        let size = self.size as usize;
        let span = |counts: &[u16; 19]| {
            let lo = counts[..size].iter().position(|&n| n > 0);
            let hi = counts[..size].iter().rposition(|&n| n > 0);
            match (lo, hi) {
                (Some(lo), Some(hi)) => (lo.saturating_sub(2), (hi + 2).min(size - 1)),
                _ => (size / 2, size / 2),
            }
        };
        let (y0, y1) = span(&self.rows);
        let (x0, x1) = span(&self.cols);
        let centre = self.cell(Point::center(self.size));
        let empty_board = self.board.stone_count() == 0;
        let stride = self.stride;
        (y0..=y1).flat_map(move |y| {
            let row = (y + PAD) * stride + PAD;
            (row + x0..=row + x1).filter(move |&q| {
                self.cells[q] == Cell::Empty && (self.near[q] > 0 || (empty_board && q == centre))
            })
        })
    }
}

/// The combined threat of four directions' shapes.
pub fn threat_of(s: &[Shape; 4]) -> Threat {
    let count = |x: Shape| s.iter().filter(|&&y| y == x).count();
    if s.contains(&Shape::Five) {
        return Threat::Five;
    }
    let fours = count(Shape::Four);
    if s.contains(&Shape::OpenFour) || fours >= 2 {
        return Threat::OpenFour;
    }
    let threes = count(Shape::OpenThree);
    if fours == 1 {
        return if threes > 0 {
            Threat::FourThree
        } else {
            Threat::Four
        };
    }
    if threes >= 2 {
        return Threat::DoubleThree;
    }
    let lesser = count(Shape::Three) + count(Shape::OpenTwo);
    if threes == 1 {
        return if lesser > 0 {
            Threat::ThreePlus
        } else {
            Threat::OpenThree
        };
    }
    if count(Shape::Three) > 0 || count(Shape::OpenTwo) >= 2 {
        return Threat::Three;
    }
    if lesser + count(Shape::Two) > 0 {
        return Threat::Two;
    }
    Threat::None
}
