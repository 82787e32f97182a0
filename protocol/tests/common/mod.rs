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
    GameConfig, GameError, GameResult, Millis, Opening, Outcome, Prompt, ResultReason, RuleSet,
    Seat, SeatClock, Task, TimeControl, ViolationKind,
};
use tengen_rules::{Color, Forbidden};

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
    }
}

pub fn bob() -> Player {
    Player {
        name: "bob".into(),
        guest: true,
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
        features: vec![],
    })
}

pub fn hello(name: &str) -> ClientMsg {
    ClientMsg::Hello(Hello {
        version: PROTOCOL_VERSION,
        client: Some("tengen-cli/0.1.0".into()),
        name: Some(name.into()),
    })
}

fn req(id: u64, msg: ClientMsg) -> ClientFrame {
    Envelope::with_id(Some(id), msg)
}

fn reply(id: u64, msg: ServerMsg) -> ServerFrame {
    Envelope::with_id(Some(id), msg)
}

pub fn room_info(status: RoomStatus, spectators: u32) -> RoomInfo {
    RoomInfo {
        room: room(),
        name: Some("alice's room".into()),
        config: config(),
        players: Players {
            first: Some(alice()),
            second: (status != RoomStatus::Waiting).then(bob),
        },
        status,
        table: (status != RoomStatus::Waiting).then(table),
        spectators,
    }
}

/// One example of every client message.
pub fn client_examples() -> Vec<ClientFrame> {
    vec![
        req(1, hello("alice")),
        req(2, ClientMsg::Ping),
        req(3, ClientMsg::LobbySubscribe),
        req(4, ClientMsg::LobbyUnsubscribe),
        req(5, ClientMsg::ListRooms),
        req(
            6,
            ClientMsg::CreateRoom {
                config: config(),
                public: true,
                name: Some("alice's room".into()),
            },
        ),
        req(7, ClientMsg::JoinRoom { room: room() }),
        req(8, ClientMsg::LeaveRoom { room: room() }),
        req(9, ClientMsg::CancelRoom { room: room() }),
        req(10, ClientMsg::Watch { table: table() }),
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
    ]
}

/// One example of every server message, and of the error variants.
pub fn server_examples() -> Vec<ServerFrame> {
    let mut g = Game::new(config(), Seat::Second, 0).unwrap();
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
            })),
        ),
        Envelope::push(ServerMsg::TableEvent(stamped[0].clone())),
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
    ]
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
                config: config(),
                public: true,
                name: Some("alice's room".into()),
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
    let mut g = Game::new(config(), Seat::Second, 0).unwrap();
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
                        },
                    ),
                ),
            ));
            out.push(Client("carol", req(2, ClientMsg::Watch { table: table() })));
            let mut s = snap(&g, seq, 16_000, None, 1);
            s.id = Some(2);
            out.push(Server("carol", s));
            out.push(Server(
                "alice, bob",
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
            offer_draw: true,
        },
        Action::pass(),
        Action::Swap,
        Action::Keep,
        Action::OfferDraw,
        Action::AcceptDraw,
        Action::DeclineDraw,
        Action::ClaimForbidden,
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
    }));
    // Events not met in the walk-through.
    let clocks = Some(ClockSnapshot {
        running: Some(Seat::First),
        first: SeatClock {
            main_ms: 0,
            periods: 2,
            period_ms: 27_500,
            period_moves: 1,
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
    out
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
