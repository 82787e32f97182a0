//! The harness: a real server on a free loopback port and real WebSocket
//! clients (the client library) talking to it.

#![allow(dead_code)]

pub mod long_game;
pub mod moderation;
pub mod proc;
pub mod redis;
pub mod schema;
pub mod scripted;
pub mod tournament_players;

use std::time::{Duration, Instant};

use tengen_client::ClientError;
use tengen_client::Connection;
use tengen_client::view::TableView;
use tengen_protocol::{
    ClientMsg, Encoding, ErrorCode, RoomId, ServerMsg, TableEvent, TableId, TableSnapshot,
};
use tengen_rules::game::{Action, Event, GameConfig, GameError, Seat};
use tengen_server::{Server, Settings};

/// The whole response (status line, headers and body) to `GET path` on
/// `server`'s port.
pub async fn http_get(server: &Server, path: &str) -> String {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let mut s = tokio::net::TcpStream::connect(server.addr()).await.unwrap();
    let request = format!("GET {path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
    s.write_all(request.as_bytes()).await.unwrap();
    let mut out = String::new();
    s.read_to_string(&mut out).await.unwrap();
    out
}

/// A server on 127.0.0.1 with a free port, with short timers for tests.
pub async fn server() -> Server {
    server_with(|_| {}).await
}

pub async fn server_with(tune: impl FnOnce(&mut Settings)) -> Server {
    let mut s = Settings {
        listen: "127.0.0.1:0".parse().unwrap(),
        data_dir: std::path::PathBuf::new(),
        coalesce_interval: Duration::from_millis(50),
        // The server shares the test's process and a busy machine: it
        // must not shed new rooms because the test harness ran late
        // (shedding is tested where a test asks for it).
        shed_lag: Duration::ZERO,
        ..Settings::default()
    };
    tune(&mut s);
    Server::start(s).await.expect("server starts")
}

/// A server on the data directory `dir` (`tune`d), tried again while a
/// server stopped just before still holds the store.
pub async fn server_on(dir: &std::path::Path, tune: impl Fn(&mut Settings)) -> Server {
    for _ in 0..50 {
        let mut s = Settings {
            listen: "127.0.0.1:0".parse().unwrap(),
            data_dir: dir.to_path_buf(),
            coalesce_interval: Duration::from_millis(50),
            ..Settings::default()
        };
        tune(&mut s);
        if let Ok(server) = Server::start(s).await {
            return server;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("the server does not start on {}", dir.display());
}

/// `name`'s profile.
pub async fn profile(c: &mut Connection, name: &str) -> tengen_protocol::Profile {
    match c
        .request(ClientMsg::Profile {
            player: name.into(),
        })
        .await
    {
        Ok(ServerMsg::Profile(p)) => *p,
        other => panic!("{other:?}"),
    }
}

pub fn url(server: &Server) -> String {
    format!("ws://{}/ws", server.addr())
}

pub async fn client(server: &Server, name: &str, encoding: Encoding) -> Connection {
    let (c, w) = Connection::connect(&url(server), encoding, Some(name))
        .await
        .expect("connects");
    // Names are unique among the sessions online: a second "ann" on the
    // same server is "ann-2".
    assert!(
        w.player.name.starts_with(name),
        "{} for {name}",
        w.player.name
    );
    c
}

/// Registers `name` (password "long enough") on the connection.
pub async fn register(mut c: Connection, name: &str) -> Connection {
    match c
        .request(ClientMsg::Register {
            name: name.into(),
            password: "long enough".into(),
        })
        .await
    {
        Ok(ServerMsg::Registered(_)) => c,
        other => panic!("{other:?}"),
    }
}

/// A new connection registered as the account `name`.
pub async fn account(server: &Server, name: &str) -> Connection {
    register(
        client(server, &format!("{name}-guest"), Encoding::Json).await,
        name,
    )
    .await
}

/// Creates a room (chat on) and returns its id.
pub async fn create_room(c: &mut Connection, config: GameConfig, public: bool) -> RoomId {
    match c
        .request(ClientMsg::CreateRoom {
            rated: false,
            config,
            public,
            name: None,
            chat: true,
        })
        .await
        .expect("room created")
    {
        ServerMsg::RoomCreated { room, .. } => room,
        other => panic!("unexpected {other:?}"),
    }
}

/// Two players at a new table: (creator, joiner, table, creator's seat
/// snapshot). The creator sits first, the joiner second.
pub struct Table {
    pub first: Connection,
    pub second: Connection,
    pub table: TableId,
    pub room: RoomId,
    pub snapshot: TableSnapshot,
}

pub async fn table(server: &Server, config: GameConfig, encoding: Encoding) -> Table {
    let mut first = client(server, "ann", encoding).await;
    let mut second = client(server, "bob", encoding).await;
    let room = match first
        .request(ClientMsg::CreateRoom {
            rated: false,
            config,
            public: true,
            name: None,
            chat: true,
        })
        .await
        .expect("room created")
    {
        ServerMsg::RoomCreated { room, seat } => {
            assert_eq!(seat, Seat::First);
            room
        }
        other => panic!("unexpected {other:?}"),
    };
    match second
        .request(ClientMsg::JoinRoom { room: room.clone() })
        .await
        .expect("joined")
    {
        ServerMsg::Joined { seat, .. } => assert_eq!(seat, Seat::Second),
        other => panic!("unexpected {other:?}"),
    }
    let snap_a = snapshot_push(&mut first).await;
    let snap_b = snapshot_push(&mut second).await;
    assert_eq!(snap_a.table, snap_b.table);
    assert_eq!(snap_a.seat, Some(Seat::First));
    assert_eq!(snap_b.seat, Some(Seat::Second));
    assert_eq!(snap_a.seq, 0);
    Table {
        first,
        second,
        table: snap_a.table.clone(),
        room,
        snapshot: snap_a,
    }
}

pub async fn snapshot_push(c: &mut Connection) -> TableSnapshot {
    match c
        .next_matching(|m| matches!(m, ServerMsg::TableSnapshot(_)))
        .await
        .expect("a snapshot")
        .msg
    {
        ServerMsg::TableSnapshot(s) => *s,
        _ => unreachable!(),
    }
}

/// The next table event a connection receives.
pub async fn next_event(c: &mut Connection) -> TableEvent {
    match c
        .next_matching(|m| matches!(m, ServerMsg::TableEvent(_)))
        .await
        .expect("an event")
        .msg
    {
        ServerMsg::TableEvent(e) => e,
        _ => unreachable!(),
    }
}

/// The next player status a connection receives: (connected, the
/// abandonment grace if a countdown started, the seat).
pub async fn player_status(c: &mut Connection) -> (bool, Option<u64>, Seat) {
    loop {
        if let ServerMsg::PlayerStatus {
            connected,
            grace_ms,
            seat,
            ..
        } = c.next().await.expect("a message").msg
        {
            return (connected, grace_ms, seat);
        }
    }
}

/// After both players asked for a rematch: `rematch_started`, then the
/// new table's snapshot, which this returns (checking they agree).
pub async fn rematch_started(c: &mut Connection) -> TableSnapshot {
    let f = c
        .next_matching(|m| matches!(m, ServerMsg::RematchStarted { .. }))
        .await
        .unwrap();
    let ServerMsg::RematchStarted { rematch, .. } = f.msg else {
        unreachable!()
    };
    let snap = snapshot_push(c).await;
    assert_eq!(snap.table, rematch);
    snap
}

/// Asks for (or accepts) a rematch of `table`.
pub async fn ask_rematch(c: &mut Connection, table: &TableId) -> ServerMsg {
    c.request(ClientMsg::Rematch {
        table: table.clone(),
    })
    .await
    .unwrap()
}

/// A request from a test that plays fast and may go past the
/// connection's message rate: it waits as the refusal says and asks
/// again, as a client should.
pub async fn request_within_rate(
    c: &mut Connection,
    msg: ClientMsg,
) -> Result<ServerMsg, ClientError> {
    for _ in 0..50 {
        match c.request(msg.clone()).await {
            Err(ClientError::Refused(e)) if e.code == ErrorCode::RateLimited => {
                let wait = e.retry_after_ms.unwrap_or(100).min(2_000);
                tokio::time::sleep(Duration::from_millis(wait)).await;
            }
            other => return other,
        }
    }
    panic!("{}: rate-limited 50 times", msg.type_name())
}

/// Acts and returns the `acted` seq.
pub async fn act(c: &mut Connection, table: &TableId, action: Action) -> u64 {
    let msg = ClientMsg::Act {
        table: table.clone(),
        action,
    };
    match request_within_rate(c, msg).await {
        Ok(ServerMsg::Acted { seq, .. }) => seq,
        other => panic!("act {action:?}: {other:?}"),
    }
}

pub fn place(p: &str) -> Action {
    Action::place(p.parse().unwrap())
}

impl Table {
    /// The seat holding black at the start (the opener, drawn by lot).
    pub fn opener(&self) -> Seat {
        self.snapshot.snapshot.opener
    }

    pub fn conn(&mut self, seat: Seat) -> &mut Connection {
        match seat {
            Seat::First => &mut self.first,
            Seat::Second => &mut self.second,
        }
    }

    /// Both players' views of the table, from the first seat's snapshot
    /// and a fresh one for the second.
    pub async fn views(&mut self) -> [TableView; 2] {
        let now = Instant::now();
        let second = snapshot_of(&mut self.second, &self.table).await;
        [
            TableView::new(&self.snapshot, now).unwrap(),
            TableView::new(&second, now).unwrap(),
        ]
    }

    /// `seat` tries `action`; the server refuses it with `expected`.
    pub async fn refused_as(&mut self, seat: Seat, action: Action, expected: GameError) {
        let table = self.table.clone();
        let reply = self
            .conn(seat)
            .request(ClientMsg::Act { table, action })
            .await;
        match reply {
            Err(ClientError::Refused(e)) => {
                assert_eq!(e.code, tengen_protocol::ErrorCode::Game, "{action:?}");
                assert_eq!(e.game_error, Some(expected), "{action:?}");
            }
            other => panic!("{action:?} should be refused: {other:?}"),
        }
    }

    /// `seat` acts; returns the `acted` seq.
    pub async fn act_as(&mut self, seat: Seat, action: Action) -> u64 {
        let table = self.table.clone();
        act(self.conn(seat), &table, action).await
    }
}

/// Reads frames into `view` until it has seen `seq`; notes swaps taken.
pub async fn catch_up(c: &mut Connection, view: &mut TableView, seq: u64, swaps: &mut u32) {
    while view.seq() < seq {
        let f = c.next().await.expect("a frame");
        if let ServerMsg::TableEvent(e) = &f.msg
            && matches!(e.event, Event::SwapDecided { swapped: true, .. })
        {
            *swaps += 1;
        }
        view.handle(&f.msg, Instant::now())
            .expect("events in order");
    }
}

/// The table's snapshot, asked for.
pub async fn snapshot_of(c: &mut Connection, table: &TableId) -> TableSnapshot {
    let msg = ClientMsg::Snapshot {
        table: table.clone(),
    };
    match request_within_rate(c, msg).await.unwrap() {
        ServerMsg::TableSnapshot(s) => *s,
        other => panic!("{other:?}"),
    }
}

/// Watches `table` (a player: takes the seat up again) and returns the
/// snapshot.
pub async fn watch_snapshot(c: &mut Connection, table: &TableId) -> TableSnapshot {
    let msg = ClientMsg::Watch {
        table: table.clone(),
        since: None,
    };
    match c.request(msg).await.unwrap() {
        ServerMsg::TableSnapshot(s) => *s,
        other => panic!("{other:?}"),
    }
}
