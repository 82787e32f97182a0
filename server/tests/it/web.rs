//! The web client, in real headless Chromium against a real server.
//!
//! Each test of `web::browser` starts a server on a free loopback port and
//! runs one file of `web/tests/` (Node's built-in test runner driving the
//! system's Chromium through `playwright-core`) against it, plus the strict type
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

/// Runs one file of `web/tests/` against a server of its own, so that the
/// files run side by side as tests of their own (and a failure names its
/// file).
async fn run_browser_file(name: &str) {
    require_packages();
    // Browsers play at once on a machine that may be busy: saving an action
    // may take longer than the default 3 s there.
    let server = common::server_with(|s| s.store_timeout = Duration::from_secs(30)).await;
    let shots = Path::new(env!("CARGO_TARGET_TMPDIR")).join("web-screenshots");
    let url = format!("http://{}", server.addr());
    let file = format!("tests/{name}.test.mjs");
    // The server runs on this runtime's threads meanwhile.
    let status = tokio::task::spawn_blocking(move || {
        std::process::Command::new("node")
            .args(["--test", "--test-concurrency=1", &file])
            .current_dir(web_dir())
            .env("TENGEN_URL", url)
            .env("TENGEN_SCREENSHOTS", &shots)
            .stdin(Stdio::null())
            .status()
    })
    .await
    .expect("the runner thread")
    .expect("node runs (Node 20 or later)");
    assert!(status.success(), "browser tests of {name} failed: {status}");
}

macro_rules! browser_files {
    ($($name:ident),* $(,)?) => {
        /// The files of `web/tests/` this module runs, one test each.
        const BROWSER_FILES: &[&str] = &[$(stringify!($name)),*];

        /// The browser tests, one nextest test per file of `web/tests/`.
        mod browser {
            $(
                #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
                async fn $name() {
                    super::run_browser_file(stringify!($name)).await;
                }
            )*
        }
    };
}

browser_files!(
    absence,
    analysis,
    bots,
    budget,
    challenge,
    chat,
    clocks,
    computer,
    forbidden,
    lag,
    misc,
    my_games,
    openings,
    playban,
    profile,
    rated,
    reconnect,
    records,
    rif,
    sound,
    study,
    table,
    time_controls,
    tournaments,
    twin,
);

/// A file added to `web/tests/` and not listed above would never run.
#[test]
fn every_browser_test_file_is_run() {
    let mut files: Vec<String> = std::fs::read_dir(web_dir().join("tests"))
        .expect("web/tests readable")
        .flatten()
        .filter_map(|e| {
            let name = e.file_name().into_string().ok()?;
            name.strip_suffix(".test.mjs").map(str::to_owned)
        })
        .collect();
    files.sort();
    let mut listed: Vec<&str> = BROWSER_FILES.to_vec();
    listed.sort();
    assert_eq!(
        files, listed,
        "list every web/tests/*.test.mjs in browser_files!"
    );
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
