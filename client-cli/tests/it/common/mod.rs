//! The harness for end-to-end tests of the `tengen` binary: a real server
//! (`tengen_server`, in-process on a free loopback port, on its own
//! runtime thread) and `tengen` processes talking to it, each with a
//! configuration directory of the test's choosing (never the user's).

#![allow(dead_code)]

#[path = "../../../src/testproxy.rs"]
pub mod proxy;

use std::io::{BufRead, BufReader, Read, Write};
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdout, Command, ExitStatus, Output, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use tengen_server::{Server, Settings};

pub const BIN: &str = env!("CARGO_BIN_EXE_tengen");

/// The settings of a test server (a throwaway data directory).
pub fn settings() -> Settings {
    Settings {
        listen: "127.0.0.1:0".parse().unwrap(),
        data_dir: PathBuf::new(),
        coalesce_interval: Duration::from_millis(50),
        ..Settings::default()
    }
}

/// Starts a server on 127.0.0.1 (a free port) that lives as long as the
/// test process; returns its WebSocket URL.
pub fn server() -> String {
    server_with(settings())
}

/// [`server`] with these settings.
pub fn server_with(settings: Settings) -> String {
    let server = spawn_server(settings);
    let url = format!("ws://{}/ws", server.addr);
    // Never stopped: it lives as long as the test process.
    std::mem::forget(server);
    url
}

/// A server on its own runtime thread that the test can stop.
pub struct TestServer {
    pub addr: SocketAddr,
    stop: Option<tokio::sync::oneshot::Sender<()>>,
    done: mpsc::Receiver<()>,
}

impl TestServer {
    /// The graceful stop (connections closed with 1012), then the server's
    /// runtime ends with it, so its store is closed when this returns.
    pub fn stop(mut self) {
        if let Some(s) = self.stop.take() {
            let _ = s.send(());
        }
        self.done
            .recv_timeout(Duration::from_secs(20))
            .expect("the server stops");
    }
}

/// Starts a server; retries while its data directory is still held (a
/// restart right after a stop).
pub fn spawn_server(settings: Settings) -> TestServer {
    let (tx, rx) = mpsc::channel();
    let (stop_tx, stop_rx) = tokio::sync::oneshot::channel::<()>();
    let (done_tx, done_rx) = mpsc::channel();
    std::thread::spawn(move || {
        let rt = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(1)
            .enable_all()
            .build()
            .unwrap();
        rt.block_on(async move {
            let mut last = None;
            let mut server = None;
            for _ in 0..100 {
                match Server::start(settings.clone()).await {
                    Ok(s) => {
                        server = Some(s);
                        break;
                    }
                    Err(e) => last = Some(e),
                }
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
            let server = server.unwrap_or_else(|| panic!("the server does not start: {last:?}"));
            tx.send(server.addr()).unwrap();
            let _ = stop_rx.await;
            server.shutdown();
            let _ = server.wait().await;
        });
        // The runtime is gone, and every task of the server with it.
        drop(rt);
        let _ = done_tx.send(());
    });
    let addr = rx.recv_timeout(Duration::from_secs(20)).expect("server up");
    TestServer {
        addr,
        stop: Some(stop_tx),
        done: done_rx,
    }
}

/// The configuration directory of `tengen` processes that do not say
/// otherwise: one per test process, never the user's.
fn default_config_dir() -> PathBuf {
    std::env::temp_dir().join(format!("tengen-test-config-{}", std::process::id()))
}

/// `tengen ARGS` against `url`, with piped output.
pub fn tengen(url: &str, args: &[&str]) -> Command {
    tengen_in(url, &default_config_dir(), args)
}

/// `tengen ARGS` against `url` with configuration directory `dir` (a
/// player of the test: their login, their kept game).
pub fn tengen_in(url: &str, dir: &Path, args: &[&str]) -> Command {
    let mut c = Command::new(BIN);
    c.args(args)
        .env("TENGEN_SERVER", url)
        .env("TENGEN_CONFIG_DIR", dir)
        .env_remove("TENGEN_NAME")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    c
}

/// Reads a child's standard output line by line on a thread.
pub struct Lines {
    rx: mpsc::Receiver<String>,
    pub seen: Vec<String>,
}

impl Lines {
    pub fn new(out: ChildStdout) -> Lines {
        let (tx, rx) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(out).lines().map_while(Result::ok) {
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Lines {
            rx,
            seen: Vec::new(),
        }
    }

    /// The next line, within `wait`.
    pub fn next(&mut self, wait: Duration) -> Option<String> {
        let line = self.rx.recv_timeout(wait).ok()?;
        self.seen.push(line.clone());
        Some(line)
    }

    /// Every remaining line (until the child closes its output).
    pub fn rest(&mut self, wait: Duration) -> Vec<String> {
        let end = Instant::now() + wait;
        while let Some(l) = self.next(end.saturating_duration_since(Instant::now())) {
            let _ = l;
        }
        self.seen.clone()
    }
}

/// Waits for `child` at most `wait`; kills it and panics past that.
pub fn wait(child: &mut Child, wait: Duration, what: &str) -> ExitStatus {
    let end = Instant::now() + wait;
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            return status;
        }
        if Instant::now() > end {
            let _ = child.kill();
            let mut err = String::new();
            if let Some(e) = child.stderr.as_mut() {
                let _ = e.read_to_string(&mut err);
            }
            panic!("{what} did not finish within {wait:?}; stderr: {err}");
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

pub fn stderr_of(child: &mut Child) -> String {
    let mut err = String::new();
    if let Some(e) = child.stderr.as_mut() {
        let _ = e.read_to_string(&mut err);
    }
    err
}

/// Runs `cmd` with `input` on its standard input; its output.
pub fn run_with_input(mut cmd: Command, input: &str) -> Output {
    cmd.stdin(Stdio::piped());
    let mut child = cmd.spawn().unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    child.wait_with_output().unwrap()
}

/// The moves of a game in renju notation as `tengen record --format
/// renju` prints it (tags, numbers and braces included): the plain list's
/// tokens, read back through the rules crate.
pub fn stored_moves(game: &str) -> Vec<String> {
    let record = tengen_rules::game::import(game, tengen_rules::game::RuleSet::Freestyle)
        .unwrap_or_else(|e| panic!("the stored game does not read back: {e}\n{game}"));
    record
        .renju_notation()
        .split_whitespace()
        .map(str::to_string)
        .collect()
}

pub fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// The password of the tests' accounts.
pub const PASSWORD: &str = "correct horse battery";

/// `tengen register NAME` with [`PASSWORD`], as the player whose
/// configuration directory is `dir`.
pub fn register(url: &str, dir: &Path, name: &str) {
    let out = run_with_input(
        tengen_in(url, dir, &["register", name, "--password-stdin"]),
        &format!("{PASSWORD}\n"),
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
}

/// The move lines of `tengen bot` and `tengen engine` output (`12. white
/// J9 (bob)`), in order.
pub fn moves(out: &[String]) -> Vec<&String> {
    out.iter()
        .filter(|l| {
            l.split('.')
                .next()
                .is_some_and(|n| n.parse::<u32>().is_ok())
        })
        .collect()
}

/// Reads `lines` until one satisfies `pred` (a minute at most).
pub fn until(lines: &mut Lines, what: &str, pred: impl Fn(&str) -> bool) {
    let end = Instant::now() + Duration::from_secs(60);
    while Instant::now() < end {
        if let Some(l) = lines.next(Duration::from_millis(200))
            && pred(&l)
        {
            return;
        }
    }
    panic!("no {what}: {:#?}", lines.seen);
}

/// A server on the data directory `data`, behind a proxy the test can
/// cut and point at the server's successor: the settings (to start that
/// successor), the server and the proxy.
pub fn proxied_server(data: &Path) -> (Settings, TestServer, proxy::Proxy) {
    let mut s = settings();
    s.data_dir = data.to_path_buf();
    let server = spawn_server(s.clone());
    let proxy = proxy::Proxy::start(server.addr);
    (s, server, proxy)
}

/// The network and the server fail under a game that `lines` (a player's
/// live move lines) follows: after move 4 the proxy is cut for a second;
/// after move 10 the server stops and a new one on the same settings (data
/// directory) takes its place behind the proxy, which it returns.
pub fn cut_then_restart(
    lines: &mut Lines,
    proxy: &proxy::Proxy,
    server: TestServer,
    s: Settings,
) -> TestServer {
    until(lines, "move 4", |l| l.starts_with("4. "));
    proxy.cut();
    std::thread::sleep(Duration::from_millis(1000));
    proxy.restore();
    until(lines, "move 10", |l| l.starts_with("10. "));
    server.stop();
    let server = spawn_server(s);
    proxy.retarget(server.addr);
    server
}
