//! Bot accounts' challenge filters: what each bot set with
//! `set_bot_filters`, and whether a challenge by name passes them. Its own
//! module because the lobby (which seats challenges) and the connection
//! (which sets filters) share it, and neither owns bots' policy.
//!
//! The filters are kept with the account in the store
//! (`crate::conn::bots`); this book is this node's copy of the filters of
//! the bots that logged in here (loaded at each login, replaced at each
//! `set_bot_filters`), which the lobby reads without waiting on the
//! store. A bot that set none takes every challenge. At most [`MAX_BOTS`] accounts
//! have filters at once; beyond, a new one is refused (`limit_reached`).
//!
//! Also here: the challenges each bot sent other bots in the last hour (a
//! sliding window, so that two programs cannot challenge each other
//! without end), for as many bots, each remembering at most its hourly
//! allowance.

use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use tengen_protocol::{BotFilters, TimeKind};
use tengen_rules::game::GameConfig;
use tengen_store::name_key;

/// The most bot accounts whose filters are kept.
pub const MAX_BOTS: usize = 10_000;

/// Every bot's filters, by account (shared, cheap to clone).
#[derive(Clone, Default)]
pub struct BotFilterBook {
    inner: Arc<Mutex<HashMap<String, BotFilters>>>,
    /// When each bot challenged another bot, within the last hour.
    sent: Arc<Mutex<HashMap<String, VecDeque<Instant>>>>,
}

const HOUR: Duration = Duration::from_secs(3600);

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

    /// Counts a challenge from the bot `account` to another bot at `now`,
    /// if it has sent fewer than `per_hour` in the hour before; otherwise
    /// how long until the next is allowed.
    pub fn bot_challenge(
        &self,
        account: &str,
        now: Instant,
        per_hour: u32,
    ) -> Result<(), Duration> {
        let Ok(mut sent) = self.sent.lock() else {
            return Err(HOUR);
        };
        if sent.len() >= MAX_BOTS {
            sent.retain(|_, times| times.back().is_some_and(|t| now.duration_since(*t) < HOUR));
        }
        let key = name_key(account);
        if sent.len() >= MAX_BOTS && !sent.contains_key(&key) {
            return Err(Duration::from_secs(60));
        }
        let times = sent.entry(key).or_default();
        while times
            .front()
            .is_some_and(|t| now.duration_since(*t) >= HOUR)
        {
            times.pop_front();
        }
        if times.len() >= per_hour as usize {
            let oldest = times.front().copied().unwrap_or(now);
            return Err(HOUR.saturating_sub(now.duration_since(oldest)));
        }
        times.push_back(now);
        Ok(())
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

    /// Why the bot `account` refuses a (`rated` or casual) challenge to
    /// `config` from a bot (`from_bot`) or a person, or `None` if it takes
    /// it.
    pub fn refusal(
        &self,
        account: &str,
        config: &GameConfig,
        rated: bool,
        from_bot: bool,
    ) -> Option<String> {
        let book = self.inner.lock().ok()?;
        refusal(book.get(&name_key(account))?, config, rated, from_bot)
    }
}

/// Why `filters` refuse a `rated` or casual challenge to `config` from a
/// bot or a person, or `None`.
pub fn refusal(
    filters: &BotFilters,
    config: &GameConfig,
    rated: bool,
    from_bot: bool,
) -> Option<String> {
    if rated && !filters.rated {
        return Some("this bot takes no rated challenges".into());
    }
    if !rated && !filters.casual {
        return Some("this bot takes no casual challenges".into());
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

/// Loads the bot `name`'s stored filters into this node's book (at a
/// login). A store that cannot answer within `wait`, or filters that no
/// longer decode, leave the book as it was (logged): the bot sets them
/// again.
pub async fn load(
    book: &BotFilterBook,
    store: &dyn tengen_store::Store,
    wait: std::time::Duration,
    name: &str,
) {
    let stored = match tokio::time::timeout(wait, store.account(name)).await {
        Ok(Ok(account)) => account.and_then(|a| a.bot_filters),
        Ok(Err(e)) => {
            tracing::warn!(account = %name, error = %e, "cannot load a bot's filters");
            return;
        }
        Err(_) => {
            tracing::warn!(account = %name, "cannot load a bot's filters: the store did not answer");
            return;
        }
    };
    let Some(text) = stored else {
        return;
    };
    match serde_json::from_str::<tengen_protocol::BotFilters>(&text) {
        Ok(f) => {
            book.set(name, f);
        }
        Err(e) => tracing::warn!(account = %name, error = %e, "stored bot filters do not decode"),
    }
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
        assert_eq!(refusal(&any, &renju, false, true), None);
        assert_eq!(refusal(&any, &renju, false, false), None);
        let only = BotFilters {
            rule_sets: vec![RuleSet::Renju],
            ..BotFilters::default()
        };
        assert_eq!(refusal(&only, &renju, false, false), None);
        let why = refusal(&only, &gomoku_fischer, false, false).unwrap();
        assert!(why.contains("only renju"), "{why}");
        let timed = BotFilters {
            time_kinds: vec![TimeKind::ByoYomi],
            ..BotFilters::default()
        };
        let why = refusal(&timed, &gomoku_fischer, false, false).unwrap();
        assert!(why.contains("byo_yomi"), "{why}");
        let no_bots = BotFilters {
            bots: false,
            ..BotFilters::default()
        };
        assert!(refusal(&no_bots, &renju, false, true).is_some());
        assert_eq!(refusal(&no_bots, &renju, false, false), None);
        let rated_only = BotFilters {
            casual: false,
            ..BotFilters::default()
        };
        assert_eq!(refusal(&rated_only, &renju, true, false), None);
        let why = refusal(&rated_only, &renju, false, false).unwrap();
        assert!(why.contains("no casual"), "{why}");
        let casual_only = BotFilters {
            rated: false,
            ..BotFilters::default()
        };
        assert_eq!(refusal(&casual_only, &renju, false, true), None);
        assert!(refusal(&casual_only, &renju, true, true).is_some());
    }

    #[test]
    fn bot_challenges_are_counted_over_a_sliding_hour() {
        let book = BotFilterBook::default();
        let t0 = Instant::now();
        assert_eq!(book.bot_challenge("Bot", t0, 2), Ok(()));
        let t1 = t0 + Duration::from_secs(600);
        assert_eq!(book.bot_challenge("bot", t1, 2), Ok(()));
        let wait = book.bot_challenge("BOT", t1, 2).unwrap_err();
        assert_eq!(wait, HOUR - Duration::from_secs(600));
        // Another bot has its own allowance.
        assert_eq!(book.bot_challenge("other", t1, 2), Ok(()));
        // An hour after the first, one more is allowed, not two.
        let t2 = t0 + HOUR;
        assert_eq!(book.bot_challenge("bot", t2, 2), Ok(()));
        assert!(book.bot_challenge("bot", t2, 2).is_err());
    }
}
