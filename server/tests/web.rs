//! The web client, in real headless Chromium against a real server.
//!
//! This test starts a server on a free loopback port and runs the browser
//! tests of `web/tests/` (Node's built-in test runner driving the system's
//! Chromium through `playwright-core`) against it, plus the type check of
//! the client's JSDoc types (`tsc --noEmit --checkJs`). Both need the
//! packages of `web/package-lock.json` (`npm ci` in `web/`) and Debian's
//! `chromium`: `./scripts/test` installs them. Screenshots go under
//! `target/tmp/web-screenshots/`.

mod common;

use std::path::{Path, PathBuf};
use std::process::Stdio;

use tengen_protocol::{ClientMsg, Encoding, ServerMsg, TableEvent};
use tengen_rules::Forbidden;
use tengen_rules::game::{ForbiddenHandling, ForbiddenPoint, GameConfig, RuleSet};

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
    let server = common::server().await;
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

/// Black H8 I8 J9 J10, white far away: black's J8 would make two threes.
const DOUBLE_THREE: [&str; 8] = ["H8", "A1", "I8", "A3", "J9", "A5", "J10", "A7"];

/// Plays `DOUBLE_THREE` in a renju room with `handling`; returns the table
/// and the last event the opener received.
async fn to_double_three(
    server: &tengen_server::Server,
    handling: ForbiddenHandling,
) -> (common::Table, TableEvent) {
    let mut config = GameConfig::free(RuleSet::Renju);
    config.forbidden = Some(handling);
    let mut t = common::table(server, config, Encoding::Json).await;
    let black = t.opener();
    for (i, p) in DOUBLE_THREE.iter().enumerate() {
        let seat = if i % 2 == 0 { black } else { black.other() };
        t.act_as(seat, common::place(p)).await;
    }
    let mut last = None;
    let conn = t.conn(black);
    while last.as_ref().is_none_or(|e: &TableEvent| e.seq < 8) {
        if let ServerMsg::TableEvent(e) = conn.next().await.expect("events").msg {
            last = Some(e);
        }
    }
    (t, last.expect("event 8"))
}

#[tokio::test]
async fn block_and_lose_rooms_send_black_s_forbidden_points_claim_rooms_never() {
    let server = common::server().await;
    let j8 = ForbiddenPoint {
        point: "J8".parse().unwrap(),
        kind: Forbidden::DoubleThree,
    };
    for handling in [ForbiddenHandling::Block, ForbiddenHandling::Lose] {
        let (t, last) = to_double_three(&server, handling).await;
        assert!(last.forbidden.contains(&j8), "{handling:?}: {last:?}");
        // A spectator arriving now gets them in the snapshot.
        let mut carol = common::client(&server, "carol", Encoding::Json).await;
        match carol
            .request(ClientMsg::Watch {
                table: t.table.clone(),
                since: None,
            })
            .await
            .expect("snapshot")
        {
            ServerMsg::TableSnapshot(s) => assert!(s.forbidden.contains(&j8), "{s:?}"),
            other => panic!("unexpected {other:?}"),
        }
    }
    let (_, last) = to_double_three(&server, ForbiddenHandling::Claim).await;
    assert!(last.forbidden.is_empty(), "{last:?}");
}
