//! The crate's integration tests: one binary, a module per subject, so
//! the crate is linked once rather than once per file (docs/testing.md).

mod bot;
mod bot_twin;
mod engine_process;
mod module_cycles;
mod resilient;
mod view;
