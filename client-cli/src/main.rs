//! `tengen`: the Tengen terminal client.
//!
//! This file only parses the command line and dispatches; each subcommand
//! lives in its own module and returns the process exit status it wants.
//! Offline: `analyze`, `replay`. Against a server: `lobby`, `create`,
//! `join`, `play`, `watch`, `bot`. Not on this server yet: `register`,
//! `login`, `logout`, `queue` (accounts and the ranked queue, issue 8) and
//! `record` (stored games, issue 7) say so and exit with status 2.

use std::io;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

mod analyze;
mod bot;
mod describe;
mod games;
mod lobby;
mod net;
mod play;
mod replay;
mod spec;
#[cfg(test)]
mod testkit;

/// The Tengen terminal client (gomoku and renju).
///
/// Against a server (`--server URL`, or TENGEN_SERVER; default
/// ws://127.0.0.1:8415/ws): lobby, create, join, play, watch, bot.
/// Offline: analyze, replay. Not available on this server yet: register,
/// login, logout, queue (accounts, issue 8), record (stored games, issue 7).
#[derive(Parser)]
#[command(name = "tengen", version)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Rooms and live games, refreshed live.
    Lobby(lobby::LobbyArgs),
    /// Create a room, wait for an opponent, and play.
    Create(games::CreateArgs),
    /// Join a waiting room and play.
    Join(games::JoinArgs),
    /// The interactive board (`play ROOM` joins ROOM).
    Play(games::PlayArgs),
    /// Watch a live game (without TABLE: the most watched one).
    Watch(games::WatchArgs),
    /// Play a game by itself with the quick bot.
    Bot(bot::BotArgs),
    Analyze(analyze::Args),
    Replay(replay::Args),
    /// Not available on this server yet (accounts arrive with issue 8).
    Register(Unavailable),
    /// Not available on this server yet (accounts arrive with issue 8).
    Login(Unavailable),
    /// Not available on this server yet (accounts arrive with issue 8).
    Logout(Unavailable),
    /// Not available on this server yet (the ranked queue arrives with issue 8).
    Queue(Unavailable),
    /// Not available on this server yet (stored games arrive with issue 7).
    Record(Unavailable),
}

/// A command of a later issue: takes any arguments, does nothing.
#[derive(clap::Args)]
struct Unavailable {
    #[arg(trailing_var_arg = true, allow_hyphen_values = true, hide = true)]
    rest: Vec<String>,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Analyze(args) => analyze::run(&args),
        Command::Replay(args) => replay::run(&args),
        Command::Register(_) | Command::Login(_) | Command::Logout(_) => {
            unavailable("accounts arrive with issue 8")
        }
        Command::Queue(_) => unavailable("the ranked queue arrives with issue 8"),
        Command::Record(_) => unavailable("stored games arrive with issue 7"),
        online => online_command(online),
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

fn unavailable(why: &str) -> anyhow::Result<ExitCode> {
    let name = std::env::args().nth(1).unwrap_or_default();
    eprintln!("tengen: `{name}` is not available on this server yet ({why})");
    Ok(ExitCode::from(2))
}

/// The commands that talk to a server, on a single-threaded runtime (one
/// connection, one task).
fn online_command(command: Command) -> anyhow::Result<ExitCode> {
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()?;
    rt.block_on(async {
        match command {
            Command::Lobby(a) => lobby::run(&a).await,
            Command::Create(a) => games::create(&a).await,
            Command::Join(a) => games::join(&a.server, &a.room).await,
            Command::Play(a) => games::play(&a).await,
            Command::Watch(a) => games::watch(&a).await,
            Command::Bot(a) => bot::run(&a).await,
            _ => unreachable!("offline commands are dispatched in main"),
        }
    })
}
