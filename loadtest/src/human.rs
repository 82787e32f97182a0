//! The report as a person reads it: what `tengen-loadtest` prints when
//! `--json` is not given.
//!
//! Why apart from `stats`: the counting, merging and ratios are what the
//! figures rest on; this is only their wording, which changes on its own.

use std::collections::BTreeMap;
use std::fmt::Write;

use crate::stats::{Cpu, Memory, Report, Summary};

impl Report {
    /// The readable summary.
    pub fn human(&self) -> String {
        let mut s = String::new();
        let _ = writeln!(
            s,
            "{} against {}: {:.1} s, load average {}",
            self.scenario, self.target, self.duration_s, self.load_average
        );
        if self.burners > 0 {
            let _ = writeln!(
                s,
                "  with {} processes burning a core each ({:.1} CPU s taken)",
                self.burners, self.burn_cpu_s
            );
        }
        let _ = writeln!(
            s,
            "  connections {}  games started {}  completed {}  moves {}",
            self.connections, self.games_started, self.games_completed, self.moves
        );
        if let Some(t) = self.server_stop_s {
            let _ = writeln!(s, "  server stopped (SIGTERM) in {t:.2} s");
        }
        line(&mut s, "→ opponent", &self.latency_opponent);
        if let Some(steady) = &self.latency_opponent_steady {
            line(&mut s, "  all connected", steady);
        }
        line(&mut s, "→ spectators", &self.latency_spectators);
        if self.spectator_events > 0 {
            let _ = writeln!(
                s,
                "  spectators: events {} (through another node {})  games seen to the end {}  lost {}  duplicated {}",
                self.spectator_events,
                self.spectator_events_other_node,
                self.spectator_games_over,
                self.events_lost,
                self.events_duplicated
            );
        }
        if let Some(l) = &self.latency_last_spectator {
            line(&mut s, "→ last spectator", l);
        }
        line(&mut s, "connect", &self.connect);
        line(&mut s, "send lag (ours)", &self.send_lag);
        if let Some(r) = &self.resume {
            let _ = writeln!(
                s,
                "  resumes {}  events lost {}  duplicated {}",
                self.resumes, self.events_lost, self.events_duplicated
            );
            line(&mut s, "resume", r);
        }
        if self.shed > 0 {
            let _ = writeln!(s, "  shed (refused as busy, retried): {}", self.shed);
        }
        memory_line(&mut s, self.memory.as_ref());
        cpu_line(&mut s, self.cpu.as_ref());
        if let Some(m) = &self.soak {
            s.push_str(&m.human());
        }
        if self.errors.is_empty() {
            let _ = writeln!(s, "  errors: none");
        } else {
            let _ = writeln!(s, "  errors: {} {:?}", self.error_total, self.errors);
        }
        if let Some(b) = &self.baseline {
            baseline(&mut s, "bare relay", b, &self.ratio_to_baseline);
        }
        if let Some(b) = &self.durable_baseline {
            let name = "durable relay: every frame synced first";
            baseline(&mut s, name, b, &self.ratio_to_durable_baseline);
        }
        s
    }
}

/// One latency histogram's line.
fn line(s: &mut String, name: &str, m: &Summary) {
    let _ = writeln!(
        s,
        "  {name:<16} n={:<9} p50 {:>8.3} ms  p99 {:>8.3} ms  p99.9 {:>8.3} ms  max {:>8.3} ms",
        m.count, m.p50_ms, m.p99_ms, m.p999_ms, m.max_ms
    );
}

/// A baseline's figures, its journal's work if it kept one, and our ratios.
fn baseline(s: &mut String, name: &str, b: &Report, ratios: &BTreeMap<String, f64>) {
    let _ = writeln!(s, "baseline ({name}):");
    line(s, "→ opponent", &b.latency_opponent);
    line(s, "→ spectators", &b.latency_spectators);
    memory_line(s, b.memory.as_ref());
    cpu_line(s, b.cpu.as_ref());
    if let Some(j) = &b.journal {
        let _ = writeln!(
            s,
            "  journal: {} frames in {} syncs ({:.1} a sync), {:.1} MiB",
            j.frames,
            j.syncs,
            j.frames as f64 / j.syncs.max(1) as f64,
            j.bytes as f64 / 1048576.0
        );
    }
    let _ = writeln!(s, "  ratio to baseline: {ratios:?}");
}

fn cpu_line(s: &mut String, c: Option<&Cpu>) {
    if let Some(c) = c {
        let _ = writeln!(
            s,
            "  server CPU ({}): {:.2} s over {} moves: {:.3} s per 1,000 moves",
            c.source, c.seconds, c.moves, c.per_1000_moves_s
        );
    }
}

fn memory_line(s: &mut String, m: Option<&Memory>) {
    if let Some(m) = m {
        let _ = writeln!(
            s,
            "  server memory ({}): {:.1} MiB → {:.1} MiB with {} connections: {:.2} KiB each",
            m.source,
            m.before_bytes as f64 / 1048576.0,
            m.after_bytes as f64 / 1048576.0,
            m.connections,
            m.per_connection_bytes / 1024.0
        );
    }
}
