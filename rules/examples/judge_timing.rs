//! Per-position cost of the full forbidden map over the benchmark set, as a
//! distribution (criterion reports the mean over the set; this reports the
//! median and tail over positions). Each position is judged `REPS` times in
//! a row and its time is the best of `ROUNDS` such runs, to shed noise.
//!
//! `cargo run --release -p tengen-rules --example judge_timing`

use std::hint::black_box;
use std::time::Instant;

use tengen_rules::Board;

#[path = "../benches/data/positions.rs"]
mod positions;

const REPS: u32 = 200;
const ROUNDS: usize = 5;

fn main() {
    let boards: Vec<Board> = positions::dense();
    let mut out = Vec::new();
    let mut nanos: Vec<f64> = boards
        .iter()
        .map(|board| {
            (0..ROUNDS)
                .map(|_| {
                    let t = Instant::now();
                    for _ in 0..REPS {
                        board.forbidden_points_into(&mut out);
                        black_box(out.len());
                    }
                    t.elapsed().as_nanos() as f64 / REPS as f64
                })
                .fold(f64::INFINITY, f64::min)
        })
        .collect();
    nanos.sort_by(|a, b| a.total_cmp(b));
    let at = |q: f64| nanos[((nanos.len() - 1) as f64 * q).round() as usize] / 1000.0;
    let mean = nanos.iter().sum::<f64>() / nanos.len() as f64 / 1000.0;
    println!(
        "{} positions: median {:.2} µs, p90 {:.2} µs, p99 {:.2} µs, max {:.2} µs, mean {:.2} µs",
        nanos.len(),
        at(0.5),
        at(0.9),
        at(0.99),
        at(1.0),
        mean
    );
}
