//! `tengen replay FILE`: read a game record, replay it through the referee,
//! and show it.
//!
//! Why this exists: a record is only trustworthy if the referee agrees with
//! it. Replaying through `tengen-rules` (never re-judging here) checks every
//! move, clock and result, and the output is what a player wants from a
//! record: the moves, the final board and who won and how.
//!
//! # Formats read (detected from the text)
//!
//! - the full JSON game record (`rules::game::record`; carries its own rule
//!   set, seats, times and result);
//! - renju notation: `h8 i9 j10 pass k11 ...` (move numbers like `1.` are
//!   skipped);
//! - Piskvork PSQ (a `Piskvorky 15x15, ...` header, then `x,y,ms` lines).
//!
//! The last two list only stones, so they are replayed as a free-opening
//! game of `--rule` (default `renju`).
//!
//! # Output
//!
//! ```text
//! record: renju notation, rule set renju, 15x15
//! 1. black H8
//! 2. white I9
//! ...
//! <the final board, X black, O white>
//! result: black (first seat) wins: 5 in a row (H8 I8 J8 K8 L8)
//! ```
//!
//! `result: none (the game is not over; black to move)` when the record
//! stops before the end. With `--analyze` (and `--vct`), a line per move
//! follows: whether the side to move had a forced win before the move and
//! whether the move kept it (`tengen_rules::analysis::analyze_record`). Exit status 0; 2 when the record cannot be read or
//! the referee refuses it (`error: ...` names the move); 1 on an I/O error.

use std::io::Read;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Context, Result};
use tengen_rules::game::{self, Event, RuleSet};

use crate::wins::{ReplayBudgets, replay_lines};

/// Replay a game record (JSON record, renju notation or PSQ) and show it.
#[derive(clap::Args)]
#[command(long_about = "\
Replay a game record through the referee and print the moves, the final
board and the result.

FILE is a JSON game record, renju notation (`h8 i9 j10 pass ...`) or a
Piskvork PSQ file; `-` reads standard input. Notation and PSQ list only
stones, so they are replayed as a free-opening game of --rule.

With --analyze, one more line per move follows: whether the side to move
had a forced win before the move, and whether the move kept it:
    7. black B15: vcf 1 (g8) missed
  `vcf N (SEQ)` is the shortest VCF (N attacker moves, SEQ the moves in
  renju notation), `kept` when the move played begins a forced win too,
  `missed` when it does not, `undecided` when the budget ran out deciding;
  `vct ...` the same for a VCT (with --vct, shown when there is no VCF);
  `-` no forced win; `unknown` when the node budget ran out.

Example:
    echo 'h8 h9 i8 i9 j8 j9 k8 k9 l8' | tengen replay -
    echo 'h8 a1 i8 a2 j8 a3 b15 a4 a5' | tengen replay --analyze -
")]
pub struct Args {
    /// The record file, or `-` for standard input.
    file: PathBuf,
    /// Rule set for notation and PSQ records: renju, gomoku, freestyle or
    /// twin (renju notation only, each stone with its board: 1:k10 2:k10).
    #[arg(long, default_value = "renju")]
    rule: RuleSet,
    /// After the replay, print for every move whether the side to move had
    /// a VCF (victory by continuous fours) and whether the move kept it.
    #[arg(long)]
    analyze: bool,
    /// With --analyze, look for VCTs (wins by threes and fours) as well.
    #[arg(long, requires = "analyze")]
    vct: bool,
    #[command(flatten)]
    budgets: ReplayBudgets,
}

pub fn run(args: &Args) -> Result<ExitCode> {
    let text = if args.file.as_os_str() == "-" {
        let mut s = String::new();
        std::io::stdin()
            .read_to_string(&mut s)
            .context("reading standard input")?;
        s
    } else {
        std::fs::read_to_string(&args.file)
            .with_context(|| format!("reading {}", args.file.display()))?
    };
    let record = match game::import(&text, args.rule) {
        Ok(r) => r,
        Err(e) => return Ok(bad(&e)),
    };
    let mut lines = vec![format!(
        "record: {}, rule set {}, {n}x{n}",
        format_name(&text),
        record.config.rule_set,
        n = record.config.board_size
    )];
    let twin = record.config.rule_set.boards() > 1;
    let replayed = record.replay_with(|_, events| {
        lines.extend(events.iter().filter_map(|e| describe(e, twin)));
    });
    let game = match replayed {
        Ok(g) => g,
        Err(e) => return Ok(bad(&e)),
    };
    let mut out = lines.join("\n");
    out.push('\n');
    if let Some(second) = game.board_at(1) {
        // Twin rooms: both boards, one after the other.
        out.push_str("board 1\n");
        out.push_str(&game.board().to_text());
        out.push_str("board 2\n");
        out.push_str(&second.to_text());
    } else {
        out.push_str(&game.board().to_text());
    }
    match game.result() {
        Some(r) => out.push_str(&format!("result: {}\n", r.describe())),
        None => {
            let next = game
                .task()
                .map(|(seat, _)| format!("{} to move", game.color_of(seat)))
                .unwrap_or_default();
            out.push_str(&format!("result: none (the game is not over; {next})\n"));
        }
    }
    if args.analyze {
        match replay_lines(&record, &args.budgets.into(), args.vct) {
            Ok(lines) => {
                for line in lines {
                    out.push_str(&line);
                    out.push('\n');
                }
            }
            Err(e) => {
                print!("{out}");
                return Ok(bad(&e));
            }
        }
    }
    print!("{out}");
    Ok(ExitCode::SUCCESS)
}

fn bad(e: &dyn std::fmt::Display) -> ExitCode {
    println!("error: {e}");
    ExitCode::from(2)
}

fn format_name(text: &str) -> &'static str {
    let t = text.trim_start();
    if t.starts_with('{') {
        "JSON game record"
    } else if t.starts_with("Piskvorky") {
        "PSQ"
    } else {
        "renju notation"
    }
}

/// One line per event worth showing in a replay (`twin`: stones name
/// their board).
fn describe(e: &Event, twin: bool) -> Option<String> {
    Some(match e {
        Event::Moved { mv, .. } => match mv.point {
            Some(_) => format!(
                "{}. {} {}",
                mv.number,
                mv.color,
                crate::describe::point_of(mv, twin)
            ),
            None => format!("{}. {} pass", mv.number, mv.color),
        },
        Event::SwapDecided { seat, swapped, .. } => {
            if *swapped {
                format!("   {seat} seat swaps (takes black)")
            } else {
                format!("   {seat} seat keeps its colour")
            }
        }
        Event::DrawOffered { seat, .. } => format!("   {seat} seat offers a draw"),
        Event::DrawDeclined { seat, .. } => format!("   {seat} seat declines the draw"),
        Event::DrawOfferLapsed { seat } => format!("   {seat} seat's draw offer lapses"),
        Event::DrawAccepted { seat } => format!("   {seat} seat accepts the draw"),
        Event::ClaimUpheld { point, kind, .. } => {
            format!("   white claims the forbidden move {point} ({kind}): upheld")
        }
        Event::Violation {
            seat, count, point, ..
        } => match point {
            Some(p) => format!("   {seat} seat: false claim at {p}, violation {count}"),
            None => format!("   {seat} seat: false claim, violation {count}"),
        },
        Event::TakenBack { seat, undone, .. } => {
            format!("   {seat} seat takes back {} move(s)", undone.len())
        }
        Event::GameOver { .. } => return None,
        // Events added later (opening decisions) show as their wire form.
        other => format!("   {}", serde_json::to_string(other).unwrap_or_default()),
    })
}
