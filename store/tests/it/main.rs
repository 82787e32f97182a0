//! The crate's integration tests, one binary: each module was a test
//! binary of its own; linking the crate once instead of once per file
//! is most of what the suite's build costs.

mod embedded;
mod journal;
mod migrate;
mod module_cycles;
mod read_threads;
mod redis;
mod redis_outbox;
