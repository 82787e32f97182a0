//! `tengen`: the Tengen terminal client.
//!
//! This file only parses the command line and dispatches; each subcommand
//! lives in its own module (`analyze`, `replay` now; `play`, `watch`, ...
//! later) and returns the process exit status it wants.

use std::io;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

mod analyze;
mod replay;

/// The Tengen terminal client (gomoku and renju).
#[derive(Parser)]
#[command(name = "tengen", version)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    Analyze(analyze::Args),
    Replay(replay::Args),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Analyze(args) => analyze::run(&args),
        Command::Replay(args) => replay::run(&args),
    };
    match result {
        Ok(code) => code,
        Err(err) => {
            // A reader that went away (`tengen analyze | head`) is a normal
            // way for a stream to end, not something to complain about.
            let broken_pipe = err
                .downcast_ref::<io::Error>()
                .is_some_and(|e| e.kind() == io::ErrorKind::BrokenPipe);
            if !broken_pipe {
                eprintln!("tengen: {err:#}");
            }
            ExitCode::FAILURE
        }
    }
}
