//! The Tengen server.
//!
//! One process serves the WebSocket endpoint (`/ws`), `/healthz` and
//! `/metrics` on one port. Inside, state has one owner each and owners talk
//! by message (DESIGN.md): a *connection* task per socket reads, decodes,
//! rate-limits and routes; the *lobby* actor owns the rooms; a *table* actor
//! per game owns the referee's `Game` and its clocks and fans its events out.
//! Nothing holds a lock across an await, and every queue is bounded.
//!
//! [`Server::start`] runs it in-process (the binary and the tests both use
//! it); `listen 127.0.0.1:0` picks a free port, and [`Server::addr`] says
//! which.

pub mod accounts;
pub mod conn;
pub mod http;
pub mod lobby;
pub mod matchmaker;
pub mod metrics;
pub mod outbound;
pub mod ranked;
pub mod ratings;
pub mod records;
pub mod sessions;
pub mod settings;
pub mod table;

use std::net::SocketAddr;
use std::sync::Arc;

use tokio::net::TcpListener;
use tokio::sync::watch;
use tokio::task::JoinHandle;

pub use settings::Settings;

/// What every connection shares: the settings, the lobby, the table
/// directory, and the shutdown signal.
#[derive(Clone)]
pub struct AppState {
    pub settings: Arc<Settings>,
    pub lobby: lobby::LobbyHandle,
    pub tables: table::Directory,
    pub sessions: sessions::Sessions,
    pub shutdown: watch::Receiver<bool>,
    /// Accounts, logins and their limits (`accounts`).
    pub accounts: Arc<accounts::Accounts>,
    /// The rated queues (`matchmaker`).
    pub matchmaker: matchmaker::MatchmakerHandle,
}

/// A running server.
pub struct Server {
    addr: SocketAddr,
    shutdown: watch::Sender<bool>,
    task: JoinHandle<std::io::Result<()>>,
}

impl Server {
    /// Binds `settings.listen` and starts serving in the background.
    pub async fn start(settings: Settings) -> std::io::Result<Server> {
        metrics::install();
        let listener = TcpListener::bind(settings.listen).await?;
        let addr = listener.local_addr()?;
        let (shutdown_tx, shutdown_rx) = watch::channel(false);
        let settings = Arc::new(settings);
        let tables = table::Directory::default();
        let sessions = sessions::Sessions::new(settings.resume_grace);
        // Accounts and ranked play (until the state carries the store, they
        // open it here).
        let store: Arc<dyn tengen_store::Store> = Arc::new(
            tengen_store::EmbeddedStore::open(&settings.data_dir).map_err(std::io::Error::other)?,
        );
        let lobby = lobby::spawn(
            settings.clone(),
            store.clone(),
            tables.clone(),
            sessions.clone(),
            shutdown_rx.clone(),
        );
        let accounts = Arc::new(accounts::Accounts::new(store, settings.accounts.clone()));
        let matchmaker = matchmaker::spawn(
            settings.matchmaking.clone(),
            lobby.clone(),
            shutdown_rx.clone(),
        );
        let state = AppState {
            settings,
            lobby,
            tables,
            sessions,
            shutdown: shutdown_rx.clone(),
            accounts,
            matchmaker,
        };
        let app = http::router(state);
        let mut stop = shutdown_rx;
        let task = tokio::spawn(async move {
            axum::serve(
                listener,
                app.into_make_service_with_connect_info::<SocketAddr>(),
            )
            .with_graceful_shutdown(async move {
                let _ = stop.wait_for(|s| *s).await;
            })
            .await
        });
        tracing::info!(%addr, "listening");
        Ok(Server {
            addr,
            shutdown: shutdown_tx,
            task,
        })
    }

    /// The address actually bound.
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// Asks every connection to close (1001 going away) and stops accepting.
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
