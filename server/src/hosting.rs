//! [`Hosting`]: the handles every actor that starts, runs or brings back
//! tables on this node shares — the store, the settings, the lobby's
//! mailbox, the directory of live tables, the session registry and the
//! takeover bookkeeping. One value, cloned into the connection state, the
//! lobby, the node actor and each table, so that the set is written once.

use std::sync::Arc;

use tengen_store::Store;

use crate::msg::keeper::KeeperHandle;
use crate::msg::lobby::LobbyHandle;
use crate::msg::table::Directory;
use crate::sessions::Sessions;
use crate::settings::Settings;
use crate::takeovers::Takeovers;

/// What hosting tables on this node needs.
#[derive(Clone)]
pub struct Hosting {
    pub store: Arc<dyn Store>,
    pub settings: Arc<Settings>,
    /// The lobby's mailbox (a table tells it when it closes).
    pub lobby: LobbyHandle,
    /// Every live table here, by id.
    pub directory: Directory,
    pub sessions: Sessions,
    /// How this node finds the store, and its takeovers in progress.
    pub takeovers: Takeovers,
    /// The keeper of this node's table leases.
    pub keeper: KeeperHandle,
    /// How far behind the server is (new work is shed when it is).
    pub pressure: Arc<crate::pressure::Pressure>,
    /// Bot accounts' challenge filters (the connection sets them, the
    /// lobby checks a challenge against them).
    pub bot_filters: crate::bot_filters::BotFilterBook,
    /// Moderation's state on this node: standings and banned ranges in
    /// memory, its bus (`crate::moderation`).
    pub moderation: crate::moderation::state::Moderation,
    /// The tournament director's mailbox (a tournament table tells it
    /// when its game is over; connections send it their requests).
    pub tournaments: crate::msg::tournament::DirectorHandle,
    /// The recent move and store-write times `/lag.json` shows
    /// (`crate::lag`).
    pub lag: Arc<crate::lag::Lag>,
    /// The opening explorer and the puzzle miner (a table hands them its
    /// finished game), and the puzzle tries on this node.
    pub study: crate::study::Study,
}
