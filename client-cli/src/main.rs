//! `tengen`: the Tengen terminal client.
//!
//! This file only parses the command line and dispatches; each subcommand
//! lives in its own module and returns the process exit status it wants.
//! Offline: `analyze`, `replay`, `pbrain`. Against a server: `register`,
//! `login`, `logout`, `lobby`, `create`, `join`, `queue`, `play`, `watch`,
//! `bot`, `engine`, `leaderboard`, `profile`, `history`, `record`.
//!
//! Exit status: 0 when the command did what it was asked (a game played to
//! its end or left, a queue or room withdrawn on request); 1 on an error,
//! said in one line on standard error (a refusal of the server in words,
//! a connection that could not be made); 2 for a command line that cannot
//! be read (and for `analyze`/`replay` input that cannot, as they say).

use std::io;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

mod account;
mod analyze;
mod bot;
mod bot_filters;
mod config;
mod describe;
mod engine;
mod games;
mod lobby;
mod net;
mod pbrain;
mod play;
mod queue;
#[cfg(test)]
mod readme_tests;
mod replay;
mod spec;
mod stats;
#[cfg(test)]
mod testkit;
#[cfg(test)]
mod testproxy;
mod tournament;
mod wait;
mod wins;

/// The Tengen terminal client (gomoku and renju).
///
/// Against a server (`--server URL`, or TENGEN_SERVER; default
/// ws://127.0.0.1:8415/ws): register, login, logout, lobby, create, join,
/// queue, play, watch, bot, engine, leaderboard, profile, history, record.
/// Offline: analyze, replay, pbrain (the bot as a Gomocup engine). Once
/// logged in, every command that connects is your account (the token is kept in ~/.config/tengen, or
/// $XDG_CONFIG_HOME/tengen, or $TENGEN_CONFIG_DIR).
#[derive(Parser)]
#[command(name = "tengen", version)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Create an account and log in to it.
    Register(account::RegisterArgs),
    /// Log in to your account (the token is kept for later commands).
    Login(account::LoginArgs),
    /// Log out (revoke and forget the login token).
    Logout(account::LogoutArgs),
    /// Make your account a bot account, for good (before its first game).
    BecomeBot(account::BecomeBotArgs),
    /// Rooms and live games, refreshed live.
    Lobby(lobby::LobbyArgs),
    /// Create a room, wait for an opponent, and play.
    Create(games::CreateArgs),
    /// Join a waiting room and play.
    Join(games::JoinArgs),
    /// Wait in the rated queue (RULESET TIMECONTROL), then play.
    Queue(queue::QueueArgs),
    /// The interactive board: take your game up again (`play ROOM` joins ROOM).
    Play(games::PlayArgs),
    /// Watch a live game (without TABLE: the most watched one).
    Watch(games::WatchArgs),
    // No doc comments on these three: a variant's would replace the long
    // help (`--help`) of its arguments' struct, which has the details.
    Bot(bot::BotArgs),
    Engine(engine::EngineArgs),
    /// Tournaments: list, show, join, withdraw, create, start, export.
    Tournament(tournament::TournamentArgs),
    /// A rule family's leaderboard.
    Leaderboard(stats::LeaderboardArgs),
    /// A player's ratings.
    Profile(stats::ProfileArgs),
    /// A player's finished games.
    History(stats::HistoryArgs),
    /// Save a finished game's record (json, renju notation, psq).
    Record(stats::RecordArgs),
    Pbrain(pbrain::PbrainArgs),
    Analyze(analyze::Args),
    Replay(replay::Args),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Analyze(args) => analyze::run(&args),
        Command::Replay(args) => replay::run(&args),
        Command::Pbrain(args) => pbrain::run(&args),
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
            Command::Bot(mut a) => {
                a.find.fold_positionals();
                bot::run(&a).await
            }
            Command::Engine(mut a) => {
                a.find.fold_positionals();
                engine::run(&a).await
            }
            Command::Register(a) => account::register(&a).await,
            Command::Login(a) => account::login(&a).await,
            Command::Logout(a) => account::logout(&a).await,
            Command::BecomeBot(a) => account::become_bot(&a).await,
            Command::Queue(a) => queue::run(&a).await,
            Command::Tournament(a) => tournament::run(&a).await,
            Command::Leaderboard(a) => stats::leaderboard(&a).await,
            Command::Profile(a) => stats::profile(&a).await,
            Command::History(a) => stats::history(&a).await,
            Command::Record(a) => stats::record(&a).await,
            _ => unreachable!("offline commands are dispatched in main"),
        }
    })
}
