//! Property tests of the renju forbidden-move judge on random positions.
//!
//! The strongest of them compares [`Board::forbidden_points`] with
//! [`reference`], a deliberately slow judge written in this file straight
//! from the definitions of `docs/rules.md` §2–3 (plain cell-array scans,
//! plain recursion, no tables, no sharing with `src/`).

use proptest::prelude::*;
use proptest::sample::subsequence;
use proptest::test_runner::TestCaseError;
use tengen_rules::{Board, Color, Forbidden, Point, Variant};

const N: u8 = 15;

/// The independent reference judge.
///
/// Definitions (docs/rules.md §2–3, RIF 9.3, as the Gomocup referee and Rapfi
/// apply them), for a black stone placed on the empty point P:
/// - *five*: exactly five black stones in a row through P. A five through P
///   beats everything: P is then never forbidden.
/// - *overline*: six or more in a row through P.
/// - *four* on a line through P: an empty point Q of that line where one
///   more black stone makes exactly five on that line, the five containing P.
///   Each such Q is one four, except that the two ends of a straight four
///   (`.BBBB.`, P among the four) count as one.
/// - *straight four*: four black stones in a row whose two ends are empty
///   points that each make exactly five.
/// - *three* on a line through P: an empty Q on that line such that with P
///   and Q black that line holds a straight four containing both, Q does not
///   make a five (anywhere), and Q is not itself forbidden (judged by this
///   same function, with P on the board). A line counts at most one three,
///   and a line holding a four is not counted as a three.
/// - verdict: overline if any line through P is 6+; else double four if 2+
///   fours; else double three if 2+ threes; else legal.
pub mod reference {
    use tengen_rules::Forbidden;

    pub const SIZE: i32 = 15;
    const DIRS: [(i32, i32); 4] = [(1, 0), (0, 1), (1, 1), (1, -1)];

    #[derive(Clone, Copy, PartialEq, Eq, Debug)]
    pub enum Cell {
        Empty,
        Black,
        White,
    }

    /// A 15 x 15 grid of cells, `cells[y][x]`.
    #[derive(Clone)]
    pub struct Grid {
        cells: [[Cell; SIZE as usize]; SIZE as usize],
    }

    impl Grid {
        pub fn new(black: &[(i32, i32)], white: &[(i32, i32)]) -> Grid {
            let mut g = Grid {
                cells: [[Cell::Empty; SIZE as usize]; SIZE as usize],
            };
            for &(x, y) in black {
                g.set(x, y, Cell::Black);
            }
            for &(x, y) in white {
                g.set(x, y, Cell::White);
            }
            g
        }

        fn on_board(x: i32, y: i32) -> bool {
            (0..SIZE).contains(&x) && (0..SIZE).contains(&y)
        }

        fn get(&self, x: i32, y: i32) -> Option<Cell> {
            if Grid::on_board(x, y) {
                Some(self.cells[y as usize][x as usize])
            } else {
                None
            }
        }

        fn set(&mut self, x: i32, y: i32, c: Cell) {
            self.cells[y as usize][x as usize] = c;
        }

        fn black(&self, x: i32, y: i32) -> bool {
            self.get(x, y) == Some(Cell::Black)
        }

        fn empty(&self, x: i32, y: i32) -> bool {
            self.get(x, y) == Some(Cell::Empty)
        }

        /// Number of consecutive black stones from (x, y) (excluded) going
        /// in direction (dx, dy).
        fn stretch(&self, x: i32, y: i32, dx: i32, dy: i32) -> i32 {
            let mut n = 0;
            let (mut cx, mut cy) = (x + dx, y + dy);
            while self.black(cx, cy) {
                n += 1;
                cx += dx;
                cy += dy;
            }
            n
        }

        /// Length of the black run through the black stone at (x, y).
        fn run(&self, x: i32, y: i32, (dx, dy): (i32, i32)) -> i32 {
            1 + self.stretch(x, y, dx, dy) + self.stretch(x, y, -dx, -dy)
        }

        /// Whether a black stone on the empty point (x, y) would stand in
        /// exactly five in some direction.
        fn would_make_five(&mut self, x: i32, y: i32) -> bool {
            self.set(x, y, Cell::Black);
            let five = DIRS.iter().any(|&d| self.run(x, y, d) == 5);
            self.set(x, y, Cell::Empty);
            five
        }

        /// Whether every cell strictly between (ax, ay) and (bx, by) (on one
        /// line, `k` steps of `d` apart, k > 0) is black.
        fn all_black_between(&self, (ax, ay): (i32, i32), (dx, dy): (i32, i32), k: i32) -> bool {
            (1..k).all(|i| self.black(ax + i * dx, ay + i * dy))
        }

        /// Empty points Q on the line (P, d) such that a black stone on Q
        /// makes exactly five on that line, the five containing P. P must
        /// be black.
        fn five_points(&mut self, px: i32, py: i32, d: (i32, i32)) -> Vec<(i32, i32)> {
            let mut out = Vec::new();
            for k in -4..=4i32 {
                if k == 0 {
                    continue;
                }
                let (qx, qy) = (px + k * d.0, py + k * d.1);
                if !self.empty(qx, qy) {
                    continue;
                }
                // P belongs to Q's run iff everything between them is black.
                let (from, step) = if k > 0 { ((px, py), d) } else { ((qx, qy), d) };
                if !self.all_black_between(from, step, k.abs()) {
                    continue;
                }
                self.set(qx, qy, Cell::Black);
                if self.run(qx, qy, d) == 5 {
                    out.push((qx, qy));
                }
                self.set(qx, qy, Cell::Empty);
            }
            out
        }

        /// Number of fours the black stone at P makes on line d.
        fn fours_on_line(&mut self, px: i32, py: i32, d: (i32, i32)) -> u32 {
            let pts = self.five_points(px, py, d);
            if pts.len() == 2 && self.run(px, py, d) == 4 {
                // Both five points with P in a run of exactly four: they are
                // the two ends of that run, a straight four: one four.
                let (a, b) = (pts[0], pts[1]);
                let dist = ((a.0 - b.0).abs()).max((a.1 - b.1).abs());
                assert_eq!(dist, 5, "two five points around a run of four are its ends");
                return 1;
            }
            pts.len() as u32
        }

        /// Whether the black stones on line d hold a straight four (exactly
        /// four in a row, both ends empty and each making exactly five)
        /// that contains both the black stones P and Q.
        fn straight_four_with(&mut self, p: (i32, i32), q: (i32, i32), d: (i32, i32)) -> bool {
            let (dx, dy) = d;
            if self.run(p.0, p.1, d) != 4 {
                return false;
            }
            // Q must be in P's run.
            let k = if dx != 0 {
                (q.0 - p.0) / dx
            } else {
                (q.1 - p.1) / dy
            };
            let (from, dist) = if k > 0 { (p, k) } else { (q, -k) };
            if !self.all_black_between(from, d, dist) {
                return false;
            }
            let back = self.stretch(p.0, p.1, -dx, -dy);
            let fwd = self.stretch(p.0, p.1, dx, dy);
            let ends = [
                (p.0 - (back + 1) * dx, p.1 - (back + 1) * dy),
                (p.0 + (fwd + 1) * dx, p.1 + (fwd + 1) * dy),
            ];
            ends.iter().all(|&(ex, ey)| {
                if !self.empty(ex, ey) {
                    return false;
                }
                self.set(ex, ey, Cell::Black);
                let five = self.run(ex, ey, d) == 5;
                self.set(ex, ey, Cell::Empty);
                five
            })
        }

        /// Whether the black stone at P makes a three on line d.
        fn three_on_line(&mut self, px: i32, py: i32, d: (i32, i32)) -> bool {
            for k in -4..=4i32 {
                if k == 0 {
                    continue;
                }
                let (qx, qy) = (px + k * d.0, py + k * d.1);
                if !self.empty(qx, qy) {
                    continue;
                }
                self.set(qx, qy, Cell::Black);
                let straight = self.straight_four_with((px, py), (qx, qy), d);
                self.set(qx, qy, Cell::Empty);
                if !straight {
                    continue;
                }
                if self.would_make_five(qx, qy) {
                    continue;
                }
                if self.judge(qx, qy).is_none() {
                    return true;
                }
            }
            false
        }

        /// The verdict for a black stone on the empty point (x, y); `None`
        /// when the point is occupied or legal.
        pub fn judge(&mut self, x: i32, y: i32) -> Option<Forbidden> {
            if !self.empty(x, y) {
                return None;
            }
            self.set(x, y, Cell::Black);
            let verdict = self.judge_placed(x, y);
            self.set(x, y, Cell::Empty);
            verdict
        }

        fn judge_placed(&mut self, x: i32, y: i32) -> Option<Forbidden> {
            let runs = DIRS.map(|d| self.run(x, y, d));
            if runs.contains(&5) {
                return None;
            }
            if runs.iter().any(|&r| r >= 6) {
                return Some(Forbidden::Overline);
            }
            let mut fours = 0;
            let mut four_line = [false; 4];
            for (i, &d) in DIRS.iter().enumerate() {
                let f = self.fours_on_line(x, y, d);
                fours += f;
                four_line[i] = f > 0;
            }
            if fours >= 2 {
                return Some(Forbidden::DoubleFour);
            }
            let mut threes = 0;
            for (i, &d) in DIRS.iter().enumerate() {
                if !four_line[i] && self.three_on_line(x, y, d) {
                    threes += 1;
                }
            }
            if threes >= 2 {
                return Some(Forbidden::DoubleThree);
            }
            None
        }

        /// The full map, row 1 first, each row from column A.
        pub fn map(&mut self) -> Vec<((i32, i32), Forbidden)> {
            let mut out = Vec::new();
            for y in 0..SIZE {
                for x in 0..SIZE {
                    if let Some(k) = self.judge(x, y) {
                        out.push(((x, y), k));
                    }
                }
            }
            out
        }
    }
}

// ---------------------------------------------------------------------------
// Random positions.

/// A position: black stones, white stones.
#[derive(Clone, Debug)]
struct Pos {
    black: Vec<Point>,
    white: Vec<Point>,
}

impl Pos {
    fn board(&self) -> Board {
        Board::with_stones(N, &self.black, &self.white).expect("valid position")
    }

    fn describe(&self) -> String {
        let list = |v: &[Point]| {
            let mut v = v.to_vec();
            v.sort_by_key(|p| (p.y, p.x));
            v.iter()
                .map(|p| p.to_string())
                .collect::<Vec<_>>()
                .join(",")
        };
        format!("{};{}", list(&self.black), list(&self.white))
    }
}

fn all_points() -> Vec<Point> {
    (0..N)
        .flat_map(|y| (0..N).map(move |x| Point::new(x, y)))
        .collect()
}

/// Game-like counts: 0..=80 stones, black and white within one of each
/// other, spread over the whole board.
fn balanced() -> impl Strategy<Value = Pos> {
    (0usize..=80, any::<bool>())
        .prop_flat_map(|(total, black_first)| {
            (
                subsequence(all_points(), total).prop_shuffle(),
                Just(black_first),
            )
        })
        .prop_map(|(pts, black_first)| {
            let nb = if black_first {
                pts.len().div_ceil(2)
            } else {
                pts.len() / 2
            };
            Pos {
                black: pts[..nb].to_vec(),
                white: pts[nb..].to_vec(),
            }
        })
}

/// Arbitrary counts: every cell independently empty, black or white with
/// random weights (black-heavy boards included, where forbidden points
/// abound).
fn arbitrary() -> impl Strategy<Value = Pos> {
    (0u32..=60, 0u32..=40)
        .prop_flat_map(|(pb, pw)| {
            proptest::collection::vec(0u32..100, (N as usize) * (N as usize))
                .prop_map(move |rolls| (pb, pw, rolls))
        })
        .prop_map(|(pb, pw, rolls)| {
            let mut pos = Pos {
                black: Vec::new(),
                white: Vec::new(),
            };
            for (p, r) in all_points().into_iter().zip(rolls) {
                if r < pb {
                    pos.black.push(p);
                } else if r < pb + pw {
                    pos.white.push(p);
                }
            }
            pos
        })
}

/// Dense local fights: stones packed into a random window of 5x5..9x9,
/// black slightly ahead, where threes, fours and recursive false threes
/// are common.
fn clustered() -> impl Strategy<Value = Pos> {
    (5u8..=9, 0u8..15, 0u8..15, 30u32..=75, 5u32..=40)
        .prop_flat_map(|(w, x0, y0, pb, pw)| {
            let x0 = x0.min(N - w);
            let y0 = y0.min(N - w);
            proptest::collection::vec(0u32..100, (w as usize) * (w as usize))
                .prop_map(move |rolls| (w, x0, y0, pb, pw, rolls))
        })
        .prop_map(|(w, x0, y0, pb, pw, rolls)| {
            let mut pos = Pos {
                black: Vec::new(),
                white: Vec::new(),
            };
            for (i, r) in rolls.into_iter().enumerate() {
                let p = Point::new(x0 + (i as u8 % w), y0 + (i as u8 / w));
                if r < pb {
                    pos.black.push(p);
                } else if r < (pb + pw).min(100) {
                    pos.white.push(p);
                }
            }
            pos
        })
}

fn any_position() -> impl Strategy<Value = Pos> {
    prop_oneof![balanced(), arbitrary(), clustered()]
}

// ---------------------------------------------------------------------------
// Helpers.

/// The 8 symmetries of the square: bit 0 mirrors x, bit 1 mirrors y, bit 2
/// swaps the axes (applied first).
fn transform(t: u8, p: Point) -> Point {
    let (mut x, mut y) = (p.x, p.y);
    if t & 4 != 0 {
        std::mem::swap(&mut x, &mut y);
    }
    if t & 1 != 0 {
        x = N - 1 - x;
    }
    if t & 2 != 0 {
        y = N - 1 - y;
    }
    Point::new(x, y)
}

fn sorted(mut v: Vec<(Point, Forbidden)>) -> Vec<(Point, Forbidden)> {
    v.sort_by_key(|&(p, _)| (p.y, p.x));
    v
}

fn reference_map(pos: &Pos) -> Vec<(Point, Forbidden)> {
    let xy = |v: &[Point]| {
        v.iter()
            .map(|p| (p.x as i32, p.y as i32))
            .collect::<Vec<_>>()
    };
    let mut g = reference::Grid::new(&xy(&pos.black), &xy(&pos.white));
    g.map()
        .into_iter()
        .map(|((x, y), k)| (Point::new(x as u8, y as u8), k))
        .collect()
}

fn check_against_reference(pos: &Pos) -> Result<(), TestCaseError> {
    let fast = sorted(pos.board().forbidden_points());
    let slow = reference_map(pos);
    if fast != slow {
        let only_fast: Vec<_> = fast.iter().filter(|e| !slow.contains(e)).collect();
        let only_slow: Vec<_> = slow.iter().filter(|e| !fast.contains(e)).collect();
        return Err(TestCaseError::fail(format!(
            "judge disagrees with the reference on {}\n{}fast only: {only_fast:?}\nreference only: {only_slow:?}",
            pos.describe(),
            pos.board().to_text()
        )));
    }
    Ok(())
}

// ---------------------------------------------------------------------------
// Properties.

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// (a) The forbidden map commutes with the 8 symmetries of the square,
    /// kinds included.
    #[test]
    fn map_commutes_with_symmetries(pos in any_position()) {
        let base = pos.board().forbidden_points();
        for t in 1..8u8 {
            let moved = Pos {
                black: pos.black.iter().map(|&p| transform(t, p)).collect(),
                white: pos.white.iter().map(|&p| transform(t, p)).collect(),
            };
            let expected = sorted(base.iter().map(|&(p, k)| (transform(t, p), k)).collect());
            let got = sorted(moved.board().forbidden_points());
            prop_assert_eq!(got, expected, "symmetry {} of {}", t, pos.describe());
        }
    }

    /// (b) No occupied point and no point where black makes exactly five is
    /// ever forbidden; (c) the single-point query agrees with the full map
    /// at every point.
    #[test]
    fn map_is_consistent(pos in any_position()) {
        let board = pos.board();
        let map = board.forbidden_points();
        // Ordered by row, then column, without duplicates.
        let keys: Vec<(u8, u8)> = map.iter().map(|(p, _)| (p.y, p.x)).collect();
        prop_assert!(keys.windows(2).all(|w| w[0] < w[1]), "map order {:?}", keys);
        for p in board.points() {
            let single = board.forbidden(p);
            let in_map = map.iter().find(|(q, _)| *q == p).map(|&(_, k)| k);
            prop_assert_eq!(single, in_map, "point {} of {}", p, pos.describe());
            if board.get(p).is_some() {
                prop_assert_eq!(single, None, "occupied {} of {}", p, pos.describe());
            } else if board.makes_five(p, Color::Black, Variant::Renju) {
                prop_assert_eq!(single, None, "five at {} of {}", p, pos.describe());
            }
        }
        // Off the board: never forbidden.
        prop_assert_eq!(board.forbidden(Point::new(N, 0)), None);
        prop_assert_eq!(board.forbidden(Point::new(3, N + 2)), None);
    }

    /// (d) White has no forbidden moves, and the API has no way to ask for
    /// one: `forbidden` takes no colour and judges black only. What *can* be
    /// tested is that white stones never act as anything but a blocker, with
    /// no shapes of their own: a row of white stones along one side of the
    /// board is indistinguishable from the board's edge. The same content
    /// sitting on a white wall at the bottom (rows 2-15 used, row 1 all
    /// white) or under a white wall at the top (rows 1-14 used, row 15 all
    /// white) has the same forbidden map, shifted by one row.
    #[test]
    fn white_stones_act_exactly_like_the_edge(pos in any_position()) {
        let content = |p: &Point| p.y < N - 1;
        let black: Vec<Point> = pos.black.iter().copied().filter(content).collect();
        let white: Vec<Point> = pos.white.iter().copied().filter(content).collect();
        let wall = |y: u8| (0..N).map(move |x| Point::new(x, y));
        // Content in rows 1..14, white wall on row 15.
        let low = Pos { black: black.clone(), white: white.iter().copied().chain(wall(N - 1)).collect() };
        // The same content moved up one row, white wall on row 1.
        let up = |p: &Point| Point::new(p.x, p.y + 1);
        let high = Pos {
            black: black.iter().map(up).collect(),
            white: white.iter().map(up).chain(wall(0)).collect(),
        };
        let expected: Vec<_> = low.board().forbidden_points().into_iter().map(|(p, k)| (up(&p), k)).collect();
        prop_assert_eq!(high.board().forbidden_points(), expected, "{}", low.describe());
        // And a board holding white stones only has no forbidden point.
        let only_white = Pos { black: Vec::new(), white: pos.white.clone() };
        prop_assert!(only_white.board().forbidden_points().is_empty());
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1500))]

    /// (e) The fast judge agrees with the slow reference judge, point for
    /// point and kind for kind, on game-like positions.
    #[test]
    fn agrees_with_reference_balanced(pos in balanced()) {
        check_against_reference(&pos)?;
    }

    /// (e) ... on positions with arbitrary stone counts.
    #[test]
    fn agrees_with_reference_arbitrary(pos in arbitrary()) {
        check_against_reference(&pos)?;
    }

    /// (e) ... on dense local fights, where false threes nest.
    #[test]
    fn agrees_with_reference_clustered(pos in clustered()) {
        check_against_reference(&pos)?;
    }
}
