//! The generated reference holds for what a real server really sends:
//! every frame of real sessions, both ways, JSON and MessagePack, is
//! checked against the committed `protocol/schema/tengen.schema.json`
//! (server frames as `ServerFrame`, client frames as `ClientFrame`) with a
//! JSON Schema validator. The sessions cover the lobby, games through
//! every kind of opening prompt to game over, draws and claims, chat,
//! spectators, resuming, rematches, challenges, accounts and the rated
//! queue, records and analysis, bots, blocks and reports, moderation, a
//! tournament, and the refusals a client can provoke; the test fails if
//! they stop covering the message kinds listed below.

use crate::common;

use std::collections::{BTreeSet, VecDeque};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use common::moderation::admin;
use common::schema::{schemas, validate};
use common::*;
use futures_util::{SinkExt, StreamExt};
use serde_json::Value;
use tengen_client::bot::{Situation, decide};
use tengen_client::view::TableView;
use tengen_protocol::*;
use tengen_rules::Color;
use tengen_rules::game::{
    Action, ForbiddenHandling, GameConfig, Opening, RuleSet, Seat, TimeControl,
};
use tengen_server::Server;
use tokio_tungstenite::tungstenite::Message;

/// What the sessions have sent and received, by kind.
#[derive(Default)]
struct Seen {
    client: BTreeSet<String>,
    server: BTreeSet<String>,
    events: BTreeSet<String>,
    tasks: BTreeSet<String>,
    codes: BTreeSet<String>,
    frames: usize,
}

type Log = Arc<Mutex<Seen>>;

/// A frame as the JSON value it is (MessagePack maps read as JSON maps).
fn value(bytes: &[u8], encoding: Encoding) -> Value {
    match encoding {
        Encoding::Json => serde_json::from_slice(bytes).expect("a JSON frame"),
        Encoding::MsgPack => rmp_serde::from_slice(bytes).expect("a MessagePack frame"),
    }
}

/// A raw WebSocket client: frames as bytes, each checked against the
/// schema before it is sent or after it is read.
struct Wire {
    ws: tokio_tungstenite::WebSocketStream<
        tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>,
    >,
    encoding: Encoding,
    next_id: u64,
    pushes: VecDeque<ServerFrame>,
    log: Log,
}

impl Wire {
    async fn open(server: &Server, encoding: Encoding, log: &Log) -> Wire {
        let (ws, _) = tokio_tungstenite::connect_async(url(server))
            .await
            .expect("connects");
        Wire {
            ws,
            encoding,
            next_id: 1,
            pushes: VecDeque::new(),
            log: log.clone(),
        }
    }

    /// Connects and says hello (as guest `name`, with a login `token`, or
    /// resuming the session of `resume`).
    async fn hello(
        server: &Server,
        encoding: Encoding,
        log: &Log,
        name: &str,
        token: Option<&str>,
        resume: Option<&str>,
    ) -> (Wire, Welcome) {
        let mut w = Wire::open(server, encoding, log).await;
        let hello = ClientMsg::Hello(Hello {
            version: PROTOCOL_VERSION,
            client: Some("wire-schema-test/1".into()),
            name: Some(name.into()),
            resume: resume.map(String::from),
            token: token.map(String::from),
        });
        match w.request(hello).await {
            Ok(ServerMsg::Welcome(welcome)) => (w, welcome),
            other => panic!("{other:?}"),
        }
    }

    async fn guest(server: &Server, encoding: Encoding, log: &Log, name: &str) -> Wire {
        Wire::hello(server, encoding, log, name, None, None).await.0
    }

    /// A guest who registers as `name`.
    async fn account(server: &Server, log: &Log, name: &str) -> (Wire, LoggedIn) {
        let mut w = Wire::guest(server, Encoding::Json, log, &format!("{name}-g")).await;
        match w
            .request(ClientMsg::Register {
                name: name.into(),
                password: "long enough".into(),
            })
            .await
        {
            Ok(ServerMsg::Registered(l)) => (w, l),
            other => panic!("{other:?}"),
        }
    }

    /// Sends `msg` with a fresh id, checked against `ClientFrame`.
    async fn send(&mut self, msg: ClientMsg) -> RequestId {
        let id = self.next_id;
        self.next_id += 1;
        let bytes = encode_client(&Envelope::with_id(Some(id), msg), self.encoding);
        let frame = value(&bytes, self.encoding);
        validate(&schemas().client, "client", &frame);
        {
            let mut seen = self.log.lock().unwrap();
            seen.client
                .insert(frame["type"].as_str().unwrap().to_string());
            seen.frames += 1;
        }
        let message = match self.encoding {
            Encoding::Json => Message::Text(String::from_utf8(bytes).unwrap().into()),
            Encoding::MsgPack => Message::Binary(bytes.into()),
        };
        self.ws.send(message).await.expect("sent");
        id
    }

    /// Sends text the schema does not allow (a test of refusals).
    async fn send_text(&mut self, text: &str) {
        self.ws
            .send(Message::Text(text.to_string().into()))
            .await
            .expect("sent");
    }

    /// The next frame off the socket, checked against `ServerFrame`; the
    /// close code if the server closed.
    async fn read(&mut self) -> Result<ServerFrame, u16> {
        loop {
            let message = tokio::time::timeout(Duration::from_secs(20), self.ws.next())
                .await
                .expect("a frame in time");
            let (bytes, encoding) = match message {
                Some(Ok(Message::Text(t))) => (t.as_bytes().to_vec(), Encoding::Json),
                Some(Ok(Message::Binary(b))) => (b.to_vec(), Encoding::MsgPack),
                Some(Ok(Message::Close(c))) => return Err(c.map_or(1005, |c| c.code.into())),
                Some(Ok(_)) => continue,
                Some(Err(_)) | None => return Err(1006),
            };
            let frame = value(&bytes, encoding);
            validate(&schemas().server, "server", &frame);
            let mut seen = self.log.lock().unwrap();
            seen.frames += 1;
            seen.server.insert(frame["type"].as_str().unwrap().into());
            if let Some(kind) = frame["event"]["type"].as_str() {
                seen.events.insert(kind.into());
            }
            for prompt in [&frame["prompt"], &frame["snapshot"]["prompt"]] {
                if let Some(task) = prompt["task"].as_str() {
                    seen.tasks.insert(task.into());
                }
            }
            if let Some(code) = frame["code"].as_str() {
                seen.codes.insert(code.into());
            }
            return Ok(decode_server(&bytes, encoding).expect("decodes"));
        }
    }

    /// Sends `msg` and waits for its reply; pushes meanwhile are kept.
    async fn request(&mut self, msg: ClientMsg) -> Result<ServerMsg, ErrorBody> {
        let id = self.send(msg).await;
        loop {
            let frame = self.read().await.expect("a reply before any close");
            if frame.id == Some(id) {
                return match frame.msg {
                    ServerMsg::Error(e) => Err(e),
                    other => Ok(other),
                };
            }
            self.pushes.push_back(frame);
        }
    }

    /// A request that must be answered; one past the connection's rate is
    /// made again after the wait its refusal gives, as a client should.
    async fn ok(&mut self, msg: ClientMsg) -> ServerMsg {
        let what = msg.type_name();
        for _ in 0..50 {
            match self.request(msg.clone()).await {
                Ok(reply) => return reply,
                Err(e) if e.code == ErrorCode::RateLimited => {
                    let wait = e.retry_after_ms.unwrap_or(100).min(2_000);
                    tokio::time::sleep(std::time::Duration::from_millis(wait)).await;
                }
                Err(e) => panic!("{what} refused: {e:?}"),
            }
        }
        panic!("{what}: rate-limited 50 times")
    }

    async fn refused(&mut self, msg: ClientMsg, code: ErrorCode) -> ErrorBody {
        let what = msg.type_name();
        match self.request(msg).await {
            Err(e) if e.code == code => e,
            other => panic!("{what}: expected {code}, got {other:?}"),
        }
    }

    async fn next(&mut self) -> ServerFrame {
        match self.pushes.pop_front() {
            Some(frame) => frame,
            None => self.read().await.expect("a frame before any close"),
        }
    }

    /// The next message satisfying `pred`, skipping others.
    async fn next_matching(&mut self, pred: impl Fn(&ServerMsg) -> bool) -> ServerMsg {
        loop {
            let frame = self.next().await;
            if pred(&frame.msg) {
                return frame.msg;
            }
        }
    }

    /// Reads until the server closes; the close code.
    async fn closed(&mut self) -> u16 {
        loop {
            if let Err(code) = self.read().await {
                return code;
            }
        }
    }

    /// Whether the next `player_status` says the player is connected.
    async fn player_status(&mut self) -> bool {
        match self
            .next_matching(|m| matches!(m, ServerMsg::PlayerStatus { .. }))
            .await
        {
            ServerMsg::PlayerStatus { connected, .. } => connected,
            _ => unreachable!(),
        }
    }

    /// Opens a room (public, chat on, casual); its id.
    async fn create_room(&mut self, config: GameConfig, public: bool) -> RoomId {
        match self
            .ok(ClientMsg::CreateRoom {
                config,
                public,
                name: Some("schema room".into()),
                chat: true,
                rated: false,
            })
            .await
        {
            ServerMsg::RoomCreated { room, .. } => room,
            other => panic!("{other:?}"),
        }
    }

    /// Creates a tournament; its id.
    async fn create_tournament(&mut self, tournament: TournamentSpec) -> String {
        match self.ok(ClientMsg::CreateTournament { tournament }).await {
            ServerMsg::TournamentCreated { tournament } => tournament.id,
            other => panic!("{other:?}"),
        }
    }

    async fn snapshot(&mut self) -> TableSnapshot {
        match self
            .next_matching(|m| matches!(m, ServerMsg::TableSnapshot(_)))
            .await
        {
            ServerMsg::TableSnapshot(s) => *s,
            _ => unreachable!(),
        }
    }
}

/// Reads `w`'s frames into `view` until it has seen `seq`.
async fn catch_up(w: &mut Wire, view: &mut TableView, seq: u64) {
    while view.seq() < seq {
        let frame = w.next().await;
        view.handle(&frame.msg, Instant::now())
            .expect("events in order");
    }
}

/// The two players of a table, each with their view.
struct Game {
    players: [Wire; 2],
    views: [TableView; 2],
    table: TableId,
}

impl Game {
    /// `creator` opens a room with `config`, `joiner` joins: both get
    /// their snapshot.
    async fn start(mut creator: Wire, mut joiner: Wire, config: GameConfig) -> (Game, RoomId) {
        let room = creator.create_room(config, true).await;
        joiner.ok(ClientMsg::JoinRoom { room: room.clone() }).await;
        let game = Game::seated(creator, joiner).await;
        (game, room)
    }

    /// Two players who are about to get their game's snapshot.
    async fn seated(mut first: Wire, mut second: Wire) -> Game {
        let (a, b) = (first.snapshot().await, second.snapshot().await);
        let now = Instant::now();
        Game {
            table: a.table.clone(),
            views: [
                TableView::new(&a, now).unwrap(),
                TableView::new(&b, now).unwrap(),
            ],
            players: [first, second],
        }
    }

    /// `seat` acts; both views catch up with the events.
    async fn act(&mut self, seat: Seat, action: Action) {
        let table = self.table.clone();
        let seq = match self.players[seat.index()]
            .ok(ClientMsg::Act { table, action })
            .await
        {
            ServerMsg::Acted { seq, .. } => seq,
            other => panic!("{other:?}"),
        };
        for (w, v) in self.players.iter_mut().zip(self.views.iter_mut()) {
            catch_up(w, v, seq).await;
        }
    }

    /// The client library's bot plays both seats to the end.
    async fn play_out(&mut self, seed: u64) {
        for _ in 0..600 {
            let Some(prompt) = self.views[0].prompt().cloned() else {
                return;
            };
            let v = &self.views[prompt.seat.index()];
            let action = decide(
                &Situation::from_moves(v.board(), v.config(), v.moves()).with_second(v.board_at(1)),
                &prompt,
                seed,
            );
            self.act(prompt.seat, action).await;
        }
        panic!("the game did not end");
    }
}

fn renju(opening: Opening, handling: ForbiddenHandling) -> GameConfig {
    GameConfig::new(RuleSet::Renju)
        .with_opening(opening)
        .with_forbidden(handling)
        .with_time(TimeControl::Fischer {
            main_ms: 600_000,
            increment_ms: 5_000,
        })
}

/// The lobby, a RIF game with a spectator, chat, errors at the table, a
/// dropped and resumed player, a rematch, challenges and cancelled rooms.
async fn lobby_game_and_table(log: &Log) {
    let server = server().await;
    let mut cat = Wire::guest(&server, Encoding::Json, log, "cat").await;
    assert!(matches!(
        cat.ok(ClientMsg::LobbySubscribe).await,
        ServerMsg::Rooms { .. }
    ));
    let ann = Wire::guest(&server, Encoding::Json, log, "ann").await;
    // Bob speaks MessagePack: his frames are checked as the maps they are.
    let (bob, bob_welcome) = Wire::hello(&server, Encoding::MsgPack, log, "bob", None, None).await;
    let (mut game, room) =
        Game::start(ann, bob, renju(Opening::Rif, ForbiddenHandling::Claim)).await;
    cat.next_matching(|m| matches!(m, ServerMsg::LobbyUpdate(_)))
        .await;
    assert!(matches!(
        cat.ok(ClientMsg::ListRooms).await,
        ServerMsg::Rooms { .. }
    ));
    let table = game.table.clone();
    let watched = cat
        .ok(ClientMsg::Watch {
            table: table.clone(),
            since: None,
        })
        .await;
    assert!(matches!(watched, ServerMsg::TableSnapshot(_)));
    // Refusals at the table: out of turn (the referee's own reason), a
    // spectator acting, chat from both channels.
    let waiting = game.views[0].prompt().unwrap().seat.other();
    let e = game.players[waiting.index()]
        .refused(
            ClientMsg::Act {
                table: table.clone(),
                action: Action::place("A1".parse().unwrap()),
            },
            ErrorCode::Game,
        )
        .await;
    assert!(e.game_error.is_some());
    cat.refused(
        ClientMsg::Act {
            table: table.clone(),
            action: Action::Resign,
        },
        ErrorCode::NotAPlayer,
    )
    .await;
    for w in [&mut game.players[0], &mut cat] {
        let said = w
            .ok(ClientMsg::Chat {
                table: table.clone(),
                text: "good luck".into(),
            })
            .await;
        assert!(matches!(said, ServerMsg::Chat { .. }));
    }
    // Half the game, then the spectator leaves and comes back for what it
    // missed.
    for _ in 0..8 {
        let prompt = game.views[0].prompt().cloned().unwrap();
        let v = &game.views[prompt.seat.index()];
        let action = decide(
            &Situation::from_moves(v.board(), v.config(), v.moves()),
            &prompt,
            1,
        );
        game.act(prompt.seat, action).await;
    }
    let seq = game.views[0].seq();
    cat.ok(ClientMsg::Unwatch {
        table: table.clone(),
    })
    .await;
    let back = cat
        .ok(ClientMsg::Watch {
            table: table.clone(),
            since: Some(seq - 3),
        })
        .await;
    assert!(matches!(back, ServerMsg::Replayed { .. }), "{back:?}");
    cat.ok(ClientMsg::Snapshot {
        table: table.clone(),
    })
    .await;
    game.play_out(1).await;
    // A rematch offered and withdrawn, then one both ask for, at a new table.
    game.players[0]
        .ok(ClientMsg::Rematch {
            table: table.clone(),
        })
        .await;
    game.players[0]
        .ok(ClientMsg::DeclineRematch {
            table: table.clone(),
        })
        .await;
    game.players[0]
        .ok(ClientMsg::Rematch {
            table: table.clone(),
        })
        .await;
    game.players[1]
        .ok(ClientMsg::Rematch {
            table: table.clone(),
        })
        .await;
    let [first, second] = game.players;
    let game = Game::seated(first, second).await;
    // Bob drops; Ann is told; Bob resumes his session and takes his seat.
    let rematch = game.table.clone();
    let [mut ann, bob] = game.players;
    drop(bob);
    assert!(!ann.player_status().await, "Bob is away");
    // Within his grace there is nothing to claim.
    ann.refused(
        ClientMsg::ClaimAbsence {
            table: rematch.clone(),
            draw: false,
        },
        ErrorCode::NotAbsent,
    )
    .await;
    let token = bob_welcome.resume_token.expect("a resume token");
    let (mut bob, welcome) =
        Wire::hello(&server, Encoding::MsgPack, log, "bob", None, Some(&token)).await;
    assert!(welcome.resumed && welcome.tables.contains(&rematch));
    bob.ok(ClientMsg::Watch {
        table: rematch.clone(),
        since: Some(0),
    })
    .await;
    assert!(ann.player_status().await, "Bob is back");
    // Leaving a room whose game runs is refused; resigning ends it.
    ann.refused(
        ClientMsg::LeaveRoom { room: room.clone() },
        ErrorCode::GameInProgress,
    )
    .await;
    ann.ok(ClientMsg::Act {
        table: rematch.clone(),
        action: Action::Resign,
    })
    .await;
    ann.next_matching(|m| matches!(m, ServerMsg::TableEvent(e) if matches!(e.event, tengen_rules::game::Event::GameOver { .. })))
        .await;
    ann.ok(ClientMsg::LeaveRoom { room }).await;
    // A challenge declined, a room cancelled, the lobby left.
    let mut dan = Wire::guest(&server, Encoding::Json, log, "dan").await;
    let challenge = ann
        .ok(ClientMsg::Challenge {
            player: "dan".into(),
            config: GameConfig::new(RuleSet::Gomoku),
            chat: true,
            rated: false,
        })
        .await;
    let ServerMsg::RoomCreated { room, .. } = challenge else {
        panic!("{challenge:?}")
    };
    dan.next_matching(|m| matches!(m, ServerMsg::Challenged { .. }))
        .await;
    dan.ok(ClientMsg::DeclineChallenge { room }).await;
    let own = dan
        .create_room(GameConfig::new(RuleSet::Freestyle), false)
        .await;
    dan.ok(ClientMsg::CancelRoom { room: own }).await;
    cat.ok(ClientMsg::LobbyUnsubscribe).await;
    cat.ok(ClientMsg::Ping).await;
}

/// Malformed frames, unknown types, bad requests, a request before
/// `hello`, an unsupported version (and its close), missing rooms.
async fn refusals(log: &Log) {
    let server = server().await;
    let mut early = Wire::open(&server, Encoding::Json, log).await;
    early
        .refused(ClientMsg::Ping, ErrorCode::HelloRequired)
        .await;
    let mut eve = Wire::guest(&server, Encoding::Json, log, "eve").await;
    eve.send_text("{not json").await;
    assert!(
        matches!(eve.next().await.msg, ServerMsg::Error(ref e) if e.code == ErrorCode::BadFrame)
    );
    eve.send_text(r#"{"type":"teleport","id":70}"#).await;
    assert!(
        matches!(eve.next().await.msg, ServerMsg::Error(ref e) if e.code == ErrorCode::UnknownType)
    );
    eve.send_text(r#"{"type":"act","id":71,"table":"x"}"#).await;
    assert!(
        matches!(eve.next().await.msg, ServerMsg::Error(ref e) if e.code == ErrorCode::BadRequest)
    );
    eve.refused(
        ClientMsg::JoinRoom {
            room: RoomId::from_u64(7),
        },
        ErrorCode::NotFound,
    )
    .await;
    eve.refused(
        ClientMsg::PlayComputer {
            config: GameConfig::new(RuleSet::Freestyle),
            level: 9,
            colour: Some(Color::Black),
        },
        ErrorCode::BadRequest,
    )
    .await;
    eve.refused(
        ClientMsg::CreateRoom {
            config: GameConfig::new(RuleSet::Gomoku).with_opening(Opening::Rif),
            public: true,
            name: None,
            chat: true,
            rated: false,
        },
        ErrorCode::InvalidConfig,
    )
    .await;
    eve.refused(
        ClientMsg::Queue {
            config: GameConfig::new(RuleSet::Renju),
            bots: false,
        },
        ErrorCode::LoginRequired,
    )
    .await;
    let mut old = Wire::open(&server, Encoding::Json, log).await;
    let e = old
        .refused(
            ClientMsg::Hello(Hello {
                version: PROTOCOL_VERSION + 1,
                client: None,
                name: None,
                resume: None,
                token: None,
            }),
            ErrorCode::UnsupportedVersion,
        )
        .await;
    assert!(e.supported.is_some());
    assert_eq!(old.closed().await, CloseCode::UnsupportedVersion.code());
}

/// Games of the other opening rules, draws and claims, twin boards: every
/// kind of prompt and event.
async fn openings_draws_claims(log: &Log) {
    let server = server().await;
    let configs = [
        renju(Opening::SOOSORV, ForbiddenHandling::Block),
        renju(Opening::TARAGUCHI, ForbiddenHandling::Lose),
        renju(Opening::SuperSakata, ForbiddenHandling::Block),
        GameConfig::new(RuleSet::Gomoku).with_opening(Opening::Swap2),
        GameConfig::new(RuleSet::Twin),
    ];
    for (seed, config) in configs.into_iter().enumerate() {
        let a = Wire::guest(&server, Encoding::Json, log, "pia").await;
        let b = Wire::guest(&server, Encoding::MsgPack, log, "quin").await;
        let (mut game, _) = Game::start(a, b, config).await;
        game.play_out(seed as u64).await;
    }
    // A free renju game: a draw offered with a move and declined, a false
    // claim (a violation), then a draw agreed.
    let a = Wire::guest(&server, Encoding::Json, log, "ray").await;
    let b = Wire::guest(&server, Encoding::Json, log, "sol").await;
    let (mut game, _) = Game::start(a, b, renju(Opening::Free, ForbiddenHandling::Claim)).await;
    let black = game.views[0].black();
    let white = black.other();
    let place = |p: &str, offer_draw: bool| Action::Place {
        point: p.parse().unwrap(),
        board: 0,
        offer_draw,
    };
    game.act(black, place("H8", true)).await;
    game.act(white, Action::DeclineDraw).await;
    game.act(white, place("H9", false)).await;
    game.act(black, place("J10", false)).await;
    for (w, b) in [("A1", "L12"), ("A3", "E4"), ("A5", "F11")] {
        game.act(white, place(w, false)).await;
        game.act(black, place(b, false)).await;
    }
    // Black has five stones: a claim of its last is open (and false).
    game.act(white, Action::claim("F11".parse().unwrap())).await;
    game.act(white, place("G7", true)).await;
    game.act(black, Action::AcceptDraw).await;
    assert!(game.views[0].is_over());
}

/// Accounts, the rated queue, a rated game, records and analysis, bots,
/// blocks and reports, moderation, and a tournament.
async fn accounts_ranked_moderation_tournament(log: &Log) {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().to_path_buf();
    let server = server_with(move |s| {
        s.data_dir = data;
        s.matchmaking.interval = Duration::from_millis(100);
    })
    .await;
    let (mut ann, _) = Wire::account(&server, log, "Ann").await;
    let (bob, _) = Wire::account(&server, log, "Bob").await;
    // Logging out and in, and a new connection on the login token.
    ann.ok(ClientMsg::Logout).await;
    ann.ok(ClientMsg::Login {
        name: "Ann".into(),
        password: "long enough".into(),
    })
    .await;
    ann.refused(
        ClientMsg::Login {
            name: "Ann".into(),
            password: "wrong one".into(),
        },
        ErrorCode::BadCredentials,
    )
    .await;
    // Out everywhere, then in again.
    ann.ok(ClientMsg::LogoutEverywhere).await;
    let token = match ann
        .ok(ClientMsg::Login {
            name: "Ann".into(),
            password: "long enough".into(),
        })
        .await
    {
        ServerMsg::LoggedIn(l) => l.token,
        other => panic!("{other:?}"),
    };
    let (mut ann2, welcome) =
        Wire::hello(&server, Encoding::Json, log, "x", Some(&token), None).await;
    assert!(!welcome.player.guest);
    // The rated queue pairs Ann and Bob; they play it out.
    let config = GameConfig::new(RuleSet::Gomoku).with_time(TimeControl::Fischer {
        main_ms: 600_000,
        increment_ms: 5_000,
    });
    let mut bob = bob;
    for w in [&mut ann, &mut bob] {
        w.ok(ClientMsg::Queue {
            config: config.clone(),
            bots: false,
        })
        .await;
    }
    for w in [&mut ann, &mut bob] {
        w.next_matching(|m| matches!(m, ServerMsg::Matched { .. }))
            .await;
    }
    let mut game = Game::seated(ann, bob).await;
    assert!(matches!(
        ann2.ok(ClientMsg::MyTables).await,
        ServerMsg::MyTables { .. }
    ));
    game.play_out(3).await;
    let played = game.table.clone();
    let [mut ann, mut bob] = game.players;
    // Records (stored just after `game_over` goes out), history, profile,
    // leaderboard, analysis.
    for format in [RecordFormat::Json, RecordFormat::Renju, RecordFormat::Psq] {
        let ask = ClientMsg::GameRecord {
            game: played.clone(),
            format,
        };
        let mut tries = 0;
        while let Err(e) = ann.request(ask.clone()).await {
            assert!(e.code == ErrorCode::NotFound && tries < 100, "{e:?}");
            tries += 1;
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }
    ann.ok(ClientMsg::History {
        player: "Ann".into(),
        before: None,
    })
    .await;
    ann.ok(ClientMsg::Profile {
        player: "Bob".into(),
    })
    .await;
    ann.ok(ClientMsg::Leaderboard {
        family: RatingFamily::Gomoku,
        bots: false,
    })
    .await;
    ann.ok(ClientMsg::AnalyzeGame {
        game: played.clone(),
        vct: true,
    })
    .await;
    // Queueing and leaving the queue.
    bob.ok(ClientMsg::Queue {
        config: config.clone(),
        bots: true,
    })
    .await;
    bob.ok(ClientMsg::Unqueue).await;
    // A bot account.
    let (mut botty, _) = Wire::account(&server, log, "Botty").await;
    botty.ok(ClientMsg::BecomeBot).await;
    botty
        .ok(ClientMsg::SetBotFilters {
            filters: BotFilters {
                rule_sets: vec![RuleSet::Renju],
                time_kinds: vec![TimeKind::Fischer],
                casual: true,
                rated: false,
                humans: true,
                bots: false,
                max_games: Some(2),
            },
        })
        .await;
    bob.refused(
        ClientMsg::Challenge {
            player: "Botty".into(),
            config: GameConfig::new(RuleSet::Gomoku),
            chat: true,
            rated: false,
        },
        ErrorCode::BotRefused,
    )
    .await;
    // Blocks and reports.
    bob.ok(ClientMsg::Block {
        player: "Botty".into(),
    })
    .await;
    bob.ok(ClientMsg::Unblock {
        player: "Botty".into(),
    })
    .await;
    bob.ok(ClientMsg::Report {
        player: "Botty".into(),
        game: Some(played.clone()),
        reason: ReportReason::Other,
        text: "testing reports".into(),
    })
    .await;
    // Moderation: an admin made from the command line.
    let (mut ada, _) = Wire::account(&server, log, "Ada").await;
    let (ok, answer) = admin(dir.path(), &["role", "Ada", "admin"]).await;
    assert!(ok, "{answer}");
    bob.refused(
        ClientMsg::Moderate(ModRequest::Reports),
        ErrorCode::Forbidden,
    )
    .await;
    for req in [
        ModRequest::Reports,
        ModRequest::Lookalikes,
        ModRequest::AuditLog { limit: Some(10) },
        ModRequest::Mute {
            player: "Botty".into(),
            reason: "testing".into(),
            minutes: 5,
        },
    ] {
        ada.ok(ClientMsg::Moderate(req)).await;
    }
    // A game aborted and its room closed by a moderator, seen by a player.
    {
        let mut cy = Wire::guest(&server, Encoding::Json, log, "cy").await;
        let room = cy
            .create_room(GameConfig::new(RuleSet::Freestyle), true)
            .await;
        let mut dee = Wire::guest(&server, Encoding::Json, log, "dee").await;
        dee.ok(ClientMsg::JoinRoom { room: room.clone() }).await;
        let mut game = Game::seated(cy, dee).await;
        ada.ok(ClientMsg::Moderate(ModRequest::AbortGame {
            table: game.table.clone(),
            reason: "testing".into(),
        }))
        .await;
        game.players[0]
            .next_matching(|m| matches!(m, ServerMsg::GameAborted { .. }))
            .await;
        ada.ok(ClientMsg::Moderate(ModRequest::CloseRoom {
            room: room.clone(),
            reason: "testing".into(),
        }))
        .await;
        game.players[0]
            .next_matching(|m| matches!(m, ServerMsg::RoomClosed { .. }))
            .await;
    }
    // A one-round Swiss of two players, its game's result recorded by the
    // organiser, watched, exported.
    let spec = TournamentSpec {
        name: "Schema Cup".into(),
        system: TournamentSystem::Swiss,
        rounds: Some(1),
        games: None,
        config: GameConfig::new(RuleSet::Gomoku),
        rated: false,
        start_ms: None,
        entry: EntryLimits::default(),
        tie_breaks: Some(vec![TieBreakName::Buchholz, TieBreakName::Wins]),
        wait_secs: None,
        seed: Some(7),
        duration_secs: None,
        decider_time: None,
    };
    let id = ada.create_tournament(spec.clone()).await;
    ada.ok(ClientMsg::Tournaments).await;
    ada.ok(ClientMsg::WatchTournament {
        tournament: id.clone(),
    })
    .await;
    for w in [&mut ann, &mut bob] {
        w.ok(ClientMsg::JoinTournament {
            tournament: id.clone(),
        })
        .await;
    }
    ann.refused(
        ClientMsg::JoinTournament {
            tournament: id.clone(),
        },
        ErrorCode::AlreadyJoined,
    )
    .await;
    ada.ok(ClientMsg::StartTournament {
        tournament: id.clone(),
    })
    .await;
    ann.next_matching(|m| {
        matches!(
            m,
            ServerMsg::Matched {
                tournament: Some(_),
                ..
            }
        )
    })
    .await;
    ada.ok(ClientMsg::TournamentResult {
        tournament: id.clone(),
        round: 1,
        board: 1,
        game: 0,
        result: ReportedResult::Draw,
    })
    .await;
    ada.next_matching(|m| matches!(m, ServerMsg::TournamentUpdate { .. }))
        .await;
    ada.ok(ClientMsg::Tournament {
        tournament: id.clone(),
    })
    .await;
    ada.ok(ClientMsg::TournamentExport {
        tournament: id.clone(),
    })
    .await;
    ada.ok(ClientMsg::UnwatchTournament {
        tournament: id.clone(),
    })
    .await;
    let (mut late, _) = Wire::account(&server, log, "Late").await;
    late.refused(
        ClientMsg::WithdrawTournament { tournament: id },
        ErrorCode::NotJoined,
    )
    .await;
    let spare = TournamentSpec {
        name: "Spare".into(),
        system: TournamentSystem::RoundRobin,
        rounds: None,
        tie_breaks: None,
        seed: None,
        ..spec
    };
    let spare = ada.create_tournament(spare).await;
    late.ok(ClientMsg::JoinTournament {
        tournament: spare.clone(),
    })
    .await;
    late.ok(ClientMsg::WithdrawTournament { tournament: spare })
        .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_frame_of_real_sessions_is_valid_against_the_schema() {
    let log = Log::default();
    lobby_game_and_table(&log).await;
    refusals(&log).await;
    openings_draws_claims(&log).await;
    accounts_ranked_moderation_tournament(&log).await;
    let seen = log.lock().unwrap();
    let unseen = |all: &[&str], seen: &BTreeSet<String>| -> Vec<String> {
        all.iter()
            .filter(|t| !seen.contains(**t))
            .map(|t| t.to_string())
            .collect()
    };
    eprintln!(
        "{} frames checked; {} server and {} client types, {} event kinds, {} tasks, {} error codes",
        seen.frames,
        seen.server.len(),
        seen.client.len(),
        seen.events.len(),
        seen.tasks.len(),
        seen.codes.len()
    );
    // Every message kind but these: a paused table needs a store that
    // fails (store_down.rs); a stalled round, and the organiser's pairing
    // by hand or end of it, a field that runs out of pairings
    // (tournament_stall.rs, which checks those frames against the schema);
    // the explorer's, puzzles' and trainer's, games mined first (study.rs,
    // which checks its frames too).
    assert_eq!(
        unseen(ServerMsg::TYPES, &seen.server),
        [
            "table_paused",
            "tournament_ended",
            "tournament_paired",
            "tournament_stalled",
            "explorer",
            "puzzle",
            "puzzle_step",
            "game_puzzles",
            "trainer_position",
            "trainer_verdict"
        ]
    );
    assert_eq!(
        unseen(ClientMsg::TYPES, &seen.client),
        [
            "end_tournament",
            "pair_tournament",
            "explore",
            "next_puzzle",
            "puzzle",
            "daily_puzzle",
            "puzzle_move",
            "game_puzzles",
            "trainer_next",
            "trainer_answer"
        ]
    );
    for task in [
        "place",
        "decide_swap",
        "declare_offers",
        "offer_fifths",
        "keep_fifth",
        "choose_option",
        "swap2_choice",
        "super_sakata_choice",
    ] {
        assert!(seen.tasks.contains(task), "no prompt of task {task}");
    }
    for event in [
        "moved",
        "swap_decided",
        "opening_formed",
        "offers_declared",
        "fifths_offered",
        "fifth_kept",
        "option_chosen",
        "draw_offered",
        "draw_declined",
        "draw_accepted",
        "violation",
        "game_over",
    ] {
        assert!(seen.events.contains(event), "no event {event}");
    }
    assert!(seen.codes.len() >= 12, "error codes: {:?}", seen.codes);
}
