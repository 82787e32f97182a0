//! [`RedisStore`]: connecting, checking the layout version, and the one
//! way every call is made (within the timeout, its errors mapped).

use std::future::Future;
use std::path::PathBuf;
use std::time::Duration;

use crate::{Result, StoreError};

use super::conn::{Conn, Topology};
use super::keys;

/// The layout version this build reads and writes (`P:schema`): 2 keeps
/// tokens as their digests and indexes the accounts by their names'
/// skeleton (`skeletons`). A prefix of version 1 (tokens as they are,
/// with or without that index) is brought up to date at connect
/// (`upgrade`, then `skeletons`).
pub const SCHEMA_VERSION: u32 = 2;
const UPGRADABLE: u32 = 1;

/// How a [`RedisStore`] is set up besides its URL.
#[derive(Clone, Debug)]
pub struct RedisOptions {
    /// The first part of every key (`tengen`); several communities, or
    /// tests, can share one Redis under different prefixes.
    pub prefix: String,
    /// How long any call may take before it fails as
    /// [`StoreError::Unavailable`].
    pub timeout: Duration,
    /// For `rediss://`: a PEM file of the CA certificate(s) to trust
    /// instead of the system's roots (a Redis with a private CA).
    pub ca_file: Option<PathBuf>,
    /// How long an id in the live index must stay neither live nor
    /// finishing, between two reads of [`Store::live_tables`], before a
    /// reader drops it (1 minute; see *Key layout*).
    pub stale_after: Duration,
    /// The server's rewrite of live tables' metadata, applied once when
    /// the prefix's layout is brought up to date ([`crate::MetaUpgrade`]).
    pub upgrade_meta: Option<crate::MetaUpgrade>,
    /// How many replicas must have every acknowledged write (`WAIT`; see
    /// *Replication* in the [module documentation](super)): `None` is what
    /// the URL says (`?wait=N` on a cluster or Sentinel URL), else 1 on a
    /// Redis Cluster or behind Sentinel, 0 (no `WAIT`) on one node.
    pub wait_replicas: Option<u32>,
    /// How long a write waits for its replicas before it fails as
    /// [`StoreError::Unavailable`] (1 s; under [`RedisOptions::timeout`]).
    pub wait_timeout: Duration,
}

impl Default for RedisOptions {
    fn default() -> RedisOptions {
        RedisOptions {
            prefix: "tengen".into(),
            timeout: Duration::from_secs(2),
            ca_file: None,
            stale_after: Duration::from_secs(60),
            upgrade_meta: None,
            wait_replicas: None,
            wait_timeout: Duration::from_secs(1),
        }
    }
}

/// The Redis store (see the [module documentation](self)).
#[derive(Clone)]
pub struct RedisStore {
    pub(super) conn: Conn,
    pub(super) keys: keys::Keys,
    /// Replicas to `WAIT` for after each write, and for how long (none: 0).
    pub(super) wait: Option<(u32, Duration)>,
    /// The grouped `WAIT`s of the writes in flight.
    pub(super) barriers: std::sync::Arc<super::conn::Barriers>,
    pub(super) timeout: Duration,
    pub(super) stale_after: Duration,
    /// Where the lease index's audit of `P:live` goes on (`SSCAN`).
    pub(super) audit_cursor: std::sync::Arc<std::sync::Mutex<u64>>,
    pub(super) shown: String,
    /// The latest answer from Redis.
    pub(super) progress: std::sync::Arc<crate::Progress>,
}

impl RedisStore {
    /// Connects to the Redis at `url` (`redis://[user:password@]host:port[/db]`
    /// or `rediss://` for TLS) and checks (or, in an empty prefix, writes)
    /// the layout version. Fails with [`StoreError::Invalid`] for a
    /// malformed URL or prefix, [`StoreError::Unavailable`] when Redis
    /// does not answer within the timeout, and [`StoreError::Version`]
    /// for data of another layout version.
    pub async fn connect(url: &str, options: RedisOptions) -> Result<RedisStore> {
        if options.prefix.is_empty() {
            return Err(StoreError::Invalid("the Redis key prefix is empty".into()));
        }
        let shown = redact(url);
        let topology = Topology::parse(url)
            .map_err(|e| StoreError::Invalid(format!("the Redis URL {shown}: {e}")))?;
        let tls = url.starts_with("rediss");
        if tls {
            // Another crate in the build may enable a second rustls
            // provider; then rustls needs to be told which one to use.
            let _ = rustls::crypto::ring::default_provider().install_default();
        }
        let bad_url = |e| StoreError::Invalid(format!("the Redis URL {shown}: {e}"));
        let certificates = match &options.ca_file {
            None => None,
            Some(file) => {
                if !tls {
                    return Err(StoreError::Invalid(format!(
                        "a CA file is for rediss:// URLs, not {shown}"
                    )));
                }
                let pem = std::fs::read(file).map_err(|e| {
                    StoreError::Invalid(format!("cannot read the CA file {}: {e}", file.display()))
                })?;
                Some(redis::TlsCertificates {
                    client_tls: None,
                    root_cert: Some(pem),
                })
            }
        };
        let client = match (&topology, &certificates) {
            (Topology::Single(url), None) => {
                Some(redis::Client::open(url.as_str()).map_err(bad_url)?)
            }
            (Topology::Single(url), Some(certificates)) => Some(
                redis::Client::build_with_tls(url.as_str(), certificates.clone())
                    .map_err(bad_url)?,
            ),
            _ => None,
        };
        let timeout = options.timeout;
        let conn = match tokio::time::timeout(
            timeout,
            Conn::connect(&topology, client, certificates, timeout),
        )
        .await
        {
            Ok(Ok(conn)) => conn,
            Ok(Err(e)) => return Err(redis_error(&format!("connecting to {shown}"), e)),
            Err(_) => {
                return Err(StoreError::Unavailable(format!(
                    "Redis at {shown} did not answer within {timeout:?}"
                )));
            }
        };
        let replicas = match options.wait_replicas {
            Some(n) => n,
            None => Topology::wait(url)
                .map_err(|e| StoreError::Invalid(format!("the Redis URL {shown}: {e}")))?
                .unwrap_or(u32::from(topology.fails_over())),
        };
        let store = RedisStore {
            conn,
            keys: keys::Keys::new(&options.prefix),
            wait: (replicas > 0).then_some((replicas, options.wait_timeout)),
            barriers: Default::default(),
            timeout,
            stale_after: options.stale_after,
            audit_cursor: Default::default(),
            shown: format!("Redis store at {shown}, prefix {}", options.prefix),
            progress: Default::default(),
        };
        store.check_schema(options.upgrade_meta).await?;
        store.index_names_if_needed().await?;
        store.index_leases_if_needed().await?;
        Ok(store)
    }

    /// Writes the layout version into an empty prefix, or checks it
    /// (bringing the earlier one up to date).
    async fn check_schema(&self, upgrade_meta: Option<crate::MetaUpgrade>) -> Result<()> {
        let key = self.keys.schema();
        // SET NX, then GET (SET NX GET needs Redis 7).
        let mut set = redis::cmd("SET");
        set.arg(&key).arg(SCHEMA_VERSION).arg("NX");
        let _: Option<String> = self.query("writing the layout version", set).await?;
        let mut get = redis::cmd("GET");
        get.arg(&key);
        let found: Option<String> = self.query("checking the layout version", get).await?;
        match found {
            None => Err(StoreError::Unavailable(format!(
                "{key} vanished while it was being checked"
            ))),
            Some(v) => match v.parse::<u32>() {
                Ok(SCHEMA_VERSION) => Ok(()),
                Ok(UPGRADABLE) => {
                    self.upgrade(upgrade_meta).await?;
                    let mut set = redis::cmd("SET");
                    set.arg(&key).arg(SCHEMA_VERSION);
                    self.query::<()>("writing the layout version", set).await
                }
                Ok(found) => Err(StoreError::Version {
                    found,
                    supported: SCHEMA_VERSION,
                }),
                Err(_) => Err(StoreError::Corrupt(format!(
                    "{key} holds {v:?}, not a layout version"
                ))),
            },
        }
    }

    /// Runs a Redis call within the timeout; `what` names it in errors.
    pub(super) async fn call<T>(
        &self,
        what: &str,
        call: impl Future<Output = redis::RedisResult<T>>,
    ) -> Result<T> {
        match tokio::time::timeout(self.timeout, call).await {
            Ok(Ok(value)) => {
                self.progress.mark();
                Ok(value)
            }
            Ok(Err(e)) => Err(redis_error(what, e)),
            Err(_) => Err(StoreError::Unavailable(format!(
                "{what}: Redis did not answer within {:?}",
                self.timeout
            ))),
        }
    }

    /// Runs one command within the timeout.
    pub(super) async fn query<T: redis::FromRedisValue>(
        &self,
        what: &str,
        cmd: redis::Cmd,
    ) -> Result<T> {
        let mut conn = self.conn.clone();
        self.call(what, async move { cmd.query_async(&mut conn).await })
            .await
    }
}

impl RedisStore {
    /// Runs a write (one command, a script call, or a pipeline of commands
    /// on one slot); when replicas are to be waited for, `WAIT` follows
    /// it on the same connection, and a write that fewer replicas took
    /// within the wait fails as [`StoreError::Unavailable`] (it is on the
    /// primary, but not acknowledged: see *Replication* in the module
    /// documentation). The write's answers, one per command.
    pub(super) async fn write(
        &self,
        what: &str,
        write: redis::Pipeline,
        load: Option<&redis::ScriptInvocation<'_>>,
    ) -> Result<Vec<redis::Value>> {
        let mut conn = self.conn.clone();
        let Some((replicas, within)) = self.wait else {
            return self
                .call(what, async move {
                    match write.query_async(&mut conn).await {
                        Err(e) if no_script(&e) && load.is_some() => {
                            load.expect("checked").load_async(&mut conn).await?;
                            write.query_async(&mut conn).await
                        }
                        other => other,
                    }
                })
                .await;
        };
        let barriers = &self.barriers;
        let (answers, acked) = self
            .call(what, async move {
                match conn
                    .write_waited(barriers, write.clone(), replicas, within)
                    .await
                {
                    Err(e) if no_script(&e) && load.is_some() => {
                        load.expect("checked").load_async(&mut conn).await?;
                        conn.write_waited(barriers, write, replicas, within).await
                    }
                    other => other,
                }
            })
            .await?;
        if acked < replicas {
            return Err(StoreError::Unavailable(format!(
                "{what}: written on the Redis primary, but {acked} of {replicas} replica(s) \
                 acknowledged it within {within:?}; not acknowledged, as a failover now could \
                 lose it"
            )));
        }
        Ok(answers)
    }

    /// [`RedisStore::write`] of one command; its answer.
    pub(super) async fn query_write<T: redis::FromRedisValue>(
        &self,
        what: &str,
        cmd: redis::Cmd,
    ) -> Result<T> {
        if self.wait.is_none() {
            return self.query(what, cmd).await;
        }
        let mut pipe = redis::pipe();
        pipe.add_command(cmd);
        let answer = self.write(what, pipe, None).await?.pop();
        from_value(what, answer)
    }
}

/// Whether Redis does not know a script (`NOSCRIPT`: load it, try again).
fn no_script(e: &redis::RedisError) -> bool {
    e.kind() == redis::ErrorKind::Server(redis::ServerErrorKind::NoScript)
}

/// The one answer of a write, converted.
pub(super) fn from_value<T: redis::FromRedisValue>(
    what: &str,
    answer: Option<redis::Value>,
) -> Result<T> {
    let answer = answer.ok_or_else(|| StoreError::Corrupt(format!("{what}: no answer")))?;
    redis::from_redis_value(answer).map_err(|e| StoreError::Corrupt(format!("{what}: {e}")))
}

/// The URL with any password hidden, for logs and errors.
pub fn redact(url: &str) -> String {
    match (url.find("://"), url.rfind('@')) {
        (Some(scheme), Some(at)) if at > scheme => {
            format!("{}://***@{}", &url[..scheme], &url[at + 1..])
        }
        _ => url.to_owned(),
    }
}

/// Maps a Redis error: unreadable replies and values of the wrong type are
/// [`StoreError::Corrupt`], a bad configuration [`StoreError::Invalid`],
/// everything else (connection lost or refused, timeouts, a Redis that is
/// loading, read-only or out of memory) [`StoreError::Unavailable`].
pub(super) fn redis_error(what: &str, e: redis::RedisError) -> StoreError {
    use redis::ErrorKind;
    let message = format!("{what}: {e}");
    match e.kind() {
        ErrorKind::Parse | ErrorKind::UnexpectedReturnType => StoreError::Corrupt(message),
        ErrorKind::InvalidClientConfig => StoreError::Invalid(message),
        _ if e.code() == Some("WRONGTYPE") => StoreError::Corrupt(message),
        _ => StoreError::Unavailable(message),
    }
}

/// A script answered something it never answers.
pub(super) fn unexpected(what: &str, answer: &str) -> StoreError {
    StoreError::Corrupt(format!("{what}: the script answered {answer:?}"))
}
