//! The public lag page's figures (`/lag.json`, shown by the web client's
//! `/lag`): how long this node took over the moves of the last minutes and
//! over the store's writes behind them, as percentiles a player can read.
//!
//! Prometheus has the same times as histograms (`crate::metrics`), but a
//! player has no Prometheus, and its buckets are too coarse for a median.
//! So each [`Window`] keeps its own: [`SLOTS`] slots of [`SLOT`] each, a
//! slot an HDR histogram (`hdrhistogram`, two significant figures: a figure
//! is within 1 % of the time it stands for, from a microsecond to a
//! minute), the oldest slot cleared as time moves on. Memory is fixed
//! (about 6 KiB a slot); recording is one uncontended lock around an
//! increment, beside a move's store write and broadcast; a report merges
//! the live slots under the lock.

use std::sync::Mutex;
use std::time::{Duration, Instant};

use hdrhistogram::Histogram;

use serde::Serialize;

/// One slot's span.
pub const SLOT: Duration = Duration::from_secs(30);
/// Slots in a window: the figures are of the last five minutes.
pub const SLOTS: usize = 10;
/// The longest time a histogram tells apart (longer is counted as it).
const LONGEST_US: u64 = 60_000_000;

/// The times this node's players see: a move's handling and the store's
/// writes, each over the last [`SLOTS`] × [`SLOT`].
pub struct Lag {
    started: Instant,
    /// From a move's frame arriving to its events queued for the opponent
    /// and the spectators (as `tengen_move_handling_seconds`).
    moves: Window,
    /// A table's append to the store, until the store confirmed it (its
    /// sync included: as `tengen_store_call_seconds{call="append"}`).
    store_writes: Window,
}

/// What `/lag.json` answers.
#[derive(Debug, Serialize)]
pub struct Report {
    /// The span the percentiles are over, seconds.
    pub window_secs: u64,
    pub moves: Percentiles,
    pub store_writes: Percentiles,
    /// Live tables on this node.
    pub tables: usize,
    /// Open WebSocket connections to this node (players and spectators;
    /// a browser tab each).
    pub connections: usize,
}

/// Percentiles of one window, milliseconds (to the microsecond); `None`
/// while the window is empty.
#[derive(Debug, Default, Serialize, PartialEq)]
pub struct Percentiles {
    pub count: u64,
    pub p50_ms: Option<f64>,
    pub p90_ms: Option<f64>,
    pub p99_ms: Option<f64>,
    pub max_ms: Option<f64>,
}

impl Default for Lag {
    fn default() -> Lag {
        Lag::new()
    }
}

impl Lag {
    pub fn new() -> Lag {
        Lag {
            started: Instant::now(),
            moves: Window::new(),
            store_writes: Window::new(),
        }
    }

    /// A move handled in `took` (from its frame's arrival).
    pub fn record_move(&self, took: Duration) {
        self.moves.record(self.slot_of(Instant::now()), took);
    }

    /// A store write confirmed after `took`.
    pub fn record_store_write(&self, took: Duration) {
        self.store_writes.record(self.slot_of(Instant::now()), took);
    }

    /// The figures now, with the live counts the caller has.
    pub fn report(&self, tables: usize, connections: usize) -> Report {
        self.report_at(Instant::now(), tables, connections)
    }

    fn report_at(&self, now: Instant, tables: usize, connections: usize) -> Report {
        let slot = self.slot_of(now);
        Report {
            window_secs: SLOT.as_secs() * SLOTS as u64,
            moves: self.moves.percentiles(slot),
            store_writes: self.store_writes.percentiles(slot),
            tables,
            connections,
        }
    }

    /// The number of the slot `at` falls in, counted from the start.
    fn slot_of(&self, at: Instant) -> u64 {
        at.saturating_duration_since(self.started).as_secs() / SLOT.as_secs()
    }
}

/// [`SLOTS`] histograms, slot `n` at index `n % SLOTS`.
struct Window(Mutex<Vec<Slot>>);

struct Slot {
    /// Which slot it holds now (its counts are stale if older than the
    /// window).
    number: u64,
    times_us: Histogram<u32>,
    /// The longest exactly (the histogram holds it to 1 %).
    max_us: u64,
}

fn histogram() -> Histogram<u32> {
    Histogram::new_with_bounds(1, LONGEST_US, 2).expect("valid bounds")
}

impl Window {
    fn new() -> Window {
        let empty = || Slot {
            number: 0,
            times_us: histogram(),
            max_us: 0,
        };
        Window(Mutex::new((0..SLOTS).map(|_| empty()).collect()))
    }

    fn record(&self, number: u64, took: Duration) {
        let us = u64::try_from(took.as_micros()).unwrap_or(u64::MAX);
        let Ok(mut slots) = self.0.lock() else { return };
        let slot = &mut slots[(number % SLOTS as u64) as usize];
        if slot.number != number {
            slot.number = number;
            slot.times_us.reset();
            slot.max_us = 0;
        }
        slot.times_us.saturating_record(us.clamp(1, LONGEST_US));
        slot.max_us = slot.max_us.max(us);
    }

    /// The window's percentiles as of slot `now`.
    fn percentiles(&self, now: u64) -> Percentiles {
        let mut all = histogram();
        let mut max = 0;
        {
            let Ok(slots) = self.0.lock() else {
                return Percentiles::default();
            };
            for slot in slots.iter() {
                let live = slot.number <= now && now - slot.number < SLOTS as u64;
                if live && !slot.times_us.is_empty() {
                    // The same bounds: adding cannot fail.
                    let _ = all.add(&slot.times_us);
                    max = max.max(slot.max_us);
                }
            }
        }
        if all.is_empty() {
            return Percentiles::default();
        }
        let at = |q: f64| ms(all.value_at_quantile(q).min(max));
        Percentiles {
            count: all.len(),
            p50_ms: Some(at(0.5)),
            p90_ms: Some(at(0.9)),
            p99_ms: Some(at(0.99)),
            max_ms: Some(ms(max)),
        }
    }
}

fn ms(us: u64) -> f64 {
    us as f64 / 1000.0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn percentiles_of_a_known_spread() {
        let lag = Lag::new();
        let now = lag.started;
        // 1..=1000 ms, one each.
        for ms in 1..=1000u64 {
            lag.moves.record(0, Duration::from_millis(ms));
        }
        let p = lag.report_at(now, 3, 7);
        assert_eq!((p.tables, p.connections), (3, 7));
        assert_eq!(p.moves.count, 1000);
        let near = |got: Option<f64>, want: f64| {
            let got = got.unwrap();
            assert!((got - want).abs() <= want * 0.01, "{got} for {want}");
        };
        near(p.moves.p50_ms, 500.0);
        near(p.moves.p90_ms, 900.0);
        near(p.moves.p99_ms, 990.0);
        assert_eq!(p.moves.max_ms, Some(1000.0));
        assert_eq!(p.store_writes, Percentiles::default());
    }

    #[test]
    fn a_percentile_is_never_above_the_longest() {
        let lag = Lag::new();
        // A percentile is shown at most as the longest time, exact.
        lag.moves.record(0, Duration::from_micros(999));
        let p = lag.report_at(lag.started, 0, 0).moves;
        assert_eq!(
            (p.p50_ms, p.p99_ms, p.max_ms),
            (Some(0.999), Some(0.999), Some(0.999))
        );
        lag.moves.record(0, Duration::from_micros(1_000_001));
        let p = lag.report_at(lag.started, 0, 0).moves;
        assert_eq!(p.max_ms, Some(1000.001));
        assert!(p.p99_ms.unwrap() <= 1000.001 && p.p99_ms.unwrap() > 970.0);
    }

    #[test]
    fn old_slots_leave_the_window_and_are_reused() {
        let lag = Lag::new();
        let w = &lag.store_writes;
        w.record(0, Duration::from_millis(100));
        w.record(1, Duration::from_millis(1));
        assert_eq!(w.percentiles(1).count, 2);
        assert_eq!(w.percentiles(SLOTS as u64 - 1).count, 2);
        // Slot 0 has left the window; slot 1 is the last one still in.
        let p = w.percentiles(SLOTS as u64);
        assert_eq!(p.count, 1);
        assert_eq!(p.max_ms, Some(1.0));
        // Slot SLOTS takes slot 0's place, without its counts.
        w.record(SLOTS as u64, Duration::from_millis(2));
        let p = w.percentiles(SLOTS as u64);
        assert_eq!((p.count, p.max_ms), (2, Some(2.0)));
        assert_eq!(w.percentiles(10 * SLOTS as u64), Percentiles::default());
    }
}
