//! The crate's integration tests: one binary, a module per subject, so
//! the crate is linked once rather than once per file (docs/testing.md).

mod berger_fide;
mod common;
mod dutch_oracle;
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
