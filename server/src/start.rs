//! Starting and stopping a server in-process: [`Server::start`] opens the
//! store, restores the live games, starts the actors and serves; the binary
//! and the tests both use it.
//!
//! The order matters: the lease keeper, moderation and the lobby exist
//! before the live games come back (a restored table takes its lease and
//! hands its room to the lobby), then the matchmaker, the tournament
//! director and, with Redis, the node actor start, and only then does the
//! port serve. A data directory that is not this build's store (not a
//! redb file, not Tengen's, another layout version, open elsewhere) is
//! refused before anything is written; a Redis whose persistence could
//! lose an acknowledged move is named in a warning at start.
//! [`Server::shutdown`] is the graceful stop: `/healthz` answers 503, every
//! table hands its game over, connections close with 1012 (restarting)
//! and the listener closes after the drain delay. Nothing needs flushing:
//! every accepted action is already stored.

use std::net::SocketAddr;
use std::sync::Arc;

use tengen_store::embedded::EmbeddedOptions;
use tengen_store::{EmbeddedStore, RedisOptions, RedisStore, Store, StoreError};
use tokio::net::TcpListener;
use tokio::sync::watch;
use tokio::task::JoinHandle;

use crate::app::AppState;
use crate::hosting::Hosting;
use crate::settings::{RedisSettings, Settings};
use crate::takeovers::Takeovers;
use crate::{
    accounts, admission, cluster, http, keeper, lobby, matchmaker, metrics, msg, sessions, table,
};

/// Why a server did not start.
#[derive(Debug, thiserror::Error)]
pub enum StartError {
    #[error("cannot listen on {addr}")]
    Listen {
        addr: SocketAddr,
        source: std::io::Error,
    },
    #[error("cannot open the data directory {}", .dir.display())]
    Store {
        dir: std::path::PathBuf,
        source: StoreError,
    },
    #[error("cannot use the Redis store at {url}")]
    Redis { url: String, source: StoreError },
    #[error("cannot restore the live games")]
    Restore(#[from] table::restore::RestoreError),
    #[error("cannot start moderation: {0}")]
    Moderation(String),
    #[error("cannot reach the other nodes through Redis at {url}")]
    Bus {
        url: String,
        source: cluster::bus::BusError,
    },
}

/// A running server.
pub struct Server {
    addr: SocketAddr,
    shutdown: watch::Sender<bool>,
    task: JoinHandle<std::io::Result<()>>,
    restored: usize,
    _scratch: Option<Scratch>,
}

/// A temporary data directory, removed when the server is dropped (for
/// `Settings.data_dir` left empty: tests and throwaway servers).
struct Scratch(std::path::PathBuf);

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

impl Server {
    /// Opens the store (Redis when `settings.redis` says so, else the
    /// embedded store in `settings.data_dir`), restores the live games,
    /// binds `settings.listen` and starts serving in the background. An
    /// empty `data_dir` means a temporary directory of the server's own,
    /// removed when the [`Server`] is dropped. With Redis the data
    /// directory is not used.
    pub async fn start(mut settings: Settings) -> Result<Server, StartError> {
        if let Some(redis) = settings.redis.as_mut() {
            let store = open_redis(redis).await?;
            // The buses (the nodes' and moderation's) speak pub/sub to one
            // server: a cluster's first node, or the primary Sentinel
            // names now (docs/cluster.md says what that does not follow).
            let shown = tengen_store::redis::redact(&redis.url);
            redis.url = tengen_store::redis::node_url(&redis.url)
                .await
                .map_err(|why| StartError::Redis {
                    url: shown,
                    source: StoreError::Unavailable(why),
                })?;
            // Other nodes may share this Redis: take over the tables of
            // any that dies.
            settings
                .takeover_every
                .get_or_insert(std::time::Duration::from_secs(1));
            return Server::start_with_store(settings, Arc::new(store)).await;
        }
        let scratch = settings.data_dir.as_os_str().is_empty().then(|| {
            let dir = std::env::temp_dir().join(format!(
                "tengen-scratch-{}-{:016x}",
                std::process::id(),
                rand::random::<u64>()
            ));
            settings.data_dir = dir.clone();
            Scratch(dir)
        });
        let dir = settings.data_dir.clone();
        let cache = settings.store_cache_bytes;
        let options = embedded_options(cache);
        let open = tokio::task::spawn_blocking(move || EmbeddedStore::open_with(&dir, &options))
            .await
            .map_err(|e| StoreError::Unavailable(e.to_string()));
        let store = open.and_then(|r| r).map_err(|source| StartError::Store {
            dir: settings.data_dir.clone(),
            source,
        })?;
        let mut server = Server::start_with_store(settings, Arc::new(store)).await?;
        server._scratch = scratch;
        Ok(server)
    }

    /// [`Server::start`] with a given store.
    pub async fn start_with_store(
        settings: Settings,
        store: Arc<dyn Store>,
    ) -> Result<Server, StartError> {
        metrics::install();
        metrics::node(&settings.node);
        let listener =
            TcpListener::bind(settings.listen)
                .await
                .map_err(|source| StartError::Listen {
                    addr: settings.listen,
                    source,
                })?;
        let addr = listener.local_addr().map_err(|source| StartError::Listen {
            addr: settings.listen,
            source,
        })?;
        let (shutdown_tx, shutdown_rx) = watch::channel(false);
        let settings = Arc::new(settings);
        let (lobby, lobby_rx) = lobby::mailbox(settings.max_connections);
        let directory = msg::table::Directory::default();
        let pressure = crate::pressure::Pressure::new(settings.shed_lag, settings.table_start_rate);
        crate::pressure::spawn(pressure.clone(), shutdown_rx.clone());
        let keeper = keeper::spawn(
            store.clone(),
            directory.clone(),
            settings.lease_ttl,
            settings.store_timeout,
            settings.max_connections,
            shutdown_rx.clone(),
        );
        let (tournaments, tournaments_rx) = crate::tournaments::director::mailbox();
        let analysis = crate::analysis::Analyzer::new(settings.analysis.clone());
        let study = crate::study::Study::start(
            store.clone(),
            settings.study.clone(),
            analysis.slots(),
            pressure.clone(),
            shutdown_rx.clone(),
        );
        let hosting = Hosting {
            store: store.clone(),
            settings: settings.clone(),
            lobby: lobby.clone(),
            directory,
            sessions: sessions::Sessions::new(settings.resume_grace, settings.max_sessions),
            takeovers: Takeovers::default(),
            keeper,
            pressure: pressure.clone(),
            bot_filters: Default::default(),
            moderation: Default::default(),
            tournaments,
            lag: Default::default(),
            study,
        };
        crate::moderation::boot::start(&hosting, shutdown_rx.clone())
            .await
            .map_err(StartError::Moderation)?;
        lobby::spawn(hosting.clone(), lobby_rx, shutdown_rx.clone());
        let restored = table::restore::restore_all(&hosting).await?;
        tracing::info!(store = %store.describe(), node = %settings.node, restored, "live games restored");
        table::restore::spawn_takeover(hosting.clone(), shutdown_rx.clone());
        let drain = settings.drain_delay;
        let accounts = Arc::new(
            accounts::Accounts::new(store.clone(), settings.accounts.clone())
                .with_moderation(hosting.moderation.clone()),
        );
        let matchmaker = matchmaker::spawn(
            settings.matchmaking.clone(),
            lobby.clone(),
            hosting.moderation.book.clone(),
            shutdown_rx.clone(),
        );
        crate::tournaments::director::spawn(&hosting, tournaments_rx, shutdown_rx.clone());
        let node = match &settings.redis {
            Some(redis) => {
                let mut config = cluster::bus::BusConfig::new(
                    redis.url.clone(),
                    redis.prefix.clone(),
                    settings.node.clone(),
                );
                config.ca_file = redis.ca_file.clone();
                let (bus, deliveries) =
                    cluster::bus::Bus::connect(config)
                        .await
                        .map_err(|source| StartError::Bus {
                            url: tengen_store::redis::redact(&redis.url),
                            source,
                        })?;
                Some(cluster::node::spawn(
                    hosting.clone(),
                    matchmaker.clone(),
                    bus,
                    deliveries,
                    shutdown_rx.clone(),
                ))
            }
            None => None,
        };
        let addresses = crate::addresses::Addresses::new(settings.caps.clone());
        let store_health = crate::health::StoreHealth::default();
        crate::health::spawn(
            store.clone(),
            store_health.clone(),
            settings.store_timeout,
            shutdown_rx.clone(),
        );
        let analysis = crate::analysis::Analyzer::new(settings.analysis.clone());
        let computer = crate::computer::Computer::new(
            settings.computer.clone(),
            analysis.slots(),
            addr,
            shutdown_rx.clone(),
        );
        let state = AppState::new(crate::app::Shared {
            addresses: addresses.clone(),
            admission: admission::Admission::new(settings.max_connections),
            analysis,
            computer,
            shutdown: shutdown_rx.clone(),
            accounts,
            matchmaker,
            node,
            hosting,
            store_health,
        });
        let directory = state.hosting.directory.clone();
        let app = http::router(state);
        let mut stop = shutdown_rx;
        let task = tokio::spawn(async move {
            let gate = crate::gate::Gate {
                listener,
                addresses,
            };
            axum::serve(
                gate,
                app.into_make_service_with_connect_info::<crate::gate::Peer>(),
            )
            .with_graceful_shutdown(async move {
                let _ = stop.wait_for(|s| *s).await;
                // Every table stops and gives its lease up, so that another
                // node takes its game over at once (not when it lapses).
                for table in directory.handles() {
                    let _ = table.try_send(crate::msg::table::TableCmd::Handover);
                }
                // `/healthz` says 503 meanwhile, so a load balancer moves on.
                tokio::time::sleep(drain).await;
            })
            .await
        });
        tracing::info!(%addr, "listening");
        Ok(Server {
            addr,
            shutdown: shutdown_tx,
            task,
            restored,
            _scratch: None,
        })
    }

    /// How many live games were restored at start.
    pub fn restored(&self) -> usize {
        self.restored
    }

    /// The address actually bound.
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// The graceful stop: `/healthz` answers 503, new WebSocket upgrades
    /// are refused, every connection closes with 1012 (restarting), and
    /// the listener closes after the drain delay. Every accepted action is
    /// already stored, so nothing needs flushing.
    pub fn shutdown(&self) {
        let _ = self.shutdown.send(true);
    }

    /// Waits until the server has stopped.
    pub async fn wait(self) -> std::io::Result<()> {
        match self.task.await {
            Ok(r) => r,
            Err(e) => Err(std::io::Error::other(e)),
        }
    }
}

/// How the server opens an embedded store: with a page cache of
/// `cache_bytes`, and its own upgrade of a table's stored seats (resume
/// tokens to their digests) for a store an earlier version wrote.
pub fn embedded_options(cache_bytes: usize) -> EmbeddedOptions {
    EmbeddedOptions {
        cache_bytes,
        upgrade_meta: Some(table::upgrade_stored),
        ..EmbeddedOptions::default()
    }
}

/// Connects to the Redis store and checks how Redis keeps its data: a
/// loud warning when an accepted move could be lost (no append-only file,
/// or an fsync policy that loses the last second on a power loss).
pub async fn open_redis(redis: &RedisSettings) -> Result<RedisStore, StartError> {
    let options = RedisOptions {
        upgrade_meta: Some(table::upgrade_stored),
        prefix: redis.prefix.clone(),
        ca_file: redis.ca_file.clone(),
        ..RedisOptions::default()
    };
    let failed = |source| StartError::Redis {
        url: tengen_store::redis::redact(&redis.url),
        source,
    };
    let store = RedisStore::connect(&redis.url, options)
        .await
        .map_err(failed)?;
    match store.persistence().await {
        Ok(p) if !p.keeps_acknowledged_writes() => {
            tracing::warn!(
                persistence = %p,
                "!!! {} !!!",
                p.risk().unwrap_or_default()
            );
        }
        Ok(p) => match p.risk() {
            Some(risk) => tracing::warn!(persistence = %p, "{risk}"),
            None => tracing::info!(persistence = %p, "Redis persistence"),
        },
        Err(e) => tracing::warn!(
            error = %e,
            "cannot read how Redis keeps its data: make sure it runs with `appendonly yes` \
             and `appendfsync always` (or `everysec`), or \"no accepted move is lost\" does not hold"
        ),
    }
    Ok(store)
}
