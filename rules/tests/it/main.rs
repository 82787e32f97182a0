//! The crate's integration tests: one binary, a module per subject, so
//! the crate is linked once rather than once per file (docs/testing.md).

mod analysis;
mod analysis_common;
mod analysis_props;
mod analysis_record;
mod common;
mod forbidden_cases;
mod game_absence;
mod game_clocks;
mod game_clocks_kinds;
mod game_draws;
mod game_forbidden;
mod game_openings_jonsson;
mod game_openings_rif;
mod game_openings_sakata;
mod game_openings_soosorv;
mod game_openings_swap2;
mod game_openings_yamaguchi_forms;
mod game_props;
mod game_records;
mod game_refusals;
mod game_scenarios;
mod game_takebacks;
mod game_twin;
mod game_wire;
mod module_cycles;
mod properties;
mod readings;
mod self_contained;
mod shapes;
