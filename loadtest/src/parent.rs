//! A run: the command line, the parent that spawns the load processes and
//! merges what they report, and a load process's own share of the work.
//!
//! The parent talks to its children over their standard output, one line at
//! a time: `#ready N` once a child's connections are all set up (N open),
//! then its report as one JSON line. When every child is ready the parent
//! reads the server's memory and, in a fan-out run, sets the start signal in
//! the shared file (so the game's first move waits for every spectator).

use std::net::SocketAddr;
use std::path::PathBuf;
use std::process::Stdio;
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::{Context, bail};
use clap::Parser;
use tengen_protocol::Encoding;
use tokio::io::{AsyncBufReadExt, BufReader};
use tokio::process::Child;
use tokio::sync::mpsc;

use crate::memory;
use crate::run::{Clock, Ctx, FanoutFile, Plan, Scenario, Target};
use crate::script::{MAX_MOVES, Script};
use crate::stats::{Memory, Report};

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
    /// the spectators spread over all.
    #[arg(long = "url")]
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

    fn game_moves(&self) -> usize {
        self.game_moves.unwrap_or(match self.scenario {
            Scenario::Fanout => MAX_MOVES,
            _ => 41,
        })
    }

    /// Connections the whole run opens.
    fn needed(&self) -> usize {
        match self.scenario {
            Scenario::Idle => self.connections.unwrap_or(1000),
            Scenario::Games | Scenario::Churn | Scenario::Soak => {
                self.games * (2 + self.spectators)
            }
            Scenario::Fanout => self.spectators + 2,
            Scenario::Relay | Scenario::Burn => 0,
        }
    }

    fn check(&self) -> anyhow::Result<()> {
        for list in [&self.server_cpus, &self.load_cpus].into_iter().flatten() {
            crate::cpu::check_list(list)?;
        }
        if self.scenario == Scenario::Churn {
            if self.baseline {
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

/// Part `k` of `p` of `0..total`.
fn share(total: usize, k: usize, p: usize) -> std::ops::Range<usize> {
    total * k / p..total * (k + 1) / p
}

/// A whole run (and its baseline).
pub async fn run(args: &Args) -> anyhow::Result<Report> {
    args.check()?;
    if let (Some(pid), Some(cpus)) = (args.server_pid, &args.server_cpus) {
        crate::cpu::pin_process(pid, cpus)?;
    }
    let mut report = phase(args, Target::Server, &args.urls, args.server_pid).await?;
    if args.baseline {
        let (mut relay, url) = start_relay(args.server_cpus.as_deref()).await?;
        let pid = relay.id();
        let base = phase(args, Target::Relay, &[url], pid).await;
        let _ = relay.kill().await;
        report.set_ratios(base?);
    }
    Ok(report)
}

async fn start_relay(cpus: Option<&str>) -> anyhow::Result<(Child, String)> {
    let mut child = crate::cpu::command(&std::env::current_exe()?, cpus)
        .args(["relay", "--listen", "127.0.0.1:0"])
        .stdout(Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .context("starting the relay")?;
    let out = child.stdout.take().context("relay stdout")?;
    let mut lines = BufReader::new(out).lines();
    let line = tokio::time::timeout(Duration::from_secs(10), lines.next_line())
        .await
        .context("the relay did not start")??
        .context("the relay ended")?;
    let addr = line
        .strip_prefix("listening on ")
        .with_context(|| format!("relay said {line:?}"))?;
    Ok((child, format!("ws://{addr}/ws")))
}

enum FromChild {
    Ready(usize),
    Report(Box<Report>),
    Gone,
}

/// One scenario against one target, over `args.processes` children.
async fn phase(
    args: &Args,
    target: Target,
    urls: &[String],
    pid: Option<u32>,
) -> anyhow::Result<Report> {
    let started = Instant::now();
    let fanout_file = (args.scenario == Scenario::Fanout).then(|| {
        std::env::temp_dir().join(format!(
            "tengen-loadtest-{}-{target:?}.fanout",
            std::process::id()
        ))
    });
    let file = match &fanout_file {
        Some(p) => Some(FanoutFile::open(p, true)?),
        None => None,
    };
    let before = memory::sample(urls, pid).await;
    let p = args.processes;
    let (tx, mut rx) = mpsc::channel(64);
    let mut children = Vec::new();
    for k in 0..p {
        let mut cmd = crate::cpu::command(&std::env::current_exe()?, args.load_cpus.as_deref());
        cmd.arg(format!("{:?}", args.scenario).to_lowercase());
        for u in urls {
            cmd.args(["--url", u]);
        }
        cmd.args(["--games", &args.games.to_string()])
            .args(["--spectators", &args.spectators.to_string()])
            .args(["--connections", &args.needed().to_string()])
            .args(["--move-interval", &args.move_interval.to_string()])
            .args(["--duration", &args.duration().to_string()])
            .args(["--drain", &args.drain.to_string()])
            .args(["--encoding", &format!("{:?}", args.encoding).to_lowercase()])
            .args(["--game-moves", &args.game_moves().to_string()])
            .args(["--threads", &args.threads.to_string()])
            .args(["--drop-every", &args.drop_every.to_string()])
            .args(["--seed", &args.seed.to_string()])
            .args([
                "--connect-concurrency",
                &args.connect_concurrency.to_string(),
            ])
            .args(["--child-index", &k.to_string()])
            .args(["--child-count", &p.to_string()]);
        if let Some(f) = &fanout_file {
            cmd.arg("--fanout-file").arg(f);
        }
        if target == Target::Relay {
            cmd.arg("--relay-target");
        }
        let mut child = cmd
            .stdout(Stdio::piped())
            .kill_on_drop(true)
            .spawn()
            .context("spawning a load process")?;
        let out = child.stdout.take().context("child stdout")?;
        let tx = tx.clone();
        tokio::spawn(async move {
            let mut lines = BufReader::new(out).lines();
            while let Ok(Some(line)) = lines.next_line().await {
                if let Some(n) = line.strip_prefix("#ready ") {
                    let _ = tx
                        .send(FromChild::Ready(n.trim().parse().unwrap_or(0)))
                        .await;
                } else if line.starts_with('{') {
                    match serde_json::from_str::<Report>(&line) {
                        Ok(r) => {
                            let _ = tx.send(FromChild::Report(Box::new(r))).await;
                        }
                        Err(e) => eprintln!("tengen-loadtest: a child's report: {e}"),
                    }
                }
            }
            let _ = tx.send(FromChild::Gone).await;
        });
        children.push(child);
    }
    drop(tx);
    let mut ready = 0;
    let mut open = 0;
    let mut reports = Vec::new();
    let mut gone = 0;
    let mut mem = None;
    let mut cpu_before = None;
    let mut burners = Vec::new();
    let mut sampler = None;
    let limit = tokio::time::Instant::now()
        + Duration::from_secs_f64(args.duration() + args.drain)
        + Duration::from_secs(60);
    while gone < p {
        let msg = tokio::select! {
            m = rx.recv() => m,
            _ = tokio::time::sleep_until(limit) => None,
        };
        match msg {
            Some(FromChild::Ready(n)) => {
                ready += 1;
                open += n;
                if ready == p {
                    // Let the server settle (buffers shrink, tasks park).
                    tokio::time::sleep(Duration::from_secs(1)).await;
                    mem = Some(memory::sample(urls, pid).await);
                    cpu_before = Some(crate::cpu::sample(urls, pid).await);
                    burners = start_burners(args)?;
                    if args.scenario == Scenario::Soak {
                        sampler = Some(crate::soak::Sampler::start(urls, pid, args.duration()));
                    }
                    if let Some(f) = &file {
                        f.set_go(Clock::new().now_us());
                    }
                }
            }
            Some(FromChild::Report(r)) => reports.push(*r),
            Some(FromChild::Gone) => gone += 1,
            None => break,
        }
    }
    let cpu_after = crate::cpu::sample(urls, pid).await;
    let soak = sampler.map(|s| s.finish(args.soak_warmup_s(), args.memory_bound));
    let mut burn_cpu_s = 0.0;
    for mut b in burners {
        if let Some(pid) = b.id() {
            burn_cpu_s += crate::cpu::seconds_from_proc(pid).unwrap_or(0.0);
        }
        let _ = b.kill().await;
    }
    for mut c in children {
        let _ = c.kill().await;
    }
    if let Some(f) = &fanout_file {
        let _ = std::fs::remove_file(f);
    }
    let mut report = Report::merge(&reports)?;
    if args.drain > 0.0 && report.games_started > report.games_completed {
        // Started before the deadline and still not over after the drain.
        let unfinished = report.games_started - report.games_completed;
        *report.errors.entry("game_unfinished".into()).or_default() += unfinished;
        report.error_total += unfinished;
    }
    for _ in reports.len()..p {
        *report
            .errors
            .entry("load_process_failed".into())
            .or_default() += 1;
        report.error_total += 1;
    }
    report.scenario = format!("{:?}", args.scenario).to_lowercase();
    report.target = match target {
        Target::Server => format!("server {}", urls.join(" ")),
        Target::Relay => format!("bare relay {}", urls.join(" ")),
    };
    report.duration_s = (started.elapsed().as_secs_f64() * 10.0).round() / 10.0;
    report.burners = args.burn as u64;
    report.burn_cpu_s = (burn_cpu_s * 100.0).round() / 100.0;
    report.load_average = memory::load_average();
    report.memory = match (before, mem) {
        (Ok((source, b)), Some(Ok((_, a)))) => Some(Memory {
            source,
            before_bytes: b,
            after_bytes: a,
            connections: open as u64,
            per_connection_bytes: if open > 0 {
                (a as f64 - b as f64) / open as f64
            } else {
                0.0
            },
        }),
        (Err(e), _) | (_, Some(Err(e))) => {
            eprintln!("tengen-loadtest: server memory not read: {e:#}");
            None
        }
        _ => None,
    };
    report.cpu = match (cpu_before, cpu_after) {
        (Some(Ok((source, b))), Ok((_, a))) => {
            Some(crate::stats::Cpu::new(source, a - b, report.moves))
        }
        (Some(Err(e)), _) | (_, Err(e)) => {
            eprintln!("tengen-loadtest: server CPU time not read: {e:#}");
            None
        }
        _ => None,
    };
    report.soak = match soak {
        Some(Ok(m)) => Some(m),
        Some(Err(e)) => {
            eprintln!("tengen-loadtest: {e:#}");
            *report.errors.entry("memory_not_read".into()).or_default() += 1;
            report.error_total += 1;
            None
        }
        None => None,
    };
    report.strip();
    Ok(report)
}

/// The `--burn` processes: each the hidden `burn` scenario, for
/// `--burn-seconds`.
fn start_burners(args: &Args) -> anyhow::Result<Vec<Child>> {
    (0..args.burn)
        .map(|_| {
            tokio::process::Command::new(std::env::current_exe()?)
                .args(["burn", "--duration", &args.burn_seconds.to_string()])
                .kill_on_drop(true)
                .spawn()
                .context("starting a --burn process")
        })
        .collect()
}

/// Keeps one core busy for `seconds` (the hidden `burn` scenario).
pub fn burn(seconds: f64) {
    let end = std::time::Instant::now() + Duration::from_secs_f64(seconds);
    let mut x = 0u64;
    while std::time::Instant::now() < end {
        for _ in 0..100_000 {
            x = std::hint::black_box(x.wrapping_mul(6364136223846793005).wrapping_add(1));
        }
    }
}

/// A load process: its share of the run, then its report as one JSON line.
pub fn child(args: &Args) -> anyhow::Result<()> {
    let k = args.child_index.unwrap_or(0);
    let p = args.child_count.max(1);
    let encoding = match args.encoding {
        Enc::Json => Encoding::Json,
        Enc::Msgpack => Encoding::MsgPack,
    };
    let plan = Plan {
        scenario: args.scenario,
        target: if args.relay_target {
            Target::Relay
        } else {
            Target::Server
        },
        urls: args.urls.clone(),
        encoding,
        connections: share(args.connections.unwrap_or(0), k, p),
        slots: share(args.games, k, p),
        spectators: match args.scenario {
            Scenario::Fanout => share(args.spectators, k, p).len(),
            _ => args.spectators,
        },
        fanout_players: k == 0,
        fanout_file: args.fanout_file.clone(),
        move_interval: Duration::from_secs_f64(args.move_interval),
        duration: Duration::from_secs_f64(args.duration()),
        drain: Duration::from_secs_f64(args.drain),
        script: Arc::new(Script::new(args.game_moves())?),
        connect_concurrency: args.connect_concurrency,
        drop_every: Duration::from_secs_f64(args.drop_every),
        seed: args.seed,
    };
    let rt = if args.threads <= 1 {
        tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()?
    } else {
        tokio::runtime::Builder::new_multi_thread()
            .worker_threads(args.threads)
            .enable_all()
            .build()?
    };
    let report = rt.block_on(async move {
        let ctx = Ctx::new(plan);
        let tasks = match ctx.plan.scenario {
            Scenario::Idle => crate::idle::spawn_all(&ctx),
            Scenario::Games | Scenario::Fanout | Scenario::Soak => crate::games::spawn_all(&ctx)?,
            Scenario::Churn => crate::churn::spawn_all(&ctx),
            Scenario::Relay | Scenario::Burn => Vec::new(),
        };
        let mut ready = ctx.ready.clone();
        let c2 = ctx.clone();
        tokio::spawn(async move {
            let _ = ready.wait_for(|r| *r).await;
            let open = c2.open.load(std::sync::atomic::Ordering::Relaxed);
            println!("#ready {open}");
        });
        for t in tasks {
            if let Err(e) = t.await {
                ctx.error(format!("task: {e}"));
            }
        }
        let r = ctx.stats().report();
        anyhow::Ok(r)
    })?;
    println!("{}", serde_json::to_string(&report)?);
    Ok(())
}

impl Args {
    /// The soak's own option checks.
    pub fn check_soak(&self) -> anyhow::Result<()> {
        if self.baseline {
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
    fn shares_cover_the_whole_without_overlap() {
        for total in [0, 1, 7, 5000] {
            for p in 1..5 {
                let parts: Vec<_> = (0..p).map(|k| share(total, k, p)).collect();
                assert_eq!(parts[0].start, 0);
                assert_eq!(parts[p - 1].end, total);
                assert!(parts.windows(2).all(|w| w[0].end == w[1].start));
            }
        }
    }

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
