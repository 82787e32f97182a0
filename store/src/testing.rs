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
//! [`RedisCluster::start`] runs a real Redis Cluster of three primaries
//! with a replica each (six cluster-mode servers joined by `redis-cli
//! --cluster create`), and [`RedisSentinels::start`] a primary, its
//! replica and three sentinels watching them; both let a test kill a
//! primary (SIGKILL) and wait for its replica's promotion.
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

    /// [`RedisServer::start_with_flags`] in cluster mode.
    fn start_cluster_node(flags: &[&str]) -> RedisServer {
        RedisServer::start_flagged(false, true, flags)
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

    /// Freezes the server (SIGSTOP: a replica frozen falls behind its
    /// primary) or lets it go on (SIGCONT).
    fn freeze(&self, frozen: bool) {
        let pid = self.child.as_ref().expect("the server runs").id() as libc::pid_t;
        let signal = if frozen { libc::SIGSTOP } else { libc::SIGCONT };
        // SAFETY: kill(2) on our own child's pid; no memory is involved.
        unsafe { libc::kill(pid, signal) };
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

/// How long a cluster or a failover may take to settle.
const SETTLE_WITHIN: Duration = Duration::from_secs(30);

/// Runs `redis-cli` with `args`, killed if it takes more than
/// [`SETTLE_WITHIN`]; its output.
fn cli(args: &[String]) -> String {
    let mut child = match Command::new("redis-cli")
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
    {
        Ok(child) => child,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => panic!(
            "redis-cli is not installed, and this test needs it: install it \
             (`apt-get install -y redis-tools`; ./scripts/test does) and run again"
        ),
        Err(e) => panic!("cannot run redis-cli: {e}"),
    };
    let deadline = Instant::now() + SETTLE_WITHIN;
    loop {
        match child.try_wait() {
            Ok(Some(_)) => break,
            Ok(None) if Instant::now() < deadline => std::thread::sleep(Duration::from_millis(20)),
            _ => {
                let _ = child.kill();
                let _ = child.wait();
                panic!("redis-cli {args:?} did not finish within {SETTLE_WITHIN:?}");
            }
        }
    }
    let mut out = String::new();
    if let Some(mut o) = child.stdout.take() {
        let _ = o.read_to_string(&mut out);
    }
    if let Some(mut e) = child.stderr.take() {
        let _ = e.read_to_string(&mut out);
    }
    out
}

/// `redis-cli -p PORT ARGS...`.
fn cli_at(port: u16, args: &[&str]) -> String {
    let mut all = vec!["-p".to_owned(), port.to_string()];
    all.extend(args.iter().map(|a| a.to_string()));
    cli(&all)
}

/// Waits until `ready` holds, checking every 50 ms; panics with `what`
/// after [`SETTLE_WITHIN`].
fn settle(what: &str, ready: impl FnMut() -> bool) {
    settle_within(what, SETTLE_WITHIN, ready)
}

/// [`settle`], panicking after `within`.
fn settle_within(what: &str, within: Duration, mut ready: impl FnMut() -> bool) {
    let deadline = Instant::now() + within;
    while !ready() {
        assert!(Instant::now() < deadline, "{what}: not within {within:?}");
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// A real Redis Cluster: three primaries with one replica each, six
/// `redis-server --cluster-enabled yes` on free loopback ports (append-only
/// file with `appendfsync always`, as [`RedisServer::start`]), joined by
/// `redis-cli --cluster create --cluster-replicas 1`. A node is declared
/// failed after 1 s (`cluster-node-timeout 1000`), and a replica is always
/// allowed to take over (`cluster-replica-validity-factor 0`). Every
/// process is killed when this is dropped.
pub struct RedisCluster {
    nodes: Vec<RedisServer>,
}

impl RedisCluster {
    /// Starts the six servers, makes them a cluster and waits until every
    /// node says `cluster_state:ok` and knows all six. Panics, saying why,
    /// if that does not happen within 30 s.
    pub fn start() -> RedisCluster {
        let nodes: Vec<RedisServer> = (0..6)
            .map(|_| {
                RedisServer::start_cluster_node(&[
                    "--cluster-node-timeout",
                    "1000",
                    "--cluster-replica-validity-factor",
                    "0",
                ])
            })
            .collect();
        let mut args = vec!["--cluster".to_owned(), "create".to_owned()];
        args.extend(nodes.iter().map(|n| format!("127.0.0.1:{}", n.port)));
        args.extend(["--cluster-replicas", "1", "--cluster-yes"].map(str::to_owned));
        let out = cli(&args);
        assert!(
            out.contains("All 16384 slots covered"),
            "redis-cli --cluster create failed:\n{out}"
        );
        let cluster = RedisCluster { nodes };
        cluster.wait_healthy(6);
        cluster
    }

    /// `redis+cluster://` with every node as a seed.
    pub fn url(&self) -> String {
        let hosts: Vec<String> = self
            .nodes
            .iter()
            .map(|n| format!("127.0.0.1:{}", n.port))
            .collect();
        format!("redis+cluster://{}/", hosts.join(","))
    }

    /// The nodes, in the order they were started.
    pub fn nodes(&self) -> &[RedisServer] {
        &self.nodes
    }

    /// The running node that serves `key` as a primary now: the one that
    /// answers a command on it instead of redirecting (`MOVED`).
    pub fn primary_of(&self, key: &str) -> Option<usize> {
        self.nodes.iter().position(|n| {
            n.is_running()
                && matches!(command(n.port, &["EXISTS", key]), Ok(reply) if reply.starts_with(':'))
        })
    }

    /// Kills node `i` (SIGKILL).
    pub fn kill(&mut self, i: usize) {
        self.nodes[i].kill();
    }

    /// Starts node `i` again on its port and directory: it rejoins the
    /// cluster (a failed primary comes back as its successor's replica).
    pub fn restart(&mut self, i: usize) {
        self.nodes[i].restart();
        self.wait_healthy(self.nodes.iter().filter(|n| n.is_running()).count());
    }

    /// Kills the primary of `key` and waits until another node serves it
    /// (its replica, promoted) and the running nodes agree the cluster is
    /// whole again. The killed node's index.
    ///
    /// The replica is first frozen (SIGSTOP) and cut from the primary
    /// (`CLIENT KILL TYPE replica`) for half a second (under the 1 s node
    /// timeout), and the primary killed at the end of it, so the writes
    /// the primary took meanwhile never reach the replica that takes
    /// over: the ones a store acknowledged without waiting for a replica
    /// are lost, as asynchronous replication allows.
    pub fn fail_primary_of(&mut self, key: &str) -> usize {
        let i = self
            .primary_of(key)
            .unwrap_or_else(|| panic!("no node serves {key}"));
        let port = self.nodes[i].port;
        let replica = self
            .nodes
            .iter()
            .position(|n| {
                n.is_running()
                    && cli_at(n.port, &["INFO", "replication"])
                        .contains(&format!("master_port:{port}"))
            })
            .unwrap_or_else(|| panic!("the primary of {key} has no replica"));
        self.nodes[replica].freeze(true);
        cli_at(port, &["CLIENT", "KILL", "TYPE", "replica"]);
        std::thread::sleep(Duration::from_millis(500));
        self.nodes[i].kill();
        self.nodes[replica].freeze(false);
        settle(
            "a replica takes over the killed primary's slots",
            || matches!(self.primary_of(key), Some(j) if j != i),
        );
        self.wait_healthy(0);
        i
    }

    /// Waits until every running node says `cluster_state:ok` (and, when
    /// `known` > 0, knows that many nodes) and every running replica is in
    /// sync with its primary.
    fn wait_healthy(&self, known: usize) {
        settle("the cluster is healthy", || {
            self.nodes.iter().filter(|n| n.is_running()).all(|n| {
                let info = cli_at(n.port, &["CLUSTER", "INFO"]);
                let replication = cli_at(n.port, &["INFO", "replication"]);
                info.contains("cluster_state:ok")
                    && (known == 0 || info.contains(&format!("cluster_known_nodes:{known}")))
                    && (replication.contains("role:master")
                        || replication.contains("master_link_status:up"))
            })
        });
    }
}

/// A primary, its replica and three sentinels watching them under the
/// name `tengen` (quorum 2; a primary is down after 1 s without an
/// answer, `down-after-milliseconds 1000`). Every process is killed when
/// this is dropped.
pub struct RedisSentinels {
    /// The two data servers: the first starts as the primary.
    servers: Vec<RedisServer>,
    sentinels: Vec<(u16, Child)>,
    _dir: tempfile::TempDir,
}

/// The name the sentinels know the primary by.
pub const SENTINEL_MASTER: &str = "tengen";

impl RedisSentinels {
    /// Starts the primary, the replica (waiting until it is in sync) and
    /// the sentinels (waiting until each knows the replica and the two
    /// other sentinels).
    pub fn start() -> RedisSentinels {
        let primary = RedisServer::start();
        let port = primary.port.to_string();
        let replica = RedisServer::start_with_flags(&["--replicaof", "127.0.0.1", &port]);
        settle("the replica is in sync", || {
            cli_at(replica.port, &["INFO", "replication"]).contains("master_link_status:up")
        });
        let dir = tempfile::Builder::new()
            .prefix("tengen-sentinel-")
            .tempdir()
            .expect("a temporary directory for the sentinels");
        let sentinels = (0..3)
            .map(|i| {
                let port = free_port();
                let conf = dir.path().join(format!("sentinel-{i}.conf"));
                std::fs::write(
                    &conf,
                    format!(
                        "port {port}\nbind 127.0.0.1\ndir {}\nlogfile {}\n\
                         sentinel monitor {SENTINEL_MASTER} 127.0.0.1 {} 2\n\
                         sentinel down-after-milliseconds {SENTINEL_MASTER} 1000\n\
                         sentinel failover-timeout {SENTINEL_MASTER} 5000\n\
                         sentinel parallel-syncs {SENTINEL_MASTER} 1\n",
                        dir.path().display(),
                        dir.path().join(format!("sentinel-{i}.log")).display(),
                        primary.port,
                    ),
                )
                .expect("write a sentinel's configuration");
                let child = Command::new("redis-server")
                    .arg(&conf)
                    .arg("--sentinel")
                    .stdin(Stdio::null())
                    .stdout(Stdio::null())
                    .stderr(Stdio::null())
                    .spawn()
                    .expect("start redis-server --sentinel");
                (port, child)
            })
            .collect();
        let set = RedisSentinels {
            servers: vec![primary, replica],
            sentinels,
            _dir: dir,
        };
        for &(port, _) in &set.sentinels {
            settle(
                "a sentinel knows the replica and the other sentinels",
                || {
                    let master = cli_at(port, &["SENTINEL", "master", SENTINEL_MASTER]);
                    let mut lines = master.lines();
                    let mut slaves = false;
                    let mut others = false;
                    while let Some(line) = lines.next() {
                        match line {
                            "num-slaves" => slaves = lines.next() == Some("1"),
                            "num-other-sentinels" => others = lines.next() == Some("2"),
                            _ => {}
                        }
                    }
                    slaves && others
                },
            );
        }
        set
    }

    /// `redis+sentinel://` with the three sentinels and the name.
    pub fn url(&self) -> String {
        let hosts: Vec<String> = self
            .sentinels
            .iter()
            .map(|(port, _)| format!("127.0.0.1:{port}"))
            .collect();
        format!("redis+sentinel://{}/{SENTINEL_MASTER}", hosts.join(","))
    }

    /// The data servers (the first started as the primary).
    pub fn servers(&self) -> &[RedisServer] {
        &self.servers
    }

    /// The index of the server the sentinels name as the primary now.
    pub fn primary(&self) -> Option<usize> {
        let (port, _) = &self.sentinels[0];
        let named = cli_at(
            *port,
            &["SENTINEL", "get-master-addr-by-name", SENTINEL_MASTER],
        );
        let named: u16 = named.lines().nth(1)?.trim().parse().ok()?;
        self.servers.iter().position(|s| s.port == named)
    }

    /// Kills the primary (SIGKILL) and waits until the sentinels name the
    /// replica, and it says it is a primary. The killed server's index.
    /// As [`RedisCluster::fail_primary_of`], the replica is frozen and cut
    /// off for half a second before, so that it lacks the primary's last
    /// writes.
    pub fn fail_primary(&mut self) -> usize {
        let i = self.primary().expect("the sentinels name a primary");
        let other = 1 - i;
        self.servers[other].freeze(true);
        cli_at(self.servers[i].port, &["CLIENT", "KILL", "TYPE", "replica"]);
        std::thread::sleep(Duration::from_millis(500));
        self.servers[i].kill();
        self.servers[other].freeze(false);
        settle("the sentinels promote the replica", || {
            self.primary() == Some(other)
                && cli_at(self.servers[other].port, &["ROLE"]).starts_with("master")
        });
        i
    }

    /// Starts server `i` again (a failed primary: the sentinels make it
    /// the new primary's replica) and waits until it is in sync.
    pub fn restart(&mut self, i: usize) {
        self.servers[i].restart();
        let port = self.servers[i].port;
        // Slower than the other steps: a sentinel turns a returning old
        // primary into a replica only once it has reported its role for 8 s
        // (four publish periods) and at its next look (every 10 s), and the
        // replica then syncs in full; on a loaded machine past 30 s.
        settle_within(
            "the old primary is back as a replica, in sync",
            Duration::from_secs(90),
            || cli_at(port, &["INFO", "replication"]).contains("master_link_status:up"),
        );
    }
}

impl Drop for RedisSentinels {
    fn drop(&mut self) {
        for (_, child) in &mut self.sentinels {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

/// A unique key prefix for one test (so tests can share one server).
pub fn unique_prefix(tag: &str) -> String {
    static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let n = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    format!("test-{tag}-{}-{n}", std::process::id())
}
