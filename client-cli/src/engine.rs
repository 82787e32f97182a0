//! `tengen engine -- CMD [ARGS...]`: a Piskvork (Gomocup) engine plays
//! our games, one after the other, through the client library's bridge
//! ([`tengen_client::engine`]).
//!
//! Why here: this is the account and waiting part (the saved login, a
//! room or the rated queue, one game after another); the engine itself,
//! its time and its failures are the library's, which the tests drive
//! against a real server.
//!
//! Output (standard output, flushed per line):
//!
//! ```text
//! room: 5yemhr9vx07jb            (with --create)
//! queued: freestyle free 5+3     (with --queue)
//! table 0rgcyfb9b6qv0: engine plays the second seat against alice
//! 1. black H8 (engine)
//! result: black (first seat) wins: 5 in a row (...)
//! ```
//!
//! The engine's notes (`MESSAGE`, `DEBUG`, `ERROR`, `UNKNOWN`) and the
//! bridge's (a failure, a restart, a resignation) go to standard error.
//! Exit status 0 after the games asked for; 1 on an error, or when the
//! engine failed (the bridge resigned) and takes no more games.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::{Result, anyhow, bail};
use clap::ArgGroup;
use tengen_client::Session;
use tengen_client::engine::{
    Bridge, Dialect, DrawPolicy, EngineSpec, Log, Note, Policy, ResignPolicy, Timing, play,
};
use tengen_client::view::TableView;
use tengen_protocol::{BotFilters, ClientMsg, ServerMsg};

use crate::bot_filters::FilterArgs;
use crate::describe;
use crate::net::{self, FindGame};
use crate::wait::{Ask, News, Waiter};

/// Play games with a Piskvork (Gomocup) engine: `engine -- CMD ARGS`.
#[derive(clap::Args)]
#[command(group(ArgGroup::new("mode").required(true).args(["join", "create", "queue", "challenge", "accept_challenges"])))]
#[command(long_about = "\
Run a Piskvork (Gomocup) engine as a child process and play games with it,
one after the other: --join ROOM plays that room's game; --create opens a
room per game (the room options below) and waits for an opponent; --queue
waits in the rated queue (an account: `tengen login` first; make it a bot
account with `tengen become-bot` before its first game, so that it meets
bots and the people who accept them); --challenge PLAYER challenges that
player (online now) to a game of the room options (--rated: a rated game,
both must be accounts); --accept-challenges waits for challenges by name
and accepts each (a bot account's filters, below, make the server refuse
the others before they reach us). --games N stops after N games (0: go on
until stopped).

A bot account's challenge filters are set when any filter flag is given
(and stored with the account, so they hold until changed): --rule-sets,
--time-kinds (comma lists; none: all), --rated-only or --casual-only,
--no-people, --no-bots.

Try it with the built-in bot as the engine:
    tengen engine --create -- tengen pbrain

The engine is told START (15, or 19 for a free-style room on 19x19),
INFO rule (0 free-style, 1 gomoku, 4 renju; 2 for renju with --dialect
yixin), INFO max_memory (less than --max-memory, below), and before
each move INFO timeout_turn, time_left and timeout_match from our clock
(Fischer, byo-yomi, sudden death...) less a safety margin and the measured
lag; then BEGIN, TURN x,y, or BOARD ... DONE (a game taken up mid-way,
after a restart or a reconnect, or an opening with several stones).

Policies:
  stones     the engine places every stone of our seat, except opening
             stones confined to a zone (the engine cannot be told it)
  openings   the engine's, if it answers the extension (asked once per
             game; UNKNOWN, ERROR with no answer after it, no answer in
             time, an unusable answer or the server refusing it: the
             built-in bot's from then on, logged as `engine does not
             answer ...`); positions as in BOARD (x,y,field, field 1 for
             the stones of the colour to move):
               SWAP2BOARD  Swap2: the opener's three stones, the second
                           player's choice (SWAP, white 4, or white 4 and
                           black 5), the opener's colour after five; any
                           other swap option after three or five stones
                           (RIF's...): SWAP, or the mover's next stone
               YXNBEST N   black's N fifth-move offers (after YXBOARD ...
                           DONE): one line of N points, or Rapfi's one
                           point with the others in its MESSAGE (k) lines
             always the built-in bot's: other swap options, how many
             offers, which offer to keep, Taraguchi's option, Super
             Sakata's choices, and zone stones
  claims     in claim rooms, holding white, a forbidden black stone is
             claimed when the referee (tengen-rules) says it was forbidden
  draws      --accept-draw: board (the default: only on a nearly full
             board, one row's worth of empty points or fewer, where we
             cannot make five now), never, always, when-behind (the
             engine's latest evaluation is below zero), after-move N (the
             game has N moves or more); a draw not accepted is declined
             by our next move
  pass       only when no point is playable and the rules allow a pass
  resign     --resign: never (the default) or eval-below X (the engine's
             latest evaluation is below X when our stone is due); and
             always when the engine failed twice in one game, or nothing
             is playable and passing is not allowed

Evaluations are read from the engine's MESSAGE and DEBUG lines: a word
`ev` or `eval` (optionally `ev:`/`ev=`) followed by a signed integer, or
joined to it (`ev=-350`), as Yixin and Rapfi print; `+M7`/`-M7` (a mate)
count as +/-20000. An engine that reports none never resigns by policy,
and when-behind never accepts a draw for it.

A failing engine (no answer within its turn time, garbage, an occupied or
illegal point, an exit) is restarted once and given the board; if it fails
again in the same game, the bridge resigns that game, stops the engine and
takes no new game (exit 1). An ERROR line is never taken for a move (Rapfi
prints one, unprompted, when its hash table does not fit): it is logged and
the move awaited.

Memory: the engine's address space is capped at --max-memory (an rlimit;
address space, not resident memory; 0 lifts it) and the engine is told less
in INFO max_memory: the cap less a quarter, at least 256 MiB (half of a cap
under 512 MiB), because engines size their hash table to the whole budget
told and the program, its threads' stacks and its allocator need room
beside it (the default 1024 tells 768 MiB). --cpu-seconds caps its CPU time
over its life (RLIMIT_CPU: past it the kernel ends it, a failure like any
exit; a restart has a fresh allowance).
")]
pub struct EngineArgs {
    #[command(flatten)]
    pub find: FindGame,
    /// Challenge this player (online now, exact name) to a game of the
    /// room options (--rated: a rated one).
    #[arg(long, value_name = "PLAYER")]
    pub challenge: Option<String>,
    /// Wait for challenges by name and accept them.
    #[arg(long)]
    pub accept_challenges: bool,
    #[command(flatten)]
    pub filters: FilterArgs,
    /// When to accept a draw offer: board, never, always, when-behind,
    /// after-move N (see the policies above).
    #[arg(long, default_value = "board", value_parser = clap::value_parser!(DrawPolicy))]
    pub accept_draw: DrawPolicy,
    /// When to resign by choice: never, eval-below X.
    #[arg(long, default_value = "never", allow_hyphen_values = true, value_parser = clap::value_parser!(ResignPolicy))]
    pub resign: ResignPolicy,
    /// The engine's CPU time limit in seconds over its life (an rlimit; 0: none).
    #[arg(long, default_value_t = 0)]
    pub cpu_seconds: u64,
    /// Stop after this many games (0: no end).
    #[arg(long, default_value_t = 1)]
    pub games: u32,
    /// The engine's address space cap in MiB (an rlimit; it is told three
    /// quarters in INFO max_memory, see above; 0: no cap, and 0 told).
    #[arg(long, default_value_t = 1024)]
    pub max_memory: u64,
    /// The engine's dialect: gomocup (Rapfi and most engines) or yixin
    /// (renju is INFO rule 2; INFO hash_size too).
    #[arg(long, default_value = "gomocup", value_parser = clap::value_parser!(Dialect))]
    pub dialect: Dialect,
    /// Milliseconds kept in hand on every move, on top of the measured lag.
    #[arg(long, default_value_t = 400)]
    pub margin_ms: u64,
    /// The most one move may take, in milliseconds.
    #[arg(long, default_value_t = 10_000)]
    pub max_turn_ms: u64,
    /// Seconds the engine may take to start (answer START or RESTART).
    #[arg(long, default_value_t = 30)]
    pub start_secs: u64,
    /// Varies the bot's opening decisions.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Also log every line sent to the engine.
    #[arg(long, short)]
    pub verbose: bool,
    /// The engine's command and its arguments (after `--`).
    #[arg(last = true, required = true, num_args = 1..)]
    pub command: Vec<String>,
}

pub async fn run(args: &EngineArgs) -> Result<ExitCode> {
    if args.find.join.is_none()
        && args.find.room.config()?.rule_set == tengen_rules::game::RuleSet::Twin
    {
        anyhow::bail!("a Piskvork engine plays one board: it cannot play a twin room");
    }
    let spec = EngineSpec {
        max_memory: (args.max_memory > 0).then_some(args.max_memory << 20),
        cpu_seconds: (args.cpu_seconds > 0).then_some(args.cpu_seconds),
        dialect: args.dialect,
        ..EngineSpec::new(PathBuf::from(&args.command[0]), args.command[1..].to_vec())
    };
    let timing = Timing {
        start: Duration::from_secs(args.start_secs),
        margin_ms: args.margin_ms,
        cap_ms: args.max_turn_ms,
    };
    let verbose = args.verbose;
    let log: Log = Arc::new(move |n: Note| match n {
        Note::Sent(l) if verbose => eprintln!("engine <- {l}"),
        Note::Sent(_) => {}
        Note::Engine(kind, text) => eprintln!("engine {kind:?}: {text}"),
        Note::Failed { error, then } => eprintln!("engine failed: {error}; {then}"),
        Note::Played { action, by } if verbose => eprintln!("played {action} ({by})"),
        Note::Played { .. } => {}
        Note::Link(l) => eprintln!("{l}"),
        Note::Unsupported { command, why } => eprintln!(
            "engine does not answer {command} ({why}): the built-in bot decides; not asked again this game"
        ),
    });
    let mut bridge = Bridge::new(spec, timing, log.clone()).with_policy(Policy {
        draw: args.accept_draw,
        resign: args.resign,
    });
    let mut server = args.find.server.clone();
    server.name.get_or_insert_with(|| "engine".into());
    let (mut session, _) = server.session_hello().await?;
    if let Some(filters) = args.filters.filters()? {
        set_filters(&mut session, filters).await?;
    }
    let mut played = 0;
    let code = loop {
        let ask = match &args.find.join {
            Some(_) if played > 0 => break ExitCode::SUCCESS,
            Some(room) => Ask::Join(net::room_id(room)?),
            None if args.find.tournament.is_some() => {
                Ask::Tournament(args.find.tournament.clone().unwrap_or_default())
            }
            None if args.find.queue => Ask::Queue(args.find.room.config()?, true),
            None if args.accept_challenges => Ask::Accept,
            None => match &args.challenge {
                Some(player) => Ask::Challenge(ClientMsg::Challenge {
                    player: player.clone(),
                    config: args.find.room.config()?,
                    chat: !args.find.room.no_chat,
                    rated: args.find.room.rated,
                }),
                None => Ask::Create(args.find.room.request()?),
            },
        };
        if matches!(ask, Ask::Accept) {
            say("waiting for challenges".into())?;
        }
        let mut view = wait(&mut session, ask, args).await?;
        say(format!(
            "table {}: engine plays the {} seat against {}",
            view.table(),
            view.seat().expect("a player's view"),
            describe::player_name(view.players(), view.seat().expect("seated").other())
        ))?;
        let seed = args.seed ^ u64::from(played);
        let end = play(&mut session, &mut view, &mut bridge, seed, &log)
            .await
            .map_err(|e| anyhow!("{e}"))?;
        for m in view.moves() {
            let point = m.point.map_or_else(|| "pass".into(), |p| p.to_string());
            let who = describe::player_name(view.players(), m.seat);
            say(format!("{}. {} {point} ({who})", m.number, m.color))?;
        }
        say(format!("result: {}", end.result.describe()))?;
        played += 1;
        let table = view.table().clone();
        let _ = session
            .request(ClientMsg::LeaveRoom {
                room: view.room().clone(),
            })
            .await;
        let _ = session
            .request(ClientMsg::Unwatch {
                table: table.clone(),
            })
            .await;
        session.forget(&table);
        if end.engine_failed {
            eprintln!("the engine failed: no more games until it starts cleanly");
            break ExitCode::FAILURE;
        }
        if args.games != 0 && played >= args.games {
            break ExitCode::SUCCESS;
        }
    };
    bridge.shutdown().await;
    let _ = session.close().await;
    Ok(code)
}

/// Waits for a game as `ask` says; its view once it starts.
async fn wait(session: &mut Session, ask: Ask, args: &EngineArgs) -> Result<TableView> {
    let started = Instant::now();
    let (mut waiter, mut news) = Waiter::start(session, ask).await?;
    loop {
        match news.take() {
            Some(News::Room(room)) => say(format!("room: {room}"))?,
            Some(News::Queued) => say(format!(
                "queued: {}",
                describe::config(&args.find.room.config()?)
            ))?,
            Some(News::Matched { opponent, table }) => say(format!(
                "matched with {} at table {table}",
                crate::describe::shown(&opponent)
            ))?,
            Some(News::Lost) => eprintln!("connection lost: reconnecting"),
            Some(News::Back) => eprintln!("reconnected"),
            Some(News::Entered) => say("entered the tournament".into())?,
            Some(News::Challenged { from, rated }) => say(format!(
                "accepted a {} challenge from {}",
                if rated { "rated" } else { "casual" },
                crate::describe::shown(&from)
            ))?,
            None => {}
        }
        if let Some(view) = waiter.started.take() {
            return Ok(view);
        }
        if session.is_ended() {
            bail!("the session ended after {:?} of waiting", started.elapsed());
        }
        news = waiter.step(session).await?;
    }
}

/// The bot account's filters for the server (refused for a person: the
/// message says so).
async fn set_filters(session: &mut Session, filters: BotFilters) -> Result<()> {
    let msg = ClientMsg::SetBotFilters { filters };
    match session.request(msg).await {
        Ok(ServerMsg::BotFiltersSet { filters }) => {
            eprintln!(
                "challenge filters set: {}",
                serde_json::to_string(&filters)?
            );
            Ok(())
        }
        Ok(other) => bail!("unexpected reply {}", other.type_name()),
        Err(e) => bail!(
            "cannot set the challenge filters: {}",
            net::session_error(&e)
        ),
    }
}

/// One line on standard output, at once (the output is read live).
fn say(line: String) -> Result<()> {
    let mut out = std::io::stdout().lock();
    writeln!(out, "{line}")?;
    out.flush()?;
    Ok(())
}
