//! Example tournament messages (see `protocol/README.md`, "Tournaments").

use tengen_protocol::*;
use tengen_rules::game::Seat;

use super::{config, room, table};

const T: &str = "3k9d2m7qv1x0a";

fn t() -> String {
    T.to_owned()
}

pub fn spec() -> TournamentSpec {
    TournamentSpec {
        name: "Spring Swiss".into(),
        system: TournamentSystem::Swiss,
        rounds: Some(5),
        games: None,
        config: config(),
        rated: true,
        start_ms: Some(1_767_225_600_000),
        entry: EntryLimits {
            min_rating: Some(1400),
            max_rating: None,
            accounts_only: true,
            bots: false,
            max_players: Some(64),
        },
        tie_breaks: Some(vec![TieBreakName::Buchholz]),
        wait_secs: None,
        seed: None,
        duration_secs: None,
        decider_time: None,
    }
}

fn summary() -> TournamentSummary {
    TournamentSummary {
        id: t(),
        name: "Spring Swiss".into(),
        system: TournamentSystem::Swiss,
        state: TournamentState::Running,
        organiser: "olga".into(),
        players: 3,
        round: 1,
        rounds: 5,
        rated: true,
        start_ms: Some(1_767_225_600_000),
    }
}

fn view() -> TournamentView {
    let tb = |v: &str| {
        vec![TieBreakValue {
            name: "Buch".into(),
            value: v.into(),
        }]
    };
    TournamentView {
        summary: summary(),
        spec: spec(),
        players: vec![
            TournamentPlayer {
                name: "alice".into(),
                rating: 1620,
                withdrawn: false,
            },
            TournamentPlayer {
                name: "bob".into(),
                rating: 1540,
                withdrawn: false,
            },
            TournamentPlayer {
                name: "carol".into(),
                rating: 1500,
                withdrawn: true,
            },
        ],
        rounds: vec![RoundView {
            round: 1,
            boards: vec![
                BoardView {
                    board: 1,
                    first: "alice".into(),
                    second: Some("bob".into()),
                    games: vec!["1-0".into()],
                    table: None,
                    over: true,
                },
                BoardView {
                    board: 2,
                    first: "carol".into(),
                    second: None,
                    games: vec![],
                    table: None,
                    over: true,
                },
            ],
        }],
        standings: vec![
            StandingView {
                rank: 1,
                name: "alice".into(),
                points: "1".into(),
                tie_breaks: tb("0"),
            },
            StandingView {
                rank: 1,
                name: "carol".into(),
                points: "1".into(),
                tie_breaks: tb("1"),
            },
            StandingView {
                rank: 3,
                name: "bob".into(),
                points: "0".into(),
                tie_breaks: tb("1"),
            },
        ],
        crosstable: "1 alice 2b1 1\n".into(),
        cross: vec![CrossRow {
            rank: 1,
            name: "alice".into(),
            rating: 1620,
            rounds: vec![CrossCell {
                opponent: Some(3),
                seat: Some(Seat::First),
                result: "1".into(),
            }],
            points: "1".into(),
            tie_breaks: tb("0"),
            withdrawn: false,
        }],
        stalled: None,
        warning: None,
    }
}

/// Every tournament request, with ids 101 on.
pub fn client_examples() -> Vec<ClientFrame> {
    let msgs = vec![
        ClientMsg::CreateTournament { tournament: spec() },
        ClientMsg::Tournaments,
        ClientMsg::Tournament { tournament: t() },
        ClientMsg::JoinTournament { tournament: t() },
        ClientMsg::WithdrawTournament { tournament: t() },
        ClientMsg::StartTournament { tournament: t() },
        ClientMsg::WatchTournament { tournament: t() },
        ClientMsg::UnwatchTournament { tournament: t() },
        ClientMsg::TournamentExport { tournament: t() },
        ClientMsg::TournamentResult {
            tournament: t(),
            round: 1,
            board: 1,
            game: 0,
            result: ReportedResult::First,
        },
        ClientMsg::EndTournament { tournament: t() },
        ClientMsg::PairTournament {
            tournament: t(),
            round: 4,
            boards: vec![["alice".into(), "bob".into()]],
            bye: Some("dave".into()),
        },
    ];
    msgs.into_iter()
        .enumerate()
        .map(|(i, m)| Envelope::with_id(Some(101 + i as u64), m))
        .collect()
}

/// Every tournament reply and push.
pub fn server_examples() -> Vec<ServerFrame> {
    vec![
        Envelope::push(ServerMsg::Matched {
            room: room(),
            table: table(),
            seat: Seat::Second,
            opponent: Player {
                name: "alice".into(),
                guest: false,
                bot: false,
            },
            config: config(),
            tournament: Some(TournamentGame {
                tournament: t(),
                round: 2,
                board: 1,
                game: 0,
            }),
        }),
        Envelope::with_id(
            Some(101),
            ServerMsg::TournamentCreated {
                tournament: summary(),
            },
        ),
        Envelope::with_id(
            Some(102),
            ServerMsg::TournamentList {
                tournaments: vec![summary()],
            },
        ),
        Envelope::with_id(
            Some(103),
            ServerMsg::TournamentInfo {
                tournament: Box::new(view()),
            },
        ),
        Envelope::with_id(Some(104), ServerMsg::TournamentJoined { tournament: t() }),
        Envelope::with_id(
            Some(105),
            ServerMsg::TournamentWithdrawn { tournament: t() },
        ),
        Envelope::with_id(Some(106), ServerMsg::TournamentStarted { tournament: t() }),
        Envelope::push(ServerMsg::TournamentUpdate {
            tournament: Box::new(view()),
        }),
        Envelope::with_id(
            Some(108),
            ServerMsg::TournamentUnwatched { tournament: t() },
        ),
        Envelope::with_id(
            Some(109),
            ServerMsg::TournamentExported {
                tournament: t(),
                crosstable: "1 alice 2b1 1\n".into(),
                trf: "012 Spring Swiss\n".into(),
            },
        ),
        Envelope::with_id(Some(110), ServerMsg::TournamentRecorded { tournament: t() }),
        Envelope::with_id(Some(111), ServerMsg::TournamentEnded { tournament: t() }),
        Envelope::with_id(
            Some(112),
            ServerMsg::TournamentPaired {
                tournament: t(),
                round: 4,
            },
        ),
        Envelope::push(ServerMsg::TournamentStalled {
            tournament: t(),
            round: 4,
            reason: "no pairing respects the absolute rules (no rematch, seats, one bye each)"
                .into(),
        }),
    ]
}
