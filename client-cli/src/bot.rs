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
use std::time::{Duration, Instant};

use anyhow::{Result, anyhow, bail};
use clap::ArgGroup;
use tengen_client::Session;
use tengen_client::follow::{Follow, Step, reconnected};
use tengen_client::player::Player;
use tengen_client::view::{TableView, ViewError};
use tengen_protocol::{
    ClientMsg, ErrorCode, RequestId, ServerMsg, TournamentState, TournamentSystem, TournamentView,
};
use tengen_rules::game::Action;

use crate::describe;
use crate::net::{self, FindGame};
use crate::wait::{Ask, News, Waiter};

/// Play a game by itself with the client library's bot.
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

/// Refusals in a row after which the bot resigns rather than loop.
const MAX_REFUSALS: u32 = 3;

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
    let mut pending: Option<RequestId> = None;
    let mut acted_at: Option<u64> = None;
    // Between a lost connection and the table followed again the view may
    // be behind: nothing is decided.
    let mut follow = Follow::new(view.table().clone());
    let mut refusals = 0;
    let mut backoff = Duration::ZERO;
    let mut player = Player::new(args.level, args.seed, args.max_turn_ms);
    while !view.is_over() {
        let can_act = !follow.syncing() && view.paused().is_none() && session.is_connected();
        if can_act && pending.is_none() && view.my_turn() && acted_at != Some(view.seq()) {
            let prompt = view.prompt().expect("my turn").clone();
            let action = if refusals >= MAX_REFUSALS {
                Action::Resign
            } else {
                let seed = view.seq() ^ (u64::from(refusals) << 32);
                player.decide(&view, &prompt, seed).await
            };
            let wait = Duration::from_millis(args.think_ms) + std::mem::take(&mut backoff);
            if !wait.is_zero() {
                tokio::time::sleep(wait).await;
            }
            acted_at = Some(view.seq());
            let act = ClientMsg::Act {
                table: view.table().clone(),
                action,
            };
            match session.send(act).await {
                Ok(id) => pending = Some(id),
                // Dropped: the session says so next, then resyncs.
                Err(e) => eprintln!("{}", net::session_error(&e)),
            }
        }
        let d = session
            .next()
            .await
            .map_err(|e| anyhow!(net::session_error(&e)))?;
        let frame = match follow.take(d)? {
            Step::Frame(f) => f,
            Step::Lost(reason) => {
                eprintln!("connection lost ({reason}): reconnecting");
                pending = None;
                continue;
            }
            Step::Reconnected { resumed } => {
                eprintln!("{}", reconnected(resumed));
                continue;
            }
            Step::Resynced => {
                // Up to date now: if it is still our turn at the same
                // seq, the action sent before the drop never landed.
                acted_at = None;
                continue;
            }
            Step::Other => continue,
        };
        if frame.id.is_some() && frame.id == pending {
            pending = None;
            match &frame.msg {
                ServerMsg::Error(e) if e.code == ErrorCode::Unavailable => {
                    eprintln!("refused: {} (retrying)", e.message);
                    acted_at = None;
                    backoff = Duration::from_millis(500);
                }
                ServerMsg::Error(e) => {
                    refusals += 1;
                    eprintln!("refused: {}", e.message);
                    acted_at = None;
                }
                _ => refusals = 0,
            }
        }
        if let ServerMsg::TablePaused { paused, .. } = &frame.msg {
            match paused {
                Some(p) => eprintln!("table paused: {}", describe::pause(*p)),
                None => acted_at = None,
            }
        }
        let seq = view.seq();
        match view.handle(&frame.msg, Instant::now()) {
            Ok(_) => {}
            Err(ViewError::Gap { .. } | ViewError::Inconsistent { .. }) => {
                let table = view.table().clone();
                let _ = session.send(ClientMsg::Snapshot { table }).await;
            }
            Err(e) => return Err(e.into()),
        }
        if view.seq() == seq + 1
            && let Some(line) = view.last_event().and_then(|e| {
                describe::event(e, view.players(), view.config().rule_set.boards() > 1)
            })
            && !line.starts_with("result:")
        {
            say(line)?;
        }
    }
    match view.result() {
        Some(r) => say(format!("result: {}", r.describe()))?,
        None => bail!("the game ended without a result"),
    }
    Ok(ExitCode::SUCCESS)
}

/// One line on standard output, at once (the output is read live).
fn say(line: String) -> Result<()> {
    let mut out = std::io::stdout().lock();
    writeln!(out, "{line}")?;
    out.flush()?;
    Ok(())
}
