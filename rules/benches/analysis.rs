//! Criterion benchmarks of the VCF and VCT solvers:
//! - `vcf/<problem>`: each published VCF problem of
//!   `tests/data/vcf-problems.txt` (shortest solution, or the proof that
//!   none is within the published limit);
//! - `vcf_dense`: the 1000 dense positions of the forbidden-move benchmark,
//!   black attacking then white, one position per iteration in turn (the
//!   figure is the mean over the set);
//! - `vct/<position>`: the VCT game positions of
//!   `tests/data/vct-problems.txt`, up to their known length.
//!
//! `cargo bench -p tengen-rules --bench analysis`
//!
//! `benches/quintet/compare.mjs` runs the same VCF cases through quintet.

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use tengen_rules::analysis::{Budget, vcf, vct};
use tengen_rules::{Board, Color, Variant};

#[path = "data/positions.rs"]
mod positions;
#[path = "data/problems.rs"]
mod problems;

const NODES: u64 = 10_000_000;

fn vcf_problems(c: &mut Criterion) {
    let mut group = c.benchmark_group("vcf");
    for p in problems::vcf() {
        let budget = Budget::new(NODES, p.limit);
        group.bench_function(&p.name, |b| {
            b.iter(|| black_box(vcf(&p.board, p.attacker, Variant::Renju, budget)))
        });
    }
    group.finish();
}

fn vcf_dense(c: &mut Criterion) {
    let cases: Vec<(Board, Color)> = positions::dense()
        .into_iter()
        .flat_map(|b| [(b.clone(), Color::Black), (b, Color::White)])
        .collect();
    let mut i = 0;
    c.bench_function("vcf_dense", |b| {
        b.iter(|| {
            let (board, attacker) = &cases[i % cases.len()];
            i += 1;
            black_box(vcf(
                board,
                *attacker,
                Variant::Renju,
                Budget::new(NODES, u8::MAX),
            ))
        })
    });
}

fn vct_positions(c: &mut Criterion) {
    let mut group = c.benchmark_group("vct");
    group.sample_size(10);
    for p in problems::vct() {
        let budget = Budget::new(NODES, p.limit);
        group.bench_function(&p.name, |b| {
            b.iter(|| black_box(vct(&p.board, p.attacker, Variant::Renju, budget)))
        });
    }
    group.finish();
}

criterion_group!(benches, vcf_problems, vcf_dense, vct_positions);
criterion_main!(benches);
