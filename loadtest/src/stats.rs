//! What a run counts and measures, and the report it gives (worded for
//! people in `human`).
//!
//! Latencies go into HdrHistograms in microseconds, each recorded against the
//! move's *intended* send time (when the simulated player was due to move),
//! not the moment the frame actually left: a stalled load generator or server
//! then shows up as latency instead of silently sending fewer moves
//! (coordinated omission). A child process ships its histograms serialized
//! (HdrHistogram V2, hex) inside its JSON so the parent merges them exactly.

use std::collections::BTreeMap;

use hdrhistogram::Histogram;
use hdrhistogram::serialization::{Deserializer, Serializer, V2Serializer};
use serde::{Deserialize, Serialize};

/// Highest value a histogram holds: one hour, in microseconds.
const MAX_US: u64 = 3_600_000_000;

fn histogram() -> Histogram<u64> {
    Histogram::new_with_bounds(1, MAX_US, 3).expect("valid bounds")
}

/// The histograms of a run, by name.
pub const OPPONENT: &str = "opponent";
/// The same, for the moves due once every connection of the process was
/// set up: the steady state, without the connection storm's waits.
pub const OPPONENT_STEADY: &str = "opponent_steady";
pub const SPECTATORS: &str = "spectators";
pub const CONNECT: &str = "connect";
pub const SEND_LAG: &str = "send_lag";
pub const LAST_SPECTATOR: &str = "last_spectator";
/// Churn, and games across a restart: a connection dropped or closed by
/// the server → its session resumed and caught up.
pub const RESUME: &str = "resume";

/// Counters and histograms of one process.
#[derive(Debug)]
pub struct Stats {
    pub games_started: u64,
    pub games_completed: u64,
    pub moves: u64,
    pub connections: u64,
    /// Churn, and games across a restart: sessions resumed after a drop or
    /// a close, and the events a resume lost (a gap in `seq`) or delivered
    /// twice (each is also an error).
    pub resumes: u64,
    pub events_lost: u64,
    pub events_duplicated: u64,
    /// Games, fan-out: table events the spectators received in order, those
    /// of them received through another node (URL) than the game's players
    /// use, and the games a spectator saw to their `game_over`.
    pub spectator_events: u64,
    pub spectator_events_other_node: u64,
    pub spectator_games_over: u64,
    /// Requests the server refused as too busy for new work (a 503 before
    /// the upgrade, `unavailable` with `retry_after_ms` for a new room),
    /// each tried again after the time it gave: not errors.
    pub shed: u64,
    pub errors: BTreeMap<String, u64>,
    pub hist: BTreeMap<&'static str, Histogram<u64>>,
    /// Fan-out: per move number, the latency to the last spectator that got it.
    pub last_spectator: BTreeMap<u32, u64>,
}

impl Default for Stats {
    fn default() -> Stats {
        Stats {
            games_started: 0,
            games_completed: 0,
            moves: 0,
            connections: 0,
            resumes: 0,
            events_lost: 0,
            events_duplicated: 0,
            spectator_events: 0,
            spectator_events_other_node: 0,
            spectator_games_over: 0,
            shed: 0,
            errors: BTreeMap::new(),
            hist: [OPPONENT, SPECTATORS, CONNECT, SEND_LAG]
                .into_iter()
                .map(|n| (n, histogram()))
                .collect(),
            last_spectator: BTreeMap::new(),
        }
    }
}

impl Stats {
    pub fn record(&mut self, name: &'static str, us: u64) {
        self.hist
            .entry(name)
            .or_insert_with(histogram)
            .saturating_record(us.max(1));
    }

    pub fn error(&mut self, kind: impl Into<String>) {
        *self.errors.entry(kind.into()).or_default() += 1;
    }

    /// Fan-out: move `number` reached one more spectator after `us`.
    pub fn spectator_got(&mut self, number: u32, us: u64) {
        self.record(SPECTATORS, us);
        let last = self.last_spectator.entry(number).or_default();
        *last = (*last).max(us);
    }

    /// The report of this process alone (what a child prints).
    pub fn report(&self) -> Report {
        let mut hist = self.hist.clone();
        if !self.last_spectator.is_empty() {
            let h = hist.entry(LAST_SPECTATOR).or_insert_with(histogram);
            for &us in self.last_spectator.values() {
                h.saturating_record(us.max(1));
            }
        }
        let mut r = Report {
            games_started: self.games_started,
            games_completed: self.games_completed,
            moves: self.moves,
            connections: self.connections,
            resumes: self.resumes,
            events_lost: self.events_lost,
            events_duplicated: self.events_duplicated,
            spectator_events: self.spectator_events,
            spectator_events_other_node: self.spectator_events_other_node,
            spectator_games_over: self.spectator_games_over,
            shed: self.shed,
            errors: self.errors.clone(),
            ..Report::default()
        };
        r.set_histograms(&hist);
        r.last_spectator_per_move = self.last_spectator.clone();
        r
    }
}

/// Percentiles of one histogram, in milliseconds.
#[derive(Clone, Debug, Default, Serialize, Deserialize, PartialEq)]
pub struct Summary {
    pub count: u64,
    pub p50_ms: f64,
    pub p99_ms: f64,
    pub p999_ms: f64,
    pub max_ms: f64,
}

impl Summary {
    fn of(h: &Histogram<u64>) -> Summary {
        let ms = |us: u64| (us as f64 / 1000.0 * 1000.0).round() / 1000.0;
        Summary {
            count: h.len(),
            p50_ms: ms(h.value_at_quantile(0.50)),
            p99_ms: ms(h.value_at_quantile(0.99)),
            p999_ms: ms(h.value_at_quantile(0.999)),
            max_ms: ms(h.max()),
        }
    }
}

/// The server's resident memory around the run.
#[derive(Clone, Debug, Default, Serialize, Deserialize, PartialEq)]
pub struct Memory {
    /// Where it was read: `/metrics` of a URL, or `/proc/PID`.
    pub source: String,
    pub before_bytes: u64,
    pub after_bytes: u64,
    /// Connections open (counted by us) when `after_bytes` was read.
    pub connections: u64,
    pub per_connection_bytes: f64,
}

/// The server's CPU time over the measured part of the run (from the
/// moment every connection is open to the end).
#[derive(Clone, Debug, Default, Serialize, Deserialize, PartialEq)]
pub struct Cpu {
    /// Where it was read: `/metrics` of a URL, or `/proc/PID`.
    pub source: String,
    /// User plus system seconds.
    pub seconds: f64,
    pub moves: u64,
    /// CPU seconds per 1,000 moves (0 when no move was made).
    pub per_1000_moves_s: f64,
}

impl Cpu {
    pub fn new(source: String, seconds: f64, moves: u64) -> Cpu {
        let per = if moves > 0 {
            seconds * 1000.0 / moves as f64
        } else {
            0.0
        };
        Cpu {
            source,
            seconds: (seconds * 100.0).round() / 100.0,
            moves,
            per_1000_moves_s: (per * 1000.0).round() / 1000.0,
        }
    }
}

/// What the durable relay's journal did over a run (its `/metrics`).
#[derive(Clone, Debug, Default, Serialize, Deserialize, PartialEq)]
pub struct JournalUse {
    pub syncs: u64,
    pub frames: u64,
    pub bytes: u64,
}

impl JournalUse {
    /// The `relay_journal_*_total` counters of a `/metrics` page.
    pub fn from_metrics(page: &str) -> Option<JournalUse> {
        let get = |name: &str| {
            page.lines()
                .find_map(|l| l.strip_prefix(&format!("relay_journal_{name}_total ")))
                .and_then(|v| v.trim().parse::<u64>().ok())
        };
        Some(JournalUse {
            syncs: get("syncs")?,
            frames: get("frames")?,
            bytes: get("bytes")?,
        })
    }

    /// What happened between `self` (before) and `after`.
    pub fn since(&self, after: &JournalUse) -> JournalUse {
        JournalUse {
            syncs: after.syncs.saturating_sub(self.syncs),
            frames: after.frames.saturating_sub(self.frames),
            bytes: after.bytes.saturating_sub(self.bytes),
        }
    }
}

/// One run's figures: what `--json` prints as its last line.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct Report {
    pub scenario: String,
    pub target: String,
    pub games_started: u64,
    pub games_completed: u64,
    pub moves: u64,
    pub connections: u64,
    /// Churn, and games across a restart: sessions resumed after a drop or
    /// a close; events lost or doubled (must be 0: each is also counted as
    /// an error).
    #[serde(default)]
    pub resumes: u64,
    #[serde(default)]
    pub events_lost: u64,
    #[serde(default)]
    pub events_duplicated: u64,
    /// New work the server shed under overload and we retried (not errors).
    #[serde(default)]
    pub shed: u64,
    /// Games, fan-out: table events the spectators received, each the next
    /// `seq` of its table (a gap counts in `events_lost`, a repeat in
    /// `events_duplicated`, both also errors); how many of them came through
    /// another node than the one the game's players are connected to
    /// (several `--url`s); and the games a spectator followed to `game_over`.
    #[serde(default)]
    pub spectator_events: u64,
    #[serde(default)]
    pub spectator_events_other_node: u64,
    #[serde(default)]
    pub spectator_games_over: u64,
    pub errors: BTreeMap<String, u64>,
    pub error_total: u64,
    /// Move sent → arrival at the opponent (games: across a restart too,
    /// from when the move was due; its max is the longest wait a move saw).
    pub latency_opponent: Summary,
    /// The same for the moves due after every connection was set up (its
    /// max is the longest wait a move saw in the steady state).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub latency_opponent_steady: Option<Summary>,
    /// Move sent → arrival at each spectator.
    pub latency_spectators: Summary,
    /// Fan-out: move sent → arrival at the last spectator, one value per move.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub latency_last_spectator: Option<Summary>,
    /// TCP connect, WebSocket upgrade, hello and welcome.
    pub connect: Summary,
    /// How late the simulated players sent their moves (our own lag: timer
    /// granularity and load-generator scheduling), already inside the
    /// latencies above.
    pub send_lag: Summary,
    /// Churn, games across a restart: drop or close → resumed and caught up
    /// (the missed events replayed).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub resume: Option<Summary>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub memory: Option<Memory>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cpu: Option<Cpu>,
    /// Soak: the server's memory through the run, and whether it stayed flat.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub soak: Option<crate::soak::SoakMemory>,
    pub duration_s: f64,
    pub load_average: String,
    /// Processes burning a core each during the run (`--burn`).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub burners: u64,
    /// The CPU seconds they took (so a run shows how much it was starved).
    #[serde(default, skip_serializing_if = "is_zero_f")]
    pub burn_cpu_s: f64,
    /// `--stop-server`: seconds from the SIGTERM to the server's exit.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub server_stop_s: Option<f64>,
    /// The same scenario against the bare relay, and our figure over its.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub baseline: Option<Box<Report>>,
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub ratio_to_baseline: BTreeMap<String, f64>,
    /// The same scenario against the durable relay (`--baseline-durable`),
    /// and our figure over its.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub durable_baseline: Option<Box<Report>>,
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub ratio_to_durable_baseline: BTreeMap<String, f64>,
    /// The durable relay's journal over its run.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub journal: Option<JournalUse>,
    /// Serialized histograms, for merging (children only).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub histograms: BTreeMap<String, String>,
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub last_spectator_per_move: BTreeMap<u32, u64>,
}

impl Report {
    fn set_histograms(&mut self, hist: &BTreeMap<&'static str, Histogram<u64>>) {
        let get = |n: &str| hist.get(n).map(Summary::of).unwrap_or_default();
        self.latency_opponent = get(OPPONENT);
        self.latency_opponent_steady = hist.get(OPPONENT_STEADY).map(Summary::of);
        self.latency_spectators = get(SPECTATORS);
        self.connect = get(CONNECT);
        self.send_lag = get(SEND_LAG);
        self.latency_last_spectator = hist.get(LAST_SPECTATOR).map(Summary::of);
        self.resume = hist.get(RESUME).map(Summary::of);
        self.error_total = self.errors.values().sum();
        self.histograms = hist
            .iter()
            .map(|(n, h)| (n.to_string(), to_hex(h)))
            .collect();
    }

    /// Merges the reports of several children into one.
    pub fn merge(parts: &[Report]) -> anyhow::Result<Report> {
        let mut r = Report::default();
        let mut hist: BTreeMap<&'static str, Histogram<u64>> = BTreeMap::new();
        for p in parts {
            r.games_started += p.games_started;
            r.games_completed += p.games_completed;
            r.moves += p.moves;
            r.connections += p.connections;
            r.resumes += p.resumes;
            r.events_lost += p.events_lost;
            r.events_duplicated += p.events_duplicated;
            r.spectator_events += p.spectator_events;
            r.spectator_events_other_node += p.spectator_events_other_node;
            r.spectator_games_over += p.spectator_games_over;
            r.shed += p.shed;
            for (k, v) in &p.errors {
                *r.errors.entry(k.clone()).or_default() += v;
            }
            for (name, hex) in &p.histograms {
                let name = [
                    OPPONENT,
                    OPPONENT_STEADY,
                    SPECTATORS,
                    CONNECT,
                    SEND_LAG,
                    LAST_SPECTATOR,
                    RESUME,
                ]
                .into_iter()
                .find(|n| n == name)
                .ok_or_else(|| anyhow::anyhow!("unknown histogram {name}"))?;
                if name == LAST_SPECTATOR {
                    continue; // rebuilt below from the per-move maxima
                }
                hist.entry(name)
                    .or_insert_with(histogram)
                    .add(from_hex(hex)?)
                    .map_err(|e| anyhow::anyhow!("merging {name}: {e:?}"))?;
            }
            for (&n, &us) in &p.last_spectator_per_move {
                let last = r.last_spectator_per_move.entry(n).or_default();
                *last = (*last).max(us);
            }
        }
        if !r.last_spectator_per_move.is_empty() {
            let h = hist.entry(LAST_SPECTATOR).or_insert_with(histogram);
            for &us in r.last_spectator_per_move.values() {
                h.saturating_record(us.max(1));
            }
        }
        r.set_histograms(&hist);
        Ok(r)
    }

    /// Drops what only a parent needs.
    pub fn strip(&mut self) {
        self.histograms.clear();
        self.last_spectator_per_move.clear();
    }

    /// Our figures over the bare relay's, by name.
    pub fn set_ratios(&mut self, base: Report) {
        self.ratio_to_baseline = self.ratios(&base);
        self.baseline = Some(Box::new(base));
    }

    /// Our figures over the durable relay's, by name.
    pub fn set_durable_ratios(&mut self, base: Report) {
        self.ratio_to_durable_baseline = self.ratios(&base);
        self.durable_baseline = Some(Box::new(base));
    }

    /// Our latency and CPU figures over `base`'s, by name.
    fn ratios(&self, base: &Report) -> BTreeMap<String, f64> {
        let mut ratios = BTreeMap::new();
        let none = Summary::default();
        let pairs = [
            ("opponent", &self.latency_opponent, &base.latency_opponent),
            (
                "spectators",
                &self.latency_spectators,
                &base.latency_spectators,
            ),
            // Fan-out's own figure: each move's last spectator.
            (
                "last_spectator",
                self.latency_last_spectator.as_ref().unwrap_or(&none),
                base.latency_last_spectator.as_ref().unwrap_or(&none),
            ),
        ];
        for (name, ours, theirs) in pairs {
            if ours.count == 0 || theirs.count == 0 {
                continue;
            }
            for (q, a, b) in [
                ("p50", ours.p50_ms, theirs.p50_ms),
                ("p99", ours.p99_ms, theirs.p99_ms),
                ("max", ours.max_ms, theirs.max_ms),
            ] {
                if b > 0.0 {
                    ratios.insert(format!("{name}_{q}"), (a / b * 100.0).round() / 100.0);
                }
            }
        }
        if let (Some(ours), Some(theirs)) = (&self.cpu, &base.cpu)
            && theirs.per_1000_moves_s > 0.0
        {
            let r = ours.per_1000_moves_s / theirs.per_1000_moves_s;
            ratios.insert("cpu_per_1000_moves".into(), (r * 100.0).round() / 100.0);
        }
        ratios
    }
}

fn is_zero(n: &u64) -> bool {
    *n == 0
}

fn is_zero_f(n: &f64) -> bool {
    *n == 0.0
}

fn to_hex(h: &Histogram<u64>) -> String {
    let mut buf = Vec::new();
    V2Serializer::new()
        .serialize(h, &mut buf)
        .expect("serializing into memory");
    buf.iter().map(|b| format!("{b:02x}")).collect()
}

fn from_hex(s: &str) -> anyhow::Result<Histogram<u64>> {
    let bytes = (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(s.get(i..i + 2).unwrap_or("x"), 16))
        .collect::<Result<Vec<u8>, _>>()?;
    Deserializer::new()
        .deserialize(&mut bytes.as_slice())
        .map_err(|e| anyhow::anyhow!("bad histogram: {e:?}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn children_merge_exactly() {
        let mut a = Stats::default();
        let mut b = Stats::default();
        for us in 1..=1000 {
            a.record(OPPONENT, us);
            b.record(OPPONENT, us + 1000);
        }
        a.error("closed_4002");
        b.error("closed_4002");
        a.moves = 3;
        b.moves = 4;
        a.spectator_got(5, 2000);
        b.spectator_got(5, 7000);
        b.spectator_got(6, 1000);
        let json = |s: &Stats| serde_json::to_string(&s.report()).unwrap();
        let parts: Vec<Report> = [json(&a), json(&b)]
            .iter()
            .map(|j| serde_json::from_str(j).unwrap())
            .collect();
        let m = Report::merge(&parts).unwrap();
        assert_eq!(m.moves, 7);
        assert_eq!(m.errors["closed_4002"], 2);
        assert_eq!(m.error_total, 2);
        assert_eq!(m.latency_opponent.count, 2000);
        assert!((m.latency_opponent.p50_ms - 1.0).abs() < 0.01);
        assert!((m.latency_opponent.max_ms - 2.0).abs() < 0.01);
        let last = m.latency_last_spectator.unwrap();
        assert_eq!(last.count, 2, "one value per move");
        assert!((last.max_ms - 7.0).abs() < 0.01);
    }

    #[test]
    fn ratios_compare_like_with_like() {
        let mut ours = Report {
            latency_opponent: Summary {
                count: 10,
                p50_ms: 2.0,
                p99_ms: 6.0,
                p999_ms: 6.0,
                max_ms: 8.0,
            },
            ..Report::default()
        };
        let base = Report {
            latency_opponent: Summary {
                count: 10,
                p50_ms: 1.0,
                p99_ms: 4.0,
                p999_ms: 4.0,
                max_ms: 4.0,
            },
            ..Report::default()
        };
        ours.set_ratios(base);
        assert_eq!(ours.ratio_to_baseline["opponent_p50"], 2.0);
        assert_eq!(ours.ratio_to_baseline["opponent_p99"], 1.5);
        assert!(!ours.ratio_to_baseline.contains_key("spectators_p50"));
        assert!(!ours.ratio_to_baseline.contains_key("last_spectator_p99"));
    }

    #[test]
    fn the_journal_counters_are_read_and_differenced() {
        let page = |n: u64| {
            format!(
                "process_resident_memory_bytes 1\nrelay_journal_syncs_total {n}\n\
                 relay_journal_frames_total {}\nrelay_journal_bytes_total {}\n",
                n * 3,
                n * 300
            )
        };
        let before = JournalUse::from_metrics(&page(10)).unwrap();
        let after = JournalUse::from_metrics(&page(25)).unwrap();
        assert_eq!(
            before.since(&after),
            JournalUse {
                syncs: 15,
                frames: 45,
                bytes: 4500
            }
        );
        assert_eq!(
            JournalUse::from_metrics("process_resident_memory_bytes 1\n"),
            None,
            "the bare relay has no journal"
        );
        let mut ours = Report {
            cpu: Some(Cpu::new("x".into(), 3.0, 1000)),
            ..Report::default()
        };
        let base = Report {
            cpu: Some(Cpu::new("y".into(), 1.0, 1000)),
            ..Report::default()
        };
        ours.set_durable_ratios(base);
        assert_eq!(ours.ratio_to_durable_baseline["cpu_per_1000_moves"], 3.0);
        assert!(ours.ratio_to_baseline.is_empty() && ours.baseline.is_none());
    }

    #[test]
    fn fanout_ratios_include_the_last_spectator() {
        let last = |p99_ms| Summary {
            count: 28,
            p50_ms: 1.0,
            p99_ms,
            p999_ms: p99_ms,
            max_ms: p99_ms,
        };
        let mut ours = Report {
            latency_last_spectator: Some(last(60.0)),
            ..Report::default()
        };
        let base = Report {
            latency_last_spectator: Some(last(50.0)),
            ..Report::default()
        };
        ours.set_ratios(base);
        assert_eq!(ours.ratio_to_baseline["last_spectator_p99"], 1.2);
        assert_eq!(ours.ratio_to_baseline["last_spectator_p50"], 1.0);
    }
}
