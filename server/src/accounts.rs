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
//! - **Trying.** Failed logins are slowed, then locked, per (account,
//!   address), and throttled briefly per account; registrations are
//!   limited per address; every `login` and `register` of a connection is
//!   limited too (its own bucket). All in [`crate::attempts`]. A wrong
//!   name and a wrong password get the same `bad_credentials`, and an
//!   unknown name costs one verification too, so neither the answer nor
//!   its delay tells which was wrong.
//!
//! Every store call is bounded by [`AccountSettings::store_wait`]; a store
//! that cannot answer makes the request `unavailable` and changes nothing.

use std::sync::{Arc, OnceLock};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use argon2::Argon2;
use argon2::password_hash::{PasswordHasher, PasswordVerifier};
use tengen_protocol::{ErrorBody, ErrorCode, LoggedIn, Player};
use tengen_store::{Account, AuthToken, Store, StoreError, name_key};
use tokio::sync::Semaphore;

use crate::addresses::AddrKey;
pub use crate::attempts::ConnAttempts;
use crate::attempts::{Attempts, Wait};
use crate::metrics::Cap;

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
    if crate::names::guest_like(name) {
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

/// The refusal for too many attempts.
pub fn too_many(wait: Duration) -> ErrorBody {
    ErrorBody {
        message: "too many login attempts; wait a little".into(),
        ..ErrorBody::rate_limited(wait.as_millis().max(1) as u64)
    }
}

/// The refusal for a cap of [`crate::attempts`], counted.
fn capped((cap, wait): Wait, what: &str) -> ErrorBody {
    crate::metrics::cap_hit(cap);
    ErrorBody {
        message: format!("{what}; try again in {} s", wait.as_secs().max(1)),
        ..ErrorBody::rate_limited(wait.as_millis().max(1) as u64)
    }
}

/// The account service every connection shares.
pub struct Accounts {
    store: Arc<dyn Store>,
    settings: AccountSettings,
    hashing: Arc<Semaphore>,
    attempts: Attempts,
    /// Refuses banned accounts at login (`crate::moderation::gate`).
    moderation: crate::moderation::state::Moderation,
}

impl Accounts {
    pub fn new(store: Arc<dyn Store>, settings: AccountSettings) -> Accounts {
        let workers = settings.hash_workers.max(1);
        Accounts {
            store,
            hashing: Arc::new(Semaphore::new(workers)),
            attempts: Attempts::new(settings.clone(), settings.registrations_per_hour),
            settings,
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
    /// uses the name) and logs in to it; `from`: the client's address, or
    /// `None` when the per-address caps exempt it.
    pub async fn register(
        &self,
        name: &str,
        password: &str,
        name_in_use: bool,
        from: Option<AddrKey>,
    ) -> Result<LoggedIn, ErrorBody> {
        self.attempts
            .take_registration(from, Instant::now())
            .map_err(|wait| {
                capped(
                    (Cap::Registrations, wait),
                    "too many accounts registered from your address",
                )
            })?;
        let made = self.create(name, password, name_in_use).await;
        if made.is_err() {
            self.attempts.refund_registration(from);
        }
        made
    }

    async fn create(
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
        let like = crate::names::account_like(&*self.store, name, None);
        if let Some(other) = self.bounded(like).await? {
            return Err(refuse(
                ErrorCode::NameTaken,
                format!("the name {name} looks like {other}'s, which is taken"),
            ));
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
            bot_filters: None,
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

    /// Checks a name and password from the address `from` and issues a
    /// token (the limits of [`crate::attempts`] first).
    pub async fn login(
        &self,
        name: &str,
        password: &str,
        from: AddrKey,
    ) -> Result<LoggedIn, ErrorBody> {
        let key = name_key(name);
        self.attempts
            .may_login(&key, from, Instant::now())
            .map_err(|w| capped(w, "too many failed logins"))?;
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
                self.attempts.login_ok(&key, from, Instant::now());
                crate::moderation::gate::check_login(&self.moderation, &*self.store, &a.name)
                    .await?;
                let mut li = self.issue(&a.name, a.bot).await?;
                li.playban = crate::moderation::fairplay::shown(&self.moderation.book, &a.name);
                Ok(li)
            }
            _ => {
                self.attempts.login_failed(&key, from, Instant::now());
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
            playban: None,
        })
    }

    /// The account a login token opens: its name as registered, and
    /// whether it is a bot.
    pub async fn check_token(&self, token: &str) -> Result<(String, bool), ErrorBody> {
        let unknown = || {
            refuse(
                ErrorCode::BadCredentials,
                "unknown login token; log in again",
            )
        };
        let stored = match self.bounded(self.store.token(token)).await? {
            None => return Err(unknown()),
            Some(t) if t.expires_ms <= unix_ms() => {
                return Err(refuse(
                    ErrorCode::TokenExpired,
                    "the login token has expired; log in again",
                ));
            }
            Some(t) => t,
        };
        let name = stored.account.clone();
        let standing =
            crate::moderation::gate::check_login(&self.moderation, &*self.store, &name).await?;
        // Logged out everywhere since it was issued.
        let after = standing.map_or(0, |s| s.tokens_after_ms);
        if !crate::signout::opens(&stored, after, self.settings.token_ttl, unix_ms()) {
            return Err(unknown());
        }
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

    /// Voids every login token of the account `name` issued until now (its
    /// standing's `tokens_after_ms`).
    pub async fn logout_everywhere(&self, name: &str) -> Result<(), ErrorBody> {
        let now = unix_ms();
        let stamp = crate::moderation::standing::update(&*self.store, name, |s| {
            s.tokens_after_ms = s.tokens_after_ms.max(now);
            true
        });
        self.bounded(stamp).await?;
        tracing::info!(account = %name, "logged out everywhere");
        Ok(())
    }

    /// The name a guest asking for `wanted` (as shown, `crate::names`)
    /// gets: `wanted`, unless it looks like a registered account's name
    /// or like a name the server gives guests: then `guest-<n>`. A store
    /// that cannot answer in time gives `guest-<n>` too.
    pub async fn guest_name(&self, wanted: &str, n: u64) -> String {
        if crate::names::guest_like(wanted) {
            return format!("guest-{n}");
        }
        let like = crate::names::account_like(&*self.store, wanted, None);
        match self.bounded(like).await {
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
