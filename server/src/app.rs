//! [`AppState`]: what every connection task shares (the settings, the
//! actors' handles, the store, the shutdown signal), and what hosting a
//! table on this node needs.

use std::sync::Arc;

use tengen_store::Store;
use tokio::sync::watch;

use crate::settings::Settings;
use crate::{accounts, admission, analysis, msg, sessions, table};

/// What every connection shares: the settings, the lobby, the table
/// directory, and the shutdown signal.
#[derive(Clone)]
pub struct AppState {
    pub settings: Arc<Settings>,
    pub lobby: msg::lobby::LobbyHandle,
    pub tables: msg::table::Directory,
    pub sessions: sessions::Sessions,
    pub store: Arc<dyn Store>,
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
    /// How this node finds the store, and its takeovers in progress
    /// (`table::failover`).
    pub takeovers: table::takeovers::Takeovers,
}

impl AppState {
    /// What bringing a table back to this node needs.
    pub fn hosting(&self) -> table::restore::Hosting {
        table::restore::Hosting {
            store: self.store.clone(),
            settings: self.settings.clone(),
            lobby: self.lobby.clone(),
            directory: self.tables.clone(),
            sessions: self.sessions.clone(),
            takeovers: self.takeovers.clone(),
        }
    }
}
