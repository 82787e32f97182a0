//! `tengen analyze` input (client-cli/src/analyze.rs, and the forbidden
//! point and VCF/VCT searches of `tengen-rules` it calls): any bytes on
//! standard input, or as `--moves`, with or without `--vcf --vct`, never
//! panic, and standard input gets exactly one answer line per input line.
//!
//! The searches get [`INPUT_NODES`] nodes for the whole input, shared out
//! among its lines (each line's search is one `--nodes`), so that an input
//! of a hundred short lines searches no more than one line does (about
//! 9,900 inputs a second uninstrumented over the grown corpus;
//! fuzz/README.md has the runs).

use clap::Parser;

use crate::cli_analyze::{Args, analyze_moves, analyze_stream};

/// `tengen analyze`'s options, parsed as the binary parses them.
#[derive(Parser)]
struct Cli {
    #[command(flatten)]
    args: Args,
}

/// The search nodes one input may spend, over all its lines.
pub const INPUT_NODES: u64 = 500;

/// The fewest nodes a line's search gets, however many lines there are.
const LINE_NODES_MIN: u64 = 10;

/// The first byte picks the mode; the rest is the input.
pub fn check(data: &[u8]) {
    let Some((&choice, input)) = data.split_first() else {
        return;
    };
    let moves = choice & 0x20 != 0;
    let mut argv = vec!["analyze".to_string()];
    if choice & 1 == 1 {
        let lines = if moves {
            1
        } else {
            input.split_inclusive(|&b| b == b'\n').count().max(1) as u64
        };
        let nodes = (INPUT_NODES / lines).max(LINE_NODES_MIN);
        argv.extend(["--vcf", "--vct", "--vct-depth=2"].map(String::from));
        argv.push(format!("--nodes={nodes}"));
        argv.push(
            ["--rule=renju", "--rule=gomoku", "--rule=freestyle"][usize::from(choice >> 1) % 3]
                .into(),
        );
        if choice & 8 != 0 {
            argv.push(
                ["--attacker=black", "--attacker=white"][usize::from(choice >> 4) & 1].into(),
            );
        }
    }
    if moves {
        argv.push(format!("--moves={}", String::from_utf8_lossy(input)));
    }
    let args = Cli::try_parse_from(&argv)
        .unwrap_or_else(|e| panic!("{argv:?} does not parse: {e}"))
        .args;
    let mut out = Vec::new();
    if moves {
        let text = String::from_utf8_lossy(input);
        analyze_moves(&text, &args, &mut out).expect("writing to memory cannot fail");
        let lines = out.iter().filter(|&&b| b == b'\n').count();
        assert!((1..=3).contains(&lines), "--moves printed {lines} lines");
    } else {
        analyze_stream(input, &args, &mut out).expect("reading and writing memory cannot fail");
        let asked = input.split_inclusive(|&b| b == b'\n').count();
        let answered = out.iter().filter(|&&b| b == b'\n').count();
        assert_eq!(answered, asked, "one answer line per input line");
    }
    let out = String::from_utf8(out).expect("the answers are UTF-8");
    assert!(!out.contains('\r'), "an answer carries a carriage return");
}
