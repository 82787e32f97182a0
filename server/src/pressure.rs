//! Overload: shedding new work at the edge before games in progress suffer.
//!
//! When the machine cannot keep up (other programs taking the CPU, more
//! players than it can serve), every game slows down. That is acceptable;
//! breaking a game is not. So when the server is behind, it stops taking
//! *new* work — WebSocket upgrades (HTTP 503 with `Retry-After`), new
//! rooms, challenges and rated-queue entries (`unavailable` with
//! `retry_after_ms`) — while every game already running goes on, only
//! slower.
//!
//! "Behind" is measured two ways, both cheap:
//! - the runtime's lag: a task that asks to wake every [`TICK`] and notes
//!   how late it woke. A runtime whose workers are starved or flooded
//!   wakes it late. The gauge is a moving average (each tick weighs an
//!   eighth), so a lone hiccup sheds nothing and lasting lag does.
//! - the store: a table store call that outlasted the store timeout while
//!   the store was busy with other writes ([`Pressure::store_behind`], from
//!   the table's patient store call) sheds for [`STORE_SHED`];
//! - new games only (not connections): the new tables waiting for their
//!   turn to start (`crate::pacing`), once the turns handed out reach
//!   [`crate::pacing::MAX_BACKLOG`] ahead ([`Pressure::shedding_games`]).
//!
//! The thresholds are settings (`--shed-lag-ms`, 0 turns shedding off;
//! `--table-start-rate`).

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use tokio::sync::watch;
use tokio::time::MissedTickBehavior;

use crate::pacing::{MAX_BACKLOG, StartGate};

/// How often the lag probe asks to wake.
const TICK: Duration = Duration::from_millis(50);
/// How long new work is shed after a table's store call ran late.
const STORE_SHED: Duration = Duration::from_secs(2);
/// The `retry_after` given with a shed request, at least.
const RETRY_MIN: Duration = Duration::from_secs(1);
/// The `retry_after` given when an actor's mailbox was full: a burst that
/// the actor works through in well under this.
pub const BUSY_RETRY: Duration = Duration::from_millis(250);

/// The refusal of a request whose actor's mailbox was full (the lobby, a
/// table, the matchmaker, the director, the node): `unavailable`, with a
/// time to try again so that a client waits instead of giving up, and
/// counted as `tengen_shed_total{what="busy"}`.
pub fn busy(message: &str) -> tengen_protocol::ErrorBody {
    metrics::counter!(crate::metrics::SHED, "what" => "busy").increment(1);
    let mut body =
        tengen_protocol::ErrorBody::new(tengen_protocol::ErrorCode::Unavailable, message);
    body.retry_after_ms = Some(BUSY_RETRY.as_millis() as u64);
    body
}

/// The server's load, as the edge checks it.
#[derive(Debug)]
pub struct Pressure {
    /// The lag above which new work is shed (zero: never).
    shed_lag: Duration,
    origin: Instant,
    /// The runtime's lag, in microseconds (moving average).
    lag_us: AtomicU64,
    /// Milliseconds after `origin` until which the store counts as behind.
    store_until_ms: AtomicU64,
    /// The turns of new tables.
    starts: StartGate,
}

impl Pressure {
    /// A gauge that sheds above `shed_lag` of runtime lag (zero: never),
    /// with new tables paced to `start_rate` a second (zero: not paced).
    pub fn new(shed_lag: Duration, start_rate: u32) -> Arc<Pressure> {
        Arc::new(Pressure {
            shed_lag,
            origin: Instant::now(),
            lag_us: AtomicU64::new(0),
            store_until_ms: AtomicU64::new(0),
            starts: StartGate::new(start_rate),
        })
    }

    /// The schedule new tables wait on for their turn to start.
    pub fn starts(&self) -> &StartGate {
        &self.starts
    }

    /// The runtime's lag now (a moving average of the probe's lateness).
    pub fn lag(&self) -> Duration {
        Duration::from_micros(self.lag_us.load(Ordering::Relaxed))
    }

    /// A table's store call ran past the store timeout while the store
    /// was completing other writes.
    pub fn store_behind(&self) {
        let until = (self.origin.elapsed() + STORE_SHED).as_millis() as u64;
        self.store_until_ms.fetch_max(until, Ordering::Relaxed);
    }

    /// `Some(retry_after)` while new work must be refused.
    pub fn shedding(&self) -> Option<Duration> {
        if self.shed_lag.is_zero() {
            return None;
        }
        let lag = self.lag();
        let now_ms = self.origin.elapsed().as_millis() as u64;
        let store_ms = self.store_until_ms.load(Ordering::Relaxed);
        if lag >= self.shed_lag {
            Some((lag * 4).max(RETRY_MIN))
        } else if store_ms > now_ms {
            Some(Duration::from_millis(store_ms - now_ms).max(RETRY_MIN))
        } else {
            None
        }
    }

    /// `Some(retry_after)` while new games (rooms, challenges, queue
    /// entries) must be refused: [`Pressure::shedding`], or new tables
    /// waiting more than [`MAX_BACKLOG`] for their turn to start. (A
    /// connection, which may only want to watch, is not refused for that.)
    pub fn shedding_games(&self) -> Option<Duration> {
        if self.shed_lag.is_zero() {
            return None;
        }
        let starts = self.starts.backlog(Instant::now());
        self.shedding()
            .or_else(|| (starts > MAX_BACKLOG).then(|| starts - MAX_BACKLOG + RETRY_MIN))
    }

    /// Notes a refusal of new work of kind `what` (metrics).
    pub fn shed(&self, what: &'static str) {
        metrics::counter!(crate::metrics::SHED, "what" => what).increment(1);
    }

    fn sample(&self, late: Duration) {
        let late_us = late.as_micros().min(u64::MAX as u128) as u64;
        let old = self.lag_us.load(Ordering::Relaxed);
        self.lag_us
            .store(old - old / 8 + late_us / 8, Ordering::Relaxed);
        metrics::gauge!(crate::metrics::RUNTIME_LAG).set(self.lag().as_secs_f64());
    }
}

/// Runs the lag probe until `shutdown` turns true.
pub fn spawn(pressure: Arc<Pressure>, mut shutdown: watch::Receiver<bool>) {
    tokio::spawn(async move {
        let mut ticks = tokio::time::interval(TICK);
        ticks.set_missed_tick_behavior(MissedTickBehavior::Delay);
        loop {
            tokio::select! {
                due = ticks.tick() => pressure.sample(due.into_std().elapsed()),
                _ = shutdown.changed() => return,
            }
            if *shutdown.borrow() {
                return;
            }
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lasting_lag_sheds_a_lone_hiccup_does_not() {
        let p = Pressure::new(Duration::from_millis(200), 0);
        assert_eq!(p.shedding(), None);
        p.sample(Duration::from_millis(400));
        assert_eq!(p.shedding(), None, "one late tick: {:?}", p.lag());
        for _ in 0..20 {
            p.sample(Duration::from_millis(400));
        }
        let retry = p.shedding().expect("lasting 400 ms of lag sheds");
        assert!(retry >= RETRY_MIN);
        for _ in 0..10 {
            p.sample(Duration::ZERO);
        }
        // About 375 ms × (7/8)^10 ≈ 99 ms: below the threshold again.
        assert!(p.lag() < Duration::from_millis(200), "{:?}", p.lag());
        assert_eq!(p.shedding(), None);
    }

    #[test]
    fn a_late_store_call_sheds_for_a_while() {
        let p = Pressure::new(Duration::from_millis(200), 0);
        p.store_behind();
        let retry = p.shedding().expect("a store behind sheds");
        assert!(retry <= STORE_SHED && retry >= RETRY_MIN, "{retry:?}");
    }

    #[test]
    fn a_backlog_of_table_starts_sheds_until_it_is_worked_off() {
        let p = Pressure::new(Duration::from_millis(200), 100);
        let now = Instant::now();
        while p.starts().backlog(now) <= MAX_BACKLOG {
            p.starts().reserve(now);
        }
        let retry = p.shedding_games().expect("turns handed out too far ahead");
        assert!(retry >= RETRY_MIN, "{retry:?}");
        assert!(retry < RETRY_MIN + Duration::from_millis(100), "{retry:?}");
        assert_eq!(p.shedding(), None, "connections are still taken");
    }

    #[test]
    fn zero_threshold_never_sheds() {
        let p = Pressure::new(Duration::ZERO, 0);
        p.sample(Duration::from_secs(5));
        p.store_behind();
        assert_eq!(p.shedding(), None);
    }
}
