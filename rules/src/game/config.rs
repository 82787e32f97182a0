//! Room configuration: everything that is fixed when a table is created and
//! that the machine needs to referee it (docs/rules.md §3–§8).
//!
//! It exists as its own value, separate from the machine, because the lobby
//! shows it, the record stores it, and the server validates it before a
//! table is ever created. The rule set (which lines win, whether black has
//! forbidden moves) and the opening (how the first moves and colours are
//! settled, [`Opening`], defined in `opening_rule` and re-exported here) are
//! separate fields: the opening rules (`rif`, `yamaguchi`, `soosorv`,
//! `taraguchi`, `tarannikov`, `jonsson`, `yamaguchi_52`,
//! `yamaguchi_variant`, `sakata`, `super_sakata`, `swap2`) are [`Opening`] variants, and which
//! go with which rule set is checked by [`GameConfig::validate`].

use serde::{Deserialize, Serialize};

pub use super::opening_rule::Opening;
use super::opening_rule::{DEFAULT_SOOSORV_N, DEFAULT_TARAGUCHI_N, MAX_FIFTH_OFFERS};
use crate::board::Variant;
use crate::point::{MAX_SIZE, STANDARD_SIZE};

/// Milliseconds of the server's monotonic clock, counted from any fixed
/// origin (the server uses the table's creation). The crate never reads a
/// clock: every instant is passed in.
pub type Millis = u64;

/// Which lines win and whether black has forbidden moves (docs/rules.md §4).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum RuleSet {
    /// Five or more wins, for both colours; no forbidden moves.
    Freestyle,
    /// Standard gomoku: exactly five wins, for both colours.
    Gomoku,
    /// Renju: black 1 on the centre, black wins with exactly five and has
    /// forbidden moves; white wins with five or more.
    Renju,
    /// Professional traditional gomoku on two 19 x 19 boards (docs/rules.md
    /// §9): turns of two stones (black's first turn one), each on either
    /// board; a turn that completes fives on both boards wins, a turn that
    /// completes a five on one board only loses. No forbidden moves.
    Twin,
}

impl RuleSet {
    /// The five rule of this rule set.
    pub fn variant(self) -> Variant {
        match self {
            RuleSet::Freestyle => Variant::Freestyle,
            RuleSet::Gomoku => Variant::Gomoku,
            RuleSet::Renju => Variant::Renju,
            RuleSet::Twin => Variant::Freestyle,
        }
    }

    /// Whether black has forbidden moves.
    pub fn has_forbidden_moves(self) -> bool {
        self == RuleSet::Renju
    }

    /// The name used in configuration and on the command line.
    pub fn name(self) -> &'static str {
        match self {
            RuleSet::Freestyle => "freestyle",
            RuleSet::Gomoku => "gomoku",
            RuleSet::Renju => "renju",
            RuleSet::Twin => "twin",
        }
    }

    /// How many boards a game of this rule set is played on (two for
    /// [`RuleSet::Twin`], one otherwise).
    pub fn boards(self) -> u8 {
        if self == RuleSet::Twin { 2 } else { 1 }
    }

    /// The board size a room gets unless it asks otherwise (19 for
    /// [`RuleSet::Twin`], the only size it allows; 15 otherwise).
    pub fn default_size(self) -> u8 {
        if self == RuleSet::Twin {
            MAX_SIZE
        } else {
            STANDARD_SIZE
        }
    }

    /// The opening a room of this rule set gets unless it asks otherwise:
    /// gomoku swaps after move 3 (docs/rules.md §6), the others open freely.
    pub fn default_opening(self) -> Opening {
        match self {
            RuleSet::Gomoku => Opening::SwapAfterThree,
            RuleSet::Freestyle | RuleSet::Renju | RuleSet::Twin => Opening::Free,
        }
    }
}

impl std::fmt::Display for RuleSet {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for RuleSet {
    type Err = ConfigError;

    fn from_str(s: &str) -> Result<RuleSet, ConfigError> {
        match s.trim().to_ascii_lowercase().as_str() {
            "freestyle" => Ok(RuleSet::Freestyle),
            "gomoku" => Ok(RuleSet::Gomoku),
            "renju" => Ok(RuleSet::Renju),
            "twin" => Ok(RuleSet::Twin),
            other => Err(ConfigError::UnknownRuleSet(other.to_string())),
        }
    }
}

/// What happens when black plays a forbidden point (docs/rules.md §3). Only
/// meaningful for rule sets where black has forbidden moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum ForbiddenHandling {
    /// The competition rule: the stone stands unless white claims it before
    /// white's next move (a stone or a pass; declining a draw is no move),
    /// an overline at any time. False claims are violations.
    Claim,
    /// A forbidden move loses at once.
    Lose,
    /// A forbidden point is refused; nothing changes.
    Block,
}

/// A time control (docs/rules.md §7). Times in milliseconds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum TimeControl {
    /// No clocks at all.
    Unlimited,
    /// Each side has `main_ms`; the first to run out loses (包干制).
    SuddenDeath { main_ms: Millis },
    /// `main_ms` to start with, plus `increment_ms` after every move (加秒制).
    Fischer {
        main_ms: Millis,
        increment_ms: Millis,
    },
    /// `main_ms`, then `periods` periods of `period_ms` (读秒). A period is
    /// used up only when it runs out before `moves_per_period` moves are made
    /// in it; making them starts a fresh period.
    ByoYomi {
        main_ms: Millis,
        periods: u32,
        period_ms: Millis,
        #[serde(default = "one")]
        moves_per_period: u32,
    },
    /// The eight-stone overtime (docs/rules.md §7): `main_ms` per side; the
    /// moment either side's main time runs out, both sides are in overtime
    /// (the other's unused main time lapses) and each makes `stones` more
    /// moves, each within `move_ms` (a late move loses). The game is drawn
    /// once all `2 × stones` overtime moves are made without a result.
    /// Two readings of the source's first sentence are options:
    /// `move_limit_in_main` (the plain reading of "步时30秒越时判负") holds
    /// every move of the main time to `move_ms` too, and `shared_main`
    /// (one reading of "每场5分钟") makes `main_ms` one clock for the
    /// whole game, charged to whoever is to move. Both are left out (off)
    /// in records from before they existed.
    EightStone {
        main_ms: Millis,
        move_ms: Millis,
        #[serde(default = "eight")]
        stones: u32,
        #[serde(default, skip_serializing_if = "is_false")]
        move_limit_in_main: bool,
        #[serde(default, skip_serializing_if = "is_false")]
        shared_main: bool,
    },
    /// Correspondence (docs/rules.md §7): `move_ms` for every move (time
    /// not used is not carried over), and `vacation_ms` per side and game,
    /// spent automatically while a move runs past its own time; the side
    /// loses on time once both are gone.
    Correspondence {
        move_ms: Millis,
        #[serde(default)]
        vacation_ms: Millis,
    },
}

fn one() -> u32 {
    1
}

fn is_false(b: &bool) -> bool {
    !*b
}

fn eight() -> u32 {
    8
}

/// A day, in milliseconds: the unit of correspondence time controls.
pub const DAY_MS: Millis = 86_400_000;

/// The longest main time or time per move the eight-stone overtime and
/// correspondence accept (so that no deadline is out of reach of any
/// clock's arithmetic).
pub const MAX_TIME_MS: Millis = 30 * DAY_MS;

/// The most vacation a correspondence room may give each side.
pub const MAX_VACATION_MS: Millis = 60 * DAY_MS;

/// The most overtime stones per side an eight-stone room may give.
pub const MAX_OVERTIME_STONES: u32 = 100;

/// The compact form clients and records show, as the terminal client
/// reads it too: `5+3` (Fischer, minutes + seconds), `10` (sudden death),
/// `10+3x30s` (byo-yomi; `/M` moves a period), `eight:5+30s/8` (the
/// eight-stone overtime; `,shared` a main time for the game, `,nolimit`
/// no limit per move before the overtime), `corr:3+10` (days a move +
/// vacation days), `unlimited`.
impl std::fmt::Display for TimeControl {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match *self {
            TimeControl::Unlimited => f.write_str("unlimited"),
            TimeControl::SuddenDeath { main_ms } => f.write_str(&minutes(main_ms)),
            TimeControl::Fischer {
                main_ms,
                increment_ms,
            } => write!(f, "{}+{}", minutes(main_ms), seconds(increment_ms)),
            TimeControl::ByoYomi {
                main_ms,
                periods,
                period_ms,
                moves_per_period,
            } => {
                write!(f, "{}+{periods}x{}s", minutes(main_ms), seconds(period_ms))?;
                if moves_per_period != 1 {
                    write!(f, "/{moves_per_period}")?;
                }
                Ok(())
            }
            TimeControl::EightStone {
                main_ms,
                move_ms,
                stones,
                move_limit_in_main,
                shared_main,
            } => write!(
                f,
                "eight:{}+{}s/{stones}{}{}",
                minutes(main_ms),
                seconds(move_ms),
                if shared_main { ",shared" } else { "" },
                if move_limit_in_main { "" } else { ",nolimit" }
            ),
            TimeControl::Correspondence {
                move_ms,
                vacation_ms,
            } => write!(f, "corr:{}+{}", days(move_ms), days(vacation_ms)),
        }
    }
}

/// Whole days as `3`, anything else as hours with `h` (`12h`) or seconds.
fn days(ms: Millis) -> String {
    if ms.is_multiple_of(DAY_MS) {
        format!("{}", ms / DAY_MS)
    } else if ms.is_multiple_of(3_600_000) {
        format!("{}h", ms / 3_600_000)
    } else {
        format!("{}s", seconds(ms))
    }
}

/// Whole minutes as `5`, anything else as seconds with `s` (`90s`).
fn minutes(ms: Millis) -> String {
    if ms.is_multiple_of(60_000) {
        format!("{}", ms / 60_000)
    } else {
        format!("{}s", seconds(ms))
    }
}

fn seconds(ms: Millis) -> String {
    if ms.is_multiple_of(1000) {
        format!("{}", ms / 1000)
    } else {
        format!("{:.1}", ms as f64 / 1000.0)
    }
}

impl TimeControl {
    /// The eight-stone overtime with neither reading option: `main_ms` per
    /// side, then `stones` moves each within `move_ms`.
    pub fn eight_stone(main_ms: Millis, move_ms: Millis, stones: u32) -> TimeControl {
        TimeControl::EightStone {
            main_ms,
            move_ms,
            stones,
            move_limit_in_main: false,
            shared_main: false,
        }
    }

    /// Whether this is a correspondence control: no abandonment countdown,
    /// deadlines that are dates (docs/rules.md §7).
    pub fn is_correspondence(&self) -> bool {
        matches!(self, TimeControl::Correspondence { .. })
    }
}

/// Draw-offer limits (docs/rules.md §5). The national rules' limit that a
/// player's offers may exceed the opponent's by at most two always applies;
/// these are the room's extra limits.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct DrawPolicy {
    /// At most this many offers per player and game (absent: no cap).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_offers: Option<u32>,
    /// An offer not answered within this time lapses (absent: it stands
    /// until answered or declined by a move).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub answer_ms: Option<Millis>,
}

/// How far a player's offers may exceed the opponent's (docs/rules.md §5).
pub const MAX_OFFER_LEAD: u32 = 2;

/// The default cap on the lag credit a single move may receive.
pub const DEFAULT_LAG_CREDIT_CAP_MS: Millis = 1_000;

/// A table's configuration. Build one, then [`GameConfig::validate`] it (the
/// machine refuses an invalid one).
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct GameConfig {
    pub rule_set: RuleSet,
    pub opening: Opening,
    /// 15, or 19 in free-style rooms; 19 (each board) in twin rooms.
    pub board_size: u8,
    /// For rule sets with forbidden moves; absent there means `claim`, the
    /// competition rule. Must be absent for the others.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub forbidden: Option<ForbiddenHandling>,
    pub time: TimeControl,
    #[serde(default)]
    pub draw: DrawPolicy,
    /// The most lag credit one move may receive (the server measures the
    /// lag; the machine caps it here and at the move's elapsed time).
    #[serde(default = "default_lag_cap")]
    pub lag_credit_cap_ms: Millis,
    /// Whether a player may ask to take back a move (docs/rules.md §5).
    /// The server sets it: on in casual rooms, off in rated and
    /// tournament games. Left out when off.
    #[serde(default, skip_serializing_if = "is_false")]
    pub takebacks: bool,
}

fn default_lag_cap() -> Millis {
    DEFAULT_LAG_CREDIT_CAP_MS
}

/// Why a configuration was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ConfigError {
    #[error("unknown rule set '{0}' (expected freestyle, gomoku, renju or twin)")]
    UnknownRuleSet(String),
    #[error(
        "board size {size} is not allowed for {rule_set} (15, or 19 for freestyle; twin is 19 only)"
    )]
    BoardSize { rule_set: RuleSet, size: u8 },
    #[error("the {opening} opening is not available for {rule_set}")]
    Opening { rule_set: RuleSet, opening: Opening },
    #[error(
        "unknown opening '{0}' (expected free, swap_after_three, rif, yamaguchi, soosorv[-N], taraguchi[-N], tarannikov, jonsson, yamaguchi_52, yamaguchi_variant, sakata, super_sakata or swap2)"
    )]
    UnknownOpening(String),
    #[error("{opening}: N = {n} fifth-move offers is out of range (1 to {max})", max = super::opening_rule::MAX_FIFTH_OFFERS)]
    OfferCount { opening: Opening, n: u8 },
    #[error("{0} has no forbidden moves, so forbidden-move handling cannot be set")]
    ForbiddenHandlingWithoutForbiddenMoves(RuleSet),
    #[error("main time must be positive for sudden death, Fischer and the eight-stone overtime")]
    ZeroMainTime,
    #[error("byo-yomi needs at least one period")]
    ZeroPeriods,
    #[error("byo-yomi periods must last longer than zero")]
    ZeroPeriodTime,
    #[error("byo-yomi needs at least one move per period")]
    ZeroMovesPerPeriod,
    #[error("the time per move must be positive")]
    ZeroMoveTime,
    #[error("the eight-stone overtime needs 1 to {MAX_OVERTIME_STONES} stones per side")]
    OvertimeStones,
    #[error("the eight-stone overtime and correspondence allow at most {} days of main time or time per move", MAX_TIME_MS / DAY_MS)]
    TimeTooLong,
    #[error("correspondence allows at most {} vacation days", MAX_VACATION_MS / DAY_MS)]
    VacationTooLong,
    #[error("a cap of zero draw offers: leave it unset to allow offers, there is no 'never'")]
    ZeroOfferCap,
    #[error("a draw offer's answer time must be positive")]
    ZeroAnswerTime,
}

impl GameConfig {
    /// An untimed room of `rule_set` on its default board (15 x 15; twin:
    /// two 19 x 19) with its default opening (renju: `claim` handling).
    pub fn new(rule_set: RuleSet) -> GameConfig {
        GameConfig {
            rule_set,
            opening: rule_set.default_opening(),
            board_size: rule_set.default_size(),
            forbidden: None,
            time: TimeControl::Unlimited,
            draw: DrawPolicy::default(),
            lag_credit_cap_ms: DEFAULT_LAG_CREDIT_CAP_MS,
            takebacks: false,
        }
    }

    /// An untimed free-opening room of `rule_set`: how game records that
    /// list only stones (renju notation, PSQ) are replayed.
    pub fn free(rule_set: RuleSet) -> GameConfig {
        GameConfig {
            opening: Opening::Free,
            ..GameConfig::new(rule_set)
        }
    }

    pub fn with_opening(mut self, opening: Opening) -> GameConfig {
        self.opening = opening;
        self
    }

    pub fn with_size(mut self, size: u8) -> GameConfig {
        self.board_size = size;
        self
    }

    pub fn with_forbidden(mut self, handling: ForbiddenHandling) -> GameConfig {
        self.forbidden = Some(handling);
        self
    }

    pub fn with_time(mut self, time: TimeControl) -> GameConfig {
        self.time = time;
        self
    }

    pub fn with_draw(mut self, draw: DrawPolicy) -> GameConfig {
        self.draw = draw;
        self
    }

    pub fn with_lag_credit_cap(mut self, cap_ms: Millis) -> GameConfig {
        self.lag_credit_cap_ms = cap_ms;
        self
    }

    pub fn with_takebacks(mut self, takebacks: bool) -> GameConfig {
        self.takebacks = takebacks;
        self
    }

    /// The forbidden-move handling in force: `None` when black has no
    /// forbidden moves, otherwise the configured one (default `claim`).
    pub fn forbidden_handling(&self) -> Option<ForbiddenHandling> {
        self.rule_set
            .has_forbidden_moves()
            .then(|| self.forbidden.unwrap_or(ForbiddenHandling::Claim))
    }

    /// Checks every field and their combinations.
    pub fn validate(&self) -> Result<(), ConfigError> {
        let rs = self.rule_set;
        let size_ok = match rs {
            RuleSet::Twin => self.board_size == MAX_SIZE,
            RuleSet::Freestyle => self.board_size == STANDARD_SIZE || self.board_size == MAX_SIZE,
            RuleSet::Gomoku | RuleSet::Renju => self.board_size == STANDARD_SIZE,
        };
        if !size_ok {
            return Err(ConfigError::BoardSize {
                rule_set: rs,
                size: self.board_size,
            });
        }
        self.opening.check(rs)?;
        if self.forbidden.is_some() && !rs.has_forbidden_moves() {
            return Err(ConfigError::ForbiddenHandlingWithoutForbiddenMoves(rs));
        }
        match self.time {
            TimeControl::Unlimited => {}
            TimeControl::SuddenDeath { main_ms } | TimeControl::Fischer { main_ms, .. } => {
                if main_ms == 0 {
                    return Err(ConfigError::ZeroMainTime);
                }
            }
            TimeControl::ByoYomi {
                periods,
                period_ms,
                moves_per_period,
                ..
            } => {
                if periods == 0 {
                    return Err(ConfigError::ZeroPeriods);
                }
                if period_ms == 0 {
                    return Err(ConfigError::ZeroPeriodTime);
                }
                if moves_per_period == 0 {
                    return Err(ConfigError::ZeroMovesPerPeriod);
                }
            }
            TimeControl::EightStone {
                main_ms,
                move_ms,
                stones,
                ..
            } => {
                if main_ms == 0 {
                    return Err(ConfigError::ZeroMainTime);
                }
                if move_ms == 0 {
                    return Err(ConfigError::ZeroMoveTime);
                }
                if main_ms > MAX_TIME_MS || move_ms > MAX_TIME_MS {
                    return Err(ConfigError::TimeTooLong);
                }
                if !(1..=MAX_OVERTIME_STONES).contains(&stones) {
                    return Err(ConfigError::OvertimeStones);
                }
            }
            TimeControl::Correspondence {
                move_ms,
                vacation_ms,
            } => {
                if move_ms == 0 {
                    return Err(ConfigError::ZeroMoveTime);
                }
                if move_ms > MAX_TIME_MS {
                    return Err(ConfigError::TimeTooLong);
                }
                if vacation_ms > MAX_VACATION_MS {
                    return Err(ConfigError::VacationTooLong);
                }
            }
        }
        if self.draw.max_offers == Some(0) {
            return Err(ConfigError::ZeroOfferCap);
        }
        if self.draw.answer_ms == Some(0) {
            return Err(ConfigError::ZeroAnswerTime);
        }
        Ok(())
    }
}

impl Opening {
    /// Whether a room of `rule_set` may use this opening: the renju
    /// openings only in renju rooms, swap after 3 and Swap2 only in gomoku
    /// and free-style rooms, and N within 1..=[`MAX_FIFTH_OFFERS`].
    pub fn check(self, rule_set: RuleSet) -> Result<(), ConfigError> {
        let renju = rule_set == RuleSet::Renju;
        let fits = match self {
            Opening::Free => true,
            // Two boards: the first player simply starts (docs/rules.md §9).
            _ if rule_set == RuleSet::Twin => false,
            Opening::SwapAfterThree | Opening::Swap2 => !renju,
            o => !o.is_renju_only() || renju,
        };
        if !fits {
            return Err(ConfigError::Opening {
                rule_set,
                opening: self,
            });
        }
        match self {
            Opening::Soosorv { n } | Opening::Taraguchi { n } if n == 0 || n > MAX_FIFTH_OFFERS => {
                Err(ConfigError::OfferCount { opening: self, n })
            }
            _ => Ok(()),
        }
    }
}

impl std::str::FromStr for Opening {
    type Err = ConfigError;

    /// `free`, `swap_after_three` (or `swap-after-three`), `rif`,
    /// `yamaguchi`, `soosorv[-N]`, `taraguchi[-N]`, `tarannikov`, `jonsson`,
    /// `yamaguchi_52`, `yamaguchi_variant`, `sakata`, `super_sakata`,
    /// `swap2` (`-` for `_` anywhere);
    /// any case. N is not range-checked here ([`Opening::check`] does).
    fn from_str(s: &str) -> Result<Opening, ConfigError> {
        let text = s.trim().to_ascii_lowercase().replace('-', "_");
        let unknown = || ConfigError::UnknownOpening(s.trim().to_string());
        let with_n = |rest: &str, default: u8| -> Result<u8, ConfigError> {
            match rest {
                "" => Ok(default),
                _ => rest
                    .strip_prefix('_')
                    .and_then(|n| n.parse().ok())
                    .ok_or_else(unknown),
            }
        };
        Ok(match text.as_str() {
            "free" => Opening::Free,
            "swap_after_three" => Opening::SwapAfterThree,
            "rif" => Opening::Rif,
            "yamaguchi" => Opening::Yamaguchi,
            "tarannikov" => Opening::Tarannikov,
            "swap2" => Opening::Swap2,
            "jonsson" => Opening::Jonsson,
            "yamaguchi_52" => Opening::Yamaguchi52,
            "yamaguchi_variant" => Opening::YamaguchiVariant,
            "sakata" => Opening::Sakata,
            "super_sakata" => Opening::SuperSakata,
            t => {
                if let Some(rest) = t.strip_prefix("soosorv") {
                    Opening::Soosorv {
                        n: with_n(rest, DEFAULT_SOOSORV_N)?,
                    }
                } else if let Some(rest) = t.strip_prefix("taraguchi") {
                    Opening::Taraguchi {
                        n: with_n(rest, DEFAULT_TARAGUCHI_N)?,
                    }
                } else {
                    return Err(unknown());
                }
            }
        })
    }
}

#[cfg(test)]
#[path = "config_tests.rs"]
mod tests;
