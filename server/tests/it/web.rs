//! The web client, in real headless Chromium against a real server.
//!
//! This test starts a server on a free loopback port and runs the browser
//! tests of `web/tests/` (Node's built-in test runner driving the system's
//! Chromium through `playwright-core`) against it, plus the strict type
//! check of the client's JSDoc types (`tsc`; the messages are typed by the
//! declarations generated from the protocol, `protocol/schema/tengen.d.ts`)
//! and a check that no type there is `any`. Both need the
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
    assert!(
        status.success(),
        "tsc (strict) found errors in the web client's types"
    );
}

/// `strict` lets a JSDoc type say `any` outright, and one `any` undoes the
/// checking of everything that flows through it: the client has none.
#[test]
fn the_web_client_has_no_any_type() {
    let mut found = Vec::new();
    let mut dirs = vec![web_dir().join("static/js")];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(&dir)
            .expect("web/static/js readable")
            .flatten()
        {
            let path = entry.path();
            if path.is_dir() {
                dirs.push(path);
            } else if path.extension().is_some_and(|e| e == "js") {
                let text = std::fs::read_to_string(&path).expect("a UTF-8 module");
                for line in any_types(&text) {
                    found.push(format!("{}:{line}", path.display()));
                }
            }
        }
    }
    assert!(found.is_empty(), "`any` in a type: {found:?}");
}

/// The lines where `any` stands in a type: next to type punctuation
/// (`{any}`, `any[]`, `Record<string, any>`, `(x: any) => any`), not in
/// prose or a string (`step: 'any'`).
fn any_types(text: &str) -> Vec<usize> {
    let ident = |c: char| c.is_alphanumeric() || c == '_' || c == '$';
    let mut lines = Vec::new();
    for (i, _) in text.match_indices("any") {
        let (before, after) = (&text[..i], &text[i + 3..]);
        if before.chars().next_back().is_some_and(ident) || after.chars().next().is_some_and(ident)
        {
            continue;
        }
        let prev = before.trim_end().chars().next_back();
        let next = after.trim_start().chars().next();
        if prev.is_some_and(|c| "{<(:|,>".contains(c)) || next.is_some_and(|c| "}>[|)=".contains(c))
        {
            lines.push(before.matches('\n').count() + 1);
        }
    }
    lines
}

#[test]
fn the_any_check_sees_types_not_prose() {
    let js = "/** @param {any} a @type {Record<string, any>} */\n// for any code\nconst x = { step: 'any' };\n/** @type {(m: any) => void} */\n/** @type {any[]} */";
    assert_eq!(any_types(js), vec![1, 1, 4, 5]);
}
