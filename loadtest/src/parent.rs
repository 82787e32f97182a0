//! A run: the parent that spawns the load processes and merges what they
//! report, and a load process's own share of the work (the command line
//! is in `args`).
//!
//! The parent talks to its children over their standard output, one line at
//! a time: `#ready N` once a child's connections are all set up (N open),
//! then its report as one JSON line. When every child is ready the parent
//! reads the server's memory and, in a fan-out run, sets the start signal in
//! the shared file (so the game's first move waits for every spectator).

use std::process::Stdio;
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::Context;
use tengen_protocol::Encoding;
use tokio::io::{AsyncBufReadExt, BufReader};
use tokio::process::Child;
use tokio::sync::mpsc;

use crate::args::{Args, Enc};
use crate::memory;
use crate::run::{Clock, Ctx, FanoutFile, Plan, Scenario, Target};
use crate::script::Script;
use crate::stats::{Memory, Report};

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
    if args.stop_server
        && let Some(pid) = args.server_pid
    {
        let took = crate::stop::stop(pid).await?;
        report.server_stop_s = Some((took.as_secs_f64() * 100.0).round() / 100.0);
        if took > crate::stop::PROMISE {
            *report.errors.entry("server_stop_slow".into()).or_default() += 1;
            report.error_total += 1;
        }
    }
    if args.baseline {
        let (mut relay, url) = start_relay(args.server_cpus.as_deref(), None).await?;
        let pid = relay.id();
        let base = phase(args, Target::Relay, &[url], pid).await;
        let _ = relay.kill().await;
        report.set_ratios(base?);
    }
    if args.baseline_durable {
        let base = durable_phase(args).await?;
        report.set_durable_ratios(base);
    }
    Ok(report)
}

/// The scenario against the durable relay, its journal's work counted.
async fn durable_phase(args: &Args) -> anyhow::Result<Report> {
    let (dir, _temp) = match &args.journal_dir {
        Some(d) => (d.clone(), None),
        None => {
            let t = tempfile::Builder::new()
                .prefix("tengen-loadtest-journal-")
                .tempdir()
                .context("making a directory for the relay's journal")?;
            (t.path().to_path_buf(), Some(t))
        }
    };
    let (mut relay, url) = start_relay(args.server_cpus.as_deref(), Some(&dir)).await?;
    let pid = relay.id();
    let before = journal_use(&url).await;
    let base = phase(args, Target::Relay, std::slice::from_ref(&url), pid).await;
    let after = journal_use(&url).await;
    let _ = relay.kill().await;
    let _ = relay.wait().await;
    let _ = std::fs::remove_file(dir.join(crate::journal::FILE));
    let mut base = base?;
    base.target = format!("durable relay {url}, journal in {}", dir.display());
    base.journal = Some(before?.since(&after?));
    Ok(base)
}

/// The durable relay's journal counters, from its `/metrics`.
async fn journal_use(url: &str) -> anyhow::Result<crate::stats::JournalUse> {
    let page = memory::metrics_page(url).await?;
    crate::stats::JournalUse::from_metrics(&page).context("no journal on the relay's /metrics")
}

async fn start_relay(
    cpus: Option<&str>,
    journal_dir: Option<&std::path::Path>,
) -> anyhow::Result<(Child, String)> {
    let mut cmd = crate::cpu::command(&std::env::current_exe()?, cpus);
    cmd.args(["relay", "--listen", "127.0.0.1:0"]);
    if let Some(dir) = journal_dir {
        cmd.arg("--journal-dir").arg(dir);
    }
    let mut child = cmd
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
}
