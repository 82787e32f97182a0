//! The vocabulary of accounts and ranked play: rating families, login
//! replies, leaderboards, profiles, game histories, record exports and the
//! tables an account sits at.
//!
//! Ratings travel as plain numbers (Glicko-2 rating, deviation and, in a
//! profile, volatility); what they mean, which rule family a game counts
//! for, and when a rating is provisional or inactive are the server's rules
//! (`server/src/ratings.rs`), stated here only as documentation.

use serde::{Deserialize, Serialize};
use tengen_rules::game::{GameConfig, GameRecord, GameResult, RuleSet, Seat};

use crate::ids::TableId;
use crate::lobby::Player;

/// A rating family: the games one rating counts. Renju under every opening
/// rule is one family; standard gomoku, free-style and twin (two boards)
/// are the others. The wire form is the snake_case name (`"renju"`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum RatingFamily {
    Renju,
    Gomoku,
    Freestyle,
    Twin,
}

impl RatingFamily {
    /// Every family, in documentation order.
    pub const ALL: [RatingFamily; 4] = [
        RatingFamily::Renju,
        RatingFamily::Gomoku,
        RatingFamily::Freestyle,
        RatingFamily::Twin,
    ];

    /// The family a game of `rule_set` counts for (whatever its opening
    /// rule, board size or time control).
    pub fn of(rule_set: RuleSet) -> RatingFamily {
        match rule_set {
            RuleSet::Renju => RatingFamily::Renju,
            RuleSet::Gomoku => RatingFamily::Gomoku,
            RuleSet::Freestyle => RatingFamily::Freestyle,
            RuleSet::Twin => RatingFamily::Twin,
        }
    }

    /// The wire name, also the store's family key.
    pub fn as_str(self) -> &'static str {
        match self {
            RatingFamily::Renju => "renju",
            RatingFamily::Gomoku => "gomoku",
            RatingFamily::Freestyle => "freestyle",
            RatingFamily::Twin => "twin",
        }
    }

    /// The family named `s` (the wire name).
    pub fn parse(s: &str) -> Option<RatingFamily> {
        RatingFamily::ALL.into_iter().find(|f| f.as_str() == s)
    }
}

impl std::fmt::Display for RatingFamily {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The reply to `login` and `register`: this session is now the account's.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct LoggedIn {
    /// You, as others see you now (`guest: false`).
    pub player: Player,
    /// The login token (32 hex digits, a secret): `hello.token` with it
    /// opens an account session on a later connection, until `expires_ms`
    /// or `logout`.
    pub token: String,
    /// When the token stops working, in Unix milliseconds.
    pub expires_ms: u64,
    /// A fair-play wait this account is serving now (rated games refused
    /// until it ends), if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub playban: Option<crate::moderation::Playban>,
}

/// One line of a leaderboard.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Standing {
    /// 1 for the highest rating of the list.
    pub rank: u32,
    pub player: String,
    pub rating: f64,
    pub deviation: f64,
    /// Rated games in this family, and their outcomes.
    pub games: u32,
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
}

fn is_false(b: &bool) -> bool {
    !*b
}

/// A family's leaderboard.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Leaderboard {
    pub family: RatingFamily,
    /// Bot accounts' leaderboard (`true`) or people's (absent).
    #[serde(default, skip_serializing_if = "is_false")]
    pub bots: bool,
    /// Established, active players, highest rating first (at most
    /// [`crate::limits::MAX_LEADERBOARD`]).
    pub players: Vec<Standing>,
    /// Established players with fewer than 7 rated games in the last 12
    /// months, listed apart (same order and bound).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub inactive: Vec<Standing>,
}

/// One point of a rating's history: the rating after a game.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct RatingPoint {
    pub game: TableId,
    /// When the game ended, in Unix milliseconds.
    pub at_ms: u64,
    pub opponent: String,
    /// 1 win, 0.5 draw, 0 loss.
    pub score: f64,
    pub rating: f64,
    pub deviation: f64,
}

/// A player's rating in one family.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct FamilyRating {
    pub family: RatingFamily,
    pub rating: f64,
    pub deviation: f64,
    pub volatility: f64,
    pub games: u32,
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
    /// Fewer than 7 rated games, or fewer than 3 different opponents: the
    /// rating is not published on the leaderboard yet.
    pub provisional: bool,
    /// Fewer than 7 rated games in the last 12 months.
    pub inactive: bool,
    /// The rating after each of the latest games, oldest first (at most
    /// [`crate::limits::MAX_RATING_POINTS`]).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub history: Vec<RatingPoint>,
}

/// A registered player's profile.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Profile {
    pub player: Player,
    /// When the account was registered, in Unix milliseconds.
    pub created_ms: u64,
    /// One entry per family the player has rated games in.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub ratings: Vec<FamilyRating>,
}

/// One finished game in a player's history.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct GameSummary {
    /// The game's id (the id of the table it was played at): fetch it with
    /// `game_record`.
    pub game: TableId,
    /// When it ended, in Unix milliseconds.
    pub finished_ms: u64,
    /// The players' names, by seat (first, second).
    pub players: Vec<String>,
    /// Set on the entry a moderator's `reset_rating` adds: the game whose
    /// rating changes it reversed (its record is that game's, marked).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reverses: Option<TableId>,
    /// How it ended (who won, with which colour, and why).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub result: Option<GameResult>,
    /// The seat that held black at the end (after any swap): with
    /// `players`, each player's colour.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub black: Option<Seat>,
    /// The room's configuration: rule set, opening rule, time control.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub config: Option<GameConfig>,
    /// The canonical opening the first three stones formed, in the renju
    /// opening rules: its code, romanised name and Chinese name
    /// (`["I1", "Chosei", "长星"]`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub opening: Option<[String; 3]>,
}

/// A table where one of an account's sessions sits (a `my_tables` entry).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct SeatedTable {
    /// The table: `watch` it after resuming the session.
    pub table: TableId,
    /// The resume token of the session seated there: `hello.resume` with
    /// it takes that session (and its seat) over.
    pub resume_token: String,
    /// Whether a connection holds that session now (another tab or
    /// device): resuming it closes that connection with 4005.
    pub online: bool,
}

/// The formats a finished game's record can be fetched in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum RecordFormat {
    /// The full record (every action with its time and clocks, the
    /// result), as the JSON object `record`.
    Json,
    /// The game in renju notation as renju players keep it, as `text`:
    /// tags (rule set, opening rule, date, players by colour, the opening,
    /// the fifth-move offers, result and why), then the numbered moves with
    /// the opening's decisions in braces (`1. h8 2. i9 3. j10 {swap}`).
    Renju,
    /// Piskvork's PSQ, as `text`.
    Psq,
}

/// The reply to `game_record`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct RecordExport {
    pub game: TableId,
    pub format: RecordFormat,
    /// With `json`: the game record.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub record: Option<Box<GameRecord>>,
    /// With `renju` and `psq`: the text.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub text: Option<String>,
}

// Ratings are floating-point numbers, but never NaN (the server computes
// them from finite inputs), so equality on these values is an equivalence:
// messages stay `Eq` as every other protocol type.
impl Eq for Standing {}
impl Eq for Leaderboard {}
impl Eq for RatingPoint {}
impl Eq for FamilyRating {}
impl Eq for Profile {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn families_name_themselves() {
        for f in RatingFamily::ALL {
            assert_eq!(RatingFamily::parse(f.as_str()), Some(f));
            assert_eq!(
                serde_json::to_value(f).unwrap(),
                serde_json::Value::from(f.as_str())
            );
        }
        assert_eq!(RatingFamily::of(RuleSet::Renju), RatingFamily::Renju);
        assert_eq!(RatingFamily::parse("chess"), None);
    }
}
