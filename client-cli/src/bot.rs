//! `tengen bot`: a player that plays by itself with the client library's
//! quick bot (`tengen_client::bot::decide`), one line per move, then the
//! result.
//!
//! Why it exists: an opponent for anyone who wants a game now (a newcomer
//! in a second terminal), and a real client for end-to-end tests. It knows
//! only what any client knows (the `TableView` built from the server's
//! events, and the prompt that comes with each), so a game it finishes is
//! also a check that the protocol carries everything a player needs.
//!
//! Output (standard output, flushed per line):
//!
//! ```text
//! room: 5yemhr9vx07jb          (with --create, as soon as the room exists;
//!                               again with a new id if the connection
//!                               dropped while waiting)
//! queued: renju free 5+3 claim  (with --queue)
//! matched with alice at table 0rgcyfb9b6qv0
//! table 0rgcyfb9b6qv0: bot plays the second seat against alice
//! 1. black H8 (alice)
//! 2. white I9 (bot)
//! ...
//! result: black (first seat) wins: 5 in a row (H8 I8 J8 K8 L8)
//! ```
//!
//! Exit status 0 once the game is over (whatever the result), 1 on an error.

use std::io::Write;
use std::process::ExitCode;
use std::time::Duration;

use anyhow::{Result, anyhow};
use clap::ArgGroup;
use tengen_client::Session;
use tengen_client::player::{Player, Said};
use tengen_client::view::TableView;
use tengen_protocol::{ClientMsg, TournamentState, TournamentSystem, TournamentView};

use crate::describe;
use crate::net::{self, FindGame};
use crate::wait::{Ask, News, Waiter};

/// Play a game by itself with the built-in bot (--level N) or the quick bot.
#[derive(clap::Args)]
#[command(group(ArgGroup::new("mode").required(true).args(["join", "create", "queue", "tournament"])))]
#[command(long_about = "\
Play a whole game by itself, printing a line per move and the result, then
exit 0: the client library's quick bot, which answers at once, or with
--level N the built-in bot at level N of its ladder, 1 (a beginner can beat
it) to 5 (the strongest: it searches for the time it has, at most
--max-turn-ms a move, and plays every forced win the referee's solvers
find). Levels play one-board games; in a twin room the quick bot plays.

--join ROOM takes the free seat of a room; --create opens one (with the same
room options as `tengen create`), prints `room: ID` and waits for an
opponent; --queue waits in the rated queue for a game of --rules and --time
(and the other room options), which needs an account: the bot plays as the
saved login (`tengen login`; TENGEN_CONFIG_DIR keeps a second account's
login apart from yours).

The bot survives a dropped connection, and a server restart: it reconnects
by itself, resumes its session and plays on (notes on standard error).

Example (two terminals):
    tengen bot --create --time 5+3 --level 2   # prints room: ID
    tengen join ID                             # play against it on the board
")]
pub struct BotArgs {
    #[command(flatten)]
    pub find: FindGame,
    /// Varies the bot's choices between equally good moves.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Milliseconds to wait before each action (so a person can follow).
    #[arg(long, default_value_t = 0)]
    pub think_ms: u64,
    /// Play as the built-in bot at this level of its ladder: 1 (a
    /// beginner can beat it) to 5 (the strongest: a real search using the
    /// time it has, and forced wins found by the referee's solvers).
    /// Without it: the quick bot, which answers at once.
    #[arg(long, value_parser = clap::value_parser!(tengen_bot::Level))]
    pub level: Option<tengen_bot::Level>,
    /// With --level: the most a move may take, in milliseconds (less if
    /// the clock has less).
    #[arg(long, default_value_t = 3_000)]
    pub max_turn_ms: u64,
}

pub async fn run(args: &BotArgs) -> Result<ExitCode> {
    let mut server = args.find.server.clone();
    server.name.get_or_insert_with(|| "bot".into());
    let (mut session, _) = server.session_hello().await?;
    let Some(id) = &args.find.tournament else {
        let ask = match &args.find.join {
            Some(room) => Ask::Join(net::room_id(room)?),
            None if args.find.queue => Ask::Queue(args.find.room.config()?, false),
            None => Ask::Create(args.find.room.request()?),
        };
        let Some(view) = wait_game(args, &mut session, ask, "").await? else {
            return Ok(ExitCode::SUCCESS);
        };
        let code = play(args, &mut session, view).await?;
        let _ = session.close().await;
        return Ok(code);
    };
    // A tournament: every game it seats us at, until no game will come:
    // the event is over, we withdrew, or a knockout put us out.
    let me = session.welcome().player.name.clone();
    loop {
        let ask = Ask::Tournament(id.clone());
        let Some(view) = wait_game(args, &mut session, ask, &me).await? else {
            let _ = session.close().await;
            return Ok(ExitCode::SUCCESS);
        };
        let (table, room) = (view.table().clone(), view.room().clone());
        play(args, &mut session, view).await?;
        let _ = session.request(ClientMsg::LeaveRoom { room }).await;
        let _ = session
            .request(ClientMsg::Unwatch {
                table: table.clone(),
            })
            .await;
        session.forget(&table);
    }
}

/// Why no more tournament games will come for `me`, if none will.
fn no_more_games(t: &TournamentView, me: &str) -> Option<String> {
    let id = &t.summary.id;
    let key = |n: &str| n.to_lowercase();
    if t.summary.state == TournamentState::Finished {
        return Some(format!("tournament {id} is over"));
    }
    if t.players
        .iter()
        .any(|p| key(&p.name) == key(me) && p.withdrawn)
    {
        return Some(format!("withdrawn from tournament {id}"));
    }
    let in_round = |r: &tengen_protocol::RoundView| {
        r.boards.iter().any(|b| {
            key(&b.first) == key(me) || b.second.as_deref().is_some_and(|s| key(s) == key(me))
        })
    };
    if t.summary.system == TournamentSystem::Knockout
        && t.summary.state == TournamentState::Running
        && t.rounds.last().is_some_and(|r| !in_round(r))
    {
        return Some(format!("out of tournament {id}"));
    }
    None
}

/// Waits for a game as `ask` says; its view once it starts, or `None`
/// (said why) when a tournament will seat `me` at no more games.
async fn wait_game(
    args: &BotArgs,
    session: &mut Session,
    ask: Ask,
    me: &str,
) -> Result<Option<TableView>> {
    let (mut waiter, news) = Waiter::start(session, ask).await?;
    let mut news = news;
    loop {
        if let Some(why) = waiter.tournament.take().and_then(|t| no_more_games(&t, me)) {
            say(why)?;
            return Ok(None);
        }
        if let Some(n) = news.take() {
            match n {
                News::Room(room) => say(format!("room: {room}"))?,
                News::Queued => say(format!(
                    "queued: {}",
                    describe::config(&args.find.room.config()?)
                ))?,
                News::Matched { opponent, table } => say(format!(
                    "matched with {} at table {table}",
                    crate::describe::shown(&opponent)
                ))?,
                News::Lost => eprintln!("connection lost: reconnecting"),
                News::Back => eprintln!("reconnected"),
                News::Entered => say("entered the tournament".into())?,
                News::Challenged { .. } => {}
            }
        }
        if let Some(view) = waiter.started.take() {
            return Ok(Some(view));
        }
        news = waiter.step(session).await?;
    }
}

/// Plays the game at `view`'s table to its end.
async fn play(args: &BotArgs, session: &mut Session, mut view: TableView) -> Result<ExitCode> {
    let me = view.seat().expect("a player's view");
    say(format!(
        "table {}: {} plays the {me} seat against {}",
        view.table(),
        describe::player_name(view.players(), me),
        describe::player_name(view.players(), me.other())
    ))?;
    let mut player = Player::new(args.level, args.seed, args.max_turn_ms);
    let mut printed: Result<()> = Ok(());
    let mut event = |view: &TableView| {
        if let Some(line) = view
            .last_event()
            .and_then(|e| describe::event(e, view.players(), view.config().rule_set.boards() > 1))
            && !line.starts_with("result:")
            && printed.is_ok()
        {
            printed = say(line);
        }
    };
    let mut said = |s: Said| match s {
        Said::Link(l) => eprintln!("{l}"),
        Said::Refused { message, retrying } if retrying => {
            eprintln!("refused: {message} (retrying)")
        }
        Said::Refused { message, .. } => eprintln!("refused: {message}"),
        Said::Paused(Some(p)) => eprintln!("table paused: {}", describe::pause(p)),
        Said::Paused(None) => {}
    };
    let think = Duration::from_millis(args.think_ms);
    let result = tengen_client::player::play(
        session,
        &mut view,
        &mut player,
        args.seed,
        think,
        &mut event,
        &mut said,
    )
    .await
    .map_err(|e| anyhow!("{e}"))?;
    printed?;
    say(format!("result: {}", result.describe()))?;
    Ok(ExitCode::SUCCESS)
}

/// One line on standard output, at once (the output is read live).
fn say(line: String) -> Result<()> {
    let mut out = std::io::stdout().lock();
    writeln!(out, "{line}")?;
    out.flush()?;
    Ok(())
}
