//! Talking to the server: which server and name (`--server`, `--name`),
//! the connection, and the few exchanges every command shares (create or
//! join a room and wait for the game, watch a table, keep a table's view
//! up to date).
//!
//! Why a thin layer over `tengen_client::Connection`: the connection reads
//! replies and pushes in order and gives up on a read after its timeout;
//! a player may think for minutes, so here a quiet read is simply "nothing
//! yet", and a table view that misses events asks for a snapshot.

use std::time::Instant;

use anyhow::{Context, Result, anyhow, bail};
use tengen_client::view::{TableView, ViewError};
use tengen_client::{ClientError, Connection, Session};
use tengen_protocol::{ClientMsg, Encoding, RoomId, ServerFrame, ServerMsg, TableId, Welcome};

/// The default server address.
pub const DEFAULT_SERVER: &str = "ws://127.0.0.1:8415/ws";

/// Which server, and who you are there.
#[derive(clap::Args, Clone, Debug)]
pub struct ServerArgs {
    /// The server's WebSocket URL.
    #[arg(long, env = "TENGEN_SERVER", default_value = DEFAULT_SERVER)]
    pub server: String,
    /// Your guest name (the server may add to it to keep names unique).
    #[arg(long, env = "TENGEN_NAME")]
    pub name: Option<String>,
}

impl ServerArgs {
    pub async fn connect(&self) -> Result<Connection> {
        Ok(self.hello().await?.0)
    }

    /// Connects and returns the `welcome` too (its resume token lets the
    /// board's session reconnect).
    pub async fn hello(&self) -> Result<(Connection, Welcome)> {
        Connection::connect(&self.server, Encoding::Json, self.name.as_deref())
            .await
            .with_context(|| format!("cannot connect to {}", self.server))
    }

    /// Turns a connection (whose `welcome` this is) into a session that
    /// reconnects by itself, following `view`'s table from its `seq`.
    pub fn session(&self, conn: Connection, welcome: &Welcome, view: &TableView) -> Session {
        let mut s = Session::adopt(conn, welcome, &self.server, self.name.as_deref());
        s.follow(view.table().clone(), view.seq());
        s
    }
}

/// The next frame, waiting as long as it takes (the connection's own
/// timeout only means nothing arrived yet).
pub async fn next(conn: &mut Connection) -> Result<ServerFrame, ClientError> {
    loop {
        match conn.next().await {
            Err(ClientError::Timeout(_)) => continue,
            other => return other,
        }
    }
}

/// Creates a room; returns its id.
pub async fn create_room(conn: &mut Connection, request: ClientMsg) -> Result<RoomId> {
    match conn.request(request).await? {
        ServerMsg::RoomCreated { room, .. } => Ok(room),
        other => bail!("unexpected reply {}", other.type_name()),
    }
}

/// Joins `room`; the game starts at once.
pub async fn join_room(conn: &mut Connection, room: &str) -> Result<TableView> {
    let room: RoomId = room
        .parse()
        .map_err(|e| anyhow!("'{room}' is not a room id: {e}"))?;
    match conn
        .request(ClientMsg::JoinRoom { room: room.clone() })
        .await
        .with_context(|| format!("cannot join room {room}"))?
    {
        ServerMsg::Joined { .. } => {}
        other => bail!("unexpected reply {}", other.type_name()),
    }
    game_start(conn).await
}

/// Waits for the `table_snapshot` that starts our game (after creating a
/// room: as long as nobody joins).
pub async fn game_start(conn: &mut Connection) -> Result<TableView> {
    loop {
        let frame = next(conn).await?;
        match frame.msg {
            ServerMsg::TableSnapshot(s) if s.seat.is_some() => {
                return Ok(TableView::new(&s, Instant::now())?);
            }
            ServerMsg::RoomCancelled { room, reason } => {
                bail!("room {room} was cancelled by the server ({reason:?})")
            }
            _ => {}
        }
    }
}

/// Watches `table`.
pub async fn watch(conn: &mut Connection, table: &TableId) -> Result<TableView> {
    match conn
        .request(ClientMsg::Watch {
            table: table.clone(),
            since: None,
        })
        .await
        .with_context(|| format!("cannot watch table {table}"))?
    {
        ServerMsg::TableSnapshot(s) => Ok(TableView::new(&s, Instant::now())?),
        other => bail!("unexpected reply {}", other.type_name()),
    }
}

/// Feeds `msg` to `view`; on a gap or an inconsistency asks for a fresh
/// snapshot (sent without waiting: it arrives as a `table_snapshot` that
/// the view takes as a reset). Returns whether the view changed.
pub async fn absorb(conn: &mut Connection, view: &mut TableView, msg: &ServerMsg) -> Result<bool> {
    match view.handle(msg, Instant::now()) {
        Ok(u) => Ok(!matches!(u, tengen_client::view::Update::Ignored)),
        Err(ViewError::Gap { .. } | ViewError::Inconsistent { .. }) => {
            conn.send(ClientMsg::Snapshot {
                table: view.table().clone(),
            })
            .await?;
            Ok(false)
        }
        Err(e) => Err(e.into()),
    }
}

/// Parses a table id given on the command line.
pub fn table_id(s: &str) -> Result<TableId> {
    s.parse()
        .map_err(|e| anyhow!("'{s}' is not a table id: {e}"))
}
