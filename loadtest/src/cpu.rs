//! The server's CPU time, and keeping the server and the load apart.
//!
//! On a machine with few cores the load processes and the server compete
//! for them, and the server's latency then measures the competition as
//! much as the server. `--server-cpus` and `--load-cpus` pin them to
//! different CPUs (with `taskset` from util-linux: a bare relay started by
//! the run and a server given by `--server-pid` are pinned to the server's
//! CPUs, every load process to the load's). The CPU time a server spends
//! over a run, per 1,000 moves, compares its cost per move with the bare
//! relay's in the same run. It is read from `/proc/PID/stat` when the pid
//! is known, else from `process_cpu_seconds_total` on the server's
//! `/metrics` page.

use anyhow::{Context, bail};
use tokio::process::Command;

use crate::memory;

/// The kernel's clock tick for `/proc/PID/stat` times: `USER_HZ`, 100 on
/// every Linux architecture this runs on (it is part of the user ABI).
const TICKS_PER_SECOND: f64 = 100.0;

/// Checks a CPU list as `taskset -c` takes it: `0`, `1-3`, `0,2-3`.
pub fn check_list(list: &str) -> anyhow::Result<()> {
    let ok = !list.is_empty()
        && list.split(',').all(|part| {
            let mut ends = part.splitn(2, '-');
            let a = ends.next().map(|a| a.parse::<usize>());
            let b = ends.next().map(|b| b.parse::<usize>());
            match (a, b) {
                (Some(Ok(_)), None) => true,
                (Some(Ok(a)), Some(Ok(b))) => a <= b,
                _ => false,
            }
        });
    if !ok {
        bail!("{list:?} is not a CPU list (like 0, 1-3 or 0,2-3)");
    }
    Ok(())
}

/// A command running `program`, pinned to `cpus` when given.
pub fn command(program: &std::path::Path, cpus: Option<&str>) -> Command {
    match cpus {
        Some(list) => {
            let mut c = Command::new("taskset");
            c.arg("-c").arg(list).arg(program);
            c
        }
        None => Command::new(program),
    }
}

/// Pins every thread of the running process `pid` to `cpus`.
pub fn pin_process(pid: u32, cpus: &str) -> anyhow::Result<()> {
    let status = std::process::Command::new("taskset")
        .args(["-a", "-p", "-c", cpus, &pid.to_string()])
        .stdout(std::process::Stdio::null())
        .status()
        .context("running taskset (util-linux)")?;
    if !status.success() {
        bail!("taskset could not pin process {pid} to CPUs {cpus}");
    }
    Ok(())
}

/// User plus system CPU seconds of process `pid` so far.
pub fn seconds_from_proc(pid: u32) -> anyhow::Result<f64> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat"))
        .with_context(|| format!("reading /proc/{pid}/stat"))?;
    parse_stat(&stat).with_context(|| format!("no CPU times in /proc/{pid}/stat"))
}

/// utime + stime (fields 14 and 15) of a `/proc/PID/stat` line, in
/// seconds. The command name (field 2) may hold spaces and parentheses,
/// so the fields are counted after its closing parenthesis.
fn parse_stat(stat: &str) -> Option<f64> {
    let rest = &stat[stat.rfind(')')? + 1..];
    let mut fields = rest.split_whitespace().skip(11);
    let utime: f64 = fields.next()?.parse().ok()?;
    let stime: f64 = fields.next()?.parse().ok()?;
    Some((utime + stime) / TICKS_PER_SECOND)
}

fn parse_metrics(page: &str) -> Option<f64> {
    page.lines()
        .find_map(|l| l.strip_prefix("process_cpu_seconds_total "))
        .and_then(|v| v.trim().parse::<f64>().ok())
}

/// The servers' CPU seconds so far: of `pid`, or summed over the distinct
/// host:ports of `urls` from their `/metrics`. Returns where it was read.
pub async fn sample(urls: &[String], pid: Option<u32>) -> anyhow::Result<(String, f64)> {
    if let Some(pid) = pid {
        return Ok((format!("/proc/{pid}"), seconds_from_proc(pid)?));
    }
    let mut seen = Vec::new();
    let mut total = 0.0;
    for u in urls {
        let a = memory::authority(u)?;
        if !seen.contains(&a) {
            seen.push(a);
            let page = memory::metrics_page(u).await?;
            total += parse_metrics(&page)
                .with_context(|| format!("no process_cpu_seconds_total on {a}/metrics"))?;
        }
    }
    Ok((format!("/metrics of {}", seen.join(", ")), total))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_cpu_times() {
        let stat = "1234 (a (b) c) S 1 2 3 4 5 6 7 8 9 10 250 150 0 0 20 0";
        assert_eq!(parse_stat(stat), Some(4.0));
        assert_eq!(parse_stat("garbage"), None);
        let page = "# TYPE process_cpu_seconds_total counter\nprocess_cpu_seconds_total 12.5\n";
        assert_eq!(parse_metrics(page), Some(12.5));
        let mine = seconds_from_proc(std::process::id()).unwrap();
        assert!(mine >= 0.0);
    }

    #[test]
    fn cpu_lists() {
        for good in ["0", "1-3", "0,2-3", "10"] {
            assert!(check_list(good).is_ok(), "{good}");
        }
        for bad in ["", "a", "3-1", "1,", "-1", "1-2-3"] {
            assert!(check_list(bad).is_err(), "{bad}");
        }
    }
}
