//! The crate's integration tests: one binary, a module per subject, so
//! the crate is linked once rather than once per file (docs/testing.md).

mod backup;
mod embedded;
mod journal;
mod migrate;
mod module_cycles;
mod name_index;
mod read_threads;
mod redis;
mod redis_cluster;
mod redis_lease_index;
mod redis_outbox;
