//! The computer: the built-in bot (`tengen-bot`) playing whoever asks for
//! it (`play_computer`, the web client's "play the computer"), hosted by
//! the server.
//!
//! Why it is a client of its own server: each game's computer connects
//! over loopback with the client library's session and plays through
//! exactly the path a person's program does (the lobby seats it, the
//! table referees it, its session reconnects and follows the table
//! through a restart), so nothing in the lobby or the tables knows it is
//! there. The asker gets the room as for `create_room` (a private room,
//! the asker in seat `first`, opening with the colour asked for or by
//! lot); the computer joins it.
//!
//! Bounds: at most [`ComputerSettings::games`] games at once (a permit
//! held for the game's whole life; beyond, `unavailable` with
//! `retry_after_ms`). A move's search runs on the blocking pool and first
//! takes one of the analysis slots (`crate::analysis`), which
//! `analyze_game` takes too: a 2-core server with its 2 slots never runs
//! more searches than cores, however many games and analyses are asked
//! for. A move that gets no slot within half its time is the quick bot's
//! (it answers at once). Each move takes at most
//! [`ComputerSettings::move_ms`], less when its clock has less.

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::{Duration, Instant};

use tengen_bot::Level;
use tengen_client::Session as ClientSession;
use tengen_client::player::{Player, play as play_game};
use tengen_client::session::Delivery;
use tengen_client::view::TableView;
use tengen_protocol::{ClientMsg, Encoding, ErrorBody, ErrorCode, RequestId, RoomId, ServerMsg};
use tengen_rules::Color;
use tengen_rules::game::{GameConfig, Seat};
use tokio::sync::{OwnedSemaphorePermit, Semaphore, oneshot, watch};

use crate::msg::lobby::{LobbyCmd, LobbyHandle, NewRoom};
use crate::sessions::Session;
pub use crate::settings::ComputerSettings;

/// How long the computer waits for its game to start after joining.
const START_WAIT: Duration = Duration::from_secs(60);

/// The server's computers.
pub struct Computer {
    settings: ComputerSettings,
    games: Arc<Semaphore>,
    slots: Arc<Semaphore>,
    /// This server's own WebSocket endpoint, over loopback.
    url: String,
    shutdown: watch::Receiver<bool>,
}

impl Computer {
    /// The computers of a server listening on `addr`, sharing `slots`
    /// (the analysis slots).
    pub fn new(
        settings: ComputerSettings,
        slots: Arc<Semaphore>,
        addr: SocketAddr,
        shutdown: watch::Receiver<bool>,
    ) -> Arc<Computer> {
        let ip = match addr.ip() {
            ip if ip.is_unspecified() && ip.is_ipv4() => "127.0.0.1".to_string(),
            ip if ip.is_unspecified() => "[::1]".to_string(),
            std::net::IpAddr::V6(ip) => format!("[{ip}]"),
            ip => ip.to_string(),
        };
        Arc::new(Computer {
            games: Arc::new(Semaphore::new(settings.games)),
            settings,
            slots,
            url: format!("ws://{ip}:{}/ws", addr.port()),
            shutdown,
        })
    }
}

/// `play_computer`: checks the request, takes a computer, has the lobby
/// open the asker's room and starts the computer's task, which joins it.
/// Never waits.
pub fn play(
    computer: &Arc<Computer>,
    lobby: &LobbyHandle,
    session: &Session,
    id: Option<RequestId>,
    config: GameConfig,
    level: u8,
    colour: Option<Color>,
) {
    let refuse = |code, message: String, retry: Option<Duration>| {
        let mut body = ErrorBody::new(code, message);
        body.retry_after_ms = retry.map(|d| d.as_millis() as u64);
        session.outbox.refuse_with(id, body);
    };
    let Some(level) = Level::new(level) else {
        let why = format!(
            "the computer's levels are {} to {}",
            tengen_bot::level::MIN,
            tengen_bot::level::MAX
        );
        return refuse(ErrorCode::BadRequest, why, None);
    };
    if config.rule_set.boards() > 1 {
        let why = "the computer plays one board: not a twin room".to_string();
        return refuse(ErrorCode::BadRequest, why, None);
    }
    if computer.settings.games == 0 {
        let why = "the computer does not play on this server".to_string();
        return refuse(ErrorCode::Unavailable, why, None);
    }
    let Ok(permit) = computer.games.clone().try_acquire_owned() else {
        let why = format!(
            "every computer is playing ({} games at once); try again",
            computer.settings.games
        );
        return refuse(
            ErrorCode::Unavailable,
            why,
            Some(computer.settings.retry_after),
        );
    };
    let (created, room) = oneshot::channel();
    let cmd = LobbyCmd::CreateFor {
        session: session.clone(),
        id,
        room: NewRoom {
            config,
            public: false,
            name: Some(format!("the computer, level {level}")),
            chat: true,
            rated: false,
        },
        // The asker sits first.
        opener: colour.map(|c| match c {
            Color::Black => Seat::First,
            Color::White => Seat::Second,
        }),
        created,
    };
    if !lobby.try_send(cmd) {
        let body = crate::pressure::busy("the lobby is busy; try again");
        session.outbox.refuse_with(id, body);
        return;
    }
    metrics::counter!(crate::metrics::COMPUTER_GAMES).increment(1);
    tokio::spawn(host(computer.clone(), room, level, permit));
}

/// One computer's game: waits for the room, plays it, lets the permit go.
async fn host(
    computer: Arc<Computer>,
    room: oneshot::Receiver<RoomId>,
    level: Level,
    _permit: OwnedSemaphorePermit,
) {
    // Refused rooms were refused to the asker; nothing to do.
    let Ok(room) = room.await else { return };
    let mut stop = computer.shutdown.clone();
    tokio::select! {
        done = play_room(&computer, &room, level) => {
            if let Err(why) = done {
                tracing::info!(%room, %level, why, "the computer's game ended early");
            }
        }
        _ = stop.wait_for(|s| *s) => {}
    }
}

async fn play_room(computer: &Computer, room: &RoomId, level: Level) -> Result<(), String> {
    let name = format!("computer-{level}");
    let (mut session, _) = ClientSession::connect(&computer.url, Encoding::MsgPack, Some(&name))
        .await
        .map_err(|e| e.to_string())?;
    let join = ClientMsg::JoinRoom { room: room.clone() };
    match session.request(join).await {
        Ok(ServerMsg::Joined { .. }) => {}
        Ok(other) => return Err(format!("join answered {}", other.type_name())),
        Err(e) => return Err(e.to_string()),
    }
    let mut view = started(&mut session).await?;
    let seed = rand::random();
    let mut player = Player::new(Some(level), seed, computer.settings.move_ms)
        .with_slots(computer.slots.clone());
    let result = play_game(
        &mut session,
        &mut view,
        &mut player,
        seed,
        Duration::ZERO,
        &mut |_| {},
        &mut |_| {},
    )
    .await;
    let _ = session
        .request(ClientMsg::LeaveRoom { room: room.clone() })
        .await;
    let _ = session.close().await;
    result.map(|_| ()).map_err(|e| e.to_string())
}

/// The computer's view of its game once it starts.
async fn started(session: &mut ClientSession) -> Result<TableView, String> {
    let deadline = tokio::time::Instant::now() + START_WAIT;
    loop {
        let next = tokio::time::timeout_at(deadline, session.next()).await;
        let d = next
            .map_err(|_| "the game did not start".to_string())?
            .map_err(|e| e.to_string())?;
        if let Delivery::Frame(frame) = d
            && let ServerMsg::TableSnapshot(s) = frame.msg
            && s.seat.is_some()
        {
            session.follow(s.table.clone(), s.seq);
            return TableView::new(&s, Instant::now()).map_err(|e| e.to_string());
        }
    }
}
