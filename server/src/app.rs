//! [`AppState`]: what every connection task shares (what hosting tables
//! needs, the other actors' handles, the shutdown signal).

use std::sync::Arc;

use tokio::sync::watch;

use crate::hosting::Hosting;
use crate::{accounts, addresses, admission, analysis, msg};

/// What every connection shares: what hosting tables needs (the store,
/// settings, lobby, table directory, sessions), the other actors' handles,
/// and the shutdown signal.
#[derive(Clone)]
pub struct AppState {
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
    /// The cap on open connections (`admission`).
    pub admission: Arc<admission::Admission>,
    /// The per-address caps (`addresses`).
    pub addresses: Arc<addresses::Addresses>,
}
