//! A bot account's challenge filters: which challenges by name it takes
//! (rule sets, kinds of time control, casual games, people or bots). Their
//! own module because they are the one value of the wire that only bot
//! accounts send.

use serde::{Deserialize, Serialize};
use tengen_rules::game::{RuleSet, TimeControl};

/// The kind of a time control, without its times.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum TimeKind {
    Unlimited,
    SuddenDeath,
    Fischer,
    ByoYomi,
    EightStone,
    Correspondence,
}

impl TimeKind {
    /// The kind of `time`.
    pub fn of(time: &TimeControl) -> TimeKind {
        match time {
            TimeControl::Unlimited => TimeKind::Unlimited,
            TimeControl::SuddenDeath { .. } => TimeKind::SuddenDeath,
            TimeControl::Fischer { .. } => TimeKind::Fischer,
            TimeControl::ByoYomi { .. } => TimeKind::ByoYomi,
            TimeControl::EightStone { .. } => TimeKind::EightStone,
            TimeControl::Correspondence { .. } => TimeKind::Correspondence,
        }
    }
}

/// What challenges a bot account takes. An empty list means any; a field
/// left out takes its default (everything allowed).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct BotFilters {
    /// The rule sets it plays (empty: all).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub rule_sets: Vec<RuleSet>,
    /// The kinds of time control it plays (empty: all).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub time_kinds: Vec<TimeKind>,
    /// Casual challenges (`rated: false`).
    #[serde(default = "yes")]
    pub casual: bool,
    /// Rated challenges (`rated: true`).
    #[serde(default = "yes")]
    pub rated: bool,
    /// Challenges from people.
    #[serde(default = "yes")]
    pub humans: bool,
    /// Challenges from other bots.
    #[serde(default = "yes")]
    pub bots: bool,
    /// The most games it plays at once (absent: 1, as a person); the
    /// server bounds it and answers the cap in force.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_games: Option<u32>,
}

fn yes() -> bool {
    true
}

impl Default for BotFilters {
    fn default() -> Self {
        BotFilters {
            rule_sets: Vec::new(),
            time_kinds: Vec::new(),
            casual: true,
            rated: true,
            humans: true,
            bots: true,
            max_games: None,
        }
    }
}
