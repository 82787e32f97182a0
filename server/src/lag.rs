//! The public lag page's figures (`/lag.json`, shown by the web client's
//! `/lag`): how long this node took over the moves of the last minutes and
//! over the store's writes behind them, as percentiles a player can read.
//!
//! Prometheus has the same times as histograms (`crate::metrics`), but a
//! player has no Prometheus, and its buckets are too coarse for a median.
//! So each [`Window`] keeps its own: [`SLOTS`] slots of [`SLOT`] each, a
//! slot a histogram of log-linear bins (16 to an octave, so a figure is
//! within 3 % of the time it stands for, from a microsecond to a minute),
//! the oldest slot reused as time moves on. Memory is fixed (two windows
//! of 30 × 1.5 KiB); recording is one uncontended lock around a few
//! increments, beside a move's store write and broadcast; a report merges
//! the live slots under the lock (a few microseconds) and sorts nothing.

use std::sync::Mutex;
use std::time::{Duration, Instant};

use serde::Serialize;

/// One slot's span.
pub const SLOT: Duration = Duration::from_secs(10);
/// Slots in a window: the figures are of the last five minutes.
pub const SLOTS: usize = 30;
/// Bins of exact microseconds below [`SUB`], then `SUB` bins an octave.
const SUB: u64 = 16;
/// Octaves above the exact bins: up to 2^26 µs (67 s); longer is counted
/// in the last bin.
const OCTAVES: u64 = 22;
const BINS: usize = (SUB + OCTAVES * SUB) as usize;

/// The times this node's players see: a move's handling and the store's
/// writes, each over the last [`SLOTS`] × [`SLOT`].
pub struct Lag {
    started: Instant,
    /// From a move's frame arriving to its events queued for the opponent
    /// and the spectators (as `tengen_move_handling_seconds`).
    moves: Window,
    /// A table's append to the store, until the store confirmed it (its
    /// sync included: as `tengen_store_append_seconds`).
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
    count: u64,
    max_us: u64,
    bins: [u32; BINS],
}

impl Window {
    fn new() -> Window {
        let empty = || Slot {
            number: 0,
            count: 0,
            max_us: 0,
            bins: [0; BINS],
        };
        Window(Mutex::new((0..SLOTS).map(|_| empty()).collect()))
    }

    fn record(&self, number: u64, took: Duration) {
        let us = u64::try_from(took.as_micros()).unwrap_or(u64::MAX);
        let bin = bin_of(us);
        let Ok(mut slots) = self.0.lock() else { return };
        let slot = &mut slots[(number % SLOTS as u64) as usize];
        if slot.number != number || slot.count == 0 {
            slot.number = number;
            slot.count = 0;
            slot.max_us = 0;
            slot.bins.fill(0);
        }
        slot.count += 1;
        slot.max_us = slot.max_us.max(us);
        slot.bins[bin] = slot.bins[bin].saturating_add(1);
    }

    /// The window's percentiles as of slot `now`.
    fn percentiles(&self, now: u64) -> Percentiles {
        let mut bins = [0u64; BINS];
        let (mut count, mut max_us) = (0u64, 0u64);
        {
            let Ok(slots) = self.0.lock() else {
                return Percentiles::default();
            };
            for slot in slots.iter() {
                let live = slot.count > 0 && slot.number <= now && now - slot.number < SLOTS as u64;
                if !live {
                    continue;
                }
                count += slot.count;
                max_us = max_us.max(slot.max_us);
                for (sum, n) in bins.iter_mut().zip(slot.bins.iter()) {
                    *sum += u64::from(*n);
                }
            }
        }
        if count == 0 {
            return Percentiles::default();
        }
        let at = |q: f64| {
            // The smallest time at or above which lie no more than 1 - q
            // of the moves: the bin holding the ceil(q × n)-th.
            let rank = ((q * count as f64).ceil() as u64).clamp(1, count);
            let mut seen = 0;
            let bin = bins
                .iter()
                .position(|n| {
                    seen += n;
                    seen >= rank
                })
                .unwrap_or(BINS - 1);
            ms(value_of(bin).min(max_us))
        };
        Percentiles {
            count,
            p50_ms: Some(at(0.5)),
            p90_ms: Some(at(0.9)),
            p99_ms: Some(at(0.99)),
            max_ms: Some(ms(max_us)),
        }
    }
}

fn ms(us: u64) -> f64 {
    us as f64 / 1000.0
}

/// The bin of `us` microseconds: exact below [`SUB`], then the octave and
/// the next four bits below its leading one.
fn bin_of(us: u64) -> usize {
    if us < SUB {
        return us as usize;
    }
    let octave = u64::from(63 - us.leading_zeros()) - 4;
    if octave >= OCTAVES {
        return BINS - 1;
    }
    (SUB + octave * SUB + ((us >> octave) & (SUB - 1))) as usize
}

/// The time a bin stands for: its own below [`SUB`], else its middle.
fn value_of(bin: usize) -> u64 {
    let bin = bin as u64;
    if bin < SUB {
        return bin;
    }
    let (octave, sub) = ((bin - SUB) / SUB, (bin - SUB) % SUB);
    let low = (SUB + sub) << octave;
    low + (1 << octave) / 2
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bin_holds_its_times_within_three_percent() {
        let mut last = 0;
        for us in (0..100_000u64).chain([1 << 20, 5_000_000, (1 << 26) - 1]) {
            let bin = bin_of(us);
            assert!(bin >= last, "bins grow with the time");
            last = bin;
            let v = value_of(bin) as f64;
            assert!(
                (v - us as f64).abs() <= us as f64 * 0.032,
                "{us} µs shown as {v}"
            );
        }
        assert_eq!(bin_of(u64::MAX), BINS - 1);
        assert_eq!(bin_of(1 << 26), BINS - 1);
        assert_eq!(bin_of((1 << 26) - 1), BINS - 1);
    }

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
            assert!((got - want).abs() <= want * 0.032, "{got} for {want}");
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
        // 999 µs is in the bin whose middle is 1008 µs: shown as the longest.
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
        // Slot 30 takes slot 0's place, without its counts.
        w.record(SLOTS as u64, Duration::from_millis(2));
        let p = w.percentiles(SLOTS as u64);
        assert_eq!((p.count, p.max_ms), (2, Some(2.0)));
        assert_eq!(w.percentiles(10 * SLOTS as u64), Percentiles::default());
    }
}
