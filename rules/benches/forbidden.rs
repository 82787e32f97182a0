//! Criterion benchmarks of the forbidden-move judge on the committed, seeded
//! set of dense mid-game positions (`data/dense-positions.txt`, 1000
//! positions of 40–80 stones made by `examples/gen_positions.rs`).
//!
//! `cargo bench -p tengen-rules --bench forbidden`

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use tengen_rules::Board;

#[path = "data/positions.rs"]
mod positions;

fn positions() -> Vec<Board> {
    positions::dense()
}

fn full_map(c: &mut Criterion) {
    let boards = positions();
    let mut group = c.benchmark_group("forbidden_map");
    // One iteration judges every point of one position; the positions are
    // taken in turn, so the figure is the mean over the whole set.
    group.throughput(Throughput::Elements(1));
    let mut out = Vec::new();
    let mut i = 0;
    group.bench_function("dense_position", |b| {
        b.iter(|| {
            let board = &boards[i % boards.len()];
            i += 1;
            board.forbidden_points_into(&mut out);
            black_box(out.len())
        })
    });
    group.finish();
}

fn single_point(c: &mut Criterion) {
    let boards = positions();
    let mut i = 0;
    c.bench_function("forbidden_point/dense_position_all_points", |b| {
        b.iter(|| {
            let board = &boards[i % boards.len()];
            i += 1;
            board
                .points()
                .filter(|&p| board.forbidden(black_box(p)).is_some())
                .count()
        })
    });
}

criterion_group!(benches, full_map, single_point);
criterion_main!(benches);
