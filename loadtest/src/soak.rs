//! The `soak` scenario's memory watch: the server's resident memory sampled
//! all through a long run, and the verdict on whether it stayed flat.
//!
//! Why it exists: a leak (a table, a session or a buffer never freed) is
//! invisible in a 30-second run, and the memory per connection the other
//! scenarios report is read once, with every connection open. A soak runs
//! for half an hour with players and spectators coming and going after
//! every game (`games.rs` does the churn), so that everything a leak could
//! keep is created and dropped thousands of times; this module samples the
//! memory meanwhile and judges it: after the warm-up, no sample may exceed
//! the warm-up's peak by more than `--memory-bound` percent (10 unless
//! told).
//!
//! The warm-up is the first two fifths of the run unless told (12 minutes
//! of 30): the server keeps a finished table for 10 minutes (its
//! `finished_table_linger`, for late spectators and rematches) and a closed
//! connection's session for 5 (`resume_grace`), so its memory rightly grows
//! for the first 10 minutes of a soak, until the first tables close; only
//! growth after that is a leak.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use anyhow::bail;
use serde::{Deserialize, Serialize};

use crate::memory;

/// Samples in a run, at most (one every `duration / MAX_SAMPLES`, but at
/// least one a second and at most ten seconds apart).
const MAX_SAMPLES: f64 = 360.0;

/// The soak's memory figures and verdict.
#[derive(Clone, Debug, Default, Serialize, Deserialize, PartialEq)]
pub struct SoakMemory {
    /// Where the memory was read.
    pub source: String,
    pub warmup_s: f64,
    pub bound_pct: f64,
    /// Seconds since every connection was open, and resident bytes.
    pub samples: Vec<(f64, u64)>,
    /// The highest sample of the warm-up.
    pub warmup_peak_bytes: u64,
    /// The highest sample after it, and the last one.
    pub peak_after_bytes: u64,
    pub last_bytes: u64,
    /// How far the peak after the warm-up is above the warm-up's peak.
    pub growth_pct: f64,
    /// Whether that is within the bound (and there were samples on both
    /// sides of the warm-up's end).
    pub flat: bool,
}

impl SoakMemory {
    /// Judges `samples` taken over a run.
    pub fn judge(source: String, samples: Vec<(f64, u64)>, warmup_s: f64, bound_pct: f64) -> Self {
        let peak = |it: &mut dyn Iterator<Item = &(f64, u64)>| it.map(|&(_, b)| b).max();
        let warm = peak(&mut samples.iter().filter(|(t, _)| *t <= warmup_s));
        let after = peak(&mut samples.iter().filter(|(t, _)| *t > warmup_s));
        let (warmup_peak_bytes, peak_after_bytes) = (warm.unwrap_or(0), after.unwrap_or(0));
        let growth_pct = if warmup_peak_bytes > 0 {
            (peak_after_bytes as f64 / warmup_peak_bytes as f64 - 1.0) * 100.0
        } else {
            0.0
        };
        SoakMemory {
            source,
            warmup_s,
            bound_pct,
            last_bytes: samples.last().map_or(0, |&(_, b)| b),
            flat: warm.is_some() && after.is_some() && growth_pct <= bound_pct,
            samples,
            warmup_peak_bytes,
            peak_after_bytes,
            growth_pct: (growth_pct * 100.0).round() / 100.0,
        }
    }

    /// The report's lines.
    pub fn human(&self) -> String {
        let mib = |b: u64| b as f64 / (1024.0 * 1024.0);
        format!(
            "  server memory ({}), {} samples: warm-up ({:.0} s) peak {:.1} MiB, after it peak {:.1} MiB, last {:.1} MiB: {:+.2} % (bound {:.0} %): {}\n",
            self.source,
            self.samples.len(),
            self.warmup_s,
            mib(self.warmup_peak_bytes),
            mib(self.peak_after_bytes),
            mib(self.last_bytes),
            self.growth_pct,
            self.bound_pct,
            if self.flat { "flat" } else { "NOT FLAT" }
        )
    }
}

/// Samples the server's memory until aborted, into a shared list.
pub struct Sampler {
    samples: Arc<Mutex<Vec<(f64, u64)>>>,
    source: Arc<Mutex<Result<String, String>>>,
    task: tokio::task::JoinHandle<()>,
}

impl Sampler {
    /// Starts sampling `urls`' (or `pid`'s) memory now, every
    /// `duration / MAX_SAMPLES` seconds (1 to 10).
    pub fn start(urls: &[String], pid: Option<u32>, duration: f64) -> Sampler {
        let samples = Arc::new(Mutex::new(Vec::new()));
        let source = Arc::new(Mutex::new(Err("no sample taken".to_string())));
        let every = Duration::from_secs_f64((duration / MAX_SAMPLES).clamp(1.0, 10.0));
        let (list, src, urls) = (samples.clone(), source.clone(), urls.to_vec());
        let task = tokio::spawn(async move {
            let started = tokio::time::Instant::now();
            let mut tick = tokio::time::interval(every);
            loop {
                tick.tick().await;
                let at = started.elapsed().as_secs_f64();
                let read = memory::sample(&urls, pid).await;
                let mut source = src.lock().unwrap_or_else(|e| e.into_inner());
                match read {
                    Ok((from, bytes)) => {
                        *source = Ok(from);
                        list.lock()
                            .unwrap_or_else(|e| e.into_inner())
                            .push((at, bytes));
                    }
                    Err(e) => *source = Err(format!("{e:#}")),
                }
            }
        });
        Sampler {
            samples,
            source,
            task,
        }
    }

    /// Stops sampling and judges the samples.
    /// `warmup_s` and `bound_pct` as the run's options give them.
    pub fn finish(self, warmup_s: f64, bound_pct: f64) -> anyhow::Result<SoakMemory> {
        self.task.abort();
        let samples = std::mem::take(&mut *self.samples.lock().unwrap_or_else(|e| e.into_inner()));
        let source = self
            .source
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone();
        let source = match (source, samples.is_empty()) {
            (Ok(s), _) => s,
            (Err(e), true) => bail!("server memory not read: {e}"),
            (Err(e), false) => format!("some reads failed: {e}"),
        };
        Ok(SoakMemory::judge(source, samples, warmup_s, bound_pct))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn growth_after_the_warmup_beyond_the_bound_is_not_flat() {
        let mb = 1 << 20;
        let flat = vec![
            (1.0, 100 * mb),
            (5.0, 104 * mb),
            (7.0, 103 * mb),
            (9.0, 109 * mb),
        ];
        let m = SoakMemory::judge("x".into(), flat, 6.0, 10.0);
        assert!(m.flat, "{m:?}");
        assert_eq!(m.warmup_peak_bytes, 104 * mb);
        assert_eq!(m.peak_after_bytes, 109 * mb);
        let leak = vec![
            (1.0, 100 * mb),
            (5.0, 100 * mb),
            (7.0, 105 * mb),
            (9.0, 111 * mb),
        ];
        let m = SoakMemory::judge("x".into(), leak, 6.0, 10.0);
        assert!(!m.flat, "{m:?}");
        assert_eq!(m.growth_pct, 11.0);
        let m = SoakMemory::judge("x".into(), vec![(1.0, mb)], 6.0, 10.0);
        assert!(!m.flat, "no sample after the warm-up is no verdict");
    }
}
