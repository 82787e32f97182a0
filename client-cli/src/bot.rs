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
//! room: 5yemhr9vx07jb          (with --create, as soon as the room exists)
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

use anyhow::{Result, bail};
use clap::ArgGroup;
use tengen_client::bot::{Situation, decide};
use tengen_protocol::{ClientMsg, RequestId, ServerMsg};
use tengen_rules::game::Action;

use crate::describe;
use crate::net::{self, ServerArgs};
use crate::spec::RoomSpec;

/// Play a game by itself with the client library's bot.
#[derive(clap::Args)]
#[command(group(ArgGroup::new("mode").required(true).args(["join", "create"])))]
#[command(long_about = "\
Play a whole game by itself with the client library's quick bot, printing a
line per move and the result, then exit 0.

--join ROOM takes the free seat of a room; --create opens one (with the same
room options as `tengen create`), prints `room: ID` and waits for an
opponent.

Example (two terminals):
    tengen bot --create --time 5+3      # prints room: ID
    tengen join ID                      # play against it on the board
")]
pub struct BotArgs {
    #[command(flatten)]
    pub server: ServerArgs,
    /// Join this room.
    #[arg(long)]
    pub join: Option<String>,
    /// Create a room (options below) and wait for an opponent.
    #[arg(long)]
    pub create: bool,
    #[command(flatten)]
    pub room: RoomSpec,
    /// Varies the bot's choices between equally good moves.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Milliseconds to wait before each action (so a person can follow).
    #[arg(long, default_value_t = 0)]
    pub think_ms: u64,
}

/// Refusals in a row after which the bot resigns rather than loop.
const MAX_REFUSALS: u32 = 3;

pub async fn run(args: &BotArgs) -> Result<ExitCode> {
    let mut server = args.server.clone();
    server.name.get_or_insert_with(|| "bot".into());
    let mut conn = server.connect().await?;
    let mut view = match &args.join {
        Some(room) => net::join_room(&mut conn, room).await?,
        None => {
            let room = net::create_room(&mut conn, args.room.request()?).await?;
            say(format!("room: {room}"))?;
            net::game_start(&mut conn).await?
        }
    };
    let me = view.seat().expect("a player's view");
    say(format!(
        "table {}: {} plays the {me} seat against {}",
        view.table(),
        describe::player_name(view.players(), me),
        describe::player_name(view.players(), me.other())
    ))?;
    let mut pending: Option<RequestId> = None;
    let mut acted_at: Option<u64> = None;
    let mut refusals = 0;
    while !view.is_over() {
        if pending.is_none() && view.my_turn() && acted_at != Some(view.seq()) {
            let prompt = view.prompt().expect("my turn").clone();
            let action = if refusals >= MAX_REFUSALS {
                Action::Resign
            } else {
                let situation = Situation::from_moves(view.board(), view.config(), view.moves());
                decide(
                    &situation,
                    &prompt,
                    args.seed ^ view.seq() ^ (u64::from(refusals) << 32),
                )
            };
            if args.think_ms > 0 {
                tokio::time::sleep(Duration::from_millis(args.think_ms)).await;
            }
            acted_at = Some(view.seq());
            pending = Some(
                conn.send(ClientMsg::Act {
                    table: view.table().clone(),
                    action,
                })
                .await?,
            );
        }
        let frame = net::next(&mut conn).await?;
        if frame.id.is_some() && frame.id == pending {
            pending = None;
            match &frame.msg {
                ServerMsg::Error(e) => {
                    refusals += 1;
                    eprintln!("refused: {}", e.message);
                    acted_at = None;
                }
                _ => refusals = 0,
            }
        }
        let seq = view.seq();
        net::absorb(&mut conn, &mut view, &frame.msg).await?;
        if view.seq() == seq + 1
            && let Some(line) = view
                .last_event()
                .and_then(|e| describe::event(e, view.players()))
            && !line.starts_with("result:")
        {
            say(line)?;
        }
    }
    match view.result() {
        Some(r) => say(format!("result: {}", r.describe()))?,
        None => bail!("the game ended without a result"),
    }
    let _ = conn.close().await;
    Ok(ExitCode::SUCCESS)
}

/// One line on standard output, at once (the output is read live).
fn say(line: String) -> Result<()> {
    let mut out = std::io::stdout().lock();
    writeln!(out, "{line}")?;
    out.flush()?;
    Ok(())
}
