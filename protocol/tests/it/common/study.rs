//! Example messages of the opening explorer, puzzles and the trainer.

use tengen_protocol::*;
use tengen_rules::game::{ForbiddenPoint, Opening, RuleSet};
use tengen_rules::{Color, Forbidden};

use super::{p, table};

const PUZZLE: &str = "9f3a0c1e77b2d405";
const TRY: &str = "51c0ffee0000a1b2";

fn stats(games: u64, black: u64, draws: u64, rating: Option<u32>) -> NodeStats {
    NodeStats {
        games,
        black,
        draws,
        white: games - black - draws,
        rating,
    }
}

pub fn client_examples() -> Vec<ClientFrame> {
    [
        ClientMsg::Explore {
            rule_set: RuleSet::Renju,
            opening: Opening::Rif,
            board_size: None,
            moves: vec![p("H8"), p("I9"), p("J10")],
            filter: ExplorerFilter {
                speeds: vec![Speed::Blitz, Speed::Rapid],
                bands: vec![RatingBand::From1900, RatingBand::From2100],
                since: Some("2026-01".into()),
                until: None,
                player: Some("alice".into()),
                color: Some(Color::Black),
            },
        },
        ClientMsg::NextPuzzle {
            theme: Some(PuzzleTheme::Vcf),
        },
        ClientMsg::Puzzle {
            puzzle: PUZZLE.into(),
        },
        ClientMsg::DailyPuzzle,
        ClientMsg::PuzzleMove {
            attempt: TRY.into(),
            point: p("H11"),
        },
        ClientMsg::GamePuzzles { game: table() },
        ClientMsg::TrainerNext,
        ClientMsg::TrainerAnswer {
            position: "0a1b2c3d4e5f6071".into(),
            marks: vec![ForbiddenPoint {
                point: p("H8"),
                kind: Forbidden::DoubleThree,
            }],
        },
    ]
    .into_iter()
    .enumerate()
    .map(|(i, m)| Envelope::with_id(Some(201 + i as u64), m))
    .collect()
}

pub fn server_examples() -> Vec<ServerFrame> {
    let view = ExplorerView {
        rule_set: RuleSet::Renju,
        opening: Opening::Rif,
        board_size: 15,
        moves: vec![p("H8"), p("I9"), p("J10")],
        filter: ExplorerFilter::default(),
        to_move: Color::White,
        opening_name: Some(OpeningName {
            code: "I1".into(),
            name: "Chosei".into(),
            chinese: "长星".into(),
        }),
        stats: stats(12, 7, 1, Some(1840)),
        next: vec![
            NextMove {
                point: p("K11"),
                stats: stats(9, 6, 0, Some(1870)),
            },
            NextMove {
                point: p("I10"),
                stats: stats(3, 1, 1, None),
            },
        ],
        offers: vec![],
        games: vec![ExplorerGame {
            game: table(),
            black: "alice".into(),
            white: "bob".into(),
            result: ColorResult::Black,
            finished_ms: 1_767_225_600_000,
            speed: Speed::Blitz,
            band: RatingBand::From1700,
        }],
        depth: 20,
    };
    let puzzle = PuzzleView {
        puzzle: PUZZLE.into(),
        attempt: TRY.into(),
        rule_set: RuleSet::Renju,
        board_size: 15,
        black: vec![p("H8"), p("H9"), p("H10")],
        white: vec![p("A1"), p("A3"), p("A5")],
        to_move: Color::Black,
        themes: vec![PuzzleTheme::Vcf, PuzzleTheme::Black],
        rating: 1100,
        plays: 41,
        solved: 33,
        game: table(),
        move_number: 7,
        daily: Some("2026-12-05".into()),
        rated: true,
        your_rating: Some(1500),
    };
    vec![
        Envelope::with_id(Some(201), ServerMsg::Explorer(Box::new(view))),
        Envelope::with_id(Some(202), ServerMsg::Puzzle(Box::new(puzzle))),
        Envelope::with_id(
            Some(205),
            ServerMsg::PuzzleStep(PuzzleStep {
                attempt: TRY.into(),
                point: p("H11"),
                outcome: StepOutcome::Solved,
                reply: None,
                reason: None,
                solution: vec![p("H11")],
                rating: Some(RatingChange {
                    before: 1500,
                    after: 1537,
                }),
            }),
        ),
        Envelope::with_id(
            Some(206),
            ServerMsg::GamePuzzles {
                game: table(),
                puzzles: vec![PuzzleRef {
                    puzzle: PUZZLE.into(),
                    move_number: 7,
                    to_move: Color::Black,
                    themes: vec![PuzzleTheme::Vcf, PuzzleTheme::Black],
                    rating: 1100,
                }],
            },
        ),
        Envelope::with_id(
            Some(207),
            ServerMsg::TrainerPosition(TrainerPosition {
                position: "0a1b2c3d4e5f6071".into(),
                board_size: 15,
                black: vec![p("G8"), p("I8"), p("H7"), p("H9")],
                white: vec![p("A1"), p("A3"), p("A5"), p("A7")],
                game: table(),
                move_number: 9,
            }),
        ),
        Envelope::with_id(
            Some(208),
            ServerMsg::TrainerVerdict(TrainerVerdict {
                position: "0a1b2c3d4e5f6071".into(),
                correct: true,
                forbidden: vec![ForbiddenPoint {
                    point: p("H8"),
                    kind: Forbidden::DoubleThree,
                }],
                right: vec![p("H8")],
                missed: vec![],
                wrong: vec![],
                wrong_kind: vec![],
            }),
        ),
    ]
}
