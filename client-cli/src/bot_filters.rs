//! `tengen engine`'s challenge-filter flags (`--rule-sets`, `--time-kinds`,
//! `--rated-only`/`--casual-only`, `--no-people`, `--no-bots`) and the
//! `set_bot_filters` value they make.
//!
//! Why a module of its own: the flags and their meaning on the wire are
//! one small concern, apart from running the engine.

use anyhow::Result;
use clap::ArgGroup;
use tengen_protocol::{BotFilters, TimeKind};
use tengen_rules::game::RuleSet;

/// A bot account's challenge filters, as flags.
#[derive(clap::Args, Clone, Debug, Default)]
#[command(group(ArgGroup::new("rating").args(["rated_only", "casual_only"])))]
pub struct FilterArgs {
    /// Take challenges only for these rule sets (comma-separated:
    /// freestyle, gomoku, renju, ...).
    #[arg(long, value_delimiter = ',', value_parser = wire::<RuleSet>)]
    pub rule_sets: Vec<RuleSet>,
    /// Take challenges only with these kinds of time control
    /// (comma-separated: unlimited, sudden_death, fischer, byo_yomi,
    /// eight_stone, correspondence).
    #[arg(long, value_delimiter = ',', value_parser = wire::<TimeKind>)]
    pub time_kinds: Vec<TimeKind>,
    /// Take rated challenges only.
    #[arg(long)]
    pub rated_only: bool,
    /// Take casual challenges only.
    #[arg(long)]
    pub casual_only: bool,
    /// Take no challenges from people.
    #[arg(long)]
    pub no_people: bool,
    /// Take no challenges from other bots.
    #[arg(long)]
    pub no_bots: bool,
}

impl FilterArgs {
    /// The filters to set, or `None` when no flag was given (the stored
    /// ones stay in force).
    pub fn filters(&self) -> Result<Option<BotFilters>> {
        let any = !self.rule_sets.is_empty()
            || !self.time_kinds.is_empty()
            || self.rated_only
            || self.casual_only
            || self.no_people
            || self.no_bots;
        Ok(any.then(|| BotFilters {
            rule_sets: self.rule_sets.clone(),
            time_kinds: self.time_kinds.clone(),
            casual: !self.rated_only,
            rated: !self.casual_only,
            humans: !self.no_people,
            bots: !self.no_bots,
            max_games: None,
        }))
    }
}

/// A value by its wire name (`renju`, `byo_yomi`).
fn wire<T: serde::de::DeserializeOwned>(s: &str) -> Result<T, String> {
    serde_json::from_value(serde_json::Value::String(s.trim().to_ascii_lowercase()))
        .map_err(|_| format!("'{s}' is not a known name"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    #[derive(clap::Parser)]
    struct Cli {
        #[command(flatten)]
        f: FilterArgs,
    }

    #[test]
    fn flags_make_the_filters_and_none_leave_them() {
        let none = Cli::parse_from(["x"]).f.filters().unwrap();
        assert_eq!(none, None);
        let cli = Cli::parse_from([
            "x",
            "--rule-sets",
            "renju,gomoku",
            "--time-kinds",
            "fischer",
            "--rated-only",
            "--no-people",
        ]);
        let f = cli.f.filters().unwrap().unwrap();
        assert_eq!(f.rule_sets, [RuleSet::Renju, RuleSet::Gomoku]);
        assert_eq!(f.time_kinds, [TimeKind::Fischer]);
        assert!(!f.casual && f.rated && !f.humans && f.bots);
        assert!(Cli::try_parse_from(["x", "--rule-sets", "chess"]).is_err());
        assert!(Cli::try_parse_from(["x", "--rated-only", "--casual-only"]).is_err());
    }
}
