//! libFuzzer entry point for [`tengen_fuzz::analyze`]: every check lives in
//! the library, so the stable corpus replay (tests/replay.rs) runs the same
//! code.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| tengen_fuzz::analyze::check(data));
