//! Bot accounts' challenge filters: what each bot set with
//! `set_bot_filters`, and whether a challenge by name passes them. Its own
//! module because the lobby (which seats challenges) and the connection
//! (which sets filters) share it, and neither owns bots' policy.
//!
//! The filters live in this process's memory, by account, while the
//! server runs (the engine bridge sets them again on each connection); a
//! bot that set none takes every challenge. At most [`MAX_BOTS`] accounts
//! have filters at once; beyond, a new one is refused (`limit_reached`).

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use tengen_protocol::{BotFilters, TimeKind};
use tengen_rules::game::GameConfig;
use tengen_store::name_key;

/// The most bot accounts whose filters are kept.
pub const MAX_BOTS: usize = 10_000;

/// Every bot's filters, by account (shared, cheap to clone).
#[derive(Clone, Default)]
pub struct BotFilterBook {
    inner: Arc<Mutex<HashMap<String, BotFilters>>>,
}

impl BotFilterBook {
    /// Sets `account`'s filters; `false` when the book is full.
    pub fn set(&self, account: &str, filters: BotFilters) -> bool {
        let Ok(mut book) = self.inner.lock() else {
            return false;
        };
        let key = name_key(account);
        if book.len() >= MAX_BOTS && !book.contains_key(&key) {
            return false;
        }
        book.insert(key, filters);
        true
    }

    /// How many games the bot `account` may play at once: its own cap
    /// (1 if it set none).
    pub fn max_games(&self, account: &str) -> usize {
        let Ok(book) = self.inner.lock() else {
            return 1;
        };
        let cap = book.get(&name_key(account)).and_then(|f| f.max_games);
        cap.unwrap_or(1).max(1) as usize
    }

    /// Why the bot `account` refuses a challenge to `config` from a bot
    /// (`from_bot`) or a person, or `None` if it takes it.
    pub fn refusal(&self, account: &str, config: &GameConfig, from_bot: bool) -> Option<String> {
        let book = self.inner.lock().ok()?;
        refusal(book.get(&name_key(account))?, config, from_bot)
    }
}

/// Why `filters` refuse a (casual) challenge to `config` from a bot or a
/// person, or `None`.
pub fn refusal(filters: &BotFilters, config: &GameConfig, from_bot: bool) -> Option<String> {
    if !filters.casual {
        return Some("this bot takes no casual games, and challenges are casual".into());
    }
    if from_bot && !filters.bots {
        return Some("this bot takes no challenges from bots".into());
    }
    if !from_bot && !filters.humans {
        return Some("this bot takes no challenges from people".into());
    }
    if !filters.rule_sets.is_empty() && !filters.rule_sets.contains(&config.rule_set) {
        return Some(format!(
            "this bot plays only {}",
            names(filters.rule_sets.iter())
        ));
    }
    let kind = TimeKind::of(&config.time);
    if !filters.time_kinds.is_empty() && !filters.time_kinds.contains(&kind) {
        return Some(format!(
            "this bot plays only these time controls: {}",
            names(filters.time_kinds.iter())
        ));
    }
    None
}

/// The wire names of `values`, comma-separated.
fn names<T: serde::Serialize>(values: impl Iterator<Item = T>) -> String {
    values
        .filter_map(|v| serde_json::to_value(v).ok())
        .filter_map(|v| v.as_str().map(str::to_owned))
        .collect::<Vec<_>>()
        .join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use tengen_rules::game::{RuleSet, TimeControl};

    #[test]
    fn each_filter_refuses_with_its_reason() {
        let renju = GameConfig::new(RuleSet::Renju);
        let gomoku_fischer = GameConfig::new(RuleSet::Gomoku).with_time(TimeControl::Fischer {
            main_ms: 60_000,
            increment_ms: 1_000,
        });
        let any = BotFilters::default();
        assert_eq!(refusal(&any, &renju, true), None);
        assert_eq!(refusal(&any, &renju, false), None);
        let only = BotFilters {
            rule_sets: vec![RuleSet::Renju],
            ..BotFilters::default()
        };
        assert_eq!(refusal(&only, &renju, false), None);
        let why = refusal(&only, &gomoku_fischer, false).unwrap();
        assert!(why.contains("only renju"), "{why}");
        let timed = BotFilters {
            time_kinds: vec![TimeKind::ByoYomi],
            ..BotFilters::default()
        };
        let why = refusal(&timed, &gomoku_fischer, false).unwrap();
        assert!(why.contains("byo_yomi"), "{why}");
        let no_bots = BotFilters {
            bots: false,
            ..BotFilters::default()
        };
        assert!(refusal(&no_bots, &renju, true).is_some());
        assert_eq!(refusal(&no_bots, &renju, false), None);
    }
}
