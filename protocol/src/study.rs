//! The vocabulary of studying games: the opening explorer, puzzles made
//! from the wins players missed, and the forbidden-point trainer.
//!
//! Why apart from `analysis`: these are views of what the server has
//! gathered from every finished game (an index of positions, a pool of
//! puzzles with their ratings), not of one game. Points are the rules
//! crate's [`Point`] (`"H8"`), forbidden kinds its [`Forbidden`], in the
//! orientation the client asked in: the server merges the eight rotations
//! and reflections of a position, and answers in the asker's.

use serde::{Deserialize, Serialize};
use tengen_rules::game::{ForbiddenPoint, Opening, RuleSet};
use tengen_rules::{Color, Point};

use crate::ids::TableId;

/// A time control's class, by the time a game of about 40 moves a side
/// takes: main time plus 40 times what each move adds (Fischer's
/// increment, a byo-yomi period per move, an eight-stone overtime's
/// stones). Below 3 minutes `bullet`, below 10 `blitz`, below 30
/// `rapid`, else `classical`; days per move `correspondence`; no clocks
/// `unlimited`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum Speed {
    Bullet,
    Blitz,
    Rapid,
    Classical,
    Correspondence,
    Unlimited,
}

impl Speed {
    /// Every class, fastest first.
    pub const ALL: [Speed; 6] = [
        Speed::Bullet,
        Speed::Blitz,
        Speed::Rapid,
        Speed::Classical,
        Speed::Correspondence,
        Speed::Unlimited,
    ];
}

/// The players' average rating (in the game's rule family, as it stood
/// when the game was played), in bands of 200; `unrated` when either
/// player had none (guests, imported games).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub enum RatingBand {
    #[serde(rename = "unrated")]
    Unrated,
    #[serde(rename = "<1300")]
    Below1300,
    #[serde(rename = "1300-1499")]
    From1300,
    #[serde(rename = "1500-1699")]
    From1500,
    #[serde(rename = "1700-1899")]
    From1700,
    #[serde(rename = "1900-2099")]
    From1900,
    #[serde(rename = "2100+")]
    From2100,
}

impl RatingBand {
    /// Every band, lowest first.
    pub const ALL: [RatingBand; 7] = [
        RatingBand::Unrated,
        RatingBand::Below1300,
        RatingBand::From1300,
        RatingBand::From1500,
        RatingBand::From1700,
        RatingBand::From1900,
        RatingBand::From2100,
    ];

    /// The band of an average rating (`None`: unrated).
    pub fn of(rating: Option<f64>) -> RatingBand {
        match rating {
            None => RatingBand::Unrated,
            Some(r) if r < 1300.0 => RatingBand::Below1300,
            Some(r) if r < 1500.0 => RatingBand::From1300,
            Some(r) if r < 1700.0 => RatingBand::From1500,
            Some(r) if r < 1900.0 => RatingBand::From1700,
            Some(r) if r < 2100.0 => RatingBand::From1900,
            Some(_) => RatingBand::From2100,
        }
    }
}

/// Which games an explorer view counts. Every part is optional: an empty
/// list or an absent bound counts everything.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct ExplorerFilter {
    /// Only games of these time-control classes.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub speeds: Vec<Speed>,
    /// Only games of these rating bands.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub bands: Vec<RatingBand>,
    /// Only games that ended in this month or later, `"2026-01"` (UTC).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub since: Option<String>,
    /// Only games that ended in this month or earlier, `"2026-12"` (UTC).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub until: Option<String>,
    /// Only this player's games (an account's name, any case): the
    /// player's own explorer. Imported games belong to no player.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub player: Option<String>,
    /// With `player`: only the games where they held this colour.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub color: Option<Color>,
}

/// Games through a position and how they ended.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct NodeStats {
    pub games: u64,
    /// Won by black.
    pub black: u64,
    pub draws: u64,
    /// Won by white.
    pub white: u64,
    /// The mean of the games' average ratings, over the rated ones; absent
    /// when none was rated.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rating: Option<u32>,
}

/// A move played from the position, and the games that played it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct NextMove {
    /// In the orientation of the position asked for. Moves that are the
    /// same move under a symmetry of the position itself are one, shown
    /// at one of their points.
    pub point: Point,
    pub stats: NodeStats,
}

/// A fifth-move offer black made in the position, and how often white
/// kept it (the kept offer's games are its [`NextMove`]).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct OfferCount {
    pub point: Point,
    pub offered: u64,
    pub kept: u64,
}

/// How a game ended, by colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum ColorResult {
    Black,
    Draw,
    White,
}

/// One of the latest games through the position.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct ExplorerGame {
    /// The finished game (`game_record`, `/game/ID` in the web client).
    pub game: TableId,
    pub black: String,
    pub white: String,
    pub result: ColorResult,
    /// When it ended, Unix milliseconds.
    pub finished_ms: u64,
    pub speed: Speed,
    pub band: RatingBand,
}

/// The canonical opening the first three stones form (renju): its code
/// (`D4`), romanised and Chinese names.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct OpeningName {
    pub code: String,
    pub name: String,
    pub chinese: String,
}

/// The reply to `explore`: the position after `moves`, counted over the
/// games the filter admits.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct ExplorerView {
    pub rule_set: RuleSet,
    pub opening: Opening,
    pub board_size: u8,
    /// The moves asked for, as asked.
    pub moves: Vec<Point>,
    pub filter: ExplorerFilter,
    /// Who moves next.
    pub to_move: Color,
    /// The canonical opening, once the first three stones form one
    /// (renju, by any symmetry).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub opening_name: Option<OpeningName>,
    /// Every game that reached the position (by any order of moves and
    /// any symmetry).
    pub stats: NodeStats,
    /// The moves played from it, most played first.
    pub next: Vec<NextMove>,
    /// The fifth-move offers made in it, most offered first (opening rules
    /// with offers).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub offers: Vec<OfferCount>,
    /// The latest games through it, newest first (at most 8).
    pub games: Vec<ExplorerGame>,
    /// How many moves deep the server indexes games: the position after
    /// that many moves has no `next`.
    pub depth: u32,
}

/// What a puzzle asks for, and how it was won: `vcf` (fours only) or
/// `vct` (threes and fours); `black` or `white` to play;
/// `forbidden`: the win forces black onto a forbidden point (a white
/// puzzle in renju whose last defence is forbidden).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum PuzzleTheme {
    Vcf,
    Vct,
    Black,
    White,
    Forbidden,
}

/// A puzzle to solve: a position from a finished game where the side to
/// move had a forced win and played something else.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct PuzzleView {
    pub puzzle: String,
    /// This try; name it in `puzzle_move`. Valid for an hour on the
    /// server that gave it.
    pub attempt: String,
    pub rule_set: RuleSet,
    pub board_size: u8,
    pub black: Vec<Point>,
    pub white: Vec<Point>,
    /// Who plays, and wins.
    pub to_move: Color,
    pub themes: Vec<PuzzleTheme>,
    /// The puzzle's Glicko-2 rating.
    pub rating: u32,
    /// Rated tries so far, and how many were solved.
    pub plays: u32,
    pub solved: u32,
    /// The game it comes from, and the move that missed the win (the
    /// position is the one before it).
    pub game: TableId,
    pub move_number: u32,
    /// The day this is the daily puzzle of (`"2026-12-05"`, UTC), when
    /// asked as such.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub daily: Option<String>,
    /// Whether this try changes your puzzle rating: an account's first
    /// try of this puzzle.
    pub rated: bool,
    /// Your puzzle rating (accounts), before this try.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub your_rating: Option<u32>,
}

/// Where a try stands after a move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum StepOutcome {
    /// The move keeps the win: the defender answered with `reply`; play on.
    Continue,
    /// The move wins: a five, or a threat the defender cannot stop.
    Solved,
    /// The move lets the win go (or is forbidden): the try is over.
    Failed,
}

/// A rating before and after a rated try.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct RatingChange {
    pub before: u32,
    pub after: u32,
}

/// The reply to `puzzle_move`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct PuzzleStep {
    pub attempt: String,
    /// The move judged.
    pub point: Point,
    pub outcome: StepOutcome,
    /// The defender's answer (with `continue`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reply: Option<Point>,
    /// Why the try failed: `forbidden` (black's move is forbidden there)
    /// or `no_win` (after it the forced win is gone).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// Once the try is over: a winning line from the puzzle's position
    /// (attacker and defender in turn), as the server's solver found it.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub solution: Vec<Point>,
    /// Once a rated try is over: your puzzle rating's change.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rating: Option<RatingChange>,
}

/// A puzzle made from a game, as the game lists it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct PuzzleRef {
    pub puzzle: String,
    pub move_number: u32,
    pub to_move: Color,
    pub themes: Vec<PuzzleTheme>,
    pub rating: u32,
}

/// A forbidden-point exercise: black to move in a position from a real
/// renju game where a forbidden point mattered.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct TrainerPosition {
    pub position: String,
    pub board_size: u8,
    pub black: Vec<Point>,
    pub white: Vec<Point>,
    pub game: TableId,
    /// The black move about to be played in that game.
    pub move_number: u32,
}

/// The referee's judgement of a trainer answer.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct TrainerVerdict {
    pub position: String,
    /// Every forbidden point marked with its kind, and nothing else.
    pub correct: bool,
    /// Every point forbidden for black, with the kind the referee gives
    /// (the first of overline, double four, double three when several
    /// apply).
    pub forbidden: Vec<ForbiddenPoint>,
    /// Marked, and forbidden of the kind marked.
    pub right: Vec<Point>,
    /// Forbidden, not marked.
    pub missed: Vec<Point>,
    /// Marked, but not forbidden.
    pub wrong: Vec<Point>,
    /// Marked and forbidden, but of another kind than marked.
    pub wrong_kind: Vec<Point>,
}

/// The longest puzzle or trainer position id accepted.
pub const MAX_STUDY_ID_CHARS: usize = 32;

/// Checks an id a client names (a puzzle, an attempt, a trainer
/// position): 1 to [`MAX_STUDY_ID_CHARS`] characters of `0-9`, `a-z`.
pub fn check_study_id(what: &str, id: &str) -> Result<(), String> {
    if id.is_empty()
        || id.len() > MAX_STUDY_ID_CHARS
        || !id
            .bytes()
            .all(|b| b.is_ascii_digit() || b.is_ascii_lowercase())
    {
        return Err(format!(
            "{what} must be 1 to {MAX_STUDY_ID_CHARS} characters of 0-9 and a-z"
        ));
    }
    Ok(())
}

/// A month as the explorer's filter writes it (`"2026-01"`), as a count
/// of months since year 0 (`year * 12 + month - 1`).
pub fn parse_month(s: &str) -> Option<u32> {
    let (y, m) = s.split_once('-')?;
    if y.len() != 4 || m.len() != 2 {
        return None;
    }
    let (y, m): (u32, u32) = (y.parse().ok()?, m.parse().ok()?);
    (1..=12).contains(&m).then_some(y * 12 + m - 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bands_and_months() {
        assert_eq!(RatingBand::of(None), RatingBand::Unrated);
        assert_eq!(RatingBand::of(Some(1299.9)), RatingBand::Below1300);
        assert_eq!(RatingBand::of(Some(1500.0)), RatingBand::From1500);
        assert_eq!(RatingBand::of(Some(2400.0)), RatingBand::From2100);
        assert_eq!(
            serde_json::to_string(&RatingBand::From1700).unwrap(),
            "\"1700-1899\""
        );
        assert_eq!(parse_month("2026-01"), Some(2026 * 12));
        assert_eq!(parse_month("2026-12"), Some(2026 * 12 + 11));
        assert_eq!(parse_month("2026-13"), None);
        assert_eq!(parse_month("26-01"), None);
        assert!(check_study_id("puzzle", "0af3").is_ok());
        assert!(check_study_id("puzzle", "0AF3").is_err());
        assert!(check_study_id("puzzle", "").is_err());
    }
}
