//! The command line: every option of a run, its defaults and the checks
//! that refuse a run that cannot be made (before any connection opens).
//!
//! Why apart from `parent`: the parent and every load process parse the
//! same options (the parent passes its own to its children), and the checks
//! are the part a user meets first.

use std::net::SocketAddr;
use std::path::PathBuf;

use anyhow::bail;
use clap::Parser;

use crate::memory;
use crate::run::Scenario;
use crate::script::{MAX_MOVES, Script};

/// Sockets one load process may hold (the machine allows 20,000 open files
/// per process; a few are the runtime's own).
pub const MAX_PER_PROCESS: usize = 19_500;

/// Load generator for a Tengen server: idle connections, concurrent games,
/// spectator fan-out; latencies corrected for coordinated omission.
#[derive(Parser, Clone, Debug)]
#[command(name = "tengen-loadtest", version)]
pub struct Args {
    /// idle | games | fanout | churn | soak.
    #[arg(value_enum)]
    pub scenario: Scenario,
    /// Server WebSocket URL. Repeat it for several nodes sharing one Redis
    /// (`--url ws://A/ws --url ws://B/ws`). games, churn: slot n's two players
    /// use URL n mod N (they create and join their room through the same
    /// node, as the lobby is per node), its spectator k URL n+1+k mod N, so
    /// with two nodes every game's first spectator watches through the node
    /// the game does not run on; the report counts those events apart.
    /// idle: connections round-robin. fanout: the players on the first URL,
    /// the spectators spread over the others (over it with one URL). games: a connection the server ends
    /// (close 1012 when a node stops, or lost) comes back on the next URL
    /// and resumes its session. Also a comma-separated list.
    #[arg(long = "url", value_delimiter = ',')]
    pub urls: Vec<String>,
    /// Concurrent games (a finished game is replaced by a new one).
    #[arg(long, default_value_t = 100)]
    pub games: usize,
    /// Spectators per game (fanout: of its one game).
    #[arg(long, default_value_t = 0)]
    pub spectators: usize,
    /// idle: connections to open (default 1000); games, fanout: the most
    /// the run may open (it refuses to start if it needs more).
    #[arg(long)]
    pub connections: Option<usize>,
    /// Seconds a player waits after the opponent's move arrived.
    #[arg(long, default_value_t = 1.0)]
    pub move_interval: f64,
    /// Seconds the run lasts; it stops by itself (default 30; soak: 1800).
    #[arg(long)]
    pub duration: Option<f64>,
    /// soak: seconds of warm-up (default: the first two fifths of the run,
    /// 12 minutes of 30: the server keeps finished tables for 10 minutes);
    /// the server's memory after it may not exceed its warm-up peak by more
    /// than `--memory-bound` percent.
    #[arg(long)]
    pub warmup: Option<f64>,
    /// soak: the memory growth allowed after the warm-up, in percent.
    #[arg(long, default_value_t = 10.0)]
    pub memory_bound: f64,
    /// Load processes to spread the connections over.
    #[arg(long, default_value_t = 1)]
    pub processes: usize,
    /// Also run the scenario against a bare relay and report the ratios.
    #[arg(long)]
    pub baseline: bool,
    /// Also run it against a durable relay, one that syncs every frame to
    /// a journal before forwarding it (as the server stores every move
    /// before broadcasting it), and report the ratios to that.
    #[arg(long)]
    pub baseline_durable: bool,
    /// Where the durable relay writes its journal (64 MiB): put it on the
    /// disk of the server's data directory. Default: a fresh directory in
    /// the system's temporary directory, removed afterwards.
    #[arg(long)]
    pub journal_dir: Option<PathBuf>,
    /// End the output with one JSON line.
    #[arg(long)]
    pub json: bool,
    /// Wire encoding of the simulated clients.
    #[arg(long, value_enum, default_value = "json")]
    pub encoding: Enc,
    /// Moves per game (odd, 9..=201; games: 41, fanout: 201).
    #[arg(long)]
    pub game_moves: Option<usize>,
    /// Read the server's memory from /proc/PID instead of /metrics.
    #[arg(long)]
    pub server_pid: Option<u32>,
    /// Pin the server to these CPUs (a `taskset -c` list: `0`, `0-1`): the
    /// bare relay of `--baseline`, and the server of `--server-pid`. Start
    /// a server without `--server-pid` under `taskset -c LIST` yourself.
    #[arg(long)]
    pub server_cpus: Option<String>,
    /// Pin every load process to these CPUs (a `taskset -c` list).
    #[arg(long)]
    pub load_cpus: Option<String>,
    /// Overload: start this many processes that each keep a core busy,
    /// once every connection is open, for `--burn-seconds` (the server
    /// must slow down evenly, never lose or break a game).
    #[arg(long, default_value_t = 0)]
    pub burn: usize,
    /// How long the `--burn` processes run.
    #[arg(long, default_value_t = 30.0)]
    pub burn_seconds: f64,
    /// After the run (and its `--drain`), stop the server of
    /// `--server-pid` with SIGTERM and report how long it took to exit;
    /// over 5 s (what the server promises) is an error.
    #[arg(long, requires = "server_pid")]
    pub stop_server: bool,
    /// games, soak: after `--duration` no new game starts, and games in
    /// progress get this many seconds more to finish; every game started
    /// that has not finished by then is an error (`game_unfinished`). 0:
    /// games are cut off at the deadline and not counted.
    #[arg(long, default_value_t = 0.0)]
    pub drain: f64,
    /// Runtime threads per load process (1: a current-thread runtime).
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
    /// churn: mean seconds between one connection's drops (each drop is
    /// followed by a resume).
    #[arg(long, default_value_t = 5.0)]
    pub drop_every: f64,
    /// churn: seed of the drop times (the same seed, the same drops).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Connections being opened at once, per load process.
    #[arg(long, default_value_t = 200)]
    pub connect_concurrency: usize,
    #[arg(long, hide = true)]
    pub child_index: Option<usize>,
    #[arg(long, hide = true, default_value_t = 1)]
    pub child_count: usize,
    #[arg(long, hide = true)]
    pub fanout_file: Option<PathBuf>,
    #[arg(long, hide = true)]
    pub relay_target: bool,
    #[arg(long, hide = true)]
    pub listen: Option<SocketAddr>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Enc {
    Json,
    Msgpack,
}

impl Args {
    /// The run's length in seconds.
    pub fn duration(&self) -> f64 {
        let default = if self.scenario == Scenario::Soak {
            1800.0
        } else {
            30.0
        };
        self.duration.unwrap_or(default)
    }

    pub(crate) fn game_moves(&self) -> usize {
        self.game_moves.unwrap_or(match self.scenario {
            Scenario::Fanout => MAX_MOVES,
            _ => 41,
        })
    }

    /// Connections the whole run opens.
    pub(crate) fn needed(&self) -> usize {
        match self.scenario {
            Scenario::Idle => self.connections.unwrap_or(1000),
            Scenario::Games | Scenario::Churn | Scenario::Soak => {
                self.games * (2 + self.spectators)
            }
            Scenario::Fanout => self.spectators + 2,
            Scenario::Relay | Scenario::Burn => 0,
        }
    }

    pub(crate) fn check(&self) -> anyhow::Result<()> {
        for list in [&self.server_cpus, &self.load_cpus].into_iter().flatten() {
            crate::cpu::check_list(list)?;
        }
        if self.scenario == Scenario::Churn {
            if self.baseline || self.baseline_durable {
                bail!("churn has no --baseline: the bare relay cannot resume a session");
            }
            if self.drop_every.is_nan() || self.drop_every <= 0.0 {
                bail!("--drop-every must be positive");
            }
        }
        if self.scenario == Scenario::Soak {
            self.check_soak()?;
        }
        if self.urls.is_empty() {
            bail!("give the server with --url ws://HOST:PORT/ws");
        }
        for u in &self.urls {
            memory::authority(u)?;
        }
        if !(self.move_interval > 0.0 && self.duration() > 0.0) {
            bail!("--move-interval and --duration must be positive");
        }
        if !(self.drain >= 0.0 && self.drain.is_finite()) {
            bail!("--drain must be zero or positive");
        }
        if self.drain > 0.0 && !matches!(self.scenario, Scenario::Games | Scenario::Soak) {
            bail!("--drain is for the games and soak scenarios");
        }
        if self.journal_dir.is_some() && !self.baseline_durable {
            bail!("--journal-dir is where --baseline-durable's relay writes: give both");
        }
        if self.processes == 0 {
            bail!("--processes must be at least 1");
        }
        Script::new(self.game_moves())?;
        let need = self.needed();
        if let (Some(cap), true) = (self.connections, self.scenario != Scenario::Idle)
            && need > cap
        {
            bail!("this run needs {need} connections, more than --connections {cap}");
        }
        if need.div_ceil(self.processes) > MAX_PER_PROCESS {
            bail!(
                "{need} connections over {} processes is more than {MAX_PER_PROCESS} per process: \
                 raise --processes",
                self.processes
            );
        }
        Ok(())
    }
}

impl Args {
    /// The soak's own option checks.
    pub fn check_soak(&self) -> anyhow::Result<()> {
        if self.baseline || self.baseline_durable {
            bail!("soak has no --baseline: the bare relay keeps no state to leak");
        }
        if self.memory_bound.is_nan() || self.memory_bound < 0.0 {
            bail!("--memory-bound must be a percentage, 0 or more");
        }
        let warmup = self.soak_warmup_s();
        if !(warmup > 0.0 && warmup < self.duration()) {
            bail!("--warmup must be positive and shorter than --duration");
        }
        Ok(())
    }

    /// The warm-up, in seconds.
    pub fn soak_warmup_s(&self) -> f64 {
        self.warmup.unwrap_or(self.duration() * 0.4)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn churn_runs_but_not_against_the_relay() {
        let a = Args::parse_from(["tengen-loadtest", "churn", "--url", "ws://127.0.0.1:1/ws"]);
        a.check().unwrap();
        assert_eq!(a.needed(), 200, "like games: two players per game");
        let b = Args::parse_from([
            "tengen-loadtest",
            "churn",
            "--url",
            "ws://127.0.0.1:1/ws",
            "--baseline",
        ]);
        assert!(b.check().unwrap_err().to_string().contains("cannot resume"));
        let c = Args::parse_from([
            "tengen-loadtest",
            "churn",
            "--url",
            "ws://127.0.0.1:1/ws",
            "--drop-every",
            "0",
        ]);
        assert!(c.check().is_err());
    }

    #[test]
    fn the_durable_baseline_is_refused_where_the_bare_one_is_and_its_dir_needs_it() {
        let parse = |extra: &[&str]| {
            let mut a = vec!["tengen-loadtest"];
            a.extend_from_slice(extra);
            a.extend_from_slice(&["--url", "ws://127.0.0.1:1/ws"]);
            Args::parse_from(a).check()
        };
        parse(&["games", "--baseline-durable", "--journal-dir", "/tmp"]).unwrap();
        for scenario in ["churn", "soak"] {
            let e = parse(&[scenario, "--baseline-durable"]).unwrap_err();
            assert!(
                e.to_string().contains("has no --baseline"),
                "{scenario}: {e}"
            );
        }
        let e = parse(&["games", "--journal-dir", "/tmp"]).unwrap_err();
        assert!(e.to_string().contains("give both"), "{e}");
    }

    #[test]
    fn a_cpu_list_taskset_cannot_take_is_refused() {
        for flag in ["--load-cpus", "--server-cpus"] {
            let a = Args::parse_from([
                "tengen-loadtest",
                "games",
                "--url",
                "ws://127.0.0.1:1/ws",
                flag,
                "0-x",
            ]);
            assert!(
                a.check()
                    .unwrap_err()
                    .to_string()
                    .contains("not a CPU list")
            );
        }
    }

    #[test]
    fn a_run_that_needs_more_sockets_than_allowed_is_refused() {
        let a = Args::parse_from([
            "tengen-loadtest",
            "games",
            "--url",
            "ws://127.0.0.1:1/ws",
            "--games",
            "100",
            "--spectators",
            "2",
            "--connections",
            "399",
        ]);
        assert!(a.check().unwrap_err().to_string().contains("needs 400"));
        let a = Args::parse_from([
            "tengen-loadtest",
            "idle",
            "--url",
            "ws://127.0.0.1:1/ws",
            "--connections",
            "30000",
        ]);
        assert!(
            a.check()
                .unwrap_err()
                .to_string()
                .contains("raise --processes")
        );
    }
}
