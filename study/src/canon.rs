//! Positions up to the board's eight symmetries: one form for all eight
//! orientations of a position, and the maps between the form and the
//! orientation a player looks at.
//!
//! Why: the explorer counts a position once whichever way round it was
//! played (an opening laid with white 2 on I9 or on G7 is one opening),
//! puzzles are kept once, and an answer is drawn the way its asker holds
//! the board. Unlike fifth-move equivalence (`tengen_rules::opening`, which
//! ignores the board's edges and allows translations), only the eight
//! rotations and reflections about the board's centre keep a position the
//! same position here: the edges matter to the rest of the game.
//!
//! The form: for each symmetry, the stones' point indices (`y * size + x`)
//! mapped, black and white each sorted; the least of the eight in that
//! order. The symmetries that reach it are kept: more than one when the
//! position is itself symmetric, and then moves that those symmetries
//! exchange are one move, named by the least index any of them gives.

use tengen_rules::Point;
use tengen_rules::opening::Symmetry;

/// The image of `p` under `s` about the centre of a `size` x `size` board
/// (doubled coordinates, so any size works).
pub fn map_point(s: Symmetry, size: u8, p: Point) -> Point {
    let n = i32::from(size) - 1;
    let (x, y) = s.apply((2 * i32::from(p.x) - n, 2 * i32::from(p.y) - n));
    Point::new(((x + n) / 2) as u8, ((y + n) / 2) as u8)
}

/// A point's index on a `size` board.
pub fn index(size: u8, p: Point) -> u16 {
    u16::from(p.y) * u16::from(size) + u16::from(p.x)
}

/// The point of an index on a `size` board.
pub fn point(size: u8, index: u16) -> Point {
    let size = u16::from(size);
    Point::new((index % size) as u8, (index / size) as u8)
}

/// A position in its canonical form, and how the asker's orientation maps
/// to it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Canonical {
    size: u8,
    black: Vec<u16>,
    white: Vec<u16>,
    /// The symmetries taking the asker's stones to the form; never empty.
    maps: Vec<Symmetry>,
}

impl Canonical {
    /// The form of the position with these stones on a `size` board.
    pub fn of(size: u8, black: &[Point], white: &[Point]) -> Canonical {
        let image = |s: Symmetry, stones: &[Point]| -> Vec<u16> {
            let mut v: Vec<u16> = stones
                .iter()
                .map(|&p| index(size, map_point(s, size, p)))
                .collect();
            v.sort_unstable();
            v
        };
        let mut best: Option<(Vec<u16>, Vec<u16>)> = None;
        let mut maps = Vec::new();
        for s in Symmetry::ALL {
            let form = (image(s, black), image(s, white));
            match &best {
                Some(b) if form > *b => {}
                Some(b) if form == *b => maps.push(s),
                _ => {
                    best = Some(form);
                    maps = vec![s];
                }
            }
        }
        let (black, white) = best.expect("eight symmetries");
        Canonical {
            size,
            black,
            white,
            maps,
        }
    }

    pub fn size(&self) -> u8 {
        self.size
    }

    /// Whether the position is its own image under a symmetry other than
    /// the identity.
    pub fn is_symmetric(&self) -> bool {
        self.maps.len() > 1
    }

    /// The form as bytes: the board size, the black count, then every
    /// index (black, then white) as two bytes, little-endian.
    pub fn bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(2 + 2 * (self.black.len() + self.white.len()));
        out.push(self.size);
        out.push(self.black.len() as u8);
        for i in self.black.iter().chain(&self.white) {
            out.extend_from_slice(&i.to_le_bytes());
        }
        out
    }

    /// The form's name for a move at `p` (in the asker's orientation):
    /// the least index the position's own symmetries give it, so that
    /// moves the position cannot tell apart are one.
    pub fn move_key(&self, p: Point) -> u16 {
        self.maps
            .iter()
            .map(|&s| index(self.size, map_point(s, self.size, p)))
            .min()
            .expect("never empty")
    }

    /// A move named by the form, in the asker's orientation.
    pub fn to_asker(&self, key: u16) -> Point {
        let s = self.maps[0].inverse();
        map_point(s, self.size, point(self.size, key))
    }

    /// The black and white stones of the form itself (its own orientation).
    pub fn stones(&self) -> (Vec<Point>, Vec<Point>) {
        let pts = |v: &[u16]| v.iter().map(|&i| point(self.size, i)).collect();
        (pts(&self.black), pts(&self.white))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pt(s: &str) -> Point {
        s.parse().unwrap()
    }

    #[test]
    fn maps_agree_with_the_rules_crate_on_the_standard_board() {
        for s in Symmetry::ALL {
            for y in 0..15 {
                for x in 0..15 {
                    let p = Point::new(x, y);
                    assert_eq!(Some(map_point(s, 15, p)), s.map_point(p), "{s:?} {p}");
                }
            }
        }
        // 19 x 19: J10 is the centre, the corners go to corners.
        for s in Symmetry::ALL {
            assert_eq!(map_point(s, 19, pt("J10")), pt("J10"));
            let c = map_point(s, 19, pt("A1"));
            assert!([pt("A1"), pt("A19"), pt("S1"), pt("S19")].contains(&c));
        }
    }

    #[test]
    fn all_eight_orientations_share_one_form_and_moves_map_back() {
        let black = [pt("H8"), pt("J10")];
        let white = [pt("I9")];
        let form = Canonical::of(15, &black, &white);
        for s in Symmetry::ALL {
            let b: Vec<Point> = black.iter().map(|&p| map_point(s, 15, p)).collect();
            let w: Vec<Point> = white.iter().map(|&p| map_point(s, 15, p)).collect();
            let other = Canonical::of(15, &b, &w);
            assert_eq!(other.bytes(), form.bytes(), "{s:?}");
            // A move in this orientation and its image in the first are
            // one move; named by the form, it comes back here.
            let m = map_point(s, 15, pt("K9"));
            assert_eq!(other.move_key(m), form.move_key(pt("K9")));
            let back = other.to_asker(other.move_key(m));
            // Chosei (H8, I9, J10) is symmetric about the diagonal: K9
            // and its mirror I11 are one move.
            let mirror = map_point(s, 15, pt("I11"));
            assert!(back == m || back == mirror, "{s:?}: {back}");
        }
        assert!(form.is_symmetric());
    }

    #[test]
    fn an_asymmetric_position_keeps_every_move_apart() {
        let form = Canonical::of(15, &[pt("H8"), pt("J9")], &[pt("I9")]);
        assert!(!form.is_symmetric());
        let mut keys = std::collections::HashSet::new();
        for y in 0..15 {
            for x in 0..15 {
                let p = Point::new(x, y);
                assert!(keys.insert(form.move_key(p)));
                assert_eq!(form.to_asker(form.move_key(p)), p);
            }
        }
    }
}
