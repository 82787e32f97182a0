//! Our VCF solver on the comparison set, one line per case, for
//! `benches/quintet/compare.mjs` (which runs quintet on the same cases and
//! compares): the published VCF problems, then the 1000 dense positions of
//! the forbidden-move benchmark with each colour attacking.
//!
//! Output: `CASE<TAB>MOVES<TAB>MICROS`, MOVES the solution's length in
//! attacker moves or `none`, MICROS the best of `ROUNDS` timed solves.
//!
//! `cargo run --release -p tengen-rules --example solve_times`

use std::time::Instant;

use tengen_rules::analysis::{Budget, Outcome, vcf};
use tengen_rules::{Board, Color, Variant};

#[path = "../benches/data/positions.rs"]
mod positions;
#[path = "../benches/data/problems.rs"]
mod problems;

const ROUNDS: usize = 5;

fn time(board: &Board, attacker: Color, limit: u8) -> (Outcome, f64) {
    let mut best = f64::MAX;
    let mut outcome = Outcome::Unknown;
    for _ in 0..ROUNDS {
        let t = Instant::now();
        outcome = vcf(
            board,
            attacker,
            Variant::Renju,
            Budget::new(10_000_000, limit),
        );
        best = best.min(t.elapsed().as_secs_f64() * 1e6);
    }
    (outcome, best)
}

fn main() {
    let mut cases: Vec<(String, Board, Color, u8)> = problems::vcf()
        .into_iter()
        .map(|p| (p.name, p.board, p.attacker, p.limit))
        .collect();
    for (i, board) in positions::dense().into_iter().enumerate() {
        for (c, name) in [(Color::Black, "black"), (Color::White, "white")] {
            cases.push((format!("dense-{i}-{name}"), board.clone(), c, u8::MAX));
        }
    }
    for (name, board, attacker, limit) in cases {
        let (outcome, micros) = time(&board, attacker, limit);
        let moves = match outcome {
            Outcome::Win(_) => outcome.attacker_moves().unwrap().to_string(),
            Outcome::None => "none".to_string(),
            Outcome::Unknown => "unknown".to_string(),
        };
        println!("{name}\t{moves}\t{micros:.1}");
    }
}
