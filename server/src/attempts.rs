//! The limits on trying passwords and making accounts: failed logins per
//! (account, address) pair and per account, registrations per address,
//! and each connection's own bucket of attempts.
//!
//! Guessing must be slow, yet a stranger must not be able to lock the
//! owner out. So the lock is the *pair's*: an address that fails to log
//! in to an account gets its first [`AccountSettings::login_free_failures`]
//! failures free, then waits [`AccountSettings::login_delay`], doubling
//! with each failure, and after [`AccountSettings::login_lock_after`]
//! failures is locked out of that account for
//! [`AccountSettings::login_lock`]. Other addresses are not slowed by it.
//! Across all addresses an account that collects
//! [`AccountSettings::name_attempts`] failures within
//! [`AccountSettings::name_window`] is throttled too, but only briefly
//! ([`AccountSettings::name_throttle`]; its failures are then forgotten),
//! and never for an address that logged in to it successfully before: a
//! distributed guesser slows strangers down for a while, while the owner,
//! from an address of theirs, is never kept out.
//!
//! Every table here is bounded ([`AccountSettings::max_tracked_names`]
//! entries each); what is full forgets the entries that matter least
//! (expired first, then the oldest, an owner's address last).

use std::collections::HashMap;
use std::hash::Hash;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use crate::addresses::AddrKey;
use crate::metrics::Cap;
use crate::settings::AccountSettings;

/// One (account, address) pair's failures.
struct Pair {
    failures: u32,
    wait_until: Option<Instant>,
    last: Instant,
    /// This address logged in to this account successfully.
    trusted: bool,
}

/// An account's recent failures from all addresses.
#[derive(Default)]
struct Name {
    times: Vec<Instant>,
    throttled_until: Option<Instant>,
    last: Option<Instant>,
}

/// A registration bucket per address.
struct Bucket {
    tokens: f64,
    last: Instant,
}

#[derive(Default)]
struct Tables {
    pairs: HashMap<(String, AddrKey), Pair>,
    names: HashMap<String, Name>,
    registrations: HashMap<AddrKey, Bucket>,
}

/// The limits every connection shares.
pub struct Attempts {
    settings: AccountSettings,
    registrations_per_hour: u32,
    tables: Mutex<Tables>,
}

/// A refusal: which cap, and how long until trying again makes sense.
pub type Wait = (Cap, Duration);

/// Makes room in `map` for one more entry: drops those `stale` says are
/// worth nothing, then, if still full, the one `age` says is oldest.
fn make_room<K: Eq + Hash + Clone, V, A: Ord>(
    map: &mut HashMap<K, V>,
    max: usize,
    stale: impl Fn(&V) -> bool,
    age: impl Fn(&V) -> A,
) {
    if map.len() < max.max(1) {
        return;
    }
    map.retain(|_, v| !stale(v));
    if map.len() >= max.max(1)
        && let Some(oldest) = map
            .iter()
            .min_by_key(|(_, v)| age(v))
            .map(|(k, _)| k.clone())
    {
        map.remove(&oldest);
    }
}

impl Attempts {
    pub fn new(settings: AccountSettings, registrations_per_hour: u32) -> Attempts {
        Attempts {
            settings,
            registrations_per_hour,
            tables: Mutex::default(),
        }
    }

    /// Whether `addr` may try a password for the account `name` (its
    /// `name_key`) now.
    pub fn may_login(&self, name: &str, addr: AddrKey, now: Instant) -> Result<(), Wait> {
        let Ok(mut t) = self.tables.lock() else {
            return Ok(());
        };
        let s = &self.settings;
        let key = (name.to_string(), addr);
        let mut trusted = false;
        if let Some(p) = t.pairs.get(&key) {
            trusted = p.trusted;
            if let Some(until) = p.wait_until.filter(|u| *u > now) {
                let cap = if p.failures >= s.login_lock_after {
                    Cap::LoginLock
                } else {
                    Cap::LoginDelay
                };
                return Err((cap, until - now));
            }
        }
        if trusted {
            return Ok(());
        }
        let Some(n) = t.names.get_mut(name) else {
            return Ok(());
        };
        if let Some(until) = n.throttled_until.filter(|u| *u > now) {
            return Err((Cap::AccountThrottle, until - now));
        }
        n.times
            .retain(|at| now.saturating_duration_since(*at) < s.name_window);
        if n.times.len() >= s.name_attempts as usize {
            n.times.clear();
            n.throttled_until = Some(now + s.name_throttle);
            return Err((Cap::AccountThrottle, s.name_throttle));
        }
        Ok(())
    }

    /// A failed login of `addr` to `name`.
    pub fn login_failed(&self, name: &str, addr: AddrKey, now: Instant) {
        let Ok(mut t) = self.tables.lock() else {
            return;
        };
        let s = &self.settings;
        let key = (name.to_string(), addr);
        if !t.pairs.contains_key(&key) {
            let lock = s.login_lock;
            make_room(
                &mut t.pairs,
                s.max_tracked_names,
                |p| !p.trusted && now.saturating_duration_since(p.last) > lock,
                |p| (p.trusted, p.last),
            );
        }
        let p = t.pairs.entry(key).or_insert(Pair {
            failures: 0,
            wait_until: None,
            last: now,
            trusted: false,
        });
        p.failures = p.failures.saturating_add(1);
        p.last = now;
        p.wait_until = if p.failures >= s.login_lock_after {
            Some(now + s.login_lock)
        } else if p.failures > s.login_free_failures {
            let doublings = (p.failures - s.login_free_failures - 1).min(20);
            Some(now + (s.login_delay * (1u32 << doublings)).min(s.login_lock))
        } else {
            None
        };
        if !t.names.contains_key(name) {
            let window = s.name_window;
            make_room(
                &mut t.names,
                s.max_tracked_names,
                |n| {
                    n.last
                        .is_none_or(|l| now.saturating_duration_since(l) > window)
                },
                |n| n.last,
            );
        }
        let n = t.names.entry(name.to_string()).or_default();
        n.times.push(now);
        n.last = Some(now);
        let keep = s.name_attempts.max(1) as usize;
        if n.times.len() > keep {
            n.times.drain(..n.times.len() - keep);
        }
    }

    /// A successful login of `addr` to `name`: the pair's failures are
    /// forgotten and the address is the owner's from now on.
    pub fn login_ok(&self, name: &str, addr: AddrKey, now: Instant) {
        let Ok(mut t) = self.tables.lock() else {
            return;
        };
        let key = (name.to_string(), addr);
        if !t.pairs.contains_key(&key) {
            make_room(
                &mut t.pairs,
                self.settings.max_tracked_names,
                |_| false,
                |p| p.last,
            );
        }
        t.pairs.insert(
            key,
            Pair {
                failures: 0,
                wait_until: None,
                last: now,
                trusted: true,
            },
        );
    }

    /// Takes a registration from `addr`'s hourly allowance (`None`: an
    /// address the per-address caps exempt), or says how long until one.
    pub fn take_registration(&self, addr: Option<AddrKey>, now: Instant) -> Result<(), Duration> {
        let (Some(addr), Ok(mut t)) = (addr, self.tables.lock()) else {
            return Ok(());
        };
        let per_hour = f64::from(self.registrations_per_hour.max(1));
        if !t.registrations.contains_key(&addr) {
            make_room(
                &mut t.registrations,
                self.settings.max_tracked_names,
                |b| {
                    b.tokens
                        + now.saturating_duration_since(b.last).as_secs_f64() * per_hour / 3600.0
                        >= per_hour
                },
                |b| b.last,
            );
        }
        let b = t.registrations.entry(addr).or_insert(Bucket {
            tokens: per_hour,
            last: now,
        });
        let dt = now.saturating_duration_since(b.last).as_secs_f64();
        b.last = now;
        b.tokens = (b.tokens + dt * per_hour / 3600.0).min(per_hour);
        if b.tokens < 1.0 {
            return Err(Duration::from_secs_f64(
                (1.0 - b.tokens) * 3600.0 / per_hour,
            ));
        }
        b.tokens -= 1.0;
        Ok(())
    }

    /// Gives back a registration that did not happen (a taken name).
    pub fn refund_registration(&self, addr: Option<AddrKey>) {
        let (Some(addr), Ok(mut t)) = (addr, self.tables.lock()) else {
            return;
        };
        let per_hour = f64::from(self.registrations_per_hour.max(1));
        if let Some(b) = t.registrations.get_mut(&addr) {
            b.tokens = (b.tokens + 1.0).min(per_hour);
        }
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

#[cfg(test)]
mod tests {
    use super::*;

    fn settings() -> AccountSettings {
        AccountSettings {
            login_free_failures: 2,
            login_delay: Duration::from_secs(1),
            login_lock_after: 5,
            login_lock: Duration::from_secs(600),
            name_attempts: 8,
            name_window: Duration::from_secs(60),
            name_throttle: Duration::from_secs(30),
            max_tracked_names: 3,
            ..AccountSettings::default()
        }
    }

    fn addr(a: &str) -> AddrKey {
        AddrKey::of(a.parse().unwrap())
    }

    #[test]
    fn a_pair_is_delayed_doubling_then_locked_and_others_are_not() {
        let a = Attempts::new(settings(), 5);
        let (x, owner) = (addr("192.0.2.1"), addr("198.51.100.7"));
        let t0 = Instant::now();
        let mut now = t0;
        let mut waits = Vec::new();
        for _ in 0..5 {
            a.may_login("ann", x, now).unwrap();
            a.login_failed("ann", x, now);
            if let Err((cap, wait)) = a.may_login("ann", x, now) {
                waits.push((cap, wait.as_secs()));
                now += wait;
            }
        }
        assert_eq!(
            waits,
            [
                (Cap::LoginDelay, 1),
                (Cap::LoginDelay, 2),
                (Cap::LoginLock, 600)
            ]
        );
        assert!(
            a.may_login("ann", owner, t0).is_ok(),
            "another address is free"
        );
        assert!(a.may_login("bob", x, t0).is_ok(), "another account is free");
    }

    #[test]
    fn an_account_wide_throttle_is_brief_and_spares_the_owners_address() {
        let a = Attempts::new(
            AccountSettings {
                max_tracked_names: 100,
                ..settings()
            },
            5,
        );
        let t0 = Instant::now();
        a.login_ok("ann", addr("198.51.100.7"), t0);
        for i in 0..8 {
            a.login_failed("ann", addr(&format!("192.0.2.{i}")), t0);
        }
        let stranger = addr("203.0.113.1");
        assert_eq!(
            a.may_login("ann", stranger, t0),
            Err((Cap::AccountThrottle, Duration::from_secs(30)))
        );
        assert!(a.may_login("ann", addr("198.51.100.7"), t0).is_ok());
        // Brief: over after the throttle, the failures forgotten.
        assert!(
            a.may_login("ann", stranger, t0 + Duration::from_secs(30))
                .is_ok()
        );
    }

    #[test]
    fn registrations_per_address_per_hour() {
        let a = Attempts::new(settings(), 2);
        let (x, t0) = (Some(addr("192.0.2.1")), Instant::now());
        assert!(a.take_registration(x, t0).is_ok());
        assert!(a.take_registration(x, t0).is_ok());
        let wait = a.take_registration(x, t0).unwrap_err();
        assert_eq!(wait, Duration::from_secs(1800));
        a.refund_registration(x);
        assert!(a.take_registration(x, t0).is_ok());
        assert!(a.take_registration(None, t0).is_ok(), "exempt");
        assert!(a.take_registration(Some(addr("192.0.2.2")), t0).is_ok());
    }

    #[test]
    fn tables_stay_bounded() {
        let a = Attempts::new(settings(), 5);
        let t0 = Instant::now();
        for i in 0..20 {
            a.login_failed(&format!("n{i}"), addr(&format!("192.0.2.{i}")), t0);
            let _ = a.take_registration(Some(addr(&format!("192.0.2.{i}"))), t0);
        }
        let t = a.tables.lock().unwrap();
        assert!(t.pairs.len() <= 3 && t.names.len() <= 3 && t.registrations.len() <= 3);
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
}
