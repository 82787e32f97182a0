//! The harness for end-to-end tests of the `tengen` binary: a real server
//! (`tengen_server`, in-process on a free loopback port, on its own
//! runtime thread) and `tengen` processes talking to it.

#![allow(dead_code)]

use std::io::{BufRead, BufReader, Read};
use std::process::{Child, ChildStdout, Command, ExitStatus, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use tengen_server::{Server, Settings};

pub const BIN: &str = env!("CARGO_BIN_EXE_tengen");

/// Starts a server on 127.0.0.1 (a free port) that lives as long as the
/// test process; returns its WebSocket URL.
pub fn server() -> String {
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let rt = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(1)
            .enable_all()
            .build()
            .unwrap();
        rt.block_on(async move {
            let server = Server::start(Settings {
                listen: "127.0.0.1:0".parse().unwrap(),
                data_dir: std::path::PathBuf::new(),
                coalesce_interval: Duration::from_millis(50),
                ..Settings::default()
            })
            .await
            .expect("server starts");
            tx.send(server.addr()).unwrap();
            std::future::pending::<()>().await;
        });
    });
    let addr = rx.recv_timeout(Duration::from_secs(10)).expect("server up");
    format!("ws://{addr}/ws")
}

/// `tengen ARGS` against `url`, with piped output.
pub fn tengen(url: &str, args: &[&str]) -> Command {
    let mut c = Command::new(BIN);
    c.args(args)
        .env("TENGEN_SERVER", url)
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
