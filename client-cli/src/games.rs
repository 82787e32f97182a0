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

use anyhow::{Result, bail};
use tengen_client::Connection;
use tengen_client::view::TableView;
use tengen_protocol::{ClientMsg, RoomStatus, ServerMsg, TableId, Welcome};
use tengen_rules::game::GameResult;

use crate::net::{self, ServerArgs};
use crate::play;
use crate::spec::RoomSpec;

/// Create a room, wait for an opponent, and play.
#[derive(clap::Args)]
#[command(long_about = "\
Create a room, print its id, wait for an opponent, then open the board.

The opponent joins with `tengen join ROOM` (or a bot: `tengen bot --join
ROOM`). Ctrl-C while waiting withdraws the room.

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

/// The interactive board: `tengen play ROOM` joins ROOM (like `join`).
#[derive(clap::Args)]
#[command(long_about = "\
The interactive board. `tengen create` and `tengen join ROOM` open it;
`tengen play ROOM` is the same as `tengen join ROOM`.

Without ROOM it would reopen your current game from a new process, which
needs the resume token kept on disk, with accounts (issue 8). A board that
is open survives a dropped connection by itself: it reconnects with the
session's resume token and picks up where it was.
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
    let (mut conn, welcome) = args.server.hello().await?;
    let room = net::create_room(&mut conn, request).await?;
    println!("room: {room}");
    println!("waiting for an opponent: `tengen join {room}` (Ctrl-C withdraws the room)");
    std::io::stdout().flush()?;
    let view = net::game_start(&mut conn).await?;
    open(&args.server, conn, &welcome, view).await
}

pub async fn join(server: &ServerArgs, room: &str) -> Result<ExitCode> {
    let (mut conn, welcome) = server.hello().await?;
    let view = net::join_room(&mut conn, room).await?;
    open(server, conn, &welcome, view).await
}

pub async fn play(args: &PlayArgs) -> Result<ExitCode> {
    match &args.room {
        Some(room) => join(&args.server, room).await,
        None => {
            eprintln!(
                "tengen: reopening your current game needs resume tokens, which are not \
                 available on this server yet (accounts arrive with issue 8); \
                 use `tengen create` or `tengen join ROOM`"
            );
            Ok(ExitCode::from(2))
        }
    }
}

pub async fn watch(args: &WatchArgs) -> Result<ExitCode> {
    let (mut conn, welcome) = args.server.hello().await?;
    let table = match &args.table {
        Some(t) => resolve(&mut conn, t).await?,
        None => most_watched(&mut conn).await?,
    };
    let view = net::watch(&mut conn, &table).await?;
    open(&args.server, conn, &welcome, view).await
}

/// Opens the board (on a session that reconnects by itself); prints the
/// result once it closes.
pub async fn open(
    server: &ServerArgs,
    conn: Connection,
    welcome: &Welcome,
    view: TableView,
) -> Result<ExitCode> {
    let session = server.session(conn, welcome, &view);
    let result = play::board(session, view).await?;
    print_result(result.as_ref());
    Ok(ExitCode::SUCCESS)
}

fn print_result(result: Option<&GameResult>) {
    match result {
        Some(r) => println!("result: {}", r.describe()),
        None => println!("left the board before the end of the game"),
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
