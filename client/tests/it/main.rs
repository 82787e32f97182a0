//! The crate's integration tests, one binary: each module was a test
//! binary of its own; linking the crate once instead of once per file
//! is most of what the suite's build costs.

mod bot;
mod bot_twin;
mod engine_process;
mod module_cycles;
mod resilient;
mod view;
