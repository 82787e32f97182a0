//! [`AppState`]: what every connection task shares (what hosting tables
//! needs, the other actors' handles, the shutdown signal).
//!
//! It is one `Arc`: every connection's task keeps a copy (and axum's
//! upgrade keeps another until the connection ends), and the handles
//! themselves come to about 260 bytes, 520 a connection when held inline.

use std::sync::Arc;

use tokio::sync::watch;

use crate::hosting::Hosting;
use crate::{accounts, addresses, admission, analysis, health, msg};

/// What every connection shares: a reference to [`Shared`], which derefs
/// to it; cloning is one reference count.
#[derive(Clone)]
pub struct AppState(Arc<Shared>);

impl AppState {
    pub fn new(shared: Shared) -> AppState {
        AppState(Arc::new(shared))
    }
}

impl std::ops::Deref for AppState {
    type Target = Shared;

    fn deref(&self) -> &Shared {
        &self.0
    }
}

/// What hosting tables needs (the store, settings, lobby, table directory,
/// sessions), the other actors' handles, and the shutdown signal.
pub struct Shared {
    pub hosting: Hosting,
    pub shutdown: watch::Receiver<bool>,
    /// Accounts, logins and their limits (`accounts`).
    pub accounts: Arc<accounts::Accounts>,
    /// The rated queues (`matchmaker`).
    pub matchmaker: msg::matchmaker::MatchmakerHandle,
    /// Several nodes on one Redis: this node's actor, which routes commands
    /// to tables run elsewhere (`cluster`). `None` on the embedded store.
    pub node: Option<msg::node::NodeHandle>,
    /// Post-game analysis: its slots and budgets (`analysis`).
    pub analysis: Arc<analysis::Analyzer>,
    /// The computer's games (`computer`).
    pub computer: Arc<crate::computer::Computer>,
    /// The cap on open connections (`admission`).
    pub admission: Arc<admission::Admission>,
    /// The per-address caps (`addresses`).
    pub addresses: Arc<addresses::Addresses>,
    /// Whether the store takes writes (`health`).
    pub store_health: health::StoreHealth,
}
