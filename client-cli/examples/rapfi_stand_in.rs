//! A stand-in for Rapfi in the tests: the Piskvork dialect of Rapfi
//! 0.43.02 (dhbloo/rapfi, classical evaluator) as recorded through
//! `tengen engine -v`, with the quick bot ([`tengen_client::pbrain`])
//! choosing the stones. CI cannot run Rapfi (it is not ours to commit);
//! this reproduces what the bridge must cope with in it, line for line:
//!
//! - `INFO max_memory N` sizes a hash table to exactly N bytes (0: 350
//!   MiB). It is really allocated (address space, untouched), so under
//!   an rlimit it can fail, and then, as Rapfi does, halving until it
//!   fits: `ERROR Failed to allocate 1048576 KB for transposition
//!   table.`, `MESSAGE Allocated 524288 KB for transposition table.`, no
//!   answer expected, printed before the next command's answer.
//! - Positions (`BOARD`, `YXBOARD`, `SWAP2BOARD`) are read as
//!   `x,y,field`; a line without its field gets `ERROR Color is not a
//!   valid value, must be one of [1, 2, 3].` and is left out, and the
//!   command is answered all the same.
//! - `SWAP2BOARD`: with no stone three points (Rapfi's first opening
//!   from its list when its book has none: `6,7 6,4 4,2`); otherwise
//!   Rapfi searches with the swap allowed and answers `SWAP` when its
//!   value is below zero, else its move. Scripted here: `SWAP` with three
//!   stones, the bot's stone with five.
//! - `YXNBEST N`: one point, Rapfi's best; the N best are its `MESSAGE
//!   (k) value | depth-seldepth | pv` lines, one set per depth, the last
//!   depth cut short (its `(1)` only), its best being the second of the
//!   last complete set, as recorded.
//! - While thinking: `MESSAGE OptiTime ...`, `MESSAGE Depth d-s | Eval v
//!   | Time t | pv` and `MESSAGE Speed ...` before the answer; moves in
//!   notes as Rapfi labels them (the column's letter, the row from the
//!   top, one-based: `G9` is `6,8`).
//! - An unknown command: `ERROR Unknown command: X` (not `UNKNOWN`).
//!
//! Run by the end-to-end tests (`client-cli/tests/`); `cargo test` builds
//! it. Not a part of `tengen`.

use std::io::{BufRead, Write};

use tengen_client::pbrain::{Brain, Step};

const COLOR_ERROR: &str = "ERROR Color is not a valid value, must be one of [1, 2, 3].";

/// A point `x,y` as Rapfi labels it in its notes.
fn label(xy: &str) -> String {
    let (x, y) = xy.split_once(',').unwrap_or(("0", "0"));
    let x: u8 = x.trim().parse().unwrap_or(0);
    let y: u32 = y.trim().parse().unwrap_or(0);
    format!("{}{}", (b'A' + x) as char, y + 1)
}

struct StandIn {
    brain: Brain,
    out: std::io::StdoutLock<'static>,
    /// The hash table: held, never touched.
    table: Vec<u8>,
    /// The block being read and its lines so far.
    block: Option<(String, Vec<String>)>,
    /// The position last given by `YXBOARD`, for `YXNBEST`.
    yx: Vec<String>,
}

impl StandIn {
    fn say(&mut self, line: &str) {
        writeln!(self.out, "{line}").unwrap();
        self.out.flush().unwrap();
    }

    fn brain(&mut self, line: &str) -> Vec<String> {
        match self.brain.handle(line) {
            Step::Reply(lines) => lines,
            Step::Quit => std::process::exit(0),
        }
    }

    /// The brain's answer to a move request, with Rapfi's notes first.
    fn think(&mut self, lines: &[String]) {
        let mut answer = Vec::new();
        for l in lines {
            answer = self.brain(l);
        }
        let mv = answer.last().cloned().unwrap_or_default();
        self.say("MESSAGE OptiTime 1477ms | MaxTime 1970ms");
        let l = label(&mv);
        self.say(&format!("MESSAGE Depth 5-7 | Eval 42 | Time 3ms | {l}"));
        self.say("MESSAGE Speed 192K | Depth 5-7 | Eval 42 | Node 380K | Time 4ms");
        for a in answer {
            self.say(&a);
        }
    }

    fn max_memory(&mut self, bytes: u64) {
        let wanted = if bytes == 0 { 350 << 20 } else { bytes };
        let mut size = wanted;
        self.table = Vec::new();
        while size > 0 {
            let mut v = Vec::new();
            if v.try_reserve_exact(size as usize).is_ok() {
                self.table = v;
                break;
            }
            size /= 2;
        }
        if size != wanted {
            self.say(&format!(
                "ERROR Failed to allocate {} KB for transposition table.",
                wanted >> 10
            ));
            self.say(&format!(
                "MESSAGE Allocated {} KB for transposition table.",
                size >> 10
            ));
        }
    }

    /// A position's lines: those with a field, the others refused.
    fn fielded(&mut self, lines: &[String]) -> Vec<String> {
        let mut kept = Vec::new();
        for l in lines {
            if l.matches(',').count() == 2 {
                kept.push(l.clone());
            } else {
                self.say(COLOR_ERROR);
            }
        }
        kept
    }

    fn block_done(&mut self, name: &str, lines: Vec<String>) {
        let stones = self.fielded(&lines);
        match name {
            "BOARD" => {
                let mut all = vec!["BOARD".to_string()];
                all.extend(stones);
                all.push("DONE".into());
                self.think(&all);
            }
            "YXBOARD" => {
                let mut all = vec!["YXBOARD".to_string()];
                all.extend(stones.iter().cloned());
                all.push("DONE".into());
                for l in &all {
                    self.brain(l);
                }
                self.yx = stones;
            }
            _ => self.swap2(stones),
        }
    }

    fn swap2(&mut self, stones: Vec<String>) {
        match stones.len() {
            0 => self.say("6,7 6,4 4,2"),
            3 => {
                self.say("MESSAGE OptiTime 1477ms | MaxTime 1970ms");
                self.say("MESSAGE Speed 192K | Depth 15-40 | Eval -247 | Node 380K | Time 1976ms");
                self.say("SWAP");
            }
            _ => {
                let mut all = vec!["BOARD".to_string()];
                // As BOARD: the stones of the colour to move are ours.
                all.extend(stones);
                all.push("DONE".into());
                self.think(&all);
            }
        }
    }

    fn nbest(&mut self, n: usize) {
        let mut lines = vec!["YXBOARD".to_string()];
        lines.extend(self.yx.iter().cloned());
        lines.push("DONE".into());
        lines.push(format!("YXNBEST {n}"));
        let mut answer = Vec::new();
        for l in &lines {
            answer = self.brain(l);
        }
        let points: Vec<String> = answer
            .last()
            .map(|l| l.split_whitespace().map(str::to_string).collect())
            .unwrap_or_default();
        if points.len() < n || n == 0 {
            self.say("ERROR no moves");
            return;
        }
        self.say("MESSAGE OptiTime 1477ms | MaxTime 1970ms");
        // An earlier set in the brain's order, the last complete one with
        // the best second, then a depth cut short.
        for (depth, order) in [(13, false), (14, true)] {
            let mut set: Vec<&String> = points.iter().collect();
            if order && n > 1 {
                set.rotate_left(1);
            }
            for (k, p) in set.iter().enumerate() {
                let v = 305 - 20 * k as i32;
                self.say(&format!(
                    "MESSAGE ({}) {v} | {depth}-20 | {}",
                    k + 1,
                    label(p)
                ));
            }
            self.say(&format!(
                "MESSAGE Depth {depth}-20 | Eval 305 | Time 435ms | {}",
                label(set[0])
            ));
        }
        self.say(&format!("MESSAGE (1) 273 | 15-27 | {}", label(&points[0])));
        self.say("MESSAGE Speed 187K | Depth 14-27 | Eval 273 | Node 360K | Time 1927ms");
        let best = points[0].clone();
        self.say(&best);
    }

    fn line(&mut self, line: &str) {
        let line = line.trim();
        if let Some((name, mut lines)) = self.block.take() {
            if line.eq_ignore_ascii_case("DONE") {
                self.block_done(&name, lines);
            } else {
                lines.push(line.to_string());
                self.block = Some((name, lines));
            }
            return;
        }
        let (word, rest) = line.split_once(' ').unwrap_or((line, ""));
        let word = word.to_ascii_uppercase();
        match word.as_str() {
            "" => {}
            "BOARD" | "YXBOARD" | "SWAP2BOARD" => self.block = Some((word, Vec::new())),
            "INFO" => {
                let (key, value) = rest.split_once(' ').unwrap_or((rest, ""));
                if key.eq_ignore_ascii_case("max_memory") {
                    self.max_memory(value.trim().parse().unwrap_or(0));
                } else {
                    self.brain(line);
                }
            }
            "BEGIN" | "TURN" => self.think(&[line.to_string()]),
            "YXNBEST" => self.nbest(rest.trim().parse().unwrap_or(1)),
            "START" | "RESTART" | "END" | "TAKEBACK" => {
                for l in self.brain(line) {
                    self.say(&l);
                }
            }
            "ABOUT" => self.say(
                "name=\"Rapfi stand-in\", version=\"0.43.02\", author=\"tengen tests\", country=\"-\"",
            ),
            _ => self.say(&format!("ERROR Unknown command: {word}")),
        }
    }
}

fn main() {
    let mut s = StandIn {
        brain: Brain::new(7),
        out: std::io::stdout().lock(),
        table: Vec::new(),
        block: None,
        yx: Vec::new(),
    };
    s.say("MESSAGE Load config from config.toml");
    for line in std::io::stdin().lock().lines() {
        let Ok(line) = line else { break };
        s.line(&line);
    }
    let _ = s.table.len();
}
