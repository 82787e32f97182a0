//! The web client, in real headless Chromium against a real server.
//!
//! This test starts a server on a free loopback port and runs the browser
//! tests of `web/tests/` (Node's built-in test runner driving the system's
//! Chromium through `playwright-core`) against it, plus the type check of
//! the client's JSDoc types (`tsc --noEmit --checkJs`). Both need the
//! packages of `web/package-lock.json` (`npm ci` in `web/`) and Debian's
//! `chromium`: `./scripts/test` installs them. Screenshots go under
//! `target/tmp/web-screenshots/`.

use crate::common;

use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::Duration;

fn web_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../web")
}

fn require_packages() {
    let web = web_dir();
    assert!(
        web.join("node_modules/playwright-core").is_dir()
            && web.join("node_modules/typescript").is_dir(),
        "the web client's test packages are missing: run `npm ci` in {} (./scripts/test does it)",
        web.display()
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_web_client_in_a_real_browser() {
    require_packages();
    // Many browsers play at once on a machine that may be busy: saving an
    // action may take longer than the default 3 s there.
    let server = common::server_with(|s| s.store_timeout = Duration::from_secs(30)).await;
    let shots = Path::new(env!("CARGO_TARGET_TMPDIR")).join("web-screenshots");
    let url = format!("http://{}", server.addr());
    // The server runs on this runtime's threads meanwhile.
    let status = tokio::task::spawn_blocking(move || {
        std::process::Command::new("node")
            .args(["--test", "--test-concurrency=1", "tests/"])
            .current_dir(web_dir())
            .env("TENGEN_URL", url)
            .env("TENGEN_SCREENSHOTS", &shots)
            .stdin(Stdio::null())
            .status()
    })
    .await
    .expect("the runner thread")
    .expect("node runs (Node 20 or later)");
    assert!(status.success(), "browser tests failed: {status}");
}

#[test]
fn the_web_client_type_checks() {
    require_packages();
    let web = web_dir();
    let status = std::process::Command::new("node")
        .args(["node_modules/typescript/bin/tsc", "-p", "tsconfig.json"])
        .current_dir(&web)
        .status()
        .expect("node runs");
    assert!(status.success(), "tsc --noEmit --checkJs found errors");
}
