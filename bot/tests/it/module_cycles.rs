//! No cycle among this crate's modules (see `devtools/module_cycles`): on
//! failure it lists each cycle with the file and line of every edge in it.

#[path = "../../../devtools/module_cycles/mod.rs"]
mod check;

#[test]
fn no_cycle_among_the_modules() {
    check::assert_no_cycles(env!("CARGO_MANIFEST_DIR"));
}
