//! The crate's integration tests: one binary, a module per subject, so
//! the crate is linked once rather than once per file (docs/testing.md).

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
mod rapfi;
mod readme;
mod replay;
mod resilient;
mod tmux;
mod tournament;
