//! `tengen pbrain`: the quick bot as a Piskvork (Gomocup) engine on
//! standard input and output.
//!
//! Why: so that `tengen engine -- tengen pbrain` works without an outside
//! engine, and so that any Gomocup manager can run our bot. The protocol
//! itself is the library's ([`tengen_client::pbrain`]); this reads lines,
//! hands them over and prints the answers, flushed at once.

use std::io::{BufRead, Write};
use std::process::ExitCode;

use anyhow::Result;
use tengen_client::pbrain::{Brain, Step};

/// The built-in bot (--level N) or the quick bot as a Piskvork (Gomocup) engine.
#[derive(clap::Args)]
#[command(long_about = "\
The quick bot as a Piskvork (Gomocup) engine: protocol commands on standard
input, answers on standard output, until END or the end of the input.

Understood: START N (5 to 19), RESTART, BEGIN, TURN x,y, BOARD ... DONE,
TAKEBACK x,y, INFO (timeout_turn, timeout_match and time_left bound the
thinking; rule 0 free-style, 1 exactly five, 4 renju), ABOUT, END. Points
are x,y from 0, x the column from the left, y the row from the top (H8 is
7,7 on 15x15; A1 is 0,14). An unknown command gets UNKNOWN, a bad one
ERROR and the reason. Short of time, it plays the first playable point and
says so in a MESSAGE line.

Opening extensions, answered by the built-in bot's own opening judgement:
SWAP2BOARD, x,y lines (black, white, black...), DONE: with no stone three
points `x1,y1 x2,y2 x3,y3`; with three SWAP, one point (white 4) or two
(white 4, black 5); with five SWAP (keep black) or a point (take white and
play it as 6). YXBOARD, x,y,1|2 lines, DONE sets the board without a move;
YXNBEST N then answers black's N fifth-move offers on one line.

With --level N it is the built-in bot at level N of its ladder instead (the
one `tengen bot --level` plays), thinking for the time the manager gives.

Example:
    tengen engine --create -- tengen pbrain
    tengen engine --create -- tengen pbrain --level 5
")]
pub struct PbrainArgs {
    /// Varies the bot's choices between equally good moves.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Play as the built-in bot at this level of its ladder (1 to 5, as
    /// `tengen bot --level`), thinking for the time the manager gives;
    /// without it, the quick bot.
    #[arg(long, value_parser = clap::value_parser!(tengen_bot::Level))]
    pub level: Option<tengen_bot::Level>,
}

pub fn run(args: &PbrainArgs) -> Result<ExitCode> {
    let mut brain = match args.level {
        Some(level) => Brain::with_level(args.seed, level),
        None => Brain::new(args.seed),
    };
    let stdin = std::io::stdin();
    let mut out = std::io::stdout().lock();
    for line in stdin.lock().lines() {
        match brain.handle(&line?) {
            Step::Quit => break,
            Step::Reply(lines) => {
                for l in lines {
                    writeln!(out, "{l}")?;
                }
                out.flush()?;
            }
        }
    }
    Ok(ExitCode::SUCCESS)
}
