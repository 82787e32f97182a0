//! `--stop-server`: the server stopped with SIGTERM once the load is
//! over, and the time it took to exit.
//!
//! Why here: the overload run's last check is that a server that has just
//! been pushed past its cores still stops within what it promises
//! ([`PROMISE`]), every accepted move stored. The load generator knows
//! when the load (and the drain) ended, so it sends the signal then and
//! times the exit, instead of a script guessing. The server is usually
//! not its child: the exit is seen in `/proc` (the process gone, or a
//! zombie waiting for its own parent).

use std::time::{Duration, Instant};

use anyhow::{Context, bail};

/// How long a server may take to exit after SIGTERM (the README's
/// promise).
pub const PROMISE: Duration = Duration::from_secs(5);

/// How long to wait before giving up on the exit altogether.
const GIVE_UP: Duration = Duration::from_secs(60);

/// Sends SIGTERM to `pid` and waits for it to exit: how long that took.
pub async fn stop(pid: u32) -> anyhow::Result<Duration> {
    let started = Instant::now();
    let status = tokio::process::Command::new("kill")
        .args(["-TERM", &pid.to_string()])
        .status()
        .await
        .context("running kill")?;
    if !status.success() {
        bail!("kill -TERM {pid} failed ({status}): is the server running?");
    }
    while !exited(pid) {
        if started.elapsed() > GIVE_UP {
            bail!("the server ({pid}) did not exit within {GIVE_UP:?} of SIGTERM");
        }
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    Ok(started.elapsed())
}

/// Whether process `pid` has exited: no `/proc/PID`, or a zombie.
fn exited(pid: u32) -> bool {
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        Err(_) => true,
        // The state is the field after the command name, which is in
        // parentheses and may hold spaces.
        Ok(stat) => stat
            .rsplit_once(')')
            .and_then(|(_, rest)| rest.split_whitespace().next())
            .is_some_and(|state| state == "Z" || state == "X"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_running_process_has_not_exited_and_a_missing_one_has() {
        assert!(!exited(std::process::id()));
        assert!(exited(u32::MAX));
    }
}
