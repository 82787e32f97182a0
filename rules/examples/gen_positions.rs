//! Writes the seeded set of dense mid-game positions used by the benchmarks
//! (`rules/benches/data/dense-positions.txt`), in `tengen analyze`'s input
//! format `BLACK;WHITE`.
//!
//! Each position grows like a game: stones alternate black and white, each
//! placed at random within two points of a stone already on the board
//! (starting at H8), skipping points that would give either side a five,
//! until the position holds its drawn size of 40 to 80 stones.
//!
//! `cargo run -p tengen-rules --example gen_positions -- [COUNT] [SEED] > FILE`
//!
//! The committed file was made (COUNT 1000, SEED 2026) when the workspace
//! used rand 0.8. rand 0.9 draws ranges differently, so the same seed now
//! gives another set of the same kind; the benchmarks keep the committed
//! file, so their figures stay comparable.

use rand::{Rng, SeedableRng, rngs::StdRng};
use tengen_rules::{Board, Color, Point, Variant};

fn main() {
    let mut args = std::env::args().skip(1);
    let count: usize = args.next().map_or(1000, |a| a.parse().expect("COUNT"));
    let seed: u64 = args.next().map_or(2026, |a| a.parse().expect("SEED"));
    let mut rng = StdRng::seed_from_u64(seed);
    for _ in 0..count {
        let target = rng.random_range(40..=80);
        let mut board = Board::standard();
        let mut color = Color::Black;
        board.place(Point::center(15), color).unwrap();
        let mut stones = vec![Point::center(15)];
        let mut tries = 0;
        while stones.len() < target && tries < 10_000 {
            tries += 1;
            color = if stones.len() % 2 == 0 {
                Color::Black
            } else {
                Color::White
            };
            let near = stones[rng.random_range(0..stones.len())];
            let (dx, dy) = (rng.random_range(-2..=2), rng.random_range(-2..=2));
            let Some(p) = near.offset(dx, dy, 15) else {
                continue;
            };
            if !board.is_empty_point(p) || board.makes_five(p, color, Variant::Freestyle) {
                continue;
            }
            board.place(p, color).unwrap();
            stones.push(p);
        }
        let side = |c: Color| {
            stones
                .iter()
                .filter(|&&p| board.get(p) == Some(c))
                .map(|p| p.to_string())
                .collect::<Vec<_>>()
                .join(",")
        };
        println!("{};{}", side(Color::Black), side(Color::White));
    }
}
