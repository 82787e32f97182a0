//! The benchmark set, parsed: shared by the criterion benchmark and the
//! `judge_timing` example (each includes this file with `#[path]`).

use tengen_rules::{Board, Point};

/// The 1000 dense positions of `dense-positions.txt` (`BLACK;WHITE` lines).
pub fn dense() -> Vec<Board> {
    include_str!("dense-positions.txt")
        .lines()
        .map(|line| {
            let (b, w) = line.split_once(';').expect("BLACK;WHITE");
            let parse = |s: &str| -> Vec<Point> {
                s.split(',')
                    .filter(|t| !t.is_empty())
                    .map(|t| t.parse().unwrap())
                    .collect()
            };
            Board::with_stones(15, &parse(b), &parse(w)).expect("valid position")
        })
        .collect()
}
