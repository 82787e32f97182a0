//! The fuzz checks on stable Rust, for CI: every committed corpus input of
//! every target (fuzz/corpus/TARGET/*, where scripts/fuzz also keeps what
//! libFuzzer finds), then random inputs, most of them mutations of corpus
//! inputs. `TENGEN_FUZZ_INPUTS` sets how many random inputs per target
//! (default 3000), `TENGEN_FUZZ_SEED` the seed (default: a fixed one, so a
//! failure repeats; the seed is printed).

use std::path::PathBuf;

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

type Check = fn(&[u8]);

fn corpus(target: &str) -> Vec<Vec<u8>> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("corpus")
        .join(target);
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|entry| entry.expect("a directory entry").path())
        .collect();
    files.sort();
    files
        .iter()
        .map(|f| std::fs::read(f).unwrap_or_else(|e| panic!("{}: {e}", f.display())))
        .collect()
}

fn setting(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// A random input: fresh bytes, or a corpus input with a few bytes
/// changed, inserted or removed, or spliced with another.
fn mutant(rng: &mut StdRng, seeds: &[Vec<u8>]) -> Vec<u8> {
    if seeds.is_empty() || rng.random_bool(0.2) {
        let len = rng.random_range(0..512);
        return (0..len).map(|_| rng.random()).collect();
    }
    let mut input = seeds[rng.random_range(0..seeds.len())].clone();
    for _ in 0..rng.random_range(1..8) {
        let at = rng.random_range(0..=input.len());
        match rng.random_range(0..5) {
            0 if at < input.len() => input[at] = rng.random(),
            1 if at < input.len() => input[at] ^= 1 << rng.random_range(0..8),
            2 => input.insert(at, rng.random()),
            3 if at < input.len() => {
                input.remove(at);
            }
            _ => {
                let other = &seeds[rng.random_range(0..seeds.len())];
                let from = rng.random_range(0..=other.len());
                input.truncate(at);
                input.extend_from_slice(&other[from..]);
            }
        }
    }
    input
}

fn run(target: &str, check: Check) {
    let seeds = corpus(target);
    assert!(!seeds.is_empty(), "the {target} corpus is empty");
    for input in &seeds {
        check(input);
    }
    let seed = setting("TENGEN_FUZZ_SEED", 0x7e46e4);
    let inputs = setting("TENGEN_FUZZ_INPUTS", 3000);
    println!(
        "{target}: {} corpus inputs, {inputs} random (seed {seed})",
        seeds.len()
    );
    let mut rng = StdRng::seed_from_u64(seed);
    for n in 0..inputs {
        let input = mutant(&mut rng, &seeds);
        let outcome = std::panic::catch_unwind(|| check(&input));
        if outcome.is_err() {
            panic!("{target}: random input {n} (seed {seed}) failed: {input:?}");
        }
    }
}

#[test]
fn protocol() {
    run("protocol", tengen_fuzz::protocol::check);
}

#[test]
fn game() {
    run("game", tengen_fuzz::game::check);
}

#[test]
fn records() {
    run("records", tengen_fuzz::records::check);
}

#[test]
fn analyze() {
    run("analyze", tengen_fuzz::analyze::check);
}
