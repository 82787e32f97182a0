//! The connection to Redis, whatever its topology, behind one type that
//! the rest of the store uses as any `redis` connection
//! ([`redis::aio::ConnectionLike`]): commands, scripts and pipelines are
//! written once and run on each of
//!
//! - **one node** (`redis://`, `rediss://`): a [`ConnectionManager`], one
//!   multiplexed connection re-established in the background;
//! - **a Redis Cluster** (`redis+cluster://`, `rediss+cluster://`): the
//!   `redis` crate's cluster client, which routes each command by its
//!   key's slot, follows `MOVED`/`ASK` and refreshes the slot map when a
//!   node fails (a promoted replica is found by itself). A pipeline whose
//!   commands are in several slots (a renewal of many leases, an import)
//!   is split here by slot and the parts run concurrently; a script or a
//!   transaction stays on one slot, as the layout promises;
//! - **a primary watched by Sentinel** (`redis+sentinel://`): a
//!   connection manager to the primary the sentinels name; any call that
//!   fails as a lost connection, or is refused as `READONLY` (a demoted
//!   primary), makes the sentinels be asked again in the background, and
//!   the store moves to the promoted replica when they name another.
//!
//! Two things differ by topology and are asked of this type explicitly:
//! where a `SCAN` must run ([`Conn::scan_nodes`]: every primary of a
//! cluster) and the replicated write ([`Conn::write_waited`]: a write, then
//! `WAIT` on the one connection that made it, grouped with the other
//! writes' by [`Barriers`]).

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use futures_util::future::try_join_all;
use redis::aio::{ConnectionLike, ConnectionManager, ConnectionManagerConfig};
use redis::cluster_async::ClusterConnection;
use redis::cluster_routing::{Route, RoutingInfo, SingleNodeRoutingInfo, Slot, SlotAddr};
use redis::sentinel::{SentinelClient, SentinelNodeConnectionInfo, SentinelServerType};
use redis::{Cmd, IntoConnectionInfo, Pipeline, RedisError, RedisFuture, RedisResult, Value};

/// Where the store's data is, from its URL.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum Topology {
    /// One node: the URL as it is.
    Single(String),
    /// A Redis Cluster: a `redis://` (or `rediss://`) URL per seed node.
    Cluster(Vec<String>),
    /// Sentinel: a `redis://` URL per sentinel, the primary's name, and
    /// the primary's own URL parts (credentials, database) on a
    /// placeholder host.
    Sentinel {
        sentinels: Vec<String>,
        master: String,
        node: String,
    },
}

impl Topology {
    /// Reads a store URL: `redis://` and `rediss://` (one node),
    /// `redis+cluster://[user:password@]host:port[,host:port...]` (and
    /// `rediss+cluster://`), and
    /// `redis+sentinel://[user:password@]host:port[,host:port...]/MASTER[/DB]`
    /// (the credentials and database are the primary's; the sentinels are
    /// asked without them). The last two may end in `?wait=N`: the
    /// replicas every acknowledged write waits for (see [`Topology::wait`]).
    pub fn parse(url: &str) -> Result<Topology, String> {
        Ok(Topology::parse_with_wait(url)?.0)
    }

    /// The replicas a cluster or Sentinel URL asks writes to wait for
    /// (`?wait=N`), if it says.
    pub fn wait(url: &str) -> Result<Option<u32>, String> {
        Ok(Topology::parse_with_wait(url)?.1)
    }

    fn parse_with_wait(url: &str) -> Result<(Topology, Option<u32>), String> {
        let single = || Ok((Topology::Single(url.to_owned()), None));
        let Some((scheme, rest)) = url.split_once("://") else {
            return single();
        };
        let (base, kind) = match scheme {
            "redis+cluster" => ("redis", "cluster"),
            "rediss+cluster" => ("rediss", "cluster"),
            "redis+sentinel" => ("redis", "sentinel"),
            "rediss+sentinel" => ("rediss", "sentinel"),
            _ => return single(),
        };
        let (rest, wait) = match rest.split_once('?') {
            None => (rest, None),
            Some((rest, query)) => match query.strip_prefix("wait=").map(str::parse::<u32>) {
                Some(Ok(n)) => (rest, Some(n)),
                _ => return Err(format!("unknown parameters {query:?} (only wait=N)")),
            },
        };
        let (auth, rest) = match rest.rfind('@') {
            Some(at) => (&rest[..=at], &rest[at + 1..]),
            None => ("", rest),
        };
        let (hosts, path) = match rest.find('/') {
            Some(slash) => (&rest[..slash], rest[slash + 1..].trim_end_matches('/')),
            None => (rest, ""),
        };
        let hosts: Vec<&str> = hosts.split(',').filter(|h| !h.is_empty()).collect();
        if hosts.is_empty() {
            return Err("no host:port is given".into());
        }
        if kind == "cluster" {
            if !path.is_empty() && path != "0" {
                return Err("a Redis Cluster has only database 0".into());
            }
            return Ok((
                Topology::Cluster(
                    hosts
                        .iter()
                        .map(|h| format!("{base}://{auth}{h}/"))
                        .collect(),
                ),
                wait,
            ));
        }
        let (master, db) = match path.split_once('/') {
            Some((master, db)) => (master, db),
            None => (path, "0"),
        };
        if master.is_empty() {
            return Err("the primary's name (redis+sentinel://HOSTS/NAME) is missing".into());
        }
        Ok((
            Topology::Sentinel {
                sentinels: hosts.iter().map(|h| format!("{base}://{h}/")).collect(),
                master: master.to_owned(),
                node: format!("{base}://{auth}sentinel-named:6379/{db}"),
            },
            wait,
        ))
    }

    /// Whether the topology has replicas that can be promoted, so that an
    /// acknowledged write must be on one of them (see *Replication* in
    /// the module documentation of the store).
    pub fn fails_over(&self) -> bool {
        !matches!(self, Topology::Single(_))
    }
}

/// The URL of one Redis node of the store at `url`, for what needs a
/// plain connection (the server's pub/sub bus): the URL itself for one
/// node; a cluster's first seed node (classic pub/sub reaches every node
/// of a cluster); the primary Sentinel names now (not followed after a
/// failover: whoever uses it must ask again).
pub async fn node_url(url: &str) -> Result<String, String> {
    match Topology::parse(url)? {
        Topology::Single(url) => Ok(url),
        Topology::Cluster(mut nodes) => Ok(nodes.swap_remove(0)),
        topology @ Topology::Sentinel { .. } => {
            let Topology::Sentinel {
                sentinels,
                master,
                node,
            } = topology
            else {
                unreachable!("matched above")
            };
            let info = node
                .as_str()
                .into_connection_info()
                .map_err(|e| e.to_string())?;
            let mut sentinel = SentinelClient::build(
                sentinels,
                master,
                Some(
                    SentinelNodeConnectionInfo::default()
                        .set_redis_connection_info(info.redis_settings().clone()),
                ),
                SentinelServerType::Master,
            )
            .map_err(|e| e.to_string())?;
            let client = tokio::time::timeout(CONNECT_WITHIN * 3, sentinel.async_get_client())
                .await
                .map_err(|_| "Sentinel did not name the primary in time".to_owned())?
                .map_err(|e| e.to_string())?;
            let (scheme, rest) = node.split_once("://").expect("made with a scheme");
            let rest = rest.replacen(
                "sentinel-named:6379",
                &client.get_connection_info().addr().to_string(),
                1,
            );
            Ok(format!("{scheme}://{rest}"))
        }
    }
}

/// A connection to the store's Redis (see the module documentation).
#[derive(Clone)]
pub(crate) enum Conn {
    Single(ConnectionManager),
    Cluster(Arc<Clustered>),
    Sentinel(Arc<Followed>),
}

/// How long a connection attempt may take.
const CONNECT_WITHIN: Duration = Duration::from_secs(1);

impl Conn {
    /// Connects to `topology` (one node: `client` is its client).
    pub async fn connect(
        topology: &Topology,
        client: Option<redis::Client>,
        certificates: Option<redis::TlsCertificates>,
        timeout: Duration,
    ) -> RedisResult<Conn> {
        let config = ConnectionManagerConfig::new()
            .set_connection_timeout(Some(CONNECT_WITHIN))
            .set_response_timeout(Some(timeout))
            .set_number_of_retries(2)
            .set_min_delay(Duration::from_millis(50))
            .set_max_delay(Duration::from_millis(500));
        match topology {
            Topology::Single(url) => {
                let client = match client {
                    Some(client) => client,
                    None => redis::Client::open(url.as_str())?,
                };
                Ok(Conn::Single(
                    ConnectionManager::new_with_config(client, config).await?,
                ))
            }
            Topology::Cluster(nodes) => {
                let mut builder = redis::cluster::ClusterClient::builder(nodes.clone())
                    .connection_timeout(CONNECT_WITHIN)
                    .response_timeout(timeout)
                    .retries(3)
                    .min_retry_wait(50)
                    .max_retry_wait(500);
                if let Some(certificates) = certificates {
                    builder = builder.certs(certificates);
                }
                let client = builder.build()?;
                let connection = client.get_async_connection().await?;
                Ok(Conn::Cluster(Arc::new(Clustered {
                    client,
                    current: Mutex::new(connection),
                    rebuilding: AtomicBool::new(false),
                    timeout,
                })))
            }
            Topology::Sentinel {
                sentinels,
                master,
                node,
            } => {
                let info = node.as_str().into_connection_info()?;
                let mut node_info = SentinelNodeConnectionInfo::default()
                    .set_redis_connection_info(info.redis_settings().clone());
                if node.starts_with("rediss://") {
                    node_info = node_info.set_tls_mode(redis::TlsMode::Secure);
                }
                let mut sentinel = SentinelClient::build(
                    sentinels.clone(),
                    master.clone(),
                    Some(node_info),
                    SentinelServerType::Master,
                )?;
                let client = sentinel.async_get_client().await?;
                let address = client.get_connection_info().addr().to_string();
                let manager = ConnectionManager::new_with_config(client, config.clone()).await?;
                Ok(Conn::Sentinel(Arc::new(Followed {
                    sentinel: tokio::sync::Mutex::new(sentinel),
                    current: Mutex::new((address, manager)),
                    config,
                    resolving: AtomicBool::new(false),
                    timeout,
                })))
            }
        }
    }

    /// The nodes a `SCAN` must visit to see every key: `[None]` (the one
    /// node) or, on a cluster, one slot of each primary (a `SCAN` routed
    /// to that slot's primary sees that primary's keys; by slot rather
    /// than address, so that it finds a replica promoted meanwhile).
    pub async fn scan_nodes(&mut self) -> RedisResult<Vec<Option<u16>>> {
        let Conn::Cluster(cluster) = self else {
            return Ok(vec![None]);
        };
        let mut connection = cluster.connection();
        let slots = cluster
            .bounded(connection.route_command(
                redis::cmd("CLUSTER").arg("SLOTS").to_owned(),
                RoutingInfo::SingleNode(SingleNodeRoutingInfo::RandomPrimary),
            ))
            .await?;
        let bad = |e: String| RedisError::from((redis::ErrorKind::Parse, "CLUSTER SLOTS", e));
        let ranges: Vec<Vec<Value>> =
            redis::from_redis_value(slots).map_err(|e| bad(e.to_string()))?;
        // Each range: start, end, the primary (address, port, id, ...),
        // then its replicas.
        let mut seen: Vec<(String, u16)> = Vec::new();
        for range in ranges {
            let (Some(start), Some(primary)) = (range.first(), range.get(2)) else {
                return Err(bad(format!("a range reads {range:?}")));
            };
            let start: u16 = redis::from_redis_value_ref(start).map_err(|e| bad(e.to_string()))?;
            let address = format!("{primary:?}");
            match seen.iter_mut().find(|(a, _)| *a == address) {
                Some(entry) => entry.1 = entry.1.min(start),
                None => seen.push((address, start)),
            }
        }
        let mut slots: Vec<u16> = seen.into_iter().map(|(_, slot)| slot).collect();
        slots.sort_unstable();
        Ok(slots.into_iter().map(Some).collect())
    }

    /// Runs `cmd` on the node of [`Conn::scan_nodes`]'s `node`.
    pub async fn on_node<T: redis::FromRedisValue>(
        &mut self,
        node: Option<u16>,
        cmd: Cmd,
    ) -> RedisResult<T> {
        match (self, node) {
            (Conn::Cluster(cluster), Some(slot)) => {
                let mut connection = cluster.connection();
                let value = cluster
                    .bounded(connection.route_command(
                        cmd,
                        RoutingInfo::SingleNode(SingleNodeRoutingInfo::SpecificNode(Route::new(
                            slot,
                            SlotAddr::Master,
                        ))),
                    ))
                    .await?;
                redis::from_redis_value(value).map_err(Into::into)
            }
            (conn, _) => cmd.query_async(conn).await,
        }
    }

    /// Runs `write` (one command or script call, or a pipeline of commands
    /// on one slot), then waits until `replicas` replicas have it, or
    /// `timeout` passed: the write's answers, and how many replicas
    /// acknowledged it. The `WAIT`s are grouped ([`Barriers`]): one `WAIT`
    /// after any number of writes on one connection covers them all.
    pub async fn write_waited(
        &mut self,
        barriers: &Arc<Barriers>,
        mut write: Pipeline,
        replicas: u32,
        timeout: Duration,
    ) -> RedisResult<(Vec<Value>, u32)> {
        let n = write.cmd_iter().count();
        let slot = write.cmd_iter().next().and_then(route_of);
        // Which connection made the write: the one the WAIT must go on.
        write.cmd("CLIENT").arg("INFO");
        let (connection, mut answers): (Conn, Vec<Value>) = match self {
            // Past the splitting of `req_packed_commands`: CLIENT INFO has
            // no key and must go where the write goes (a redirected
            // pipeline goes again whole).
            Conn::Cluster(cluster) => {
                let mut connection = cluster.connection();
                let answers = cluster.bounded(write.query_async(&mut connection)).await?;
                (Conn::Cluster(Arc::clone(cluster)), answers)
            }
            Conn::Single(manager) => (
                Conn::Single(manager.clone()),
                write.query_async(manager).await?,
            ),
            Conn::Sentinel(followed) => {
                let mut manager = followed.manager();
                let answers = followed.bounded(write.query_async(&mut manager)).await?;
                (Conn::Single(manager), answers)
            }
        };
        if answers.len() != n + 1 {
            return Err(RedisError::from((
                redis::ErrorKind::Parse,
                "a replicated write",
                format!("{} answers to {} commands", answers.len(), n + 1),
            )));
        }
        let identity = identity(answers.pop().expect("counted"))?;
        let (tx, rx) = tokio::sync::oneshot::channel();
        let start = {
            let mut rounds = unpoisoned(&barriers.rounds);
            let pending = rounds.entry(identity.clone()).or_default();
            pending.waiters.push(tx);
            !std::mem::replace(&mut pending.running, true)
        };
        if start {
            tokio::spawn(barrier_rounds(
                Arc::clone(barriers),
                identity,
                connection,
                slot,
                replicas,
                timeout,
            ));
        }
        let acked = rx
            .await
            .map_err(|_| {
                RedisError::from(std::io::Error::new(
                    std::io::ErrorKind::BrokenPipe,
                    "the WAIT for replicas was dropped",
                ))
            })?
            .map_err(|why| RedisError::from((redis::ErrorKind::Io, "waiting for replicas", why)))?;
        Ok((answers, acked))
    }
}

/// The grouped `WAIT`s ("group commit" of replication): writers that
/// made a write on one connection (told apart by `CLIENT INFO`: the
/// server's address and the connection's id) register here; one task per
/// connection sends `WAIT` (with `CLIENT INFO`, to check it went on that
/// same connection: not to a replica promoted meanwhile, nor over a new
/// connection, where `WAIT` would not cover the write) and answers every
/// writer registered before it was sent, then goes again while writers
/// came meanwhile. `WAIT` blocks its connection until the replicas
/// answer, so without grouping every write would wait for the ones
/// before it in turn.
#[derive(Default)]
pub(crate) struct Barriers {
    rounds: Mutex<std::collections::HashMap<String, Pending>>,
}

#[derive(Default)]
struct Pending {
    waiters: Vec<tokio::sync::oneshot::Sender<Result<u32, String>>>,
    running: bool,
}

/// The `WAIT` rounds of one connection, until nobody waits.
async fn barrier_rounds(
    barriers: Arc<Barriers>,
    identity: String,
    mut connection: Conn,
    slot: Option<Slot>,
    replicas: u32,
    timeout: Duration,
) {
    loop {
        let waiters = {
            let mut rounds = unpoisoned(&barriers.rounds);
            let Some(pending) = rounds.get_mut(&identity) else {
                return;
            };
            if pending.waiters.is_empty() {
                rounds.remove(&identity);
                return;
            }
            std::mem::take(&mut pending.waiters)
        };
        let result = match barrier(&mut connection, slot, replicas, timeout).await {
            Ok((there, acked)) if there == identity => Ok(acked),
            Ok((there, _)) => Err(format!(
                "the write was made on {identity}, the WAIT went to {there} (a failover or a \
                 reconnection came between)"
            )),
            Err(e) => Err(e.to_string()),
        };
        for waiter in waiters {
            let _ = waiter.send(result.clone());
        }
    }
}

/// One `CLIENT INFO` and `WAIT` on `connection` (on a cluster, the node of
/// `slot`): where it ran, and how many replicas acknowledged.
async fn barrier(
    connection: &mut Conn,
    slot: Option<Slot>,
    replicas: u32,
    timeout: Duration,
) -> RedisResult<(String, u32)> {
    let mut pipe = redis::pipe();
    pipe.cmd("CLIENT")
        .arg("INFO")
        .cmd("WAIT")
        .arg(replicas)
        .arg(timeout.as_millis().max(1) as u64);
    let mut answers: Vec<Value> = match (connection, slot) {
        (Conn::Cluster(cluster), Some(slot)) => {
            let mut connection = cluster.connection();
            cluster
                .bounded(connection.route_pipeline(
                    pipe,
                    0,
                    2,
                    SingleNodeRoutingInfo::SpecificNode(Route::with_slot(slot, SlotAddr::Master)),
                ))
                .await?
        }
        (Conn::Single(manager), _) => pipe.query_async(manager).await?,
        _ => {
            return Err(RedisError::from((
                redis::ErrorKind::Client,
                "a WAIT with no connection of its write",
            )));
        }
    };
    let acked = answers.pop();
    let info = answers.pop();
    let (Some(acked), Some(info)) = (acked, info) else {
        return Err(RedisError::from((
            redis::ErrorKind::Parse,
            "WAIT: no answer",
        )));
    };
    let acked: u32 = redis::from_redis_value(acked)
        .map_err(|e| RedisError::from((redis::ErrorKind::Parse, "WAIT", e.to_string())))?;
    Ok((identity(info)?, acked))
}

/// A connection's identity from its `CLIENT INFO`: the server's address
/// (`laddr`) and the connection's id.
fn identity(info: Value) -> RedisResult<String> {
    let text: String = redis::from_redis_value(info)
        .map_err(|e| RedisError::from((redis::ErrorKind::Parse, "CLIENT INFO", e.to_string())))?;
    let field = |name: &str| {
        text.split_whitespace()
            .find_map(|f| f.strip_prefix(name))
            .map(str::to_owned)
    };
    match (field("id="), field("laddr=")) {
        (Some(id), Some(laddr)) => Ok(format!("{laddr}#{id}")),
        _ => Err(RedisError::from((
            redis::ErrorKind::Parse,
            "CLIENT INFO",
            text.chars().take(80).collect::<String>(),
        ))),
    }
}

/// `request`'s answer if it comes within `timeout`; else `late` is
/// called and the call fails as timed out (`who` did not answer in time).
async fn within<T>(
    timeout: Duration,
    who: &str,
    request: impl std::future::Future<Output = RedisResult<T>>,
    late: impl FnOnce(),
) -> RedisResult<T> {
    match tokio::time::timeout(timeout, request).await {
        Ok(answer) => answer,
        Err(_) => {
            late();
            Err(RedisError::from(std::io::Error::new(
                std::io::ErrorKind::TimedOut,
                format!("{who} did not answer in time"),
            )))
        }
    }
}

/// `lock`'s value, poisoned or not (a panic in another holder does not
/// stop the store).
fn unpoisoned<T>(lock: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    lock.lock().unwrap_or_else(|e| e.into_inner())
}

/// A Redis Cluster's connection, made again when a call does not come
/// back in time: the cluster client reconnects to nodes and refreshes its
/// slot map by itself, but a refresh can stall during a failover (seen
/// with a primary killed and restarted under load), and then every call
/// waits behind it. A new connection starts from a fresh slot map.
pub(crate) struct Clustered {
    client: redis::cluster::ClusterClient,
    current: Mutex<ClusterConnection>,
    /// A new connection is being made (one at a time, at most one per
    /// timeout).
    rebuilding: AtomicBool,
    timeout: Duration,
}

impl Clustered {
    fn connection(&self) -> ClusterConnection {
        unpoisoned(&self.current).clone()
    }

    /// `request` within the timeout; one that takes longer has a new
    /// connection made in the background and fails as timed out.
    async fn bounded<T>(
        self: &Arc<Self>,
        request: impl std::future::Future<Output = RedisResult<T>>,
    ) -> RedisResult<T> {
        within(self.timeout, "the Redis Cluster", request, || {
            self.stalled()
        })
        .await
    }

    fn stalled(self: &Arc<Self>) {
        if self.rebuilding.swap(true, Ordering::AcqRel) {
            return;
        }
        let this = Arc::clone(self);
        tokio::spawn(async move {
            let within = this.timeout.max(CONNECT_WITHIN);
            match tokio::time::timeout(within, this.client.get_async_connection()).await {
                Ok(Ok(connection)) => {
                    *unpoisoned(&this.current) = connection;
                    tracing::warn!("a call to the Redis Cluster stalled: connected to it afresh");
                }
                Ok(Err(e)) => tracing::warn!(error = %e, "reconnecting to the Redis Cluster"),
                Err(_) => tracing::warn!("the Redis Cluster did not take a new connection in time"),
            }
            // At most one new connection per timeout.
            tokio::time::sleep(this.timeout).await;
            this.rebuilding.store(false, Ordering::Release);
        });
    }
}

/// The primary that Sentinel names, followed through failovers.
pub(crate) struct Followed {
    sentinel: tokio::sync::Mutex<SentinelClient>,
    /// The primary's address and the connection to it.
    current: Mutex<(String, ConnectionManager)>,
    config: ConnectionManagerConfig,
    /// A lookup is running (one at a time).
    resolving: AtomicBool,
    timeout: Duration,
}

impl Followed {
    fn manager(&self) -> ConnectionManager {
        unpoisoned(&self.current).1.clone()
    }

    /// `request` within the timeout; a failure (a timeout included) that
    /// may mean the primary changed makes the sentinels be asked again.
    async fn bounded<T>(
        self: &Arc<Self>,
        request: impl std::future::Future<Output = RedisResult<T>>,
    ) -> RedisResult<T> {
        let answer = within(self.timeout, "the Redis primary", request, || {}).await;
        if let Err(e) = &answer {
            self.failed(e);
        }
        answer
    }

    /// After a failed call: if it may mean the primary changed, asks the
    /// sentinels again in the background.
    fn failed(self: &Arc<Self>, e: &RedisError) {
        let moved = e.is_io_error()
            || e.is_connection_dropped()
            || e.is_connection_refusal()
            || e.is_timeout()
            || matches!(e.code(), Some("READONLY" | "MASTERDOWN" | "LOADING"));
        if !moved || self.resolving.swap(true, Ordering::AcqRel) {
            return;
        }
        let this = Arc::clone(self);
        tokio::spawn(async move {
            let within = this.timeout.max(Duration::from_secs(1));
            match tokio::time::timeout(within, this.resolve()).await {
                Ok(Ok(())) => {}
                Ok(Err(e)) => tracing::warn!(error = %e, "asking Sentinel for the Redis primary"),
                Err(_) => tracing::warn!("Sentinel did not name the Redis primary in time"),
            }
            this.resolving.store(false, Ordering::Release);
        });
    }

    async fn resolve(&self) -> RedisResult<()> {
        let client = self.sentinel.lock().await.async_get_client().await?;
        let address = client.get_connection_info().addr().to_string();
        if unpoisoned(&self.current).0 == address {
            return Ok(());
        }
        let manager = ConnectionManager::new_with_config(client, self.config.clone()).await?;
        tracing::warn!(primary = %address, "Sentinel names another Redis primary: the store follows it");
        *unpoisoned(&self.current) = (address, manager);
        Ok(())
    }
}

/// The slot of a command of the store's that goes to one slot: a
/// script's first key, or a command's first argument; `None` for the
/// commands of no key that the store pipelines (`SCRIPT LOAD`, `WAIT`).
fn route_of(cmd: &Cmd) -> Option<Slot> {
    let args: Vec<&[u8]> = cmd
        .args_iter()
        .map(|a| match a {
            redis::Arg::Simple(bytes) => bytes,
            _ => &b""[..],
        })
        .collect();
    let name = args.first()?.to_ascii_uppercase();
    let key = match name.as_slice() {
        b"EVAL" | b"EVALSHA" | b"EVAL_RO" | b"EVALSHA_RO" => {
            let keys: usize = std::str::from_utf8(args.get(2)?).ok()?.parse().ok()?;
            if keys == 0 {
                return None;
            }
            args.get(3)?
        }
        b"SCRIPT" | b"WAIT" | b"PING" | b"INFO" | b"CONFIG" | b"CLUSTER" | b"MULTI" | b"EXEC" => {
            return None;
        }
        _ => args.get(1)?,
    };
    Some(Slot::for_key(key))
}

impl ConnectionLike for Conn {
    fn req_packed_command<'a>(&'a mut self, cmd: &'a Cmd) -> RedisFuture<'a, Value> {
        match self {
            Conn::Single(conn) => conn.req_packed_command(cmd),
            Conn::Cluster(cluster) => {
                let cluster = Arc::clone(cluster);
                Box::pin(async move {
                    let mut connection = cluster.connection();
                    cluster.bounded(connection.req_packed_command(cmd)).await
                })
            }
            Conn::Sentinel(followed) => {
                let followed = Arc::clone(followed);
                Box::pin(async move {
                    let mut conn = followed.manager();
                    followed.bounded(conn.req_packed_command(cmd)).await
                })
            }
        }
    }

    fn req_packed_commands<'a>(
        &'a mut self,
        pipeline: &'a Pipeline,
        offset: usize,
        count: usize,
    ) -> RedisFuture<'a, Vec<Value>> {
        match self {
            Conn::Single(conn) => conn.req_packed_commands(pipeline, offset, count),
            Conn::Sentinel(followed) => {
                let followed = Arc::clone(followed);
                Box::pin(async move {
                    let mut conn = followed.manager();
                    followed
                        .bounded(conn.req_packed_commands(pipeline, offset, count))
                        .await
                })
            }
            Conn::Cluster(cluster) => {
                let cluster = Arc::clone(cluster);
                let slots: Vec<Option<Slot>> = pipeline.cmd_iter().map(route_of).collect();
                let mut routed = slots.iter().flatten();
                let one_slot = match routed.next() {
                    None => true,
                    Some(first) => routed.all(|s| s == first),
                };
                Box::pin(async move {
                    let mut connection = cluster.connection();
                    if pipeline.is_transaction() || one_slot {
                        let request = connection.req_packed_commands(pipeline, offset, count);
                        return cluster.bounded(request).await;
                    }
                    cluster
                        .bounded(split_by_slot(connection.clone(), pipeline, slots))
                        .await
                })
            }
        }
    }

    fn get_db(&self) -> i64 {
        match self {
            Conn::Single(conn) => conn.get_db(),
            Conn::Cluster(cluster) => cluster.connection().get_db(),
            Conn::Sentinel(followed) => followed.manager().get_db(),
        }
    }
}

/// A pipeline over several slots, on a cluster: the commands of no one
/// slot (`SCRIPT LOAD`, which goes to every primary) first, one by one,
/// then one pipeline per slot, concurrently; the answers in the
/// pipeline's order.
async fn split_by_slot(
    conn: ClusterConnection,
    pipeline: &Pipeline,
    slots: Vec<Option<Slot>>,
) -> RedisResult<Vec<Value>> {
    let commands: Vec<&Cmd> = pipeline.cmd_iter().collect();
    let mut answers: Vec<Option<Value>> = vec![None; commands.len()];
    let mut groups: Vec<(Slot, Vec<usize>)> = Vec::new();
    for (i, slot) in slots.iter().enumerate() {
        match slot {
            None => {
                let mut conn = conn.clone();
                answers[i] = Some(conn.req_packed_command(commands[i]).await?);
            }
            Some(slot) => match groups.iter_mut().find(|(s, _)| s == slot) {
                Some((_, members)) => members.push(i),
                None => groups.push((*slot, vec![i])),
            },
        }
    }
    let parts = try_join_all(groups.into_iter().map(|(_, members)| {
        let mut conn = conn.clone();
        let mut part = redis::pipe();
        for &i in &members {
            part.add_command(commands[i].clone());
        }
        async move {
            let got = conn.req_packed_commands(&part, 0, members.len()).await?;
            Ok::<_, RedisError>((members, got))
        }
    }))
    .await?;
    for (members, got) in parts {
        for (i, value) in members.into_iter().zip(got) {
            answers[i] = Some(value);
        }
    }
    answers
        .into_iter()
        .map(|a| {
            a.ok_or_else(|| {
                RedisError::from((redis::ErrorKind::Parse, "a split pipeline lost an answer"))
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn urls_name_their_topology() {
        assert_eq!(
            Topology::parse("redis://h:1/2").unwrap(),
            Topology::Single("redis://h:1/2".into())
        );
        assert_eq!(
            Topology::parse("rediss+cluster://u:p@a:1,b:2/").unwrap(),
            Topology::Cluster(vec!["rediss://u:p@a:1/".into(), "rediss://u:p@b:2/".into()])
        );
        assert_eq!(
            Topology::parse("redis+sentinel://:pw@a:1,b:2/main/3?wait=2").unwrap(),
            Topology::Sentinel {
                sentinels: vec!["redis://a:1/".into(), "redis://b:2/".into()],
                master: "main".into(),
                node: "redis://:pw@sentinel-named:6379/3".into(),
            }
        );
        assert_eq!(Topology::wait("redis+cluster://a:1?wait=0"), Ok(Some(0)));
        assert_eq!(Topology::wait("redis+cluster://a:1/"), Ok(None));
        assert!(Topology::parse("redis+cluster://a:1/?other=1").is_err());
        assert!(Topology::parse("redis+cluster:///").is_err());
        assert!(Topology::parse("redis+sentinel://a:1/").is_err());
        assert!(Topology::parse("redis+cluster://a:1/4").is_err());
    }
}
