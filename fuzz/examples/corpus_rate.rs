//! Runs one target's check over every file of a corpus directory,
//! uninstrumented, and prints the inputs per second and the slowest
//! inputs: what an input costs apart from libFuzzer's instrumentation.
//!
//! `cargo run --release -p tengen-fuzz --example corpus_rate -- analyze target/fuzz-corpus/analyze`

use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};

fn main() -> Result<()> {
    let mut args = std::env::args().skip(1);
    let (Some(target), Some(dir)) = (args.next(), args.next()) else {
        bail!("usage: corpus_rate TARGET DIR (TARGET: protocol, game, records or analyze)");
    };
    let check: fn(&[u8]) = match target.as_str() {
        "protocol" => tengen_fuzz::protocol::check,
        "game" => tengen_fuzz::game::check,
        "records" => tengen_fuzz::records::check,
        "analyze" => tengen_fuzz::analyze::check,
        other => bail!("unknown target {other}"),
    };
    let mut inputs = Vec::new();
    for entry in std::fs::read_dir(&dir).with_context(|| format!("reading {dir}"))? {
        let path = entry?.path();
        inputs.push((std::fs::read(&path)?, path));
    }
    // One input first, untimed. The rules build some lookup tables on
    // first use (a few milliseconds, per board size), so one of the slowest
    // inputs listed may be the one that paid for a table.
    if let Some((data, _)) = inputs.first() {
        check(data);
    }
    let mut times: Vec<(Duration, &std::path::Path)> = Vec::with_capacity(inputs.len());
    let start = Instant::now();
    for (data, path) in &inputs {
        let t = Instant::now();
        check(data);
        times.push((t.elapsed(), path));
    }
    let total = start.elapsed();
    println!(
        "{target}: {} inputs in {:.3} s: {:.0} inputs/s",
        inputs.len(),
        total.as_secs_f64(),
        inputs.len() as f64 / total.as_secs_f64()
    );
    times.sort_by_key(|t| std::cmp::Reverse(t.0));
    for (t, path) in times.iter().take(5) {
        println!("  {:>9.3} ms  {}", t.as_secs_f64() * 1e3, path.display());
    }
    Ok(())
}
