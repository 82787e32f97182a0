//! The crate's integration tests: one binary, a module per subject
//! (docs/testing.md).

mod module_cycles;
mod positions;
mod shapes;
