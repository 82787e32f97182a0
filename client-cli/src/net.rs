//! Talking to the server: which server and who we are there (`--server`,
//! `--name`, and the saved login, sent as `hello.token`), the connection
//! and the session made of it, refusals in words, and the few exchanges
//! the lobby and `watch` share (join a room, watch a table).
//!
//! Why the saved login is read here: every command that connects goes
//! through [`ServerArgs::hello`], so a player who logged in is their
//! account everywhere, and a token the server no longer accepts is dealt
//! with in one place (deleted, said so, and the command goes on as a
//! guest).

use std::time::Instant;

use anyhow::{Context, Result, anyhow, bail};
use tengen_client::view::TableView;
use tengen_client::{ClientError, Connection, Identity, Session, SessionError};
use tengen_protocol::{
    ClientMsg, Encoding, ErrorBody, ErrorCode, RoomId, ServerFrame, ServerMsg, TableId, Welcome,
};

use crate::config;

/// The default server address.
pub const DEFAULT_SERVER: &str = "ws://127.0.0.1:8415/ws";

/// Where a bot or an engine finds its games: a room to join, rooms it
/// creates, or the rated queue; on which server, as whom.
#[derive(clap::Args, Clone, Debug)]
pub struct FindGame {
    #[command(flatten)]
    pub server: ServerArgs,
    /// Join this room.
    #[arg(long)]
    pub join: Option<String>,
    /// Create a room (options below) and wait for an opponent.
    #[arg(long)]
    pub create: bool,
    /// Wait in the rated queue for games of the room options below.
    #[arg(long)]
    pub queue: bool,
    /// Play this tournament's games: enter it (unless entered already),
    /// then play each game it seats you at.
    #[arg(long, value_name = "ID")]
    pub tournament: Option<String>,
    #[command(flatten)]
    pub room: crate::spec::RoomSpec,
    /// The rule set, as `tengen queue RULESET TIMECONTROL` takes it
    /// (`--queue freestyle 3+2`): the same as --rules.
    #[arg(value_name = "RULESET", conflicts_with = "rules")]
    pub game_rules: Option<tengen_rules::game::RuleSet>,
    /// The time control after RULESET: the same as --time.
    #[arg(value_name = "TIMECONTROL", value_parser = crate::spec::parse_time, conflicts_with = "time")]
    pub game_time: Option<tengen_rules::game::TimeControl>,
}

impl FindGame {
    /// The positional `RULESET TIMECONTROL`, when given, put into the room
    /// options (called once, after parsing).
    pub fn fold_positionals(&mut self) {
        if let Some(rules) = self.game_rules.take() {
            self.room.rules = rules;
        }
        if let Some(time) = self.game_time.take() {
            self.room.time = time;
        }
    }
}

/// Which server, and who you are there.
#[derive(clap::Args, Clone, Debug)]
pub struct ServerArgs {
    /// The server's WebSocket URL.
    #[arg(long, env = "TENGEN_SERVER", default_value = DEFAULT_SERVER)]
    pub server: String,
    /// Your guest name (the server may add to it to keep names unique;
    /// ignored when you are logged in: you are your account).
    #[arg(long, env = "TENGEN_NAME")]
    pub name: Option<String>,
}

/// An open connection, its `welcome`, and who it said it was (so a session
/// made of it says the same when it reconnects).
pub struct Hello {
    pub conn: Connection,
    pub welcome: Welcome,
    pub who: Identity,
}

impl ServerArgs {
    /// Connects and says hello: as the account of the saved login for this
    /// server (`tengen login`), else as a guest named `--name`. A saved
    /// login the server no longer accepts (expired, revoked) is deleted,
    /// said so on standard error, and the command goes on as a guest.
    pub async fn hello(&self) -> Result<Hello> {
        let login = config::login(&self.server)?;
        let who = Identity {
            name: self.name.clone(),
            login: login.as_ref().map(|l| l.token.clone()),
        };
        match self.connect_as(&who, None).await {
            Err(ClientError::Refused(e)) if stale_login(&e) => {
                let name = login.map(|l| l.name).unwrap_or_default();
                config::forget_login(&self.server)?;
                eprintln!(
                    "tengen: {}; forgot it. Log in again: tengen login {name} \
                     (going on as a guest)",
                    stale_login_text(&e, &name, &self.server)
                );
                let who = Identity::guest(self.name.as_deref());
                let (conn, welcome) = self.connected(self.connect_as(&who, None).await)?;
                Ok(Hello { conn, welcome, who })
            }
            other => {
                let (conn, welcome) = self.connected(other)?;
                Ok(Hello { conn, welcome, who })
            }
        }
    }

    /// Connects as a guest, whatever login is saved (`register`, `login`).
    pub async fn hello_guest(&self) -> Result<Hello> {
        let who = Identity::guest(self.name.as_deref());
        let (conn, welcome) = self.connected(self.connect_as(&who, None).await)?;
        Ok(Hello { conn, welcome, who })
    }

    pub async fn connect_as(
        &self,
        who: &Identity,
        resume: Option<&str>,
    ) -> Result<(Connection, Welcome), ClientError> {
        let (mut conn, welcome) =
            Connection::connect_as(&self.server, Encoding::Json, who, resume).await?;
        conn.pace(&welcome.limits);
        Ok((conn, welcome))
    }

    fn connected(
        &self,
        r: Result<(Connection, Welcome), ClientError>,
    ) -> Result<(Connection, Welcome)> {
        r.map_err(|e| anyhow!(explain(&e)))
            .with_context(|| format!("cannot connect to {}", self.server))
    }

    /// Connects and turns the connection into a session that reconnects by
    /// itself.
    pub async fn session_hello(&self) -> Result<(Session, Welcome)> {
        let h = self.hello().await?;
        let welcome = h.welcome.clone();
        Ok((self.adopt(h), welcome))
    }

    /// A session (reconnecting by itself) of an open connection.
    pub fn adopt(&self, h: Hello) -> Session {
        let mut s = Session::adopt(h.conn, &h.welcome, &self.server, h.who.name.as_deref());
        s.set_login(h.who.login);
        s
    }

    /// A session of `h`, following `view`'s table from its `seq`.
    pub fn session(&self, h: Hello, view: &TableView) -> Session {
        let mut s = self.adopt(h);
        s.follow(view.table().clone(), view.seq());
        s
    }
}

/// Whether a `hello` refusal is about the login token.
pub fn stale_login(e: &ErrorBody) -> bool {
    matches!(e.code, ErrorCode::TokenExpired | ErrorCode::BadCredentials)
}

fn stale_login_text(e: &ErrorBody, name: &str, server: &str) -> String {
    if e.code == ErrorCode::TokenExpired {
        format!("your login as {name} on {server} has expired")
    } else {
        format!("your login as {name} on {server} is no longer valid (logged out elsewhere?)")
    }
}

/// A refusal or failure in words a player can act on.
pub fn explain(e: &ClientError) -> String {
    match e {
        ClientError::Refused(body) => refusal(body),
        other => other.to_string(),
    }
}

/// A server refusal in words (the server's own message, with what to do
/// where that helps).
pub fn refusal(e: &ErrorBody) -> String {
    match e.code {
        ErrorCode::BadCredentials => "wrong name or password".into(),
        ErrorCode::LoginRequired => format!(
            "{} (`tengen login NAME`, or `tengen register NAME`)",
            e.message
        ),
        ErrorCode::RateLimited => match e.retry_after_ms {
            Some(ms) => format!("too many attempts: try again in {} s", ms.div_ceil(1000)),
            None => "too many attempts: try again later".into(),
        },
        ErrorCode::Unavailable => format!("{} (try again)", e.message),
        ErrorCode::Playbanned => format!(
            "fair play: {} (casual games stay open: `tengen create` without --rated)",
            e.message
        ),
        _ => e.message.clone(),
    }
}

/// A session error in words.
pub fn session_error(e: &SessionError) -> String {
    match e {
        SessionError::Client(c) => explain(c),
        other => other.to_string(),
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

/// Joins `room`; the game starts at once.
pub async fn join_room(conn: &mut Connection, room: &str) -> Result<TableView> {
    let room = room_id(room)?;
    match conn
        .request(ClientMsg::JoinRoom { room: room.clone() })
        .await
        .map_err(|e| anyhow!(explain(&e)))
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
            ServerMsg::RoomClosed { room, reason } => {
                bail!("room {room} was closed by a moderator: {reason}")
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

/// Parses a room id given on the command line.
pub fn room_id(s: &str) -> Result<RoomId> {
    s.parse()
        .map_err(|e| anyhow!("'{s}' is not a room id: {e}"))
}

/// Parses a table id given on the command line.
pub fn table_id(s: &str) -> Result<TableId> {
    s.parse()
        .map_err(|e| anyhow!("'{s}' is not a table id: {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_fair_play_wait_is_said_with_the_way_to_casual_games() {
        let mut body = ErrorBody::new(
            ErrorCode::Playbanned,
            "you abandoned 4 rated games in the last 24 hours (aborted, left, or let the clock run out without moving); you can play rated games again in 2 h 15 min",
        );
        body.retry_after_ms = Some(8_100_000);
        let text = refusal(&body);
        assert!(
            text.starts_with("fair play: you abandoned 4 rated games"),
            "{text}"
        );
        assert!(text.contains("again in 2 h 15 min"), "{text}");
        assert!(text.contains("`tengen create` without --rated"), "{text}");
    }
}
