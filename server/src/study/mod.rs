//! The opening explorer, puzzles from missed wins and the forbidden-point
//! trainer, on the server: what `tengen-study` computes, fed by finished
//! games, stored as the store's tallies and documents, served to clients.
//!
//! Why here and how it stays out of the games' way: a table that has
//! stored its finished game hands it over with [`Study::finished`], a
//! `try_send` on a bounded queue (a full queue drops the game and counts
//! it, `tengen_study_dropped_total{queue="index"}`; `tengen-server
//! reindex` catches up). The *indexer* task adds it to the explorer's
//! index (one store write whose size does not depend on how many games
//! are indexed) and passes it to the *miner*'s bounded queue (dropped the
//! same way, `queue="mine"`). The miner searches one game at a time on
//! the blocking pool, holding one of the server's analysis slots
//! (`crate::analysis`), and only while the runtime is not behind
//! (`crate::pressure`); it stores the puzzles and exercises it finds.
//! Requests (`requests`) run as the connection's tasks: explorer views are
//! store reads; a puzzle move is judged by the solver on the blocking pool
//! within an analysis slot (refused as `unavailable` when none is free).

mod attempts;
mod explore;
pub mod import;
mod indexer;
mod miner;
mod puzzles;
pub mod requests;
mod trainer;

use std::sync::Arc;
use std::time::Duration;

use tengen_rules::analysis::Budget;
use tengen_rules::game::GameRecord;
use tengen_store::Store;
use tengen_study::explorer::Players;
use tengen_study::puzzle::MineBudget;
use tokio::sync::{Semaphore, mpsc, watch};

pub use explore::explore;
pub use indexer::{IndexError, Stated, index_game};
pub use miner::mine_and_store;

/// The explorer's, the miner's and the puzzles' bounds.
#[derive(Clone, Debug)]
pub struct StudySettings {
    /// How many moves deep finished games are indexed (0: no explorer).
    pub depth: u32,
    /// Finished games waiting to be indexed, at most.
    pub index_queue: usize,
    /// Indexed games waiting to be searched for puzzles, at most.
    pub mine_queue: usize,
    /// Whether finished games are searched for puzzles at all.
    pub mine: bool,
    /// Nodes each search may visit (mining, judging a move).
    pub nodes: u64,
    /// The longest VCT a puzzle may have, in attacker moves ("short").
    pub vct_depth: u8,
    /// Puzzle tries kept at once on this node (the oldest go first).
    pub attempts: usize,
    /// How long a try is kept.
    pub attempt_ttl: Duration,
}

impl Default for StudySettings {
    fn default() -> StudySettings {
        StudySettings {
            depth: tengen_study::explorer::DEFAULT_DEPTH,
            index_queue: 1024,
            mine_queue: 256,
            mine: true,
            nodes: 100_000,
            vct_depth: 3,
            attempts: 10_000,
            attempt_ttl: Duration::from_secs(3600),
        }
    }
}

impl StudySettings {
    pub fn mine_budget(&self) -> MineBudget {
        MineBudget {
            vcf: Budget::new(self.nodes, u8::MAX),
            vct: Budget::new(self.nodes, self.vct_depth),
        }
    }

    /// The budget of each search that judges a puzzle move.
    pub fn judge_budget(&self) -> Budget {
        Budget::new(self.nodes, u8::MAX)
    }
}

/// A finished game, as a table hands it over.
#[derive(Clone, Debug)]
pub struct Finished {
    pub id: String,
    pub record: GameRecord,
    pub players: Players,
    pub finished_ms: u64,
}

/// This node's explorer, miner and puzzle tries (cloned into every table
/// host and connection).
#[derive(Clone)]
pub struct Study(Arc<Inner>);

struct Inner {
    store: Arc<dyn Store>,
    settings: StudySettings,
    index: mpsc::Sender<Finished>,
    mine: mpsc::Sender<Finished>,
    /// The server's analysis slots (shared with `analyze_game`).
    slots: Arc<Semaphore>,
    pressure: Arc<crate::pressure::Pressure>,
    attempts: attempts::Attempts,
}

impl Study {
    /// Starts the indexer and the miner.
    pub fn start(
        store: Arc<dyn Store>,
        settings: StudySettings,
        slots: Arc<Semaphore>,
        pressure: Arc<crate::pressure::Pressure>,
        shutdown: watch::Receiver<bool>,
    ) -> Study {
        let (index, index_rx) = mpsc::channel(settings.index_queue.max(1));
        let (mine, mine_rx) = mpsc::channel(settings.mine_queue.max(1));
        let study = Study(Arc::new(Inner {
            attempts: attempts::Attempts::new(settings.attempts, settings.attempt_ttl),
            store,
            settings,
            index,
            mine,
            slots,
            pressure,
        }));
        tokio::spawn(indexer::run(study.clone(), index_rx, shutdown.clone()));
        tokio::spawn(miner::run(study.clone(), mine_rx, shutdown));
        study
    }

    /// A finished game, stored: indexed and searched soon, or dropped (and
    /// counted) when the indexer's queue is full. Never waits.
    pub fn finished(&self, game: Finished) {
        if self.0.settings.depth == 0 && !self.0.settings.mine {
            return;
        }
        if self.0.index.try_send(game).is_err() {
            dropped("index");
        }
    }

    /// Hands an indexed game to the miner, or drops it when its queue is
    /// full.
    fn to_miner(&self, game: Finished) {
        if self.0.settings.mine && self.0.mine.try_send(game).is_err() {
            dropped("mine");
        }
    }

    pub fn settings(&self) -> &StudySettings {
        &self.0.settings
    }

    pub fn store(&self) -> &Arc<dyn Store> {
        &self.0.store
    }
}

/// Who played a table's game, by seat, as the explorer counts them:
/// accounts by name key (guests are no one's explorer), names as shown.
pub fn players(seats: [&tengen_protocol::Player; 2]) -> Players {
    Players {
        accounts: seats.map(|p| (!p.guest).then(|| tengen_store::name_key(&p.name))),
        names: seats.map(|p| p.name.clone()),
        ratings: None,
    }
}

fn dropped(queue: &'static str) {
    metrics::counter!(crate::metrics::STUDY_DROPPED, "queue" => queue).increment(1);
}
