//! The crate's integration tests, one binary: each module was a test
//! binary of its own; linking the crate once instead of once per file
//! is most of what the suite's build costs.

mod codec;
mod common;
mod module_cycles;
mod print;
mod readme;
mod tie_breaks;
