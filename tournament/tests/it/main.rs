//! The crate's integration tests, one binary: each module was a test
//! binary of its own; linking the crate once instead of once per file
//! is most of what the suite's build costs.

mod berger_fide;
mod common;
mod export;
mod module_cycles;
mod standings;
mod swiss_examples;
mod swiss_published;
mod swiss_rules;
mod systems_props;
mod tie_break_order;
mod tournament_flow;
mod tournament_props;
