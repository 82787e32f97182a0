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
mod finished;
mod handle;
pub mod import;
mod indexer;
mod keys;
mod miner;
mod puzzles;
pub mod requests;
mod settings;
mod trainer;

pub use explore::explore;
pub use finished::{Finished, players};
pub use handle::Study;
pub use indexer::{IndexError, Stated, game_tally, index_game};
pub use miner::mine_and_store;
pub use settings::StudySettings;
