//! Accounts: names, passwords, login tokens, and the limits on trying.
//!
//! - **Names.** An account name has 3 to 20 characters: ASCII letters,
//!   digits, `_` and `-`, starting with a letter; names are unique
//!   whatever their case (the store keys them by `name_key`), and a name
//!   starting with `guest` is refused (the server names anonymous guests
//!   `guest-N`). A guest may not take a registered name ([`Accounts::guest_name`]),
//!   and a name a guest online uses cannot be registered meanwhile.
//! - **Passwords** have at least 8 characters and are stored only as
//!   argon2id hashes in PHC form (the `argon2` crate's defaults: 19 MiB,
//!   2 passes). Hashing and verifying run on the blocking pool
//!   (`spawn_blocking`), at most [`AccountSettings::hash_workers`] at a
//!   time behind a semaphore, and a request that waits longer than
//!   [`AccountSettings::hash_wait`] for its turn is refused as
//!   `unavailable`: a burst of logins costs logins, never the tables.
//! - **Tokens** are 128 random bits as 32 hex digits, valid for
//!   [`AccountSettings::token_ttl`] unless revoked by `logout`.
//! - **Trying.** Failed logins are limited per account name (a sliding
//!   window, [`AccountSettings::name_attempts`] per
//!   [`AccountSettings::name_window`]); every `login` and `register` of a
//!   connection is limited too (its own bucket, [`ConnAttempts`]). A wrong
//!   name and a wrong password get the same `bad_credentials`, and an
//!   unknown name costs one verification too, so neither the answer nor
//!   its delay tells which was wrong.
//!
//! Every store call is bounded by [`AccountSettings::store_wait`]; a store
//! that cannot answer makes the request `unavailable` and changes nothing.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use argon2::Argon2;
use argon2::password_hash::{PasswordHasher, PasswordVerifier};
use tengen_protocol::{ErrorBody, ErrorCode, LoggedIn, Player};
use tengen_store::{Account, AuthToken, Store, StoreError, name_key};
use tokio::sync::Semaphore;

/// Shortest and longest account name, in characters.
pub const NAME_CHARS: std::ops::RangeInclusive<usize> = 3..=20;
/// Shortest password, in characters.
pub const MIN_PASSWORD_CHARS: usize = 8;

pub use crate::settings::AccountSettings;

/// Why a name cannot be an account's.
pub fn check_name(name: &str) -> Result<(), String> {
    let n = name.chars().count();
    if !NAME_CHARS.contains(&n) {
        return Err(format!(
            "an account name has {} to {} characters",
            NAME_CHARS.start(),
            NAME_CHARS.end()
        ));
    }
    if !name.starts_with(|c: char| c.is_ascii_alphabetic()) {
        return Err("an account name starts with a letter".into());
    }
    if !name
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
    {
        return Err("an account name has only letters, digits, '_' and '-'".into());
    }
    if name_key(name).starts_with("guest") {
        return Err("names starting with 'guest' are kept for guests".into());
    }
    Ok(())
}

/// Unix milliseconds now.
pub fn unix_ms() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as u64)
}

fn refuse(code: ErrorCode, message: impl Into<String>) -> ErrorBody {
    ErrorBody::new(code, message)
}

/// The refusal for a store failure.
pub fn store_refusal(e: &StoreError) -> ErrorBody {
    tracing::warn!(error = %e, "store refused an account operation");
    refuse(
        ErrorCode::Unavailable,
        "the store is unavailable; try again",
    )
}

/// A hash to verify against when the name is unknown, so that an unknown
/// name costs what a wrong password costs.
fn dummy_hash() -> &'static str {
    static HASH: OnceLock<String> = OnceLock::new();
    HASH.get_or_init(|| {
        Argon2::default()
            .hash_password(b"no account has this password")
            .map(|h| h.to_string())
            .unwrap_or_default()
    })
}

/// Failed logins per name: the instants of the recent failures.
#[derive(Default)]
struct Failures {
    by_name: HashMap<String, Vec<Instant>>,
}

impl Failures {
    fn blocked(&mut self, key: &str, s: &AccountSettings, now: Instant) -> Option<Duration> {
        let list = self.by_name.get_mut(key)?;
        list.retain(|t| now.saturating_duration_since(*t) < s.name_window);
        if list.len() < s.name_attempts as usize {
            return None;
        }
        list.first().map(|oldest| {
            s.name_window
                .saturating_sub(now.saturating_duration_since(*oldest))
        })
    }

    fn record(&mut self, key: &str, s: &AccountSettings, now: Instant) {
        if !self.by_name.contains_key(key) && self.by_name.len() >= s.max_tracked_names {
            // Forget the names whose window has passed; if none has, the
            // one failed longest ago.
            self.by_name.retain(|_, l| {
                l.last()
                    .is_some_and(|t| now.saturating_duration_since(*t) < s.name_window)
            });
            if self.by_name.len() >= s.max_tracked_names
                && let Some(oldest) = self
                    .by_name
                    .iter()
                    .min_by_key(|(_, l)| l.last().copied())
                    .map(|(k, _)| k.clone())
            {
                self.by_name.remove(&oldest);
            }
        }
        let list = self.by_name.entry(key.to_string()).or_default();
        list.push(now);
        let keep = s.name_attempts as usize;
        if list.len() > keep {
            list.drain(..list.len() - keep);
        }
    }

    fn clear(&mut self, key: &str) {
        self.by_name.remove(key);
    }
}

/// A connection's own limit on `login` and `register` attempts (a token
/// bucket).
pub struct ConnAttempts {
    tokens: f64,
    last: Instant,
    burst: f64,
    refill: Duration,
}

impl ConnAttempts {
    pub fn new(s: &AccountSettings) -> ConnAttempts {
        ConnAttempts {
            tokens: s.conn_burst.max(1) as f64,
            last: Instant::now(),
            burst: s.conn_burst.max(1) as f64,
            refill: s.conn_refill.max(Duration::from_millis(1)),
        }
    }

    /// Takes one attempt, or says how long until one is allowed.
    pub fn take(&mut self, now: Instant) -> Result<(), Duration> {
        let dt = now.saturating_duration_since(self.last).as_secs_f64();
        self.last = now;
        self.tokens = (self.tokens + dt / self.refill.as_secs_f64()).min(self.burst);
        if self.tokens >= 1.0 {
            self.tokens -= 1.0;
            Ok(())
        } else {
            Err(self.refill.mul_f64(1.0 - self.tokens))
        }
    }
}

/// The refusal for too many attempts.
pub fn too_many(wait: Duration) -> ErrorBody {
    ErrorBody {
        message: "too many login attempts; wait a little".into(),
        ..ErrorBody::rate_limited(wait.as_millis() as u64)
    }
}

/// The account service every connection shares.
pub struct Accounts {
    store: Arc<dyn Store>,
    settings: AccountSettings,
    hashing: Arc<Semaphore>,
    failures: Mutex<Failures>,
    /// Refuses banned accounts at login (`crate::moderation::gate`).
    moderation: crate::moderation::state::Moderation,
}

impl Accounts {
    pub fn new(store: Arc<dyn Store>, settings: AccountSettings) -> Accounts {
        let workers = settings.hash_workers.max(1);
        Accounts {
            store,
            settings,
            hashing: Arc::new(Semaphore::new(workers)),
            failures: Mutex::default(),
            moderation: Default::default(),
        }
    }

    /// The accounts service refusing the logins of accounts banned in
    /// `moderation`'s store.
    pub fn with_moderation(mut self, moderation: crate::moderation::state::Moderation) -> Accounts {
        self.moderation = moderation;
        self
    }

    pub fn settings(&self) -> &AccountSettings {
        &self.settings
    }

    pub fn store(&self) -> &Arc<dyn Store> {
        &self.store
    }

    /// Runs a store call within the store wait.
    async fn bounded<T>(
        &self,
        f: impl std::future::Future<Output = Result<T, StoreError>>,
    ) -> Result<T, ErrorBody> {
        match tokio::time::timeout(self.settings.store_wait, f).await {
            Ok(Ok(v)) => Ok(v),
            Ok(Err(e)) => Err(store_refusal(&e)),
            Err(_) => Err(refuse(
                ErrorCode::Unavailable,
                "the store did not answer in time; try again",
            )),
        }
    }

    /// Runs `work` on the blocking pool once a hashing slot is free.
    async fn hash_job<T: Send + 'static>(
        &self,
        work: impl FnOnce() -> T + Send + 'static,
    ) -> Result<T, ErrorBody> {
        let busy = || refuse(ErrorCode::Unavailable, "the server is busy; try again");
        let permit = tokio::time::timeout(
            self.settings.hash_wait,
            self.hashing.clone().acquire_owned(),
        )
        .await
        .map_err(|_| busy())?
        .map_err(|_| busy())?;
        let done = tokio::task::spawn_blocking(move || {
            let out = work();
            drop(permit);
            out
        })
        .await;
        done.map_err(|_| refuse(ErrorCode::Internal, "hashing failed"))
    }

    /// Creates an account (`name_in_use`: whether a live guest session
    /// uses the name) and logs in to it.
    pub async fn register(
        &self,
        name: &str,
        password: &str,
        name_in_use: bool,
    ) -> Result<LoggedIn, ErrorBody> {
        check_name(name).map_err(|m| refuse(ErrorCode::InvalidName, m))?;
        if password.chars().count() < MIN_PASSWORD_CHARS {
            return Err(refuse(
                ErrorCode::WeakPassword,
                format!("a password has at least {MIN_PASSWORD_CHARS} characters"),
            ));
        }
        let taken = || refuse(ErrorCode::NameTaken, format!("the name {name} is taken"));
        if name_in_use || self.bounded(self.store.account(name)).await?.is_some() {
            return Err(taken());
        }
        let pw = password.to_string();
        let hash = self
            .hash_job(move || {
                Argon2::default()
                    .hash_password(pw.as_bytes())
                    .map(|h| h.to_string())
            })
            .await?
            .map_err(|_| refuse(ErrorCode::Internal, "hashing failed"))?;
        let account = Account {
            name: name.to_string(),
            password_hash: hash,
            created_ms: unix_ms(),
            bot: false,
        };
        match tokio::time::timeout(
            self.settings.store_wait,
            self.store.create_account(&account),
        )
        .await
        {
            Ok(Ok(())) => {}
            Ok(Err(StoreError::Exists(_))) => return Err(taken()),
            Ok(Err(e)) => return Err(store_refusal(&e)),
            Err(_) => return Err(refuse(ErrorCode::Unavailable, "the store did not answer")),
        }
        tracing::info!(account = %name, "registered");
        self.issue(&account.name, false).await
    }

    /// Checks a name and password and issues a token.
    pub async fn login(&self, name: &str, password: &str) -> Result<LoggedIn, ErrorBody> {
        let key = name_key(name);
        if let Ok(mut f) = self.failures.lock()
            && let Some(wait) = f.blocked(&key, &self.settings, Instant::now())
        {
            return Err(too_many(wait));
        }
        let account = self.bounded(self.store.account(name)).await?;
        let hash = account
            .as_ref()
            .map_or_else(|| dummy_hash().to_string(), |a| a.password_hash.clone());
        let pw = password.to_string();
        let ok = self
            .hash_job(move || {
                Argon2::default()
                    .verify_password(pw.as_bytes(), hash.as_str())
                    .is_ok()
            })
            .await?;
        match account {
            Some(a) if ok => {
                if let Ok(mut f) = self.failures.lock() {
                    f.clear(&key);
                }
                crate::moderation::gate::check_login(&self.moderation, &*self.store, &a.name)
                    .await?;
                self.issue(&a.name, a.bot).await
            }
            _ => {
                if let Ok(mut f) = self.failures.lock() {
                    f.record(&key, &self.settings, Instant::now());
                }
                Err(refuse(ErrorCode::BadCredentials, "wrong name or password"))
            }
        }
    }

    /// A new token for `account` (its name as registered; `bot`: a bot
    /// account).
    async fn issue(&self, account: &str, bot: bool) -> Result<LoggedIn, ErrorBody> {
        let token = AuthToken {
            token: format!("{:032x}", rand::random::<u128>()),
            account: account.to_string(),
            expires_ms: unix_ms() + self.settings.token_ttl.as_millis() as u64,
        };
        self.bounded(self.store.put_token(&token)).await?;
        Ok(LoggedIn {
            player: Player {
                name: account.to_string(),
                guest: false,
                bot,
            },
            token: token.token,
            expires_ms: token.expires_ms,
        })
    }

    /// The account a login token opens: its name as registered, and
    /// whether it is a bot.
    pub async fn check_token(&self, token: &str) -> Result<(String, bool), ErrorBody> {
        let name = match self.bounded(self.store.token(token)).await? {
            None => {
                return Err(refuse(
                    ErrorCode::BadCredentials,
                    "unknown login token; log in again",
                ));
            }
            Some(t) if t.expires_ms <= unix_ms() => {
                return Err(refuse(
                    ErrorCode::TokenExpired,
                    "the login token has expired; log in again",
                ));
            }
            Some(t) => t.account,
        };
        crate::moderation::gate::check_login(&self.moderation, &*self.store, &name).await?;
        let bot = self
            .bounded(self.store.account(&name))
            .await?
            .is_some_and(|a| a.bot);
        Ok((name, bot))
    }

    /// Makes the account `name` a bot account for good; `already_played`
    /// once a game of its name is stored.
    pub async fn become_bot(&self, name: &str) -> Result<(), ErrorBody> {
        match tokio::time::timeout(self.settings.store_wait, self.store.make_bot(name)).await {
            Ok(Ok(())) => {
                tracing::info!(account = %name, "became a bot account");
                Ok(())
            }
            Ok(Err(StoreError::Conflict(_))) => Err(refuse(
                ErrorCode::AlreadyPlayed,
                "an account that has played a game stays a person's",
            )),
            Ok(Err(StoreError::NotFound(_))) => {
                Err(refuse(ErrorCode::NotFound, format!("no account {name}")))
            }
            Ok(Err(e)) => Err(store_refusal(&e)),
            Err(_) => Err(refuse(ErrorCode::Unavailable, "the store did not answer")),
        }
    }

    /// Revokes a login token.
    pub async fn logout(&self, token: &str) -> Result<(), ErrorBody> {
        self.bounded(self.store.revoke_token(token)).await
    }

    /// The name a guest asking for `wanted` gets: `wanted`, unless an
    /// account is registered under it (in any case): then `guest-<n>`. A
    /// store that cannot answer in time gives `guest-<n>` too.
    pub async fn guest_name(&self, wanted: &str, n: u64) -> String {
        match self.bounded(self.store.account(wanted)).await {
            Ok(None) => wanted.to_string(),
            _ => format!("guest-{n}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names() {
        for ok in ["ann", "Bob_2", "kiyo-tsuki", "abcdefghijklmnopqrst"] {
            assert_eq!(check_name(ok), Ok(()), "{ok}");
        }
        for bad in [
            "",
            "ab",
            "abcdefghijklmnopqrstu",
            "1ann",
            "_ann",
            "an n",
            "ann!",
            "Guest-7",
            "guestly",
            "五目並べ",
        ] {
            assert!(check_name(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn failures_block_a_name_for_its_window() {
        let s = AccountSettings {
            name_attempts: 3,
            name_window: Duration::from_secs(60),
            max_tracked_names: 2,
            ..AccountSettings::default()
        };
        let mut f = Failures::default();
        let t0 = Instant::now();
        for i in 0..3 {
            assert_eq!(f.blocked("ann", &s, t0), None, "attempt {i}");
            f.record("ann", &s, t0 + Duration::from_secs(i));
        }
        let wait = f.blocked("ann", &s, t0 + Duration::from_secs(10)).unwrap();
        assert_eq!(wait, Duration::from_secs(50));
        assert_eq!(f.blocked("bob", &s, t0), None, "another name is free");
        // The oldest failure leaves the window: one more try.
        assert_eq!(f.blocked("ann", &s, t0 + Duration::from_secs(60)), None);
        // Bounded: a third name evicts one.
        f.record("bob", &s, t0);
        f.record("cid", &s, t0 + Duration::from_secs(1));
        assert!(f.by_name.len() <= 2);
        f.clear("cid");
        assert!(!f.by_name.contains_key("cid"));
    }

    #[test]
    fn a_connection_has_a_burst_then_a_trickle() {
        let s = AccountSettings {
            conn_burst: 2,
            conn_refill: Duration::from_secs(10),
            ..AccountSettings::default()
        };
        let mut b = ConnAttempts::new(&s);
        let t0 = Instant::now();
        assert!(b.take(t0).is_ok());
        assert!(b.take(t0).is_ok());
        let wait = b.take(t0).unwrap_err();
        assert!(wait <= Duration::from_secs(10) && wait > Duration::from_secs(9));
        assert!(b.take(t0 + Duration::from_secs(10)).is_ok());
    }

    #[test]
    fn argon2id_hashes_verify() {
        let h = Argon2::default().hash_password(b"correct horse").unwrap();
        let s = h.to_string();
        assert!(s.starts_with("$argon2id$"), "{s}");
        assert!(
            Argon2::default()
                .verify_password(b"correct horse", s.as_str())
                .is_ok()
        );
        assert!(
            Argon2::default()
                .verify_password(b"wrong horse", s.as_str())
                .is_err()
        );
        assert!(dummy_hash().starts_with("$argon2id$"));
    }
}
