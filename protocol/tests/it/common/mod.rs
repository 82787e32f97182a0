//! Example messages built from the real types: every client and server
//! message, the game values they carry, and a whole game. The codec tests
//! round-trip them in both encodings; the README test checks that
//! `protocol/README.md` shows each one exactly, so the documentation cannot
//! drift from the code.
#![allow(dead_code)]

use tengen_protocol::*;
use tengen_rules::Point;
use tengen_rules::game::{
    Action, ActionKind, ClockSnapshot, DrawPolicy, Event, ForbiddenHandling, ForbiddenStone, Game,
    GameConfig, GameError, GameResult, Millis, Move, OfferSet, Opening, Outcome, Prompt,
    ResultReason, RuleSet, Seat, SeatClock, TaraguchiOption, Task, TimeControl, ViolationKind,
};
use tengen_rules::{Color, Forbidden};

pub mod schema;
pub mod study;
pub mod tournament;
mod twin;

pub fn p(s: &str) -> Point {
    s.parse().unwrap()
}

pub fn room() -> RoomId {
    RoomId::from_u64(0x5f3a_91c2_77d0_1e4b)
}

pub fn table() -> TableId {
    TableId::from_u64(0x0c41_9e7a_d2b3_5f60)
}

pub fn alice() -> Player {
    Player {
        name: "alice".into(),
        guest: true,
        bot: false,
    }
}

pub fn bob() -> Player {
    Player {
        name: "bob".into(),
        guest: true,
        bot: false,
    }
}

/// The walk-through's room: renju, free opening, claim handling (the
/// default), 5 minutes + 5 seconds.
pub fn config() -> GameConfig {
    GameConfig::new(RuleSet::Renju).with_time(TimeControl::Fischer {
        main_ms: 300_000,
        increment_ms: 5_000,
    })
}

/// The README's RIF game, as `game_record` writes it in renju notation.
pub fn renju_text() -> String {
    let mut g = Game::new(served(rif_config()), Seat::First, 0).unwrap();
    let moves = [
        Action::place(p("H8")),
        Action::place(p("I9")),
        Action::place(p("J10")),
        Action::Swap,
        Action::place(p("I7")),
        Action::OfferFifths {
            points: OfferSet::new(&[p("K11"), p("G7")]).unwrap(),
        },
        Action::KeepFifth { point: p("K11") },
        Action::place(p("L12")),
    ];
    let mut at = 0;
    for a in moves {
        at += 1_000;
        let seat = g.to_act().unwrap();
        g.apply(seat, a, at).unwrap();
    }
    let seat = g.to_act().unwrap();
    g.apply(seat, Action::Resign, at + 1_000).unwrap();
    g.record()
        .with_tag("first", "alice")
        .with_tag("second", "bob")
        .with_tag("started_unix_ms", "1767225600000")
        .to_renju_text()
}

/// A casual room's configuration as the server plays and lists it: the
/// forbidden-move handling spelt out, takebacks on.
pub fn served(config: GameConfig) -> GameConfig {
    let handling = config.forbidden_handling();
    GameConfig {
        forbidden: handling,
        ..config
    }
    .with_takebacks(true)
}

/// The resume token the server gives `session` in the examples (the real
/// server draws 128 random bits and writes them as 32 hex digits).
pub fn token(session: u64) -> String {
    let wide = (u128::from(session) << 64) | u128::from(session.rotate_left(29));
    format!(
        "{:032x}",
        wide.wrapping_mul(0x9e37_79b9_7f4a_7c15_f39c_c060_5ced_c835)
    )
}

pub fn welcome(session: u64, player: Player) -> ServerMsg {
    ServerMsg::Welcome(Welcome {
        version: PROTOCOL_VERSION,
        server: ServerInfo {
            name: "tengen".into(),
            version: "0.1.0".into(),
        },
        session: SessionId::from_u64(session),
        player,
        limits: Limits::DEFAULT,
        features: ["resume", "chat", "rematch", "accounts", "queue"]
            .map(String::from)
            .to_vec(),
        resume_token: Some(token(session)),
        resumed: false,
        tables: vec![],
    })
}

/// The `welcome` of a resumed session: the same session id, player and
/// token, and the tables where it sits.
pub fn welcome_resumed(session: u64, player: Player, tables: Vec<TableId>) -> ServerMsg {
    let ServerMsg::Welcome(mut w) = welcome(session, player) else {
        unreachable!()
    };
    w.resumed = true;
    w.tables = tables;
    ServerMsg::Welcome(w)
}

pub fn hello(name: &str) -> ClientMsg {
    ClientMsg::Hello(Hello {
        token: None,
        resume: None,
        version: PROTOCOL_VERSION,
        client: Some("tengen-cli/0.1.0".into()),
        name: Some(name.into()),
    })
}

/// A `hello` resuming the session `session` of the examples.
pub fn hello_resuming(name: &str, session: u64) -> ClientMsg {
    ClientMsg::Hello(Hello {
        token: None,
        resume: Some(token(session)),
        version: PROTOCOL_VERSION,
        client: Some("tengen-cli/0.1.0".into()),
        name: Some(name.into()),
    })
}

/// The sessions of the first walk-through.
pub const ALICE_SESSION: u64 = 0x9d2c_4471_0ab3_e815;
pub const BOB_SESSION: u64 = 0x3e8f_0c2d_5a71_b946;
pub const CAROL_SESSION: u64 = 0x71a5_e3c0_9b24_d8f1;

/// The rematch's table in the chat and rematch walk-through.
pub fn rematch_table() -> TableId {
    TableId::from_u64(0x4e72_c0a9_15d8_3bf6)
}

/// The abandonment grace of the walk-through's room, as the server computes
/// it (`server/src/settings.rs`, `Settings::abandon_grace`): a tenth of the
/// main time, within 15 s and 60 s (60 s untimed).
pub fn walk_grace_ms() -> u64 {
    match config().time {
        TimeControl::Unlimited => 60_000,
        TimeControl::SuddenDeath { main_ms }
        | TimeControl::Fischer { main_ms, .. }
        | TimeControl::ByoYomi { main_ms, .. }
        | TimeControl::EightStone { main_ms, .. } => (main_ms / 10).clamp(15_000, 60_000),
        // No abandonment at all: the walk-through's room is not one.
        TimeControl::Correspondence { .. } => unreachable!("no grace in correspondence"),
    }
}

fn req(id: u64, msg: ClientMsg) -> ClientFrame {
    Envelope::with_id(Some(id), msg)
}

fn reply(id: u64, msg: ServerMsg) -> ServerFrame {
    Envelope::with_id(Some(id), msg)
}

pub fn room_info(status: RoomStatus, spectators: u32) -> RoomInfo {
    RoomInfo {
        rated: false,
        room: room(),
        name: Some("alice's room".into()),
        config: served(config()),
        players: Players {
            first: Some(alice()),
            second: (status != RoomStatus::Waiting).then(bob),
        },
        status,
        table: (status != RoomStatus::Waiting).then(table),
        spectators,
        chat: true,
    }
}

/// One example of every client message.
pub fn client_examples() -> Vec<ClientFrame> {
    let mut all = base_client_examples();
    all.extend(tournament::client_examples());
    all.extend(table_client_examples());
    all.extend(study::client_examples());
    all
}

/// An absent opponent's claims and rematch answers.
fn table_client_examples() -> Vec<ClientFrame> {
    vec![
        req(
            50,
            ClientMsg::ClaimAbsence {
                table: table(),
                draw: false,
            },
        ),
        req(
            51,
            ClientMsg::ClaimAbsence {
                table: table(),
                draw: true,
            },
        ),
        req(52, ClientMsg::DeclineRematch { table: table() }),
    ]
}

fn base_client_examples() -> Vec<ClientFrame> {
    vec![
        req(1, hello("alice")),
        req(2, ClientMsg::Ping),
        req(3, ClientMsg::LobbySubscribe),
        req(4, ClientMsg::LobbyUnsubscribe),
        req(5, ClientMsg::ListRooms),
        req(
            6,
            ClientMsg::CreateRoom {
                rated: false,
                config: config(),
                public: true,
                name: Some("alice's room".into()),
                chat: true,
            },
        ),
        req(7, ClientMsg::JoinRoom { room: room() }),
        req(8, ClientMsg::LeaveRoom { room: room() }),
        req(9, ClientMsg::CancelRoom { room: room() }),
        req(
            10,
            ClientMsg::Watch {
                table: table(),
                since: None,
            },
        ),
        req(11, ClientMsg::Unwatch { table: table() }),
        req(
            12,
            ClientMsg::Act {
                table: table(),
                action: Action::place(p("H8")),
            },
        ),
        req(13, ClientMsg::Snapshot { table: table() }),
        // A request without id: its reply carries none either.
        Envelope::push(ClientMsg::Ping),
        // Resuming: a `hello` with the token, a `watch` with the last seq.
        req(1, hello_resuming("bob", BOB_SESSION)),
        req(
            14,
            ClientMsg::Watch {
                table: table(),
                since: Some(4),
            },
        ),
        req(
            15,
            ClientMsg::Chat {
                table: table(),
                text: "good luck!".into(),
            },
        ),
        req(16, ClientMsg::Rematch { table: table() }),
        // A private room without chat.
        req(
            17,
            ClientMsg::CreateRoom {
                rated: false,
                config: config(),
                public: false,
                name: None,
                chat: false,
            },
        ),
        req(
            18,
            ClientMsg::Challenge {
                player: "bob".into(),
                config: config(),
                chat: true,
                rated: true,
            },
        ),
        req(19, ClientMsg::DeclineChallenge { room: room() }),
        // Accounts and ranked play.
        req(20, register()),
        req(
            21,
            ClientMsg::Login {
                name: "alice".into(),
                password: "correct horse battery".into(),
            },
        ),
        req(1, hello_with_token()),
        req(22, ClientMsg::Logout),
        req(22, ClientMsg::LogoutEverywhere),
        req(
            23,
            ClientMsg::Queue {
                config: config(),
                bots: false,
            },
        ),
        req(24, ClientMsg::Unqueue),
        req(
            25,
            ClientMsg::Leaderboard {
                family: RatingFamily::Renju,
                bots: false,
            },
        ),
        req(
            26,
            ClientMsg::Profile {
                player: "alice".into(),
            },
        ),
        req(
            27,
            ClientMsg::History {
                player: "alice".into(),
                before: None,
            },
        ),
        req(
            28,
            ClientMsg::History {
                player: "alice".into(),
                before: Some(1_767_225_000_000),
            },
        ),
        req(
            29,
            ClientMsg::GameRecord {
                game: table(),
                format: RecordFormat::Renju,
            },
        ),
        req(
            30,
            ClientMsg::GameRecord {
                game: table(),
                format: RecordFormat::Psq,
            },
        ),
        req(
            31,
            ClientMsg::CreateRoom {
                config: config(),
                public: true,
                name: None,
                chat: true,
                rated: true,
            },
        ),
        req(
            32,
            ClientMsg::AnalyzeGame {
                game: table(),
                vct: true,
            },
        ),
        req(33, ClientMsg::MyTables),
        // Bot accounts.
        req(34, ClientMsg::BecomeBot),
        req(
            38,
            ClientMsg::PlayComputer {
                config: config(),
                level: 3,
                colour: Some(Color::White),
            },
        ),
        req(
            37,
            ClientMsg::SetBotFilters {
                filters: bot_filters(),
            },
        ),
        req(
            36,
            ClientMsg::Leaderboard {
                family: RatingFamily::Gomoku,
                bots: true,
            },
        ),
        req(
            35,
            ClientMsg::Queue {
                config: config(),
                bots: true,
            },
        ),
        // Moderation.
        req(
            40,
            ClientMsg::Moderate(ModRequest::Mute {
                player: "bob".into(),
                reason: "insults in chat".into(),
                minutes: 60,
            }),
        ),
        req(
            41,
            ClientMsg::Moderate(ModRequest::Ban {
                player: "bob".into(),
                reason: "engine use".into(),
                minutes: None,
            }),
        ),
        req(
            42,
            ClientMsg::Moderate(ModRequest::SetRole {
                player: "carol".into(),
                role: Role::Moderator,
                reason: "trusted".into(),
            }),
        ),
        req(
            43,
            ClientMsg::Moderate(ModRequest::BanAddress {
                range: "203.0.113.0/24".into(),
                reason: "spam bots".into(),
                minutes: Some(1440),
            }),
        ),
        req(
            44,
            ClientMsg::Moderate(ModRequest::AuditLog { limit: Some(20) }),
        ),
        req(45, ClientMsg::Moderate(ModRequest::Reports)),
        req(53, ClientMsg::Moderate(ModRequest::Lookalikes)),
        req(
            46,
            ClientMsg::Moderate(ModRequest::CloseReport {
                report: "9f2c4e1a7b3d5608".into(),
                reason: "warned".into(),
            }),
        ),
        req(
            52,
            ClientMsg::Moderate(ModRequest::LiftPlayban {
                player: "bob".into(),
                reason: "his router failed".into(),
            }),
        ),
        req(
            48,
            ClientMsg::Moderate(ModRequest::CloseRoom {
                room: room(),
                reason: "offensive room name".into(),
            }),
        ),
        req(
            49,
            ClientMsg::Moderate(ModRequest::AbortGame {
                table: table(),
                reason: "players colluding".into(),
            }),
        ),
        req(
            50,
            ClientMsg::Moderate(ModRequest::ResetRating {
                game: table(),
                reason: "sandbagging".into(),
            }),
        ),
        req(
            47,
            ClientMsg::Block {
                player: "bob".into(),
            },
        ),
        req(
            48,
            ClientMsg::Unblock {
                player: "bob".into(),
            },
        ),
        req(
            49,
            ClientMsg::Report {
                player: "bob".into(),
                game: Some(table()),
                reason: ReportReason::ChatAbuse,
                text: "insults after the game".into(),
            },
        ),
    ]
}

/// The example account's login token.
pub const LOGIN_TOKEN: &str = "5c0b7e2f9a4d81c36e1f0a9b2d7c4e85";

/// When the example login token expires (30 days after 2026-01-01).
pub const LOGIN_EXPIRES_MS: u64 = 1_769_817_600_000;

pub fn register() -> ClientMsg {
    ClientMsg::Register {
        name: "alice".into(),
        password: "correct horse battery".into(),
    }
}

/// The example bot's challenge filters.
pub fn bot_filters() -> BotFilters {
    BotFilters {
        rule_sets: vec![RuleSet::Renju, RuleSet::Gomoku],
        time_kinds: vec![TimeKind::Fischer, TimeKind::ByoYomi],
        casual: false,
        rated: true,
        humans: true,
        bots: false,
        max_games: Some(4),
    }
}

/// Alice, logged in.
pub fn alice_account() -> Player {
    Player {
        name: "alice".into(),
        guest: false,
        bot: false,
    }
}

pub fn bob_account() -> Player {
    Player {
        name: "bob".into(),
        guest: false,
        bot: false,
    }
}

/// A `hello` opening Alice's account session with her login token.
pub fn hello_with_token() -> ClientMsg {
    ClientMsg::Hello(Hello {
        resume: None,
        version: PROTOCOL_VERSION,
        client: Some("tengen-cli/0.1.0".into()),
        name: None,
        token: Some(LOGIN_TOKEN.into()),
    })
}

/// A fair-play wait's refusal, as the server words it.
const PLAYBANNED: &str = "you abandoned 4 rated games in the last 24 hours (aborted, left, or let the clock run out without moving); you can play rated games again in 14 min";

pub fn logged_in() -> LoggedIn {
    LoggedIn {
        player: alice_account(),
        token: LOGIN_TOKEN.into(),
        expires_ms: LOGIN_EXPIRES_MS,
        playban: None,
    }
}

fn standing(rank: u32, player: &str, rating: f64, deviation: f64, wdl: [u32; 3]) -> Standing {
    Standing {
        rank,
        player: player.into(),
        rating,
        deviation,
        games: wdl.iter().sum(),
        wins: wdl[0],
        draws: wdl[1],
        losses: wdl[2],
    }
}

/// Server messages of accounts and ranked play.
pub fn ranked_server_examples() -> Vec<ServerFrame> {
    vec![
        reply(20, ServerMsg::Registered(logged_in())),
        // The `welcome` of a `hello` with a login token.
        reply(1, welcome(ALICE_SESSION, alice_account())),
        // A rated room, as the lobby lists it.
        Envelope::push(ServerMsg::LobbyUpdate(LobbyUpdate {
            added: vec![RoomInfo {
                name: None,
                rated: true,
                players: Players {
                    first: Some(alice_account()),
                    second: None,
                },
                ..room_info(RoomStatus::Waiting, 0)
            }],
            changed: vec![],
            removed: vec![],
        })),
        reply(21, ServerMsg::LoggedIn(logged_in())),
        reply(
            20,
            ServerMsg::Error(ErrorBody::new(
                ErrorCode::NameTaken,
                "the name alice is taken",
            )),
        ),
        reply(
            20,
            ServerMsg::Error(ErrorBody::new(
                ErrorCode::InvalidName,
                "an account name starts with a letter",
            )),
        ),
        reply(
            20,
            ServerMsg::Error(ErrorBody::new(
                ErrorCode::WeakPassword,
                "a password has at least 8 characters",
            )),
        ),
        reply(
            21,
            ServerMsg::Error(ErrorBody::new(
                ErrorCode::BadCredentials,
                "wrong name or password",
            )),
        ),
        reply(
            1,
            ServerMsg::Error(ErrorBody::new(
                ErrorCode::TokenExpired,
                "the login token has expired; log in again",
            )),
        ),
        reply(
            23,
            ServerMsg::Error(ErrorBody::new(
                ErrorCode::LoginRequired,
                "the rated queue is for accounts: log in first",
            )),
        ),
        reply(
            22,
            ServerMsg::LoggedOut {
                player: Player {
                    name: "guest-17".into(),
                    guest: true,
                    bot: false,
                },
            },
        ),
        reply(23, ServerMsg::Queued { config: config() }),
        reply(24, ServerMsg::Unqueued),
        Envelope::push(ServerMsg::Matched {
            room: room(),
            table: table(),
            seat: Seat::First,
            opponent: bob_account(),
            config: config(),
            tournament: None,
        }),
        reply(
            25,
            ServerMsg::Leaderboard(Leaderboard {
                family: RatingFamily::Renju,
                bots: false,
                players: vec![
                    standing(1, "kiyo", 1873.4, 62.1, [21, 2, 6]),
                    standing(2, "alice", 1652.9, 88.7, [9, 0, 4]),
                ],
                inactive: vec![standing(1, "tomas", 1711.0, 120.5, [30, 1, 12])],
            }),
        ),
        reply(
            26,
            ServerMsg::Profile(Box::new(Profile {
                player: alice_account(),
                created_ms: 1_767_225_600_000,
                ratings: vec![FamilyRating {
                    family: RatingFamily::Renju,
                    rating: 1652.9,
                    deviation: 88.7,
                    volatility: 0.06,
                    games: 13,
                    wins: 9,
                    draws: 0,
                    losses: 4,
                    provisional: false,
                    inactive: false,
                    history: vec![RatingPoint {
                        game: table(),
                        at_ms: 1_767_226_000_000,
                        opponent: "bob".into(),
                        score: 1.0,
                        rating: 1652.9,
                        deviation: 88.7,
                    }],
                }],
            })),
        ),
        reply(
            27,
            ServerMsg::History {
                player: "alice".into(),
                games: vec![GameSummary {
                    game: table(),
                    finished_ms: 1_767_226_000_000,
                    players: vec!["alice".into(), "bob".into()],
                    reverses: None,
                    result: Some(GameResult {
                        outcome: Outcome::Win {
                            seat: Seat::Second,
                            color: Color::Black,
                        },
                        reason: ResultReason::Five {
                            line: ["H8", "H9", "H10", "H11", "H12"].map(p).to_vec(),
                        },
                    }),
                    black: Some(Seat::Second),
                    config: Some(served(rif_config()).with_takebacks(false)),
                    opening: Some(["I1".into(), "Chosei".into(), "长星".into()]),
                }],
                more: true,
            },
        ),
        reply(
            29,
            ServerMsg::GameRecord(RecordExport {
                game: table(),
                format: RecordFormat::Renju,
                record: None,
                text: Some(renju_text()),
            }),
        ),
        reply(
            30,
            ServerMsg::GameRecord(RecordExport {
                game: table(),
                format: RecordFormat::Psq,
                record: None,
                text: Some(
                    "Piskvorky 15x15, 11:11, 0\n8,8,2000\n9,7,4500\n8,7,2500\nbob\nalice\n-1\n"
                        .into(),
                ),
            }),
        ),
        reply(32, ServerMsg::GameAnalysis(game_analysis())),
        reply(
            33,
            ServerMsg::MyTables {
                tables: vec![SeatedTable {
                    table: table(),
                    resume_token: "ae67bf772a3bfd4db1a7807af76a3566".into(),
                    online: false,
                }],
            },
        ),
        reply(
            37,
            ServerMsg::BotFiltersSet {
                filters: bot_filters(),
            },
        ),
        reply(
            38,
            ServerMsg::Error(ErrorBody::new(
                ErrorCode::BotRefused,
                "picky: this bot plays only renju, gomoku",
            )),
        ),
        reply(
            34,
            ServerMsg::BecameBot {
                player: Player {
                    bot: true,
                    ..alice_account()
                },
            },
        ),
        reply(
            32,
            ServerMsg::Error(ErrorBody {
                retry_after_ms: Some(1000),
                ..ErrorBody::new(
                    ErrorCode::Unavailable,
                    "every analysis slot is busy; try again",
                )
            }),
        ),
        // Moderation.
        reply(
            40,
            ServerMsg::Moderated {
                action: "mute".into(),
                target: "bob".into(),
            },
        ),
        reply(
            41,
            ServerMsg::Error(ErrorBody::new(
                ErrorCode::Forbidden,
                "ban needs the moderator role",
            )),
        ),
        reply(
            50,
            ServerMsg::Error(ErrorBody::new(
                ErrorCode::AlreadyReset,
                "game 0rgcyfb9b6qv0's rating changes were reversed already; nothing was done",
            )),
        ),
        Envelope::push(ServerMsg::RoomClosed {
            room: room(),
            reason: "offensive room name".into(),
        }),
        Envelope::push(ServerMsg::GameAborted {
            table: table(),
            reason: "players colluding".into(),
        }),
        reply(
            44,
            ServerMsg::AuditLog {
                entries: vec![AuditItem {
                    at_ms: 1_767_225_600_000,
                    by: "alice".into(),
                    action: "mute".into(),
                    target: "bob".into(),
                    reason: "insults in chat".into(),
                }],
            },
        ),
        reply(
            45,
            ServerMsg::Reports {
                reports: vec![ReportItem {
                    id: "9f2c4e1a7b3d5608".into(),
                    at_ms: 1_767_225_600_000,
                    by: "carol".into(),
                    player: "bob".into(),
                    game: Some(table()),
                    reason: ReportReason::ChatAbuse,
                    text: "insults after the game".into(),
                }],
            },
        ),
        reply(
            53,
            ServerMsg::Lookalikes {
                groups: vec![vec!["Carol".into(), "caroI".into()]],
            },
        ),
        reply(
            47,
            ServerMsg::Blocks {
                players: vec!["bob".into()],
            },
        ),
        reply(
            49,
            ServerMsg::Reported {
                report: "9f2c4e1a7b3d5608".into(),
            },
        ),
        reply(
            50,
            ServerMsg::Error(ErrorBody {
                ban: Some(Sanction {
                    reason: "engine use".into(),
                    until_ms: Some(1_767_312_000_000),
                }),
                ..ErrorBody::new(
                    ErrorCode::Banned,
                    "this account is banned until 1767312000000 (Unix ms): engine use",
                )
            }),
        ),
        reply(
            51,
            ServerMsg::Error(ErrorBody::new(
                ErrorCode::Blocked,
                "bob and you block challenges from each other",
            )),
        ),
        // Fair play.
        reply(
            23,
            ServerMsg::Error(ErrorBody {
                retry_after_ms: Some(812_000),
                ..ErrorBody::new(ErrorCode::Playbanned, PLAYBANNED)
            }),
        ),
        reply(
            21,
            ServerMsg::LoggedIn(LoggedIn {
                playban: Some(Playban {
                    until_ms: 1_767_225_600_000,
                    remaining_ms: 812_000,
                    message: PLAYBANNED.into(),
                }),
                ..logged_in()
            }),
        ),
    ]
}

/// The analysis of the example game `h8 i9 h9 j9 h10 j8 h11 h12 h7`: black
/// had a VCF before moves 7 and 9 and kept it both times.
pub fn game_analysis() -> GameAnalysis {
    let verdict = |number, played: &str, line: &str| MoveVerdict {
        number,
        color: Color::Black,
        played: played.into(),
        vcf: Some(line.into()),
        vct: None,
        kept: Some(true),
    };
    GameAnalysis {
        game: table(),
        vct: true,
        moves: vec![verdict(7, "h11", "h7"), verdict(9, "h7", "h7")],
        undecided: Vec::new(),
    }
}

/// One example of every server message, and of the error variants.
/// A `block` room, white's move 8 just played: black's J8 would make two
/// threes, and the event lists it.
pub fn block_room_event() -> TableEvent {
    let mut c = config();
    c.forbidden = Some(tengen_rules::game::ForbiddenHandling::Block);
    c.time = tengen_rules::game::TimeControl::Unlimited;
    let mut g = Game::new(c, Seat::First, 0).unwrap();
    let mut events = Vec::new();
    for (i, at) in ["H8", "A1", "I8", "A3", "J9", "A5", "J10", "A7"]
        .iter()
        .enumerate()
    {
        let seat = if i % 2 == 0 {
            Seat::First
        } else {
            Seat::Second
        };
        events = g
            .apply(seat, Action::place(p(at)), (i as u64 + 1) * 1_000)
            .unwrap();
    }
    let mut te = TableEvent::stamp(&table(), 7, events, g.prompt(8_000).as_ref()).remove(0);
    te.forbidden = g.forbidden_points_shown(8_000);
    te
}

pub fn server_examples() -> Vec<ServerFrame> {
    let mut all = base_server_examples();
    all.extend(tournament::server_examples());
    all.extend(table_server_examples());
    all.extend(study::server_examples());
    all
}

/// An away player's claim opening, rematches from the lobby, and what a
/// snapshot says of both.
fn table_server_examples() -> Vec<ServerFrame> {
    let mut g = Game::new(served(config()), Seat::Second, 0).unwrap();
    g.apply(Seat::Second, Action::Resign, 1_000).unwrap();
    vec![
        Envelope::push(ServerMsg::PlayerStatus {
            table: table(),
            seat: Seat::Second,
            connected: false,
            grace_ms: Some(0),
            after_grace: Some(AfterGrace::Claim),
        }),
        Envelope::push(ServerMsg::PlayerStatus {
            table: table(),
            seat: Seat::First,
            connected: false,
            grace_ms: Some(60_000),
            after_grace: Some(AfterGrace::Win),
        }),
        reply(
            50,
            ServerMsg::Error(ErrorBody::new(
                ErrorCode::NotAbsent,
                "your opponent is not away past the grace: nothing to claim",
            )),
        ),
        Envelope::push(ServerMsg::RematchOffered {
            table: table(),
            seat: Seat::First,
            from: Some(alice()),
            room: Some(room()),
            config: Some(served(config())),
        }),
        reply(
            52,
            ServerMsg::RematchCancelled {
                table: table(),
                seat: Some(Seat::Second),
                reason: RematchCancel::Declined,
            },
        ),
        Envelope::push(ServerMsg::RematchCancelled {
            table: table(),
            seat: None,
            reason: RematchCancel::Expired,
        }),
        reply(
            53,
            ServerMsg::TableSnapshot(Box::new(TableSnapshot {
                table: table(),
                room: room(),
                seq: 2,
                snapshot: g.snapshot(1_000),
                players: Players {
                    first: Some(alice()),
                    second: Some(bob()),
                },
                spectators: 0,
                seat: Some(Seat::First),
                paused: None,
                forbidden: Vec::new(),
                away: vec![Away {
                    seat: Seat::Second,
                    grace_ms: Some(12_000),
                    after_grace: Some(AfterGrace::Claim),
                }],
                rematch: vec![Seat::Second],
                tournament: None,
            })),
        ),
    ]
}

fn base_server_examples() -> Vec<ServerFrame> {
    let mut g = Game::new(served(config()), Seat::Second, 0).unwrap();
    let ev = g
        .apply(Seat::Second, Action::place(p("H8")), 2_000)
        .unwrap();
    let stamped = TableEvent::stamp(&table(), 0, ev, g.prompt(2_000).as_ref());
    vec![
        reply(1, welcome(0x9d2c_4471_0ab3_e815, alice())),
        reply(
            12,
            ServerMsg::Error(ErrorBody::game(GameError::NotYourTurn)),
        ),
        reply(
            12,
            ServerMsg::Error(ErrorBody::game(GameError::Occupied { point: p("H8") })),
        ),
        reply(
            1,
            ServerMsg::Error(ErrorBody::unsupported_version(7, SUPPORTED_VERSIONS)),
        ),
        reply(12, ServerMsg::Error(ErrorBody::rate_limited(250))),
        reply(
            7,
            ServerMsg::Error(ErrorBody::new(ErrorCode::RoomFull, "both seats are taken")),
        ),
        reply(
            2,
            ServerMsg::Pong {
                time_ms: 1_767_225_600_000,
            },
        ),
        reply(
            5,
            ServerMsg::Rooms {
                rooms: vec![room_info(RoomStatus::Waiting, 0)],
                truncated: false,
            },
        ),
        Envelope::push(ServerMsg::LobbyUpdate(LobbyUpdate {
            added: vec![],
            changed: vec![room_info(RoomStatus::Playing, 1)],
            removed: vec![RoomId::from_u64(0x1234_5678_9abc_def0)],
        })),
        reply(4, ServerMsg::LobbyUnsubscribed),
        reply(
            6,
            ServerMsg::RoomCreated {
                room: room(),
                seat: Seat::First,
            },
        ),
        reply(
            7,
            ServerMsg::Joined {
                room: room(),
                seat: Seat::Second,
            },
        ),
        reply(8, ServerMsg::Left { room: room() }),
        reply(
            9,
            ServerMsg::RoomCancelled {
                room: room(),
                reason: CancelReason::ByCreator,
            },
        ),
        reply(
            13,
            ServerMsg::TableSnapshot(Box::new(TableSnapshot {
                table: table(),
                room: room(),
                seq: 1,
                snapshot: g.snapshot(3_500),
                players: Players {
                    first: Some(alice()),
                    second: Some(bob()),
                },
                spectators: 1,
                seat: None,
                paused: None,
                forbidden: Vec::new(),
                away: Vec::new(),
                rematch: Vec::new(),
                tournament: None,
            })),
        ),
        Envelope::push(ServerMsg::TableEvent(stamped[0].clone())),
        Envelope::push(ServerMsg::TableEvent(block_room_event())),
        reply(
            12,
            ServerMsg::Acted {
                table: table(),
                seq: 1,
            },
        ),
        Envelope::push(ServerMsg::Spectators {
            table: table(),
            count: 3,
        }),
        reply(11, ServerMsg::Unwatched { table: table() }),
        // Resuming.
        reply(1, welcome_resumed(BOB_SESSION, bob(), vec![table()])),
        reply(
            14,
            ServerMsg::Replayed {
                table: table(),
                since: 4,
                seq: 6,
            },
        ),
        Envelope::push(ServerMsg::PlayerStatus {
            table: table(),
            seat: Seat::Second,
            connected: false,
            grace_ms: Some(walk_grace_ms()),
            after_grace: Some(AfterGrace::Claim),
        }),
        Envelope::push(ServerMsg::PlayerStatus {
            table: table(),
            seat: Seat::Second,
            connected: true,
            grace_ms: None,
            after_grace: None,
        }),
        Envelope::push(ServerMsg::TablePaused {
            table: table(),
            paused: Some(tengen_protocol::PauseReason::Restored),
            clocks: paused_clocks(),
        }),
        Envelope::push(ServerMsg::TablePaused {
            table: table(),
            paused: None,
            clocks: paused_clocks(),
        }),
        Envelope::push(abandonment_event()),
        // Chat.
        reply(
            15,
            ServerMsg::Chat {
                table: table(),
                channel: ChatChannel::Players,
                from: alice(),
                text: "good luck!".into(),
            },
        ),
        Envelope::push(ServerMsg::Chat {
            table: table(),
            channel: ChatChannel::Spectators,
            from: carol(),
            text: "bob is in trouble".into(),
        }),
        reply(
            15,
            ServerMsg::Error(ErrorBody::new(
                ErrorCode::ChatOff,
                "chat is off in this room",
            )),
        ),
        // Rematch.
        reply(
            16,
            ServerMsg::RematchOffered {
                table: table(),
                seat: Seat::First,
                from: None,
                room: None,
                config: None,
            },
        ),
        reply(
            16,
            ServerMsg::Error(ErrorBody::new(ErrorCode::NoRematch, "the game is not over")),
        ),
        Envelope::push(ServerMsg::Error(ErrorBody::new(
            ErrorCode::NoRematch,
            "bob sits at as many games as allowed now",
        ))),
        Envelope::push(ServerMsg::RematchStarted {
            table: table(),
            rematch: rematch_table(),
            room: room(),
        }),
        // A room entry with chat off.
        Envelope::push(ServerMsg::LobbyUpdate(LobbyUpdate {
            added: vec![RoomInfo {
                room: RoomId::from_u64(0x0a6f_d215_9c3e_7b48),
                name: Some("quiet please".into()),
                chat: false,
                ..room_info(RoomStatus::Waiting, 0)
            }],
            changed: vec![],
            removed: vec![],
        })),
        Envelope::push(ServerMsg::Challenged {
            room: room(),
            from: alice_account(),
            config: config(),
            rated: true,
        }),
        reply(
            19,
            ServerMsg::RoomCancelled {
                room: room(),
                reason: CancelReason::Declined,
            },
        ),
    ]
    .into_iter()
    .chain(ranked_server_examples())
    .collect()
}

/// The walk-through's game after its first `n` moves, with the table's seq.
fn walk_game(n: usize) -> (Game, u64) {
    let mut g = Game::new(served(config()), Seat::Second, 0).unwrap();
    let mut seq = 0;
    for (mv, at) in WALK_MOVES.iter().zip(WALK_TIMES).take(n) {
        let seat = g.to_act().unwrap();
        seq += g.apply(seat, Action::place(p(mv)), at).unwrap().len() as u64;
    }
    (g, seq)
}

/// When Bob's connection drops in the reconnection walk-through (table
/// milliseconds): just after his move 5.
pub const DROP_AT: Millis = 18_000;

/// What everyone at the table would get had Bob not come back: the game
/// lost by abandonment when the grace ends (the walk-through's game after
/// move 6).
pub fn abandonment_event() -> ServerMsg {
    let (mut g, seq) = walk_game(6);
    let events = g
        .declare_abandoned(Seat::Second, DROP_AT + walk_grace_ms())
        .unwrap();
    let stamped = TableEvent::stamp(&table(), seq, events, g.prompt(DROP_AT).as_ref());
    ServerMsg::TableEvent(stamped[0].clone())
}

/// Who says what in the walk-through.
#[derive(Clone, Debug)]
pub enum Said {
    /// A client's frame: (client name, frame).
    Client(&'static str, ClientFrame),
    /// A server frame to the named clients.
    Server(&'static str, ServerFrame),
}

/// The moves of the walk-through: black (bob, the opener by lot) makes an
/// open four at move 7, white blocks one end, black completes the five.
pub const WALK_MOVES: [&str; 9] = ["H8", "I9", "H9", "J9", "H10", "J8", "H11", "H12", "H7"];

/// When each move arrives (table milliseconds; the table was created at 0).
pub const WALK_TIMES: [Millis; 9] = [
    2_000, 6_500, 9_000, 15_000, 17_500, 21_000, 24_000, 30_000, 31_500,
];

/// A whole renju game, free opening, as the two players and a spectator
/// see it.
#[allow(clippy::vec_init_then_push)]
pub fn walkthrough() -> Vec<Said> {
    use Said::{Client, Server};
    let mut out = Vec::new();
    out.push(Client("alice", req(1, hello("alice"))));
    out.push(Server(
        "alice",
        reply(1, welcome(0x9d2c_4471_0ab3_e815, alice())),
    ));
    out.push(Client(
        "alice",
        req(
            2,
            ClientMsg::CreateRoom {
                rated: false,
                config: config(),
                public: true,
                name: Some("alice's room".into()),
                chat: true,
            },
        ),
    ));
    out.push(Server(
        "alice",
        reply(
            2,
            ServerMsg::RoomCreated {
                room: room(),
                seat: Seat::First,
            },
        ),
    ));
    out.push(Client("bob", req(1, hello("bob"))));
    out.push(Server(
        "bob",
        reply(1, welcome(0x3e8f_0c2d_5a71_b946, bob())),
    ));
    out.push(Client("bob", req(2, ClientMsg::ListRooms)));
    out.push(Server(
        "bob",
        reply(
            2,
            ServerMsg::Rooms {
                rooms: vec![room_info(RoomStatus::Waiting, 0)],
                truncated: false,
            },
        ),
    ));
    out.push(Client("bob", req(3, ClientMsg::JoinRoom { room: room() })));
    out.push(Server(
        "bob",
        reply(
            3,
            ServerMsg::Joined {
                room: room(),
                seat: Seat::Second,
            },
        ),
    ));
    // The lot makes bob (second seat) the opener: he holds black.
    let mut g = Game::new(served(config()), Seat::Second, 0).unwrap();
    let players = Players {
        first: Some(alice()),
        second: Some(bob()),
    };
    let snap = |g: &Game, seq, now, seat, spectators| {
        Envelope::push(ServerMsg::TableSnapshot(Box::new(TableSnapshot {
            table: table(),
            room: room(),
            seq,
            snapshot: g.snapshot(now),
            players: players.clone(),
            spectators,
            seat,
            paused: None,
            forbidden: Vec::new(),
            away: Vec::new(),
            rematch: Vec::new(),
            tournament: None,
        })))
    };
    out.push(Server("alice", snap(&g, 0, 0, Some(Seat::First), 0)));
    out.push(Server("bob", snap(&g, 0, 0, Some(Seat::Second), 0)));
    let mut seq = 0;
    let mut next_id = [4u64, 3u64]; // bob's, alice's next request ids
    for (i, (mv, at)) in WALK_MOVES.iter().zip(WALK_TIMES).enumerate() {
        if i == 4 {
            // carol starts watching between moves 4 and 5.
            out.push(Client("carol", req(1, hello("carol"))));
            out.push(Server(
                "carol",
                reply(
                    1,
                    welcome(
                        0x71a5_e3c0_9b24_d8f1,
                        Player {
                            name: "carol".into(),
                            guest: true,
                            bot: false,
                        },
                    ),
                ),
            ));
            out.push(Client(
                "carol",
                req(
                    2,
                    ClientMsg::Watch {
                        table: table(),
                        since: None,
                    },
                ),
            ));
            let mut s = snap(&g, seq, 16_000, None, 1);
            s.id = Some(2);
            out.push(Server("carol", s));
            out.push(Server(
                "alice, bob, carol",
                Envelope::push(ServerMsg::Spectators {
                    table: table(),
                    count: 1,
                }),
            ));
        }
        let seat = g.to_act().unwrap();
        let (who, slot) = if seat == Seat::Second {
            ("bob", 0)
        } else {
            ("alice", 1)
        };
        let id = next_id[slot];
        next_id[slot] += 1;
        let action = Action::place(p(mv));
        out.push(Client(
            who,
            req(
                id,
                ClientMsg::Act {
                    table: table(),
                    action,
                },
            ),
        ));
        let events = g.apply(seat, action, at).unwrap();
        let stamped = TableEvent::stamp(&table(), seq, events, g.prompt(at).as_ref());
        let to = if i >= 4 {
            "alice, bob, carol"
        } else {
            "alice, bob"
        };
        for e in stamped {
            seq = e.seq;
            out.push(Server(to, Envelope::push(ServerMsg::TableEvent(e))));
        }
        out.push(Server(
            who,
            reply(
                id,
                ServerMsg::Acted {
                    table: table(),
                    seq,
                },
            ),
        ));
    }
    assert!(g.is_over(), "the walk-through ends with a five");
    out
}

/// The stamped events of `who` (in `seat`) acting at `at`, with the `act`
/// and its `acted`, as the walk-throughs show them.
#[allow(clippy::too_many_arguments)]
fn walk_act(
    out: &mut Vec<Said>,
    g: &mut Game,
    seq: &mut u64,
    who: &'static str,
    id: u64,
    action: Action,
    at: Millis,
    to: &'static str,
) -> Vec<TableEvent> {
    out.push(Said::Client(
        who,
        req(
            id,
            ClientMsg::Act {
                table: table(),
                action,
            },
        ),
    ));
    let seat = g.to_act().unwrap();
    let events = g.apply(seat, action, at).unwrap();
    let stamped = TableEvent::stamp(&table(), *seq, events, g.prompt(at).as_ref());
    for e in &stamped {
        *seq = e.seq;
        out.push(Said::Server(
            to,
            Envelope::push(ServerMsg::TableEvent(e.clone())),
        ));
    }
    out.push(Said::Server(
        who,
        reply(
            id,
            ServerMsg::Acted {
                table: table(),
                seq: *seq,
            },
        ),
    ));
    stamped
}

/// Reconnecting, in the first walk-through's game: Bob's connection drops
/// just after his move 5 (seq 5); Alice plays 6 meanwhile; Bob comes back,
/// resumes his session and gets what he missed.
pub fn reconnect_walkthrough() -> Vec<Said> {
    use Said::{Client, Server};
    let mut out = Vec::new();
    let (mut g, mut seq) = walk_game(5);
    assert_eq!(seq, 5);
    out.push(Server(
        "alice, carol",
        Envelope::push(ServerMsg::PlayerStatus {
            table: table(),
            seat: Seat::Second,
            connected: false,
            grace_ms: Some(walk_grace_ms()),
            after_grace: Some(AfterGrace::Claim),
        }),
    ));
    let since = seq;
    let missed = walk_act(
        &mut out,
        &mut g,
        &mut seq,
        "alice",
        5,
        Action::place(p(WALK_MOVES[5])),
        WALK_TIMES[5],
        "alice, carol",
    );
    out.push(Client("bob", req(1, hello_resuming("bob", BOB_SESSION))));
    out.push(Server(
        "bob",
        reply(1, welcome_resumed(BOB_SESSION, bob(), vec![table()])),
    ));
    out.push(Client(
        "bob",
        req(
            2,
            ClientMsg::Watch {
                table: table(),
                since: Some(since),
            },
        ),
    ));
    out.push(Server(
        "alice, bob, carol",
        Envelope::push(ServerMsg::PlayerStatus {
            table: table(),
            seat: Seat::Second,
            connected: true,
            grace_ms: None,
            after_grace: None,
        }),
    ));
    for e in missed {
        out.push(Server("bob", Envelope::push(ServerMsg::TableEvent(e))));
    }
    out.push(Server(
        "bob",
        reply(
            2,
            ServerMsg::Replayed {
                table: table(),
                since,
                seq,
            },
        ),
    ));
    // The game goes on: Bob's move 7.
    walk_act(
        &mut out,
        &mut g,
        &mut seq,
        "bob",
        3,
        Action::place(p(WALK_MOVES[6])),
        WALK_TIMES[6],
        "alice, bob, carol",
    );
    out
}

/// Chat and a rematch after the first walk-through's game (which ended at
/// seq 10); the request ids go on from there.
pub fn chat_rematch_walkthrough() -> Vec<Said> {
    use Said::{Client, Server};
    let mut out = Vec::new();
    let (g, seq) = walk_game(WALK_MOVES.len());
    assert!(g.is_over() && seq == 10);
    let chat = |id, text: &str| {
        req(
            id,
            ClientMsg::Chat {
                table: table(),
                text: text.into(),
            },
        )
    };
    let said = |channel, from: Player, text: &str| ServerMsg::Chat {
        table: table(),
        channel,
        from,
        text: text.into(),
    };
    out.push(Client("alice", chat(7, "gg")));
    out.push(Server(
        "alice",
        reply(7, said(ChatChannel::Players, alice(), "gg")),
    ));
    out.push(Server(
        "bob",
        Envelope::push(said(ChatChannel::Players, alice(), "gg")),
    ));
    out.push(Client("carol", chat(3, "what a finish")));
    out.push(Server(
        "carol",
        reply(3, said(ChatChannel::Spectators, carol(), "what a finish")),
    ));
    let offered = |seat, who: Option<Player>| ServerMsg::RematchOffered {
        table: table(),
        seat,
        room: who.as_ref().map(|_| room()),
        config: who.as_ref().map(|_| served(config())),
        from: who,
    };
    out.push(Client("bob", req(9, ClientMsg::Rematch { table: table() })));
    out.push(Server("bob", reply(9, offered(Seat::Second, None))));
    out.push(Server(
        "alice",
        Envelope::push(offered(Seat::Second, Some(bob()))),
    ));
    out.push(Client(
        "alice",
        req(8, ClientMsg::Rematch { table: table() }),
    ));
    out.push(Server("alice", reply(8, offered(Seat::First, None))));
    out.push(Server(
        "bob",
        Envelope::push(offered(Seat::First, Some(alice()))),
    ));
    let started = Envelope::push(ServerMsg::RematchStarted {
        table: table(),
        rematch: rematch_table(),
        room: room(),
    });
    out.push(Server("alice, bob", started.clone()));
    // The opener switches: Bob opened the first game, Alice opens this one.
    let g2 = Game::new(served(config()), g.opener().other(), 0).unwrap();
    let snap = |seat, spectators| {
        Envelope::push(ServerMsg::TableSnapshot(Box::new(TableSnapshot {
            table: rematch_table(),
            room: room(),
            seq: 0,
            snapshot: g2.snapshot(0),
            players: Players {
                first: Some(alice()),
                second: Some(bob()),
            },
            spectators,
            seat,
            paused: None,
            forbidden: Vec::new(),
            away: Vec::new(),
            rematch: Vec::new(),
            tournament: None,
        })))
    };
    out.push(Server("alice", snap(Some(Seat::First), 0)));
    out.push(Server("bob", snap(Some(Seat::Second), 0)));
    out.push(Server("carol", started));
    out.push(Client(
        "carol",
        req(
            4,
            ClientMsg::Watch {
                table: rematch_table(),
                since: None,
            },
        ),
    ));
    let mut s = snap(None, 1);
    s.id = Some(4);
    out.push(Server("carol", s));
    out.push(Server(
        "alice, bob, carol",
        Envelope::push(ServerMsg::Spectators {
            table: rematch_table(),
            count: 1,
        }),
    ));
    out
}

// ---- the RIF walk-through ----------------------------------------------------

/// The RIF walk-through's room: renju, RIF opening, claim handling (the
/// default), 5 minutes + 5 seconds.
pub fn rif_config() -> GameConfig {
    config().with_opening(Opening::Rif)
}

pub fn rif_room() -> RoomId {
    RoomId::from_u64(0x2b8e_6d14_c90f_a357)
}

pub fn rif_table() -> TableId {
    TableId::from_u64(0x6a07_f3d9_1e52_b8c4)
}

pub fn carol() -> Player {
    Player {
        name: "carol".into(),
        guest: true,
        bot: false,
    }
}

/// A table being played in a walk-through: drives the real [`Game`],
/// stamps its events and writes down every frame.
struct Walk {
    g: Game,
    table: TableId,
    room: RoomId,
    seq: u64,
    /// Who receives the table's events.
    to: &'static str,
    out: Vec<Said>,
    /// Each client's next request id.
    ids: Vec<(&'static str, u64)>,
}

impl Walk {
    fn id(&mut self, who: &'static str) -> u64 {
        let slot = self.ids.iter_mut().find(|(w, _)| *w == who).unwrap();
        slot.1 += 1;
        slot.1 - 1
    }

    fn players() -> Players {
        Players {
            first: Some(alice()),
            second: Some(bob()),
        }
    }

    fn snapshot(&self, now: Millis, seat: Option<Seat>, spectators: u32) -> ServerFrame {
        Envelope::push(ServerMsg::TableSnapshot(Box::new(TableSnapshot {
            table: self.table.clone(),
            room: self.room.clone(),
            seq: self.seq,
            snapshot: self.g.snapshot(now),
            players: Walk::players(),
            spectators,
            seat,
            paused: None,
            forbidden: Vec::new(),
            away: Vec::new(),
            rematch: Vec::new(),
            tournament: None,
        })))
    }

    fn act_frame(&self, id: u64, action: Action) -> ClientFrame {
        req(
            id,
            ClientMsg::Act {
                table: self.table.clone(),
                action,
            },
        )
    }

    /// `who` (sitting in `seat`) acts at `at`: the `act`, the events to
    /// everyone at the table, the `acted` reply.
    fn act(&mut self, who: &'static str, seat: Seat, action: Action, at: Millis) {
        let id = self.id(who);
        self.out.push(Said::Client(who, self.act_frame(id, action)));
        let events = self
            .g
            .apply(seat, action, at)
            .unwrap_or_else(|e| panic!("{who}'s {action:?} refused: {e}"));
        let stamped = TableEvent::stamp(&self.table, self.seq, events, self.g.prompt(at).as_ref());
        for e in stamped {
            self.seq = e.seq;
            self.out.push(Said::Server(
                self.to,
                Envelope::push(ServerMsg::TableEvent(e)),
            ));
        }
        let acted = ServerMsg::Acted {
            table: self.table.clone(),
            seq: self.seq,
        };
        self.out.push(Said::Server(who, reply(id, acted)));
    }

    /// `who` tries an action the referee refuses: the `act` and the `error`
    /// reply, and nothing changes.
    fn refused(&mut self, who: &'static str, seat: Seat, action: Action, at: Millis) -> GameError {
        let id = self.id(who);
        self.out.push(Said::Client(who, self.act_frame(id, action)));
        let before = self.g.clone();
        let err = self.g.apply(seat, action, at).unwrap_err();
        assert_eq!(self.g, before, "a refusal changes nothing");
        self.out.push(Said::Server(
            who,
            reply(id, ServerMsg::Error(ErrorBody::game(err.clone()))),
        ));
        err
    }
}

pub fn offers(points: &[&str]) -> OfferSet {
    OfferSet::new(&points.iter().map(|s| p(s)).collect::<Vec<_>>()).unwrap()
}

/// The middle game of the RIF walk-through, after white 6: (move, instant).
/// Black (bob) makes an open three (7), white blocks the wrong end (8);
/// black prepares a four-three at I7 (9, 11) while white plays elsewhere
/// (10, 12); black's four-three (13), white stops the four (14), black makes
/// an open four from the three (15), white blocks one end (16), black's
/// five (17).
pub const RIF_MIDDLE: [(&str, Millis); 11] = [
    ("F10", 108_000),
    ("E11", 115_000),
    ("J8", 124_000),
    ("H10", 133_000),
    ("H6", 139_000),
    ("G8", 150_000),
    ("I7", 156_000),
    ("J6", 160_000),
    ("K9", 163_000),
    ("L10", 167_000),
    ("G5", 169_000),
];

/// A whole renju game with the RIF opening, as two players and a spectator
/// see it. Alice's seat opens (by lot) and lays Kagetsu; Bob takes black
/// with the swap; Bob's first offers are refused as equivalent, then Alice
/// keeps one of his two offers; Bob wins with a five.
pub fn rif_walkthrough() -> Vec<Said> {
    rif_game().0
}

/// The opening of the RIF walk-through, as the guide shows it: from the
/// game's start to white 6, the players' frames only.
pub fn rif_opening() -> Vec<Said> {
    let frames = rif_walkthrough();
    let start = frames
        .iter()
        .position(
            |s| matches!(s, Said::Server(_, f) if matches!(f.msg, ServerMsg::TableSnapshot(_))),
        )
        .expect("the game starts");
    let mut out = Vec::new();
    let mut sixth = false;
    for said in frames.into_iter().skip(start) {
        let msg = match &said {
            Said::Client(..) => None,
            Said::Server(_, f) => Some(&f.msg),
        };
        match &said {
            Said::Client(who, _) if *who == "carol" => continue,
            Said::Server(to, f)
                if *to == "carol" || matches!(f.msg, ServerMsg::Spectators { .. }) =>
            {
                continue;
            }
            _ => {}
        }
        if let Some(ServerMsg::TableEvent(e)) = msg
            && matches!(e.event, Event::Moved { mv, .. } if mv.number == 6)
        {
            sixth = true;
        }
        let done = sixth && matches!(msg, Some(ServerMsg::Acted { .. }));
        out.push(said);
        if done {
            return out;
        }
    }
    panic!("the RIF walk-through has no white 6");
}

/// The RIF walk-through's game at its end, as the README shows it: the
/// moves in renju notation and the final board.
pub fn rif_final() -> (String, String) {
    let g = rif_game().1;
    (g.renju_notation(), g.board().to_text())
}

fn rif_game() -> (Vec<Said>, Game) {
    use Said::{Client, Server};
    let mut w = Walk {
        g: Game::new(served(rif_config()), Seat::First, 0).unwrap(),
        table: rif_table(),
        room: rif_room(),
        seq: 0,
        to: "alice, bob",
        out: Vec::new(),
        ids: vec![("alice", 1), ("bob", 1), ("carol", 1)],
    };
    // The lobby part: hello, create_room, hello, list_rooms, join_room.
    let waiting = RoomInfo {
        rated: false,
        room: rif_room(),
        name: Some("alice's RIF room".into()),
        config: served(rif_config()),
        players: Players {
            first: Some(alice()),
            second: None,
        },
        status: RoomStatus::Waiting,
        table: None,
        spectators: 0,
        chat: true,
    };
    let id = w.id("alice");
    w.out.push(Client("alice", req(id, hello("alice"))));
    w.out.push(Server(
        "alice",
        reply(id, welcome(0xa4c6_0e7b_3f19_d285, alice())),
    ));
    let id = w.id("alice");
    w.out.push(Client(
        "alice",
        req(
            id,
            ClientMsg::CreateRoom {
                rated: false,
                config: rif_config(),
                public: true,
                name: waiting.name.clone(),
                chat: true,
            },
        ),
    ));
    w.out.push(Server(
        "alice",
        reply(
            id,
            ServerMsg::RoomCreated {
                room: rif_room(),
                seat: Seat::First,
            },
        ),
    ));
    let id = w.id("bob");
    w.out.push(Client("bob", req(id, hello("bob"))));
    w.out.push(Server(
        "bob",
        reply(id, welcome(0x58d3_b2a6_07ce_941f, bob())),
    ));
    let id = w.id("bob");
    w.out.push(Client("bob", req(id, ClientMsg::ListRooms)));
    w.out.push(Server(
        "bob",
        reply(
            id,
            ServerMsg::Rooms {
                rooms: vec![waiting],
                truncated: false,
            },
        ),
    ));
    let id = w.id("bob");
    w.out.push(Client(
        "bob",
        req(id, ClientMsg::JoinRoom { room: rif_room() }),
    ));
    w.out.push(Server(
        "bob",
        reply(
            id,
            ServerMsg::Joined {
                room: rif_room(),
                seat: Seat::Second,
            },
        ),
    ));
    // The game starts: the lot makes alice (first seat) the opener.
    let s = w.snapshot(0, Some(Seat::First), 0);
    w.out.push(Server("alice", s));
    let s = w.snapshot(0, Some(Seat::Second), 0);
    w.out.push(Server("bob", s));

    let (a, b) = (Seat::First, Seat::Second);
    // The opener lays the opening: 1 on the centre, 2 (white) in the 3x3,
    // 3 in the 5x5: Kagetsu. A white 2 outside the 3x3 is refused.
    w.act("alice", a, Action::place(p("H8")), 3_000);
    let e = w.refused("alice", a, Action::place(p("J10")), 6_000);
    assert_eq!(e, GameError::OutsideZone { within: 3 });
    w.act("alice", a, Action::place(p("H9")), 7_000);
    w.act("alice", a, Action::place(p("I9")), 11_000);
    assert_eq!(w.g.opening_progress().canonical.as_deref(), Some("D4"));
    // Bob, holding white, takes black: Kagetsu is a win for black.
    w.act("bob", b, Action::Swap, 25_000);
    // Alice, now white, plays 4.
    w.act("alice", a, Action::place(p("I8")), 40_000);
    // Bob's two fifth-move offers: J10 and G7 make symmetric positions.
    let e = w.refused(
        "bob",
        b,
        Action::OfferFifths {
            points: offers(&["J10", "G7"]),
        },
        70_000,
    );
    assert!(matches!(e, GameError::EquivalentOffers { .. }), "{e:?}");
    w.act(
        "bob",
        b,
        Action::OfferFifths {
            points: offers(&["J10", "G9"]),
        },
        78_000,
    );
    // Carol watches while Alice chooses.
    let id = w.id("carol");
    w.out.push(Client("carol", req(id, hello("carol"))));
    w.out.push(Server(
        "carol",
        reply(id, welcome(0x1f6b_95e2_c8a0_374d, carol())),
    ));
    let id = w.id("carol");
    w.out.push(Client(
        "carol",
        req(
            id,
            ClientMsg::Watch {
                table: rif_table(),
                since: None,
            },
        ),
    ));
    let mut s = w.snapshot(80_000, None, 1);
    s.id = Some(id);
    w.out.push(Server("carol", s));
    w.out.push(Server(
        "alice, bob, carol",
        Envelope::push(ServerMsg::Spectators {
            table: rif_table(),
            count: 1,
        }),
    ));
    w.to = "alice, bob, carol";
    // Alice keeps G9 as black 5, then plays white 6.
    w.act("alice", a, Action::KeepFifth { point: p("G9") }, 95_000);
    w.act("alice", a, Action::place(p("G7")), 101_000);
    // The middle game.
    for (mv, at) in RIF_MIDDLE {
        let seat = w.g.to_act().unwrap();
        let who = if seat == a { "alice" } else { "bob" };
        w.act(who, seat, Action::place(p(mv)), at);
    }
    let result = w.g.result().expect("the walk-through ends with a five");
    assert_eq!(result.winner(), Some(b));
    assert!(w.g.revealed_forbidden().is_empty(), "no forbidden stone");
    (w.out, w.g)
}

/// Examples of the rules values carried inside messages, one JSON value
/// each: actions, tasks, events, results, configurations and refusals.
pub fn game_values() -> Vec<String> {
    let v = |x: &dyn erased::Ser| x.to_json();
    let mut out = Vec::new();
    // Actions.
    for a in [
        Action::place(p("H8")),
        Action::Place {
            point: p("J10"),
            board: 0,
            offer_draw: true,
        },
        Action::pass(),
        Action::Swap,
        Action::Keep,
        Action::OfferDraw,
        Action::AcceptDraw,
        Action::DeclineDraw,
        Action::claim(p("J10")),
        Action::Resign,
        Action::Abort,
    ] {
        out.push(v(&a));
    }
    // Time controls and configurations.
    for t in [
        TimeControl::Unlimited,
        TimeControl::SuddenDeath { main_ms: 600_000 },
        TimeControl::Fischer {
            main_ms: 300_000,
            increment_ms: 5_000,
        },
        TimeControl::ByoYomi {
            main_ms: 600_000,
            periods: 3,
            period_ms: 30_000,
            moves_per_period: 1,
        },
    ] {
        out.push(v(&t));
    }
    out.push(v(&GameConfig::new(RuleSet::Gomoku)
        .with_opening(Opening::SwapAfterThree)
        .with_draw(DrawPolicy {
            max_offers: Some(3),
            answer_ms: Some(30_000),
        })));
    out.push(v(
        &GameConfig::new(RuleSet::Renju).with_forbidden(ForbiddenHandling::Lose)
    ));
    out.push(v(&GameConfig::new(RuleSet::Freestyle).with_size(19)));
    // A prompt to decide a swap (gomoku, after move 3).
    out.push(v(&Prompt {
        seat: Seat::First,
        task: Task::DecideSwap {
            color: Color::White,
        },
        may: vec![ActionKind::Swap, ActionKind::Keep, ActionKind::Resign],
        other_may: vec![ActionKind::Resign],
        stones_left: None,
    }));
    // Events not met in the walk-through.
    let clocks = Some(ClockSnapshot {
        running: Some(Seat::First),
        first: SeatClock {
            main_ms: 0,
            periods: 2,
            period_ms: 27_500,
            period_moves: 1,
            ..SeatClock::default()
        },
        second: SeatClock {
            main_ms: 412_000,
            ..SeatClock::default()
        },
    });
    for e in [
        Event::SwapDecided {
            seat: Seat::First,
            swapped: true,
            black: Seat::First,
            clocks,
        },
        Event::DrawOffered {
            seat: Seat::First,
            offers: 1,
        },
        Event::DrawDeclined {
            seat: Seat::Second,
            by_move: true,
        },
        Event::DrawOfferLapsed { seat: Seat::First },
        Event::DrawAccepted { seat: Seat::Second },
        Event::ClaimUpheld {
            seat: Seat::First,
            point: p("G7"),
            kind: Forbidden::DoubleThree,
        },
        Event::Violation {
            seat: Seat::First,
            kind: ViolationKind::FalseClaim,
            count: 1,
            point: Some(p("J10")),
        },
        Event::GameOver {
            result: GameResult {
                outcome: Outcome::Win {
                    seat: Seat::Second,
                    color: Color::White,
                },
                reason: ResultReason::Time { seat: Seat::First },
            },
            clocks,
            forbidden: vec![],
        },
        Event::GameOver {
            result: GameResult {
                outcome: Outcome::Win {
                    seat: Seat::First,
                    color: Color::White,
                },
                reason: ResultReason::ForbiddenClaimed {
                    point: p("G7"),
                    forbidden: Forbidden::DoubleThree,
                },
            },
            clocks: None,
            forbidden: vec![ForbiddenStone {
                move_number: 23,
                point: p("G7"),
                kind: Forbidden::DoubleThree,
            }],
        },
        Event::GameOver {
            result: GameResult {
                outcome: Outcome::Draw,
                reason: ResultReason::DrawAgreed,
            },
            clocks: None,
            forbidden: vec![],
        },
        Event::GameOver {
            result: GameResult {
                outcome: Outcome::Aborted,
                reason: ResultReason::Aborted { seat: None },
            },
            clocks: None,
            forbidden: vec![],
        },
    ] {
        out.push(v(&e));
    }
    opening_values(&mut out);
    twin::values(&mut out);
    table_values(&mut out);
    out
}

/// Twin turns, takebacks, absences and the eight-stone overtime's
/// readings, as values.
fn table_values(out: &mut Vec<String>) {
    let v = |x: &dyn erased::Ser| x.to_json();
    for a in [
        Action::EndTurn,
        Action::RequestTakeback,
        Action::AcceptTakeback,
        Action::DeclineTakeback,
    ] {
        out.push(v(&a));
    }
    let mv = |number, seat, color, point: &str| Move {
        number,
        seat,
        color,
        point: Some(p(point)),
        board: 0,
    };
    for e in [
        Event::TurnEnded {
            seat: Seat::Second,
            clocks: None,
        },
        Event::TakebackRequested { seat: Seat::First },
        Event::TakebackDeclined {
            seat: Seat::Second,
            by_move: false,
        },
        Event::TakenBack {
            seat: Seat::First,
            undone: vec![
                mv(9, Seat::First, Color::Black, "J10"),
                mv(10, Seat::Second, Color::White, "K11"),
            ],
            clocks: None,
        },
        Event::GameOver {
            result: GameResult {
                outcome: Outcome::Draw,
                reason: ResultReason::DrawCalled { seat: Seat::Second },
            },
            clocks: None,
            forbidden: vec![],
        },
        Event::GameOver {
            result: GameResult {
                outcome: Outcome::Draw,
                reason: ResultReason::BothAway,
            },
            clocks: None,
            forbidden: vec![],
        },
    ] {
        out.push(v(&e));
    }
    out.push(v(&TimeControl::EightStone {
        main_ms: 300_000,
        move_ms: 30_000,
        stones: 8,
        move_limit_in_main: true,
        shared_main: true,
    }));
}

/// Plays `steps` on a fresh untimed game of `config` (the first seat opens)
/// and returns the game with the events of the last step.
fn drive(config: GameConfig, steps: &[(Seat, Action)]) -> (Game, Vec<Event>) {
    let mut g = Game::new(config, Seat::First, 0).unwrap();
    let mut last = Vec::new();
    for (i, &(seat, action)) in steps.iter().enumerate() {
        last = g
            .apply(seat, action, 1_000 * (i as Millis + 1))
            .unwrap_or_else(|e| panic!("step {i}: {action:?} refused: {e}"));
    }
    (g, last)
}

/// The opening rules' values, each taken from a real game: the rule in a
/// room's configuration, the prompts of their tasks, their actions and
/// events, and the snapshot's `opening`.
fn opening_values(out: &mut Vec<String>) {
    use Seat::{First, Second};
    let v = |x: &dyn erased::Ser| x.to_json();
    let place = |s: &str| Action::place(p(s));
    let renju = |o: Opening| GameConfig::new(RuleSet::Renju).with_opening(o);
    // The rules in a room's configuration.
    for o in [
        Opening::Rif,
        Opening::Yamaguchi,
        Opening::SOOSORV,
        Opening::TARAGUCHI,
        Opening::Tarannikov,
        Opening::Jonsson,
        Opening::Yamaguchi52,
        Opening::YamaguchiVariant,
        Opening::Sakata,
        Opening::SuperSakata,
    ] {
        out.push(v(&renju(o)));
    }
    out.push(v(
        &GameConfig::new(RuleSet::Gomoku).with_opening(Opening::Swap2)
    ));
    let prompt = |g: &Game| v(&g.prompt(1_000_000).unwrap());
    // Kagetsu by the opener (first seat), as in the RIF walk-through.
    let kagetsu = [
        (First, place("H8")),
        (First, place("H9")),
        (First, place("I9")),
    ];
    // Yamaguchi: the opener declares 3 offers; later black offers three.
    let (g, ev) = drive(renju(Opening::Yamaguchi), &kagetsu);
    out.push(v(&ev[1]));
    out.push(prompt(&g));
    let mut steps = kagetsu.to_vec();
    steps.push((First, Action::DeclareOffers { count: 3 }));
    let (_, ev) = drive(renju(Opening::Yamaguchi), &steps);
    out.push(v(&Action::DeclareOffers { count: 3 }));
    out.push(v(&ev[0]));
    let three = Action::OfferFifths {
        points: offers(&["J10", "G9", "H7"]),
    };
    steps.extend([
        (Second, Action::Keep),
        (Second, place("I8")),
        (First, three),
    ]);
    let (g, ev) = drive(renju(Opening::Yamaguchi), &steps);
    out.push(v(&three));
    out.push(v(&ev[0]));
    out.push(prompt(&g));
    out.push(v(&g.snapshot(1_000_000).opening));
    let keep = Action::KeepFifth { point: p("H7") };
    steps.push((Second, keep));
    let (_, ev) = drive(renju(Opening::Yamaguchi), &steps);
    out.push(v(&keep));
    out.push(v(&ev[0]));
    // Yamaguchi with the 52 openings: black 3 outside the 5x5 forms one of
    // the 26 extensions.
    let large = [
        (First, place("H8")),
        (First, place("H9")),
        (First, place("H11")),
    ];
    let (_, ev) = drive(renju(Opening::Yamaguchi52), &large);
    out.push(v(&ev[1]));
    // The Yamaguchi variant: white 2 is the other seat's.
    let (g, _) = drive(renju(Opening::YamaguchiVariant), &kagetsu[..1]);
    out.push(prompt(&g));
    // Sakata: the other seat places black 5 too; Super Sakata's choice
    // follows it.
    let mut steps = kagetsu.to_vec();
    steps.push((Second, place("K11")));
    let (g, _) = drive(renju(Opening::Sakata), &steps);
    out.push(prompt(&g));
    steps.push((Second, place("L12")));
    let (g, _) = drive(renju(Opening::SuperSakata), &steps);
    out.push(prompt(&g));
    let two = Action::PlaceTwo {
        white: p("A1"),
        black: p("O15"),
    };
    steps.push((First, two));
    let (g, _) = drive(renju(Opening::SuperSakata), &steps);
    out.push(prompt(&g));
    // Soosõrv-8: white 4, then white declares, then black's swap option.
    let mut steps = kagetsu.to_vec();
    steps.extend([(Second, Action::Keep), (Second, place("I8"))]);
    let (g, _) = drive(renju(Opening::SOOSORV), &steps);
    out.push(prompt(&g));
    steps.push((Second, Action::DeclareOffers { count: 4 }));
    let (g, _) = drive(renju(Opening::SOOSORV), &steps);
    out.push(prompt(&g));
    // Taraguchi-10: a swap option after each of moves 1-3, 4 in the 7x7,
    // then black's choice.
    let steps = [
        (First, place("H8")),
        (Second, Action::Keep),
        (Second, place("H9")),
        (First, Action::Keep),
        (First, place("I9")),
        (Second, Action::Keep),
        (Second, place("K7")),
    ];
    let (g, _) = drive(renju(Opening::TARAGUCHI), &steps[..6]);
    out.push(prompt(&g));
    let (g, _) = drive(renju(Opening::TARAGUCHI), &steps);
    out.push(prompt(&g));
    let mut steps = steps.to_vec();
    for option in [TaraguchiOption::Single, TaraguchiOption::Offers] {
        out.push(v(&Action::ChooseOption { option }));
    }
    let choose = Action::ChooseOption {
        option: TaraguchiOption::Offers,
    };
    steps.push((First, choose));
    let (g, ev) = drive(renju(Opening::TARAGUCHI), &steps);
    out.push(v(&ev[0]));
    out.push(prompt(&g));
    out.push(v(&g.snapshot(1_000_000).opening));
    // Swap2 (gomoku): the opener's three stones, the second player's
    // choice, two stones at once, the opener's colour choice.
    let mut steps = vec![
        (First, place("H8")),
        (First, place("J9")),
        (First, place("G10")),
    ];
    let (g, _) = drive(
        GameConfig::new(RuleSet::Gomoku).with_opening(Opening::Swap2),
        &steps,
    );
    out.push(prompt(&g));
    let two = Action::PlaceTwo {
        white: p("G9"),
        black: p("H10"),
    };
    steps.push((Second, two));
    let (g, _) = drive(
        GameConfig::new(RuleSet::Gomoku).with_opening(Opening::Swap2),
        &steps,
    );
    out.push(v(&two));
    out.push(prompt(&g));
}

/// Every refusal of the referee, as `game_error`.
pub fn game_errors() -> Vec<GameError> {
    vec![
        GameError::GameOver,
        GameError::TimeUp { seat: Seat::First },
        GameError::NotYourTurn,
        GameError::OffBoard { point: p("P16") },
        GameError::Occupied { point: p("H8") },
        GameError::OutsideZone { within: 1 },
        GameError::ForbiddenPoint {
            point: p("G7"),
            kind: Forbidden::DoubleFour,
        },
        GameError::PassNotAllowed,
        GameError::SwapDecisionPending,
        GameError::NoSwapDecision,
        GameError::OfferNotAllowed,
        GameError::OfferPending,
        GameError::OfferLimit,
        GameError::OfferCap { max: 3 },
        GameError::NoDrawOffer,
        GameError::ClaimsDisabled,
        GameError::ClaimByBlack,
        GameError::AbortNotAllowed,
        GameError::TimeWentBackwards {
            now: 41_000,
            last: 42_000,
        },
        // The opening rules' refusals.
        GameError::WrongAction {
            task: Task::KeepFifth {
                offers: offers(&["J10", "G9"]),
            },
        },
        GameError::PassDuringOpening,
        GameError::OfferCountOutOfRange { count: 11, max: 10 },
        GameError::WrongOfferCount {
            expected: 2,
            got: 3,
        },
        GameError::RepeatedOffer { point: p("J10") },
        GameError::EquivalentOffers {
            first: p("J10"),
            second: p("G7"),
        },
        GameError::NotAnOffer { point: p("H7") },
        GameError::OpeningFive { point: p("E1") },
        // Twin rooms' refusals.
        GameError::NoSuchBoard {
            board: 2,
            boards: 2,
        },
        GameError::NoPassInTwin,
        // Claims that name their point, twin turns, takebacks.
        GameError::ClaimNotBlackStone { point: p("H9") },
        GameError::ClaimNotPossible,
        GameError::TurnCannotEnd,
        GameError::TakebacksOff,
        GameError::NothingToTakeBack,
        GameError::TakebackPending,
        GameError::TakebackDeclinedAlready,
        GameError::NoTakebackRequest,
    ]
}

/// Serializing heterogeneous values to JSON through one function.
mod erased {
    pub trait Ser {
        fn to_json(&self) -> String;
    }
    impl<T: serde::Serialize> Ser for T {
        fn to_json(&self) -> String {
            serde_json::to_string(self).unwrap()
        }
    }
}

/// The compact JSON line of a frame, as in the README.
pub fn json<T: serde::Serialize>(v: &T) -> String {
    serde_json::to_string(v).unwrap()
}

/// Clocks standing still: black (the first seat) to move.
fn paused_clocks() -> Option<ClockSnapshot> {
    Some(ClockSnapshot {
        running: Some(Seat::First),
        first: SeatClock {
            main_ms: 287_400,
            ..SeatClock::default()
        },
        second: SeatClock {
            main_ms: 291_050,
            ..SeatClock::default()
        },
    })
}
