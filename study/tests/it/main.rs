//! The crate's integration tests: one binary, a module per subject
//! (docs/testing.md).

mod explorer;
mod puzzles;
mod trainer;
