//! This node's study: the queues into the indexer and the miner (started
//! here, each a task of its own), the puzzle tries, and what requests
//! share (the store, the settings, the analysis slots).

use std::sync::Arc;

use tengen_store::Store;
use tokio::sync::{Semaphore, mpsc, watch};

use super::attempts::Attempts;
use super::finished::Finished;
use super::settings::StudySettings;

/// This node's explorer, miner and puzzle tries (cloned into every table
/// host and connection).
#[derive(Clone)]
pub struct Study(Arc<Inner>);

struct Inner {
    store: Arc<dyn Store>,
    settings: StudySettings,
    /// The indexer's queue.
    index: mpsc::Sender<Finished>,
    /// The server's analysis slots (shared with `analyze_game`).
    slots: Arc<Semaphore>,
    attempts: Attempts,
}

impl Study {
    /// Starts the indexer and the miner, each a task fed by a bounded
    /// queue: the indexer's from the tables, the miner's from the indexer.
    pub fn start(
        store: Arc<dyn Store>,
        settings: StudySettings,
        slots: Arc<Semaphore>,
        pressure: Arc<crate::pressure::Pressure>,
        shutdown: watch::Receiver<bool>,
    ) -> Study {
        let (index, index_rx) = mpsc::channel(settings.index_queue.max(1));
        let (mine, mine_rx) = mpsc::channel(settings.mine_queue.max(1));
        tokio::spawn(super::indexer::run(
            store.clone(),
            settings.depth,
            index_rx,
            settings.mine.then_some(mine),
            shutdown.clone(),
        ));
        tokio::spawn(super::miner::run(
            store.clone(),
            settings.mine_budget(),
            slots.clone(),
            pressure,
            mine_rx,
            shutdown,
        ));
        Study(Arc::new(Inner {
            attempts: Attempts::new(settings.attempts, settings.attempt_ttl),
            store,
            settings,
            index,
            slots,
        }))
    }

    /// A finished game, stored: indexed and searched soon, or dropped (and
    /// counted) when the indexer's queue is full. Never waits.
    pub fn finished(&self, game: Finished) {
        if self.0.settings.depth == 0 && !self.0.settings.mine {
            return;
        }
        if self.0.index.try_send(game).is_err() {
            super::finished::dropped("index");
        }
    }

    pub fn settings(&self) -> &StudySettings {
        &self.0.settings
    }

    pub fn store(&self) -> &Arc<dyn Store> {
        &self.0.store
    }

    /// The server's analysis slots (shared with `analyze_game`).
    pub(super) fn slots(&self) -> &Arc<Semaphore> {
        &self.0.slots
    }

    /// The puzzle tries on this node.
    pub(super) fn attempts(&self) -> &Attempts {
        &self.0.attempts
    }
}
