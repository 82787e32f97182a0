//! The board: stones on a square grid of 15 x 15 (or up to 19 x 19 for
//! free-style rooms), and the five rules of each variant (docs/rules.md §2, §4).
//!
//! A `Board` keeps two views in step: a plain cell array for reading, and the
//! line bitboards ([`crate::lines`]) the forbidden-move judge works on.

use serde::{Deserialize, Serialize};

use crate::lines::{DIRS, Lines};
use crate::point::{Color, MAX_SIZE, Point};

/// Which lines win (docs/rules.md §4).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Variant {
    /// Five or more in a row wins, for both colours.
    Freestyle,
    /// Standard gomoku: exactly five wins, for both colours; an overline
    /// neither wins nor loses.
    Gomoku,
    /// Renju: black wins only with exactly five and has forbidden moves;
    /// white wins with five or more.
    Renju,
}

impl Variant {
    /// Whether a run of `len` stones of `color` wins.
    pub fn wins(self, color: Color, len: u32) -> bool {
        match (self, color) {
            (Variant::Freestyle, _) | (Variant::Renju, Color::White) => len >= 5,
            (Variant::Gomoku, _) | (Variant::Renju, Color::Black) => len == 5,
        }
    }
}

/// Why a stone could not be placed or a board not built.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum BoardError {
    #[error("board size {0} is not supported (5 to {MAX_SIZE})")]
    Size(u8),
    #[error("{0} is off the {1}x{1} board")]
    OffBoard(Point, u8),
    #[error("{0} is already occupied")]
    Occupied(Point),
}

/// Stones on a board of a given size.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Board {
    size: u8,
    cells: [Option<Color>; MAX_SIZE as usize * MAX_SIZE as usize],
    stones: u16,
    pub(crate) lines: Lines,
}

impl Board {
    /// An empty board of `size` x `size` (5 to 19).
    pub fn new(size: u8) -> Result<Board, BoardError> {
        if !(5..=MAX_SIZE).contains(&size) {
            return Err(BoardError::Size(size));
        }
        Ok(Board {
            size,
            cells: [None; MAX_SIZE as usize * MAX_SIZE as usize],
            stones: 0,
            lines: Lines::new(size),
        })
    }

    /// The standard empty 15 x 15 board.
    pub fn standard() -> Board {
        Board::new(crate::point::STANDARD_SIZE).expect("15 is a valid size")
    }

    /// A board holding the given stones; fails on an off-board point or a
    /// point listed twice (in either list).
    pub fn with_stones(size: u8, black: &[Point], white: &[Point]) -> Result<Board, BoardError> {
        let mut b = Board::new(size)?;
        for &p in black {
            b.place(p, Color::Black)?;
        }
        for &p in white {
            b.place(p, Color::White)?;
        }
        Ok(b)
    }

    pub fn size(&self) -> u8 {
        self.size
    }

    /// Number of stones on the board.
    pub fn stone_count(&self) -> usize {
        self.stones as usize
    }

    /// Whether every point is occupied.
    pub fn is_full(&self) -> bool {
        self.stone_count() == self.size as usize * self.size as usize
    }

    #[inline]
    fn slot(&self, p: Point) -> usize {
        p.y as usize * MAX_SIZE as usize + p.x as usize
    }

    /// The stone at `p` (`None` when empty or off the board).
    pub fn get(&self, p: Point) -> Option<Color> {
        if p.on_board(self.size) {
            self.cells[self.slot(p)]
        } else {
            None
        }
    }

    /// Whether `p` is on the board and empty.
    pub fn is_empty_point(&self, p: Point) -> bool {
        p.on_board(self.size) && self.cells[self.slot(p)].is_none()
    }

    /// Checks that a stone could be placed at `p`.
    pub fn check_place(&self, p: Point) -> Result<(), BoardError> {
        if !p.on_board(self.size) {
            return Err(BoardError::OffBoard(p, self.size));
        }
        if self.cells[self.slot(p)].is_some() {
            return Err(BoardError::Occupied(p));
        }
        Ok(())
    }

    /// Places a stone. Rules (turn order, forbidden points) are the game's
    /// business; the board only refuses off-board and occupied points.
    pub fn place(&mut self, p: Point, color: Color) -> Result<(), BoardError> {
        self.check_place(p)?;
        let s = self.slot(p);
        self.cells[s] = Some(color);
        self.stones += 1;
        self.lines.set(p, color);
        Ok(())
    }

    /// Removes and returns the stone at `p`, if any (used for fifth-move
    /// offers that are not kept, and for undoing).
    pub fn remove(&mut self, p: Point) -> Option<Color> {
        if !p.on_board(self.size) {
            return None;
        }
        let s = self.slot(p);
        let c = self.cells[s].take()?;
        self.stones -= 1;
        self.lines.clear(p);
        Some(c)
    }

    /// Every point of the board, row 1 first, each row from column A.
    pub fn points(&self) -> impl Iterator<Item = Point> + use<> {
        let n = self.size;
        (0..n).flat_map(move |y| (0..n).map(move |x| Point::new(x, y)))
    }

    /// The stones on the board, in [`Board::points`] order.
    pub fn stones(&self) -> impl Iterator<Item = (Point, Color)> + '_ {
        self.points().filter_map(|p| self.get(p).map(|c| (p, c)))
    }

    /// Length of the run of `color` through `p` in direction `d`, counting
    /// `p` itself as `color` whatever stands there.
    fn run(&self, p: Point, color: Color, (dx, dy): (i32, i32)) -> u32 {
        let mut n = 1;
        for sign in [1, -1] {
            let mut q = p;
            while let Some(next) = q.offset(sign * dx, sign * dy, self.size) {
                if self.get(next) != Some(color) {
                    break;
                }
                n += 1;
                q = next;
            }
        }
        n
    }

    /// Whether a stone of `color` at `p` (standing there, or imagined there
    /// when `p` is empty) is part of a winning line under `variant`.
    pub fn makes_five(&self, p: Point, color: Color, variant: Variant) -> bool {
        p.on_board(self.size)
            && DIRS
                .iter()
                .any(|&d| variant.wins(color, self.run(p, color, d)))
    }

    /// The winning line through the stone at `p`, if it stands in one: the
    /// stones of the run, from one end to the other.
    pub fn winning_line(&self, p: Point, variant: Variant) -> Option<Vec<Point>> {
        let color = self.get(p)?;
        for (dx, dy) in DIRS {
            if !variant.wins(color, self.run(p, color, (dx, dy))) {
                continue;
            }
            let mut start = p;
            while let Some(prev) = start.offset(-dx, -dy, self.size) {
                if self.get(prev) != Some(color) {
                    break;
                }
                start = prev;
            }
            let mut line = vec![start];
            let mut q = start;
            while let Some(next) = q.offset(dx, dy, self.size) {
                if self.get(next) != Some(color) {
                    break;
                }
                line.push(next);
                q = next;
            }
            return Some(line);
        }
        None
    }

    /// A colour that has a winning line anywhere on the board, and that line.
    /// When both have one (only possible on a board set up by hand), black's
    /// is reported.
    pub fn find_winner(&self, variant: Variant) -> Option<(Color, Vec<Point>)> {
        [Color::Black, Color::White].into_iter().find_map(|c| {
            self.stones()
                .filter(|&(_, sc)| sc == c)
                .find_map(|(p, _)| self.winning_line(p, variant).map(|l| (c, l)))
        })
    }

    /// The board as text, row 15 at the top: `X` black, `O` white, `.` empty,
    /// with column letters and row numbers.
    pub fn to_text(&self) -> String {
        let n = self.size;
        let letters: String = (0..n).map(|x| format!(" {}", (b'A' + x) as char)).collect();
        let mut out = format!("   {letters}\n");
        for y in (0..n).rev() {
            out.push_str(&format!("{:>2} ", y + 1));
            for x in 0..n {
                let ch = match self.get(Point::new(x, y)) {
                    Some(Color::Black) => 'X',
                    Some(Color::White) => 'O',
                    None => '.',
                };
                out.push(' ');
                out.push(ch);
            }
            out.push_str(&format!(" {}\n", y + 1));
        }
        out.push_str(&format!("   {letters}\n"));
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pts(s: &str) -> Vec<Point> {
        s.split_whitespace().map(|t| t.parse().unwrap()).collect()
    }

    #[test]
    fn place_remove_and_errors() {
        let mut b = Board::standard();
        b.place("H8".parse().unwrap(), Color::Black).unwrap();
        assert_eq!(b.get("h8".parse().unwrap()), Some(Color::Black));
        assert_eq!(
            b.place("H8".parse().unwrap(), Color::White),
            Err(BoardError::Occupied("H8".parse().unwrap()))
        );
        assert!(matches!(
            b.place(Point::new(15, 0), Color::White),
            Err(BoardError::OffBoard(_, 15))
        ));
        assert_eq!(b.stone_count(), 1);
        assert_eq!(b.remove("H8".parse().unwrap()), Some(Color::Black));
        assert_eq!(
            b,
            Board::standard(),
            "remove restores the empty board exactly"
        );
        assert!(Board::new(4).is_err() && Board::new(20).is_err());
        assert!(Board::new(19).is_ok());
    }

    #[test]
    fn five_rules_per_variant() {
        let five = Board::with_stones(15, &pts("D8 E8 F8 G8 H8"), &[]).unwrap();
        let six = Board::with_stones(15, &pts("C8 D8 E8 F8 G8 H8"), &[]).unwrap();
        let wfive = Board::with_stones(15, &[], &pts("D8 E8 F8 G8 H8")).unwrap();
        let wsix = Board::with_stones(15, &[], &pts("C8 D8 E8 F8 G8 H8")).unwrap();
        let h8 = "H8".parse().unwrap();
        for v in [Variant::Freestyle, Variant::Gomoku, Variant::Renju] {
            assert!(five.makes_five(h8, Color::Black, v), "{v:?}");
            assert!(wfive.makes_five(h8, Color::White, v), "{v:?}");
        }
        assert!(six.makes_five(h8, Color::Black, Variant::Freestyle));
        assert!(!six.makes_five(h8, Color::Black, Variant::Gomoku));
        assert!(!six.makes_five(h8, Color::Black, Variant::Renju));
        assert!(wsix.makes_five(h8, Color::White, Variant::Freestyle));
        assert!(!wsix.makes_five(h8, Color::White, Variant::Gomoku));
        assert!(wsix.makes_five(h8, Color::White, Variant::Renju));
        assert_eq!(
            five.winning_line(h8, Variant::Renju).unwrap(),
            pts("D8 E8 F8 G8 H8")
        );
        assert_eq!(
            wsix.find_winner(Variant::Renju).map(|(c, l)| (c, l.len())),
            Some((Color::White, 6))
        );
        assert_eq!(six.find_winner(Variant::Renju), None);
    }

    #[test]
    fn diagonal_fives_on_a_big_board() {
        let b = Board::with_stones(19, &pts("O15 P16 Q17 R18 S19"), &[]).unwrap();
        assert!(b.makes_five("S19".parse().unwrap(), Color::Black, Variant::Gomoku));
        let anti = Board::with_stones(15, &pts("A5 B4 C3 D2"), &[]).unwrap();
        assert!(anti.makes_five("E1".parse().unwrap(), Color::Black, Variant::Renju));
    }
}
