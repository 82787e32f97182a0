//! `tengen become-bot` against a real server (in-process): it asks for
//! --yes, makes the logged-in account a bot, and `tengen profile` then
//! marks it `[bot]`.

use crate::common;

use std::path::Path;

use common::{run_with_input, server, tengen_in, text};
use tempfile::TempDir;

fn register(url: &str, dir: &Path, name: &str) {
    let out = run_with_input(
        tengen_in(url, dir, &["register", name, "--password-stdin"]),
        "correct horse battery\n",
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
}

#[test]
fn become_bot_asks_for_yes_and_marks_the_profile() {
    let url = server();
    let dir = TempDir::new().unwrap();
    register(&url, dir.path(), "enginebot");

    let out = tengen_in(&url, dir.path(), &["become-bot"])
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(text(&out.stderr).contains("--yes"), "{}", text(&out.stderr));
    let out = tengen_in(&url, dir.path(), &["profile"]).output().unwrap();
    assert!(text(&out.stdout).starts_with("enginebot, registered"));

    let out = tengen_in(&url, dir.path(), &["become-bot", "--yes"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(text(&out.stdout).contains("enginebot is a bot account"));
    let out = tengen_in(&url, dir.path(), &["profile", "enginebot"])
        .output()
        .unwrap();
    let prof = text(&out.stdout);
    assert!(prof.starts_with("enginebot [bot], registered"), "{prof}");
}
