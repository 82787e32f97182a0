//! The crate's integration tests, one binary: each module was a test
//! binary of its own; linking the crate once instead of once per file
//! is most of what the suite's build costs.

mod accounts;
mod analyze;
mod analyze_wins;
mod bot_account;
mod common;
mod engine;
mod engine_policy;
mod engine_rated;
mod module_cycles;
mod online;
mod pbrain;
mod replay;
mod resilient;
mod tmux;
mod tournament;
