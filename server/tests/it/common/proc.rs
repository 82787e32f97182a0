//! The server binary as a child process on a data directory: started,
//! killed (SIGKILL) or stopped (SIGTERM), and started again.

use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

/// A data directory of a test's own, removed when dropped.
pub struct DataDir(pub PathBuf);

impl DataDir {
    pub fn new(tag: &str) -> DataDir {
        DataDir::in_dir(&std::env::temp_dir(), tag)
    }

    /// A fresh directory's path inside `parent` (made when used).
    pub fn in_dir(parent: &Path, tag: &str) -> DataDir {
        let dir = parent.join(format!(
            "tengen-{tag}-{}-{:08x}",
            std::process::id(),
            rand_u32()
        ));
        DataDir(dir)
    }
}

impl Drop for DataDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn rand_u32() -> u32 {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .subsec_nanos();
    nanos ^ (std::process::id() << 8)
}

/// A running `tengen-server`, killed when dropped (a test that fails, or
/// ends without stopping it, leaves no server behind).
pub struct Proc {
    pub child: Child,
    pub addr: String,
    stderr: Option<std::thread::JoinHandle<String>>,
}

impl Drop for Proc {
    fn drop(&mut self) {
        if let Ok(None) = self.child.try_wait() {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

/// What a start that failed printed.
pub struct Failed {
    pub status: ExitStatus,
    pub stderr: String,
}

/// Starts the binary on `dir`; `Err` with its stderr if it exits instead
/// of listening.
pub fn try_start(dir: &Path) -> Result<Proc, Failed> {
    try_start_with(dir, &[])
}

/// [`try_start`] with more flags (`--redis URL`).
pub fn try_start_with(dir: &Path, extra: &[&str]) -> Result<Proc, Failed> {
    try_start_logging(dir, extra, "warn")
}

/// [`try_start_with`] logging at `log` (`TENGEN_LOG`).
pub fn try_start_logging(dir: &Path, extra: &[&str], log: &str) -> Result<Proc, Failed> {
    try_start_env(dir, extra, log, &[])
}

/// [`start`] with these environment variables set.
pub fn start_env(dir: &Path, env: &[(&str, &str)]) -> Proc {
    match try_start_env(dir, &[], "warn", env) {
        Ok(p) => p,
        Err(f) => panic!("the server did not start ({:?}): {}", f.status, f.stderr),
    }
}

/// [`try_start_logging`] with these environment variables set too.
pub fn try_start_env(
    dir: &Path,
    extra: &[&str],
    log: &str,
    env: &[(&str, &str)],
) -> Result<Proc, Failed> {
    launch(
        Command::new(env!("CARGO_BIN_EXE_tengen-server")),
        "127.0.0.1",
        dir,
        extra,
        log,
        env,
    )
}

/// Starts `cmd` (the binary, or a command that runs it) listening on a
/// free port of `ip`.
fn launch(
    mut cmd: Command,
    ip: &str,
    dir: &Path,
    extra: &[&str],
    log: &str,
    env: &[(&str, &str)],
) -> Result<Proc, Failed> {
    let mut child = cmd
        .args(["--listen", &format!("{ip}:0"), "--data-dir"])
        .arg(dir)
        .args(extra)
        .env_remove("TENGEN_REDIS")
        .env_remove("TENGEN_REDIS_PREFIX")
        .env_remove("TENGEN_REDIS_CA")
        .env("TENGEN_LOG", log)
        .envs(env.iter().copied())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    let mut err = child.stderr.take().unwrap();
    let stderr = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = err.read_to_string(&mut s);
        s
    });
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    match line.trim().strip_prefix("listening on ") {
        Some(addr) => Ok(Proc {
            addr: addr.to_string(),
            child,
            stderr: Some(stderr),
        }),
        None => {
            let status = child.wait().unwrap();
            Err(Failed {
                status,
                stderr: stderr.join().unwrap(),
            })
        }
    }
}

pub fn start(dir: &Path) -> Proc {
    start_with(dir, &[])
}

/// [`start`] with more flags (`--redis URL`).
pub fn start_with(dir: &Path, extra: &[&str]) -> Proc {
    match try_start_with(dir, extra) {
        Ok(p) => p,
        Err(f) => panic!("the server did not start ({:?}): {}", f.status, f.stderr),
    }
}

impl Proc {
    pub fn url(&self) -> String {
        format!("ws://{}/ws", self.addr)
    }

    /// SIGKILL: no chance to do anything.
    pub fn kill(mut self) {
        self.child.kill().unwrap();
        self.child.wait().unwrap();
    }

    /// SIGTERM, then waits for the exit: its status, how long it took, and
    /// what it logged.
    pub fn terminate(self) -> (ExitStatus, Duration, String) {
        signal(&self.child, "-TERM");
        self.wait_exit()
    }

    /// Waits for the process to exit (after a signal sent elsewhere).
    pub fn wait_exit(mut self) -> (ExitStatus, Duration, String) {
        let t0 = Instant::now();
        let status = self.child.wait().unwrap();
        let stderr = self.stderr.take().expect("joined once").join().unwrap();
        (status, t0.elapsed(), stderr)
    }

    /// The status line and body of `GET path`.
    pub fn get(&self, path: &str) -> std::io::Result<String> {
        http_get(&self.addr, path)
    }
}

pub fn signal(child: &Child, sig: &str) {
    let ok = Command::new("kill")
        .args([sig, &child.id().to_string()])
        .status()
        .unwrap()
        .success();
    assert!(ok, "kill {sig}");
}

pub fn http_get(addr: &str, path: &str) -> std::io::Result<String> {
    let mut s = std::net::TcpStream::connect(addr)?;
    s.set_read_timeout(Some(Duration::from_secs(5)))?;
    write!(
        s,
        "GET {path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
    )?;
    let mut out = String::new();
    s.read_to_string(&mut out)?;
    Ok(out)
}

/// A node of several on one Redis: the binary on `dir` with `--redis URL`,
/// `--redis-prefix`, `--node-id` and `--lease-seconds`.
pub fn start_node(dir: &Path, redis_url: &str, prefix: &str, name: &str, lease: &str) -> Proc {
    start_node_logging(dir, redis_url, prefix, name, lease, "warn")
}

/// [`start_node`] inside the network namespace `netns` (`ip netns exec`),
/// listening on its address `ip`.
pub fn start_node_in(
    netns: &str,
    ip: &str,
    dir: &Path,
    redis_url: &str,
    prefix: &str,
    name: &str,
    lease: &str,
) -> Proc {
    let mut cmd = Command::new("ip");
    cmd.args(["netns", "exec", netns, env!("CARGO_BIN_EXE_tengen-server")]);
    let node = Node {
        redis_url,
        prefix,
        name,
        lease,
    };
    node.launch(cmd, ip, dir, "warn")
}

/// [`start_node`] logging at `log` (`TENGEN_LOG`).
pub fn start_node_logging(
    dir: &Path,
    redis_url: &str,
    prefix: &str,
    name: &str,
    lease: &str,
    log: &str,
) -> Proc {
    let node = Node {
        redis_url,
        prefix,
        name,
        lease,
    };
    let cmd = Command::new(env!("CARGO_BIN_EXE_tengen-server"));
    node.launch(cmd, "127.0.0.1", dir, log)
}

/// A node's flags: its Redis, key prefix, name and lease term.
struct Node<'a> {
    redis_url: &'a str,
    prefix: &'a str,
    name: &'a str,
    lease: &'a str,
}

impl Node<'_> {
    fn launch(&self, cmd: Command, ip: &str, dir: &Path, log: &str) -> Proc {
        let flags = [
            "--redis",
            self.redis_url,
            "--redis-prefix",
            self.prefix,
            "--node-id",
            self.name,
            "--lease-seconds",
            self.lease,
        ];
        match launch(cmd, ip, dir, &flags, log, &[]) {
            Ok(p) => p,
            Err(f) => panic!("the server did not start ({:?}): {}", f.status, f.stderr),
        }
    }
}

/// The real binary's `tengen-server admin ARGS`: success, and its JSON
/// answer (its last line). Waited for off the runtime, which may serve
/// the server it talks to.
pub async fn admin(args: Vec<String>) -> (bool, serde_json::Value) {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_tengen-server"));
    cmd.arg("admin").args(args);
    let out = tokio::task::spawn_blocking(move || cmd.output())
        .await
        .unwrap()
        .expect("tengen-server admin runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let line = stdout.lines().last().unwrap_or_default();
    let value = serde_json::from_str(line)
        .unwrap_or_else(|e| panic!("{e}: {stdout} / {}", String::from_utf8_lossy(&out.stderr)));
    (out.status.success(), value)
}

/// Stops the nodes (SIGTERM): each exits cleanly, without a panic.
pub fn stop(nodes: impl IntoIterator<Item = Proc>) {
    for p in nodes {
        let (status, _, stderr) = p.terminate();
        assert!(status.success(), "{status:?}: {stderr}");
        assert!(!stderr.contains("panicked"), "{stderr}");
    }
}
