//! No cycle among this crate's modules (see `devtools/module_cycles`).
//! The crate has cycles today: the test fails listing each with the file
//! and line of every edge in it, so it is ignored until they are removed.

#[path = "../../devtools/module_cycles/mod.rs"]
mod module_cycles;

#[test]
#[ignore = "module cycles reported, not yet removed; run with --ignored"]
fn no_cycle_among_the_modules() {
    module_cycles::assert_no_cycles(env!("CARGO_MANIFEST_DIR"));
}
