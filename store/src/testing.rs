//! Test helpers (the `testing` feature): a real `redis-server` of the
//! test's own.
//!
//! [`RedisServer::start`] runs `redis-server` on a free loopback port in a
//! temporary directory, with the append-only file on (`appendfsync
//! always`) and no RDB snapshots, and waits until it answers `PING`. It is
//! killed when dropped. [`RedisServer::kill`] and [`RedisServer::restart`]
//! stop it (SIGKILL: no chance to save anything more) and start it again
//! on the same port and directory, so a test can see what survives.
//!
//! [`RedisServer::start_tls`] also serves TLS (`rediss://`) with a
//! certificate of the test's own CA.
//!
//! [`RedisServer::start_cluster`] runs it in cluster mode
//! (`--cluster-enabled yes`) as a one-node cluster owning all 16384
//! slots. Such a node refuses, as every Redis Cluster does, any script,
//! transaction or multi-key command whose keys are in different slots
//! (`CROSSSLOT`), so whatever passes against it uses only single-slot
//! operations.
//!
//! When `redis-server` is not installed, [`RedisServer::start`] panics
//! with a message saying so and how to install it: the tests that need
//! Redis fail rather than skip (`./scripts/test` installs it).

use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// How long a started `redis-server` may take to answer `PING`.
const READY_WITHIN: Duration = Duration::from_secs(10);

/// A `redis-server` process on `127.0.0.1:port`, killed when dropped.
pub struct RedisServer {
    port: u16,
    dir: tempfile::TempDir,
    child: Option<Child>,
    /// More flags (TLS), kept for restarts.
    extra: Vec<String>,
    tls_port: Option<u16>,
    /// Cluster mode: wait for `cluster_state:ok` after (re)starts.
    cluster: bool,
}

impl RedisServer {
    /// Starts a `redis-server` on a free port in a new temporary
    /// directory. Panics, saying why, if it cannot (not installed, or it
    /// does not answer within 10 s).
    pub fn start() -> RedisServer {
        RedisServer::start_with(false, false)
    }

    /// [`RedisServer::start`] in cluster mode (`--cluster-enabled yes`,
    /// its `nodes.conf` in the server's directory): a one-node cluster
    /// that is given every slot (`CLUSTER ADDSLOTSRANGE 0 16383`, or
    /// `CLUSTER ADDSLOTS` before Redis 7) and is ready once `CLUSTER INFO`
    /// says `cluster_state:ok`.
    pub fn start_cluster() -> RedisServer {
        let server = RedisServer::start_with(false, true);
        let port = server.port;
        let range = command(port, &["CLUSTER", "ADDSLOTSRANGE", "0", "16383"]);
        if !matches!(&range, Ok(reply) if reply.starts_with('+')) {
            let slots: Vec<String> = (0..16384).map(|s: u32| s.to_string()).collect();
            let mut args = vec!["CLUSTER", "ADDSLOTS"];
            args.extend(slots.iter().map(String::as_str));
            match command(port, &args) {
                Ok(reply) if reply.starts_with('+') => {}
                other => {
                    panic!("cannot give the cluster node its slots: {range:?}, then {other:?}")
                }
            }
        }
        wait_cluster_ok(port);
        server
    }

    /// [`RedisServer::start`], also serving TLS on a second port with a
    /// certificate for `localhost` and `127.0.0.1` signed by a CA of the
    /// test's own ([`RedisServer::ca_file`]), made with `openssl`.
    pub fn start_tls() -> RedisServer {
        RedisServer::start_with(true, false)
    }

    /// [`RedisServer::start`] with more `redis-server` flags, after the
    /// usual ones (a later flag wins: `--dir` elsewhere, `--appendfsync
    /// everysec`).
    pub fn start_with_flags(flags: &[&str]) -> RedisServer {
        RedisServer::start_flagged(false, false, flags)
    }

    fn start_with(tls: bool, cluster: bool) -> RedisServer {
        RedisServer::start_flagged(tls, cluster, &[])
    }

    fn start_flagged(tls: bool, cluster: bool, flags: &[&str]) -> RedisServer {
        let dir = tempfile::Builder::new()
            .prefix("tengen-redis-")
            .tempdir()
            .expect("a temporary directory for redis-server");
        if tls {
            make_certs(dir.path());
        }
        // Another process may take the port between its release here and
        // redis-server's bind: try a few.
        let mut last = String::new();
        for _ in 0..5 {
            let port = free_port();
            let tls_port = tls.then(free_port);
            let mut extra = match tls_port {
                Some(tls_port) => {
                    let file = |name: &str| dir.path().join(name).to_string_lossy().into_owned();
                    vec![
                        "--tls-port".into(),
                        tls_port.to_string(),
                        "--tls-cert-file".into(),
                        file("server.crt"),
                        "--tls-key-file".into(),
                        file("server.key"),
                        "--tls-ca-cert-file".into(),
                        file("ca.crt"),
                        "--tls-auth-clients".into(),
                        "no".into(),
                    ]
                }
                None => Vec::new(),
            };
            extra.extend(flags.iter().map(|f| f.to_string()));
            if cluster {
                extra.extend([
                    "--cluster-enabled".into(),
                    "yes".into(),
                    "--cluster-config-file".into(),
                    dir.path().join("nodes.conf").to_string_lossy().into_owned(),
                ]);
            }
            match spawn(port, dir.path(), &extra) {
                Ok(child) => {
                    return RedisServer {
                        port,
                        dir,
                        child: Some(child),
                        extra,
                        tls_port,
                        cluster,
                    };
                }
                Err(e) => last = e,
            }
        }
        panic!("redis-server did not start: {last}");
    }

    /// The `rediss://` URL of the TLS port (after [`RedisServer::start_tls`]).
    pub fn tls_url(&self) -> Option<String> {
        self.tls_port
            .map(|port| format!("rediss://localhost:{port}/"))
    }

    /// The PEM file of the CA that signed the TLS certificate.
    pub fn ca_file(&self) -> std::path::PathBuf {
        self.dir.path().join("ca.crt")
    }

    /// The `redis://` URL of this server (database 0).
    pub fn url(&self) -> String {
        format!("redis://127.0.0.1:{}/", self.port)
    }

    pub fn port(&self) -> u16 {
        self.port
    }

    /// The server's directory (its append-only file is in there).
    pub fn dir(&self) -> &Path {
        self.dir.path()
    }

    /// Whether the process is running.
    pub fn is_running(&self) -> bool {
        self.child.is_some()
    }

    /// Kills the server (SIGKILL) and waits for it to exit.
    pub fn kill(&mut self) {
        self.stop();
    }

    /// Starts the server again on the same port and directory (after
    /// [`RedisServer::kill`]), and waits until it answers.
    pub fn restart(&mut self) {
        self.stop();
        let deadline = Instant::now() + READY_WITHIN;
        loop {
            match spawn(self.port, self.dir.path(), &self.extra) {
                Ok(child) => {
                    self.child = Some(child);
                    if self.cluster {
                        wait_cluster_ok(self.port);
                    }
                    return;
                }
                // The old socket may linger a moment.
                Err(e) if Instant::now() >= deadline => panic!("redis-server did not restart: {e}"),
                Err(_) => std::thread::sleep(Duration::from_millis(100)),
            }
        }
    }

    fn stop(&mut self) {
        if let Some(mut child) = self.child.take() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

impl Drop for RedisServer {
    fn drop(&mut self) {
        self.stop();
    }
}

fn spawn(port: u16, dir: &Path, extra: &[String]) -> Result<Child, String> {
    let log = dir.join("redis.log");
    let child = Command::new("redis-server")
        .args(["--port", &port.to_string()])
        .args(["--bind", "127.0.0.1"])
        .args(["--save", ""])
        .args(["--appendonly", "yes"])
        .args(["--appendfsync", "always"])
        .arg("--dir")
        .arg(dir)
        .arg("--logfile")
        .arg(&log)
        .args(extra)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn();
    let mut child = match child {
        Ok(child) => child,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => panic!(
            "redis-server is not installed, and this test needs a real Redis: \
             install it (`apt-get install -y redis-server`; ./scripts/test does) and run again"
        ),
        Err(e) => return Err(format!("cannot run redis-server: {e}")),
    };
    let deadline = Instant::now() + READY_WITHIN;
    loop {
        if let Ok(Some(status)) = child.try_wait() {
            let mut err = String::new();
            if let Some(mut e) = child.stderr.take() {
                let _ = e.read_to_string(&mut err);
            }
            let logged = std::fs::read_to_string(&log).unwrap_or_default();
            return Err(format!("redis-server exited ({status}): {err}{logged}"));
        }
        if ping(port) {
            return Ok(child);
        }
        if Instant::now() >= deadline {
            let _ = child.kill();
            let _ = child.wait();
            return Err(format!(
                "redis-server on port {} did not answer PING within {READY_WITHIN:?}",
                port
            ));
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// A CA and a server certificate signed by it (for `localhost` and
/// `127.0.0.1`) in `dir`, made with the `openssl` command.
fn make_certs(dir: &Path) {
    let steps: [&[&str]; 3] = [
        &[
            "req",
            "-x509",
            "-newkey",
            "rsa:2048",
            "-nodes",
            "-keyout",
            "ca.key",
            "-out",
            "ca.crt",
            "-days",
            "2",
            "-subj",
            "/CN=Tengen test CA",
        ],
        &[
            "req",
            "-newkey",
            "rsa:2048",
            "-nodes",
            "-keyout",
            "server.key",
            "-out",
            "server.csr",
            "-subj",
            "/CN=localhost",
        ],
        &[
            "x509",
            "-req",
            "-in",
            "server.csr",
            "-CA",
            "ca.crt",
            "-CAkey",
            "ca.key",
            "-CAcreateserial",
            "-out",
            "server.crt",
            "-days",
            "2",
            "-extfile",
            "san.ext",
        ],
    ];
    std::fs::write(
        dir.join("san.ext"),
        "subjectAltName=DNS:localhost,IP:127.0.0.1\n",
    )
    .expect("write san.ext");
    for args in steps {
        let out = Command::new("openssl").args(args).current_dir(dir).output();
        match out {
            Ok(out) if out.status.success() => {}
            Ok(out) => panic!(
                "openssl {args:?} failed: {}",
                String::from_utf8_lossy(&out.stderr)
            ),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => panic!(
                "openssl is not installed, and this test makes its TLS certificates with it: \
                 install it (`apt-get install -y openssl`; ./scripts/test does) and run again"
            ),
            Err(e) => panic!("cannot run openssl: {e}"),
        }
    }
}

/// A port that was free a moment ago.
fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("a free loopback port")
}

/// Whether a Redis on `port` answers `PING` with `+PONG`.
fn ping(port: u16) -> bool {
    let Ok(mut s) = TcpStream::connect_timeout(
        &std::net::SocketAddr::from(([127, 0, 0, 1], port)),
        Duration::from_millis(200),
    ) else {
        return false;
    };
    let _ = s.set_read_timeout(Some(Duration::from_millis(500)));
    if s.write_all(b"PING\r\n").is_err() {
        return false;
    }
    let mut buf = [0u8; 16];
    matches!(s.read(&mut buf), Ok(n) if buf[..n].starts_with(b"+PONG"))
}

/// Sends one command to the Redis on `port` and reads its reply (a simple
/// string, error, integer or bulk string, as RESP text).
fn command(port: u16, args: &[&str]) -> Result<String, String> {
    let mut s = TcpStream::connect(std::net::SocketAddr::from(([127, 0, 0, 1], port)))
        .map_err(|e| e.to_string())?;
    s.set_read_timeout(Some(Duration::from_secs(5)))
        .map_err(|e| e.to_string())?;
    let mut request = format!("*{}\r\n", args.len());
    for arg in args {
        request.push_str(&format!("${}\r\n{arg}\r\n", arg.len()));
    }
    s.write_all(request.as_bytes()).map_err(|e| e.to_string())?;
    let mut reply = Vec::new();
    let mut buf = [0u8; 4096];
    loop {
        let n = s.read(&mut buf).map_err(|e| e.to_string())?;
        if n == 0 {
            return Err("the connection closed".into());
        }
        reply.extend_from_slice(&buf[..n]);
        let text = String::from_utf8_lossy(&reply);
        let Some(eol) = text.find("\r\n") else {
            continue;
        };
        if let Some(len) = text.strip_prefix('$') {
            let len: i64 = len[..eol - 1].parse().map_err(|_| text.to_string())?;
            if len >= 0 && reply.len() < eol + 2 + len as usize + 2 {
                continue;
            }
        }
        return Ok(text.into_owned());
    }
}

/// Waits until the cluster node on `port` reports `cluster_state:ok`.
fn wait_cluster_ok(port: u16) {
    let deadline = Instant::now() + READY_WITHIN;
    loop {
        let info = command(port, &["CLUSTER", "INFO"]);
        if matches!(&info, Ok(text) if text.contains("cluster_state:ok")) {
            return;
        }
        if Instant::now() >= deadline {
            panic!("the cluster node on port {port} is not ready: {info:?}");
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// A unique key prefix for one test (so tests can share one server).
pub fn unique_prefix(tag: &str) -> String {
    static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let n = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    format!("test-{tag}-{}-{n}", std::process::id())
}
