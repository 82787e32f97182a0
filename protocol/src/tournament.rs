//! Tournaments on the wire: what `create_tournament` asks for
//! ([`TournamentSpec`]) and how the server shows an event
//! ([`TournamentSummary`] in lists, [`TournamentView`] in full). Why a
//! module of its own: the views are the engine's state rendered for
//! clients (standings, tie-breaks, the crosstable as data and as text), and this crate
//! does not depend on the engine; the server fills them in.

use serde::{Deserialize, Serialize};
use tengen_rules::game::{GameConfig, TimeControl};

use crate::ids::TableId;
use crate::limits::{MAX_ROOM_NAME_CHARS, check_text};

/// The most characters of a tournament id (ids are the server's).
pub const MAX_TOURNAMENT_ID_CHARS: usize = 32;
/// The most rounds a Swiss may ask for.
pub const MAX_SWISS_ROUNDS: u32 = 30;
/// The most games of a knockout match (`games`, odd).
pub const MAX_MATCH_GAMES: u8 = 9;
/// How long a game waits for an absent player by default (`wait_secs`).
pub const DEFAULT_WAIT_SECS: u32 = 60;
/// The longest wait an organiser may set.
pub const MAX_WAIT_SECS: u32 = 600;
/// The shortest arena (`duration_secs`).
pub const MIN_ARENA_SECS: u32 = 10;
/// The longest arena: twelve hours.
pub const MAX_ARENA_SECS: u32 = 12 * 3600;

/// The pairing system.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum TournamentSystem {
    /// Swiss (Dutch system) over `rounds` rounds.
    Swiss,
    /// Every player meets every other once (Berger tables).
    RoundRobin,
    /// Twice, the seats swapped.
    DoubleRoundRobin,
    /// Single elimination of best-of-`games` matches (a tie goes to an
    /// extra game).
    Knockout,
    /// A time window of `duration_secs` from the start: a player whose
    /// game ends is paired again at once with a free player close in
    /// score; ranked by score, then fewer games, then more wins.
    Arena,
}

/// A tie-break an organiser may list (`tie_breaks`), applied in the
/// listed order after the score. The engine defines each
/// (`docs/tournaments.md`, "Standings and tie-breaks").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum TieBreakName {
    /// The opponents' scores summed (shown `Buch`).
    Buchholz,
    /// Buchholz without the best and the worst opponent (`MBuch`).
    MedianBuchholz,
    /// The Berger coefficient (`SB`).
    SonnebornBerger,
    /// Head-to-head among the tied players (`DE`).
    DirectEncounter,
    /// Games won over the board (`Wins`).
    Wins,
    /// Games played in the first seat, black (`1st`).
    FirstSeatGames,
}

impl TieBreakName {
    /// Every tie-break, in the order the names are documented.
    pub const ALL: [TieBreakName; 6] = [
        TieBreakName::Buchholz,
        TieBreakName::MedianBuchholz,
        TieBreakName::SonnebornBerger,
        TieBreakName::DirectEncounter,
        TieBreakName::Wins,
        TieBreakName::FirstSeatGames,
    ];

    /// The wire name (`median_buchholz`).
    pub fn as_str(self) -> &'static str {
        match self {
            TieBreakName::Buchholz => "buchholz",
            TieBreakName::MedianBuchholz => "median_buchholz",
            TieBreakName::SonnebornBerger => "sonneborn_berger",
            TieBreakName::DirectEncounter => "direct_encounter",
            TieBreakName::Wins => "wins",
            TieBreakName::FirstSeatGames => "first_seat_games",
        }
    }
}

impl std::str::FromStr for TieBreakName {
    type Err = String;

    /// A wire name; `-` may stand for `_`.
    fn from_str(s: &str) -> Result<Self, String> {
        let s = s.trim().replace('-', "_").to_ascii_lowercase();
        TieBreakName::ALL
            .into_iter()
            .find(|t| t.as_str() == s)
            .ok_or_else(|| {
                let names: Vec<&str> = TieBreakName::ALL.iter().map(|t| t.as_str()).collect();
                format!("unknown tie-break {s:?}: one of {}", names.join(", "))
            })
    }
}

/// Who may enter.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct EntryLimits {
    /// The lowest rating (in the event's rating family) that may join.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub min_rating: Option<i32>,
    /// The highest.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_rating: Option<i32>,
    /// Accounts only (a rated event always is).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub accounts_only: bool,
    /// Bot accounts may join.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub bots: bool,
    /// The most players (at most the server's limit).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_players: Option<u32>,
}

/// What `create_tournament` asks for.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct TournamentSpec {
    /// Shown to everyone, as a room's name is (`invalid_name`).
    pub name: String,
    pub system: TournamentSystem,
    /// Swiss: the number of rounds (1 to [`MAX_SWISS_ROUNDS`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rounds: Option<u32>,
    /// Knockout: games per match, odd (best of; 1 by default).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub games: Option<u8>,
    /// Every game's configuration, as `create_room` takes it.
    pub config: GameConfig,
    /// Rated games (accounts only).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub rated: bool,
    /// When round 1 is paired (Unix ms); without it, when the organiser
    /// sends `start_tournament`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub start_ms: Option<u64>,
    #[serde(default)]
    pub entry: EntryLimits,
    /// The tie-breaks in the order they apply, each at most once; without
    /// it, the system's default (a Swiss: Buchholz, Sonneborn-Berger,
    /// wins; the others: Sonneborn-Berger, direct encounter, wins).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tie_breaks: Option<Vec<TieBreakName>>,
    /// Seconds a game waits for an absent player (offline, or seated at
    /// as many tables as allowed) before they lose it by forfeit (both
    /// absent: a double forfeit); [`DEFAULT_WAIT_SECS`] when left out, 1
    /// to [`MAX_WAIT_SECS`].
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub wait_secs: Option<u32>,
    /// Draws every lot (the seeding's seats, round-robin numbers,
    /// knockout openers) from this value instead of at random, so the
    /// pairings are reproducible; without it, the server draws.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seed: Option<u64>,
    /// Arena: how long it runs from the start, in seconds
    /// ([`MIN_ARENA_SECS`] to [`MAX_ARENA_SECS`]); no game is paired
    /// after it, the games being played then finish and count.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub duration_secs: Option<u32>,
    /// Knockout: a tied match's decider is played at this (faster) time
    /// control instead of the event's; without it, at the event's. Its
    /// initial time must be below the event's.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub decider_time: Option<TimeControl>,
}

impl TournamentSpec {
    /// The checks that need no server state.
    pub fn validate(&self) -> Result<(), String> {
        check_text("name", &self.name, MAX_ROOM_NAME_CHARS)?;
        match (self.system, self.rounds) {
            (TournamentSystem::Swiss, Some(r)) if (1..=MAX_SWISS_ROUNDS).contains(&r) => {}
            (TournamentSystem::Swiss, _) => {
                return Err(format!("a swiss needs rounds, 1 to {MAX_SWISS_ROUNDS}"));
            }
            (_, Some(_)) => return Err("rounds is for a swiss only".into()),
            _ => {}
        }
        match (self.system, self.games) {
            (TournamentSystem::Knockout, Some(g)) if g % 2 == 1 && g <= MAX_MATCH_GAMES => {}
            (TournamentSystem::Knockout, None) => {}
            (TournamentSystem::Knockout, Some(_)) => {
                return Err(format!("games must be odd, at most {MAX_MATCH_GAMES}"));
            }
            (_, Some(_)) => return Err("games is for a knockout only".into()),
            _ => {}
        }
        match (self.system, self.duration_secs) {
            (TournamentSystem::Arena, Some(d))
                if (MIN_ARENA_SECS..=MAX_ARENA_SECS).contains(&d) => {}
            (TournamentSystem::Arena, _) => {
                return Err(format!(
                    "an arena needs duration_secs, {MIN_ARENA_SECS} to {MAX_ARENA_SECS}"
                ));
            }
            (_, Some(_)) => return Err("duration_secs is for an arena only".into()),
            _ => {}
        }
        if let Some(tc) = self.decider_time {
            if self.system != TournamentSystem::Knockout {
                return Err("decider_time is for a knockout only".into());
            }
            // What a side starts with (unlimited: more than any).
            let initial = |t: TimeControl| match t {
                TimeControl::Unlimited => u64::MAX,
                TimeControl::SuddenDeath { main_ms }
                | TimeControl::Fischer { main_ms, .. }
                | TimeControl::ByoYomi { main_ms, .. }
                | TimeControl::EightStone { main_ms, .. } => main_ms,
                TimeControl::Correspondence { move_ms, .. } => move_ms,
            };
            if initial(tc) >= initial(self.config.time) {
                return Err("decider_time must start with less time than the event's".into());
            }
            self.config
                .clone()
                .with_time(tc)
                .validate()
                .map_err(|e| e.to_string())?;
        }
        if self.system == TournamentSystem::Arena && self.tie_breaks.is_some() {
            return Err("an arena ranks by score, games and wins: no tie_breaks".into());
        }
        if self
            .wait_secs
            .is_some_and(|w| !(1..=MAX_WAIT_SECS).contains(&w))
        {
            return Err(format!("wait_secs: 1 to {MAX_WAIT_SECS}"));
        }
        if let (Some(lo), Some(hi)) = (self.entry.min_rating, self.entry.max_rating)
            && lo > hi
        {
            return Err("min_rating is above max_rating".into());
        }
        if let Some(order) = &self.tie_breaks {
            if order.len() > TieBreakName::ALL.len() {
                return Err(format!("at most {} tie-breaks", TieBreakName::ALL.len()));
            }
            if let Some(i) = (1..order.len()).find(|&i| order[..i].contains(&order[i])) {
                return Err(format!("tie-break {} listed twice", order[i].as_str()));
            }
        }
        Ok(())
    }
}

/// Where an event is in its life.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum TournamentState {
    /// Taking entries.
    Open,
    /// Rounds are being played.
    Running,
    Finished,
}

/// An event as lists show it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct TournamentSummary {
    pub id: String,
    pub name: String,
    pub system: TournamentSystem,
    pub state: TournamentState,
    pub organiser: String,
    pub players: u32,
    /// Rounds paired so far.
    pub round: u32,
    /// Rounds in all (0 until the start fixes it).
    pub rounds: u32,
    pub rated: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub start_ms: Option<u64>,
}

/// A player on the entry list.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct TournamentPlayer {
    pub name: String,
    pub rating: i32,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub withdrawn: bool,
}

/// One board of a round.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct BoardView {
    pub board: u32,
    /// The first seat of the match's first game (a bye: the player).
    pub first: String,
    /// Absent: a bye.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub second: Option<String>,
    /// Each game's result from `first`'s side: `1-0`, `0-1`, `½-½`, `+-`,
    /// `-+` (forfeits), `--` (both).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub games: Vec<String>,
    /// The table of the game being played now, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub table: Option<TableId>,
    /// The match is over.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub over: bool,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct RoundView {
    pub round: u32,
    pub boards: Vec<BoardView>,
}

/// A tie-break's value, as text (`7.5`, `3`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct TieBreakValue {
    /// `Buch`, `MBuch`, `SB`, `DE`, `Wins`, `1st`.
    pub name: String,
    pub value: String,
}

/// One line of the standings.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct StandingView {
    pub rank: u32,
    pub name: String,
    /// Points as text (`2½`).
    pub points: String,
    pub tie_breaks: Vec<TieBreakValue>,
}

/// One round of a crosstable line.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct CrossCell {
    /// The opponent's place in the crosstable (its line's number, from
    /// 1); none for a bye or an absence.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub opponent: Option<u32>,
    /// The seat held in the round's (first) game: `first` is black.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seat: Option<tengen_rules::game::Seat>,
    /// `1` won, `=` drawn, `0` lost, `+` won by forfeit, `-` lost by
    /// forfeit, `U` a full-point bye, `H` a half-point bye, `Z` absent,
    /// empty while the game is played.
    pub result: String,
}

/// One player's line of the crosstable, in standings order.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct CrossRow {
    /// The standings' rank (tied players share one).
    pub rank: u32,
    pub name: String,
    pub rating: i32,
    /// One per round (an arena has none).
    pub rounds: Vec<CrossCell>,
    /// Points as text, as in the standings.
    pub points: String,
    pub tie_breaks: Vec<TieBreakValue>,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub withdrawn: bool,
}

/// An event in full: `tournament` and `tournament_update`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct TournamentView {
    pub summary: TournamentSummary,
    pub spec: TournamentSpec,
    pub players: Vec<TournamentPlayer>,
    pub rounds: Vec<RoundView>,
    pub standings: Vec<StandingView>,
    /// The crosstable as fixed-width text (for a terminal or a file).
    pub crosstable: String,
    /// The same crosstable as data, one row per player, for a client's
    /// own table.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub cross: Vec<CrossRow>,
    /// Why the next round cannot be paired, while the event waits for
    /// the organiser to pair it by hand or end it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stalled: Option<String>,
    /// A Swiss with too many rounds for its field: why not every round
    /// may be pairable (or, past the most its field can play, why it
    /// will not start).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub warning: Option<String>,
}

/// A game's result as the organiser reports it (`tournament_result`),
/// by the seats of that game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum ReportedResult {
    /// The first seat (black) won.
    First,
    /// The second seat won.
    Second,
    Draw,
    /// The first seat wins: the second did not play.
    FirstByForfeit,
    /// The second seat wins: the first did not play.
    SecondByForfeit,
    /// Neither played.
    DoubleForfeit,
}

/// Which tournament game a table plays (in `matched`, and in the game's
/// record tags): round and board 1-based as the views number them, `game`
/// the 0-based game of the board's match.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct TournamentGame {
    pub tournament: String,
    pub round: u32,
    pub board: u32,
    pub game: u32,
}

/// The most boards a round paired by hand can have (the most players an
/// event takes, halved).
pub const MAX_BOARDS: usize = 128;

/// Checks a tournament id as a client sends it.
pub fn check_tournament_id(id: &str) -> Result<(), String> {
    if id.is_empty()
        || id.len() > MAX_TOURNAMENT_ID_CHARS
        || !id.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-')
    {
        return Err(format!(
            "tournament: 1 to {MAX_TOURNAMENT_ID_CHARS} letters, digits or '-'"
        ));
    }
    Ok(())
}
