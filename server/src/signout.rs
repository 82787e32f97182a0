//! Ending the sessions of revoked login tokens: `logout` ends every other
//! session that holds the same token, `logout_everywhere` every other
//! session of the account; each is closed with 4007 and cannot be
//! resumed (`crate::sessions::Sessions::end_logins`).
//!
//! Why here and on every node: a leaked token may be in use on any node.
//! The node where the logout happens ends its own sessions at once from
//! its registry; then it publishes [`News::Logout`] on the moderation bus
//! (the path a ban's 4006 takes), and every node re-checks the login
//! tokens of that account's sessions against the store, which is the
//! truth, so that a lost message only leaves a session until the next
//! one. A token is void when the store no longer has it, when it expired,
//! or when it was issued at or before the account's last "log out
//! everywhere" ([`tengen_store::Standing::tokens_after_ms`]); a token the
//! store cannot be asked about is taken as void (the session ends; its
//! player logs in again).

use std::collections::HashSet;
use std::time::Duration;

use tengen_protocol::CloseCode;
use tengen_store::{AuthToken, Store};

use crate::hosting::Hosting;
use crate::moderation::state::{Moderation, unix_ms};
use crate::moderation::wire::News;
use crate::outbound::Outbox;
use crate::sessions::Sessions;

/// When a token was issued: its expiry less the lifetime tokens are
/// given (`AccountSettings::token_ttl`).
pub fn issued_ms(token: &AuthToken, ttl: Duration) -> u64 {
    token.expires_ms.saturating_sub(ttl.as_millis() as u64)
}

/// Whether a stored token still opens its account, given the account's
/// `tokens_after_ms` (0: it never logged out everywhere).
pub fn opens(token: &AuthToken, tokens_after_ms: u64, ttl: Duration, now_ms: u64) -> bool {
    token.expires_ms > now_ms && issued_ms(token, ttl) > tokens_after_ms
}

/// `logout` of `token` (already revoked in the store) by the account
/// `name`: the other sessions here that hold it are closed, and the other
/// nodes told. The caller made its own session a guest first.
pub fn logged_out(sessions: &Sessions, m: &Moderation, name: &str, token: &str) {
    close(sessions.end_login(token));
    m.announce(&News::Logout {
        name: name.to_owned(),
        everywhere: false,
    });
}

/// `logout_everywhere` of the account `name` (its `tokens_after_ms` set
/// already): every session of it here is closed, and the other nodes told.
/// The caller made its own session a guest first.
pub fn logged_out_everywhere(sessions: &Sessions, m: &Moderation, name: &str) {
    close(sessions.end_logins(name, |_| true));
    m.announce(&News::Logout {
        name: name.to_owned(),
        everywhere: true,
    });
}

/// [`News::Logout`] heard: the sessions of `name` here whose login token
/// is void now are closed (`everywhere`: and those with no token known,
/// restored after a restart or brought from another node).
pub async fn recheck(h: &Hosting, name: &str, everywhere: bool) {
    let ttl = h.settings.accounts.token_ttl;
    let store: &dyn Store = h.store.as_ref();
    let after = match everywhere {
        false => Some(0),
        true => match store.standing(name).await {
            Ok(s) => Some(s.map_or(0, |s| s.tokens_after_ms)),
            Err(e) => {
                tracing::warn!(error = %e, account = %name, "cannot read a standing after a logout; its sessions here end");
                None
            }
        },
    };
    let now = unix_ms();
    let mut void = HashSet::new();
    for login in h.sessions.logins_of(name) {
        let valid = match (after, store.token(&login).await) {
            (Some(after), Ok(Some(t))) => opens(&t, after, ttl, now),
            (_, Ok(None)) => false,
            (None, Ok(Some(_))) => false,
            (_, Err(e)) => {
                tracing::warn!(error = %e, account = %name, "cannot check a login token after a logout; its session here ends");
                false
            }
        };
        if !valid {
            void.insert(login);
        }
    }
    close(h.sessions.end_logins(name, |login| match login {
        Some(t) => void.contains(t),
        None => everywhere,
    }));
}

fn close(ended: Vec<Outbox>) {
    for outbox in ended {
        outbox.close(CloseCode::LoggedOut);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_token_opens_until_it_expires_or_its_account_logs_out_everywhere() {
        let ttl = Duration::from_secs(100);
        let t = AuthToken {
            token: "t".into(),
            account: "ann".into(),
            expires_ms: 1_000_000 + 100_000,
        };
        assert_eq!(issued_ms(&t, ttl), 1_000_000);
        assert!(opens(&t, 0, ttl, 1_050_000));
        assert!(!opens(&t, 0, ttl, 1_100_000), "expired");
        assert!(!opens(&t, 1_000_000, ttl, 1_050_000), "issued at the stamp");
        assert!(opens(&t, 999_999, ttl, 1_050_000), "issued after it");
    }
}
