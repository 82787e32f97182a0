//! `tengen create`, `join`, `play` and `watch`: get to a table, then open
//! the board on it.
//!
//! Why the room id is printed as plain text before the board opens: it is
//! what the opponent needs (`tengen join ROOM`), and it stays readable in
//! the terminal (and in scripts) while the creator waits. The result is
//! printed again as plain text when the board closes, so it stays on the
//! screen after the alternate screen is gone.

use std::io::Write;
use std::process::ExitCode;

use anyhow::{Result, anyhow, bail};
use tengen_client::view::TableView;
use tengen_client::{Connection, Identity, Session};
use tengen_protocol::{ClientMsg, RoomStatus, ServerMsg, TableId};
use tengen_rules::game::GameResult;

use crate::config;
use crate::net::{self, Hello, ServerArgs};
use crate::play;
use crate::spec::RoomSpec;
use crate::wait::{Ask, News, Waiter};

/// Create a room, wait for an opponent, and play.
#[derive(clap::Args)]
#[command(long_about = "\
Create a room, print its id, wait for an opponent, then open the board.

The opponent joins with `tengen join ROOM` (or a bot: `tengen bot --join
ROOM`). Ctrl-C while waiting withdraws the room. If the connection drops
while waiting, the server forgets the room: once reconnected, a new room
is created and its id printed.

--rated makes the game rated (you and your opponent must be logged in).

Examples:
    tengen create                                  # renju, free opening, 10+5
    tengen create --opening rif --time 5+3 --forbidden block
    tengen create --rules gomoku --time 10+3x30s --private
")]
pub struct CreateArgs {
    #[command(flatten)]
    pub server: ServerArgs,
    #[command(flatten)]
    pub room: RoomSpec,
}

/// Join a waiting room and play.
#[derive(clap::Args)]
pub struct JoinArgs {
    #[command(flatten)]
    pub server: ServerArgs,
    /// The room id (`tengen lobby` lists public rooms; a private room's id is
    /// its invitation).
    pub room: String,
}

/// The interactive board: `tengen play` takes your running game up again;
/// `tengen play ROOM` joins ROOM (like `join`).
#[derive(clap::Args)]
#[command(long_about = "\
The interactive board. `tengen create`, `tengen join ROOM` and `tengen
queue` open it; `tengen play ROOM` is the same as `tengen join ROOM`.

Without ROOM it takes up the game you were playing on this server from a
new process (after `q q`, a closed terminal, a crash): while a game runs,
the board keeps its session's resume token in your configuration
directory, and `tengen play` resumes that session (within 5 minutes of
losing the connection, or after a server restart; at any time while the
game is still on, as a correspondence game is for days) and reopens the
board.
An open board also survives a dropped connection by itself.
")]
pub struct PlayArgs {
    #[command(flatten)]
    pub server: ServerArgs,
    /// A room to join.
    pub room: Option<String>,
}

/// Watch a live game.
#[derive(clap::Args)]
#[command(long_about = "\
Watch a table live. TABLE is a table id (or the id of a room whose game is
on), as `tengen lobby` lists them; without it, the live game with the most
spectators.
")]
pub struct WatchArgs {
    #[command(flatten)]
    pub server: ServerArgs,
    /// The table (or room) to watch.
    pub table: Option<String>,
}

pub async fn create(args: &CreateArgs) -> Result<ExitCode> {
    let request = args.room.request()?;
    let (mut session, _) = args.server.session_hello().await?;
    let (mut waiter, mut news) = Waiter::start(&mut session, Ask::Create(request)).await?;
    loop {
        match news.take() {
            Some(News::Room(room)) => {
                println!("room: {room}");
                println!(
                    "waiting for an opponent: `tengen join {room}` (Ctrl-C withdraws the room)"
                );
            }
            Some(News::Lost) => println!("connection lost: reconnecting..."),
            Some(News::Back) => println!("reconnected"),
            _ => {}
        }
        std::io::stdout().flush()?;
        if let Some(view) = waiter.started.take() {
            return open(&args.server, session, view).await;
        }
        tokio::select! {
            n = waiter.step(&mut session) => news = n?,
            _ = tokio::signal::ctrl_c() => {
                waiter.cancel(&mut session).await?;
                println!("room withdrawn");
                return Ok(ExitCode::SUCCESS);
            }
        }
    }
}

pub async fn join(server: &ServerArgs, room: &str) -> Result<ExitCode> {
    let room = net::room_id(room)?;
    let (mut session, _) = server.session_hello().await?;
    let (mut waiter, _) = Waiter::start(&mut session, Ask::Join(room)).await?;
    loop {
        if let Some(view) = waiter.started.take() {
            return open(server, session, view).await;
        }
        waiter.step(&mut session).await?;
    }
}

pub async fn play(args: &PlayArgs) -> Result<ExitCode> {
    match &args.room {
        Some(room) => join(&args.server, room).await,
        None => resume(&args.server).await,
    }
}

/// Takes up the game whose resume token the board kept on disk.
async fn resume(server: &ServerArgs) -> Result<ExitCode> {
    let url = &server.server;
    let Some(saved) = config::game(url)? else {
        bail!(
            "no game of yours to take up on {url}: start one with `tengen create`, \
             `tengen join ROOM` or `tengen queue RULESET TIMECONTROL`"
        );
    };
    let who = Identity {
        name: server.name.clone(),
        login: config::login(url)?.map(|l| l.token),
    };
    let (mut conn, welcome) = server
        .connect_as(&who, Some(&saved.resume_token))
        .await
        .map_err(|e| anyhow!(net::explain(&e)))?;
    if !welcome.resumed {
        config::forget_game(url)?;
        bail!(
            "the game on {url} can no longer be taken up: the server no longer has the \
             session (more than 5 minutes away?)"
        );
    }
    // The saved table first, then any other where we sit.
    let mut tables = welcome.tables.clone();
    tables.sort_by_key(|t| t.to_string() != saved.table);
    let mut over = None;
    for table in tables {
        // A table that has closed meanwhile is simply not there.
        let Ok(view) = net::watch(&mut conn, &table).await else {
            continue;
        };
        if view.seat().is_some() && !view.is_over() {
            let h = Hello { conn, welcome, who };
            let session = server.session(h, &view);
            return board(server, session, view).await;
        }
        over = over.or(Some(view));
    }
    config::forget_game(url)?;
    match over.as_ref().and_then(|v| v.result()) {
        Some(r) => println!("the game is over: {}", r.describe()),
        None => println!("no running game to take up on {url}"),
    }
    Ok(ExitCode::SUCCESS)
}

pub async fn watch(args: &WatchArgs) -> Result<ExitCode> {
    let mut h = args.server.hello().await?;
    let table = match &args.table {
        Some(t) => resolve(&mut h.conn, t).await?,
        None => most_watched(&mut h.conn).await?,
    };
    let view = net::watch(&mut h.conn, &table).await?;
    let session = args.server.session(h, &view);
    board(&args.server, session, view).await
}

/// Opens the board on a game that has just started (our session follows
/// its table from the snapshot on).
async fn open(server: &ServerArgs, session: Session, view: TableView) -> Result<ExitCode> {
    board(server, session, view).await
}

/// Opens the board (on a session that reconnects by itself); prints the
/// result once it closes.
async fn board(server: &ServerArgs, session: Session, view: TableView) -> Result<ExitCode> {
    let player = view.seat().is_some();
    let keep = player.then(|| server.server.clone());
    let result = play::board(session, view, keep).await?;
    print_result(result.as_ref(), player);
    Ok(ExitCode::SUCCESS)
}

/// The result, in plain text once the board has closed.
pub fn print_result(result: Option<&GameResult>, player: bool) {
    match result {
        Some(r) => println!("result: {}", r.describe()),
        None if player => {
            println!("left the board before the end of the game (`tengen play` takes it up again)")
        }
        None => println!("stopped watching before the end of the game"),
    }
}

/// A table id, or a room id whose current table is meant.
async fn resolve(conn: &mut Connection, id: &str) -> Result<TableId> {
    let rooms = list(conn).await?;
    if let Some(r) = rooms.iter().find(|r| r.room.as_str() == id) {
        return match &r.table {
            Some(t) => Ok(t.clone()),
            None => bail!("room {id} waits for a player: nothing to watch yet"),
        };
    }
    net::table_id(id)
}

/// The live game with the most spectators.
async fn most_watched(conn: &mut Connection) -> Result<TableId> {
    list(conn)
        .await?
        .into_iter()
        .filter(|r| r.status == RoomStatus::Playing)
        .filter_map(|r| r.table.map(|t| (r.spectators, t)))
        .max_by_key(|(n, _)| *n)
        .map(|(_, t)| t)
        .ok_or_else(|| anyhow::anyhow!("no live game to watch on this server"))
}

async fn list(conn: &mut Connection) -> Result<Vec<tengen_protocol::RoomInfo>> {
    match conn.request(ClientMsg::ListRooms).await? {
        ServerMsg::Rooms { rooms, .. } => Ok(rooms),
        other => bail!("unexpected reply {}", other.type_name()),
    }
}
