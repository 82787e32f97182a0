//! The crate's integration tests: one binary, a module per subject, so
//! the crate is linked once rather than once per file (docs/testing.md).

mod cluster;
mod common;
mod module_cycles;
mod rolling;
mod smoke;
mod stop;
