//! What the explorer needs of one finished game, read from its record by
//! replaying it through the referee.

use tengen_protocol::{ColorResult, RatingBand, Speed};
use tengen_rules::game::{Event, GameRecord, Opening, Outcome, ReplayError, RuleSet, Seat};
use tengen_rules::{Color, Point};

use super::speed_of;

/// Why a game is not indexed.
#[derive(Debug, thiserror::Error)]
pub enum FactsError {
    #[error("the record does not replay: {0}")]
    Replay(#[from] ReplayError),
    #[error("the game has no result, or was aborted")]
    NoResult,
    #[error("twin games (two boards) are not indexed")]
    TwoBoards,
}

/// Who played, by seat, as the server knows them: an account's name (for
/// the players' own explorers) or `None` (a guest, an imported game), and
/// the names shown; and the seats' ratings before the game, when rated.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Players {
    /// The accounts, by seat (first, second).
    pub accounts: [Option<String>; 2],
    /// The names shown, by seat.
    pub names: [String; 2],
    /// Both seats' ratings, when both had one.
    pub ratings: Option<[f64; 2]>,
}

/// One finished game, as the explorer counts it.
#[derive(Clone, Debug, PartialEq)]
pub struct GameFacts {
    pub id: String,
    pub rule_set: RuleSet,
    pub opening: Opening,
    pub size: u8,
    /// The stones in play order (black first, colours alternating), up to
    /// the first pass.
    pub moves: Vec<Point>,
    /// Fifth-move offer sets: after how many moves, the points, and the
    /// one white kept.
    pub offers: Vec<(usize, Vec<Point>, Option<Point>)>,
    pub result: ColorResult,
    /// The accounts that held black and white at the end (name keys).
    pub black_account: Option<String>,
    pub white_account: Option<String>,
    pub black_name: String,
    pub white_name: String,
    /// The players' average rating.
    pub rating: Option<f64>,
    pub speed: Speed,
    pub band: RatingBand,
    pub finished_ms: u64,
}

/// The facts of the finished game `id` from its record.
pub fn facts(
    id: &str,
    record: &GameRecord,
    players: &Players,
    finished_ms: u64,
) -> Result<GameFacts, FactsError> {
    facts_stated(id, record, players, finished_ms, None)
}

/// As [`facts`], with the result a record's text states (`stated`) for a
/// game whose moves alone do not end it: an imported stone list whose
/// tags say who won by resignation or on time.
pub fn facts_stated(
    id: &str,
    record: &GameRecord,
    players: &Players,
    finished_ms: u64,
    stated: Option<ColorResult>,
) -> Result<GameFacts, FactsError> {
    if record.config.rule_set.boards() > 1 {
        return Err(FactsError::TwoBoards);
    }
    let mut moved = 0usize;
    let mut offers: Vec<(usize, Vec<Point>, Option<Point>)> = Vec::new();
    let game = record.replay_with(|_, events| {
        for e in events {
            match e {
                Event::Moved { .. } => moved += 1,
                Event::FifthsOffered { points, .. } if points.len() > 1 => {
                    offers.push((moved, points.as_slice().to_vec(), None));
                }
                Event::FifthKept { kept, .. } => {
                    if let Some(last) = offers.last_mut().filter(|o| o.0 == moved) {
                        last.2 = Some(*kept);
                    }
                }
                _ => {}
            }
        }
    })?;
    let result = match game.result().map(|r| r.outcome) {
        Some(Outcome::Win {
            color: Color::Black,
            ..
        }) => ColorResult::Black,
        Some(Outcome::Win {
            color: Color::White,
            ..
        }) => ColorResult::White,
        Some(Outcome::Draw) => ColorResult::Draw,
        Some(Outcome::Aborted) => return Err(FactsError::NoResult),
        None => stated.ok_or(FactsError::NoResult)?,
    };
    let moves: Vec<Point> = game.moves().iter().map_while(|m| m.point).collect();
    let black = game.seat_of(Color::Black);
    let by_color = |seat: Seat| seat.index();
    let (b, w) = (by_color(black), by_color(black.other()));
    let rating = players.ratings.map(|r| (r[0] + r[1]) / 2.0);
    Ok(GameFacts {
        id: id.to_owned(),
        rule_set: record.config.rule_set,
        opening: record.config.opening,
        size: record.config.board_size,
        moves,
        offers,
        result,
        black_account: players.accounts[b].clone(),
        white_account: players.accounts[w].clone(),
        black_name: players.names[b].clone(),
        white_name: players.names[w].clone(),
        rating,
        speed: speed_of(&record.config.time),
        band: RatingBand::of(rating),
        finished_ms,
    })
}
