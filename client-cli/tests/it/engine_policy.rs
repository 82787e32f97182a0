//! `tengen engine --resign eval-below X` against a real server
//! (in-process): an engine that reports a losing evaluation (Yixin's
//! `MESSAGE ... ev N`, tests/engines/pessimist.sh around `tengen pbrain`)
//! places one stone and resigns at its next turn, by policy (not as a
//! failure: the bridge exits 0); bad policy values are refused.

use crate::common;

use std::time::Duration;

use common::{BIN, Lines, server, stderr_of, tengen, text, wait};

const SCRIPT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/engines/pessimist.sh");

#[test]
fn an_engine_reporting_a_lost_evaluation_resigns_by_policy() {
    let url = server();
    let room = ["--rules", "freestyle", "--time", "5+3"];
    let mut bot_args = vec!["bot", "--name", "opp", "--create"];
    bot_args.extend_from_slice(&room);
    let mut bot = tengen(&url, &bot_args).spawn().unwrap();
    let mut bot_out = Lines::new(bot.stdout.take().unwrap());
    let id = loop {
        let l = bot_out.next(Duration::from_secs(60)).expect("a room line");
        if let Some(id) = l.strip_prefix("room: ") {
            break id.to_string();
        }
    };
    let args = [
        "engine",
        "--name",
        "gloomy",
        "--join",
        &id,
        "--resign",
        "eval-below -1000",
        "--accept-draw",
        "never",
        "-v",
        "--",
        "sh",
        SCRIPT,
        BIN,
        "pbrain",
    ];
    let mut eng = tengen(&url, &args).spawn().unwrap();
    let mut eng_out = Lines::new(eng.stdout.take().unwrap());
    let status = wait(&mut eng, Duration::from_secs(120), "the engine");
    let out = eng_out.rest(Duration::from_secs(5));
    let err = stderr_of(&mut eng);
    assert!(status.success(), "{err}");
    assert!(wait(&mut bot, Duration::from_secs(60), "the bot").success());
    let result = out
        .iter()
        .find(|l| l.starts_with("result: "))
        .unwrap_or_else(|| panic!("{out:#?}"));
    assert!(result.ends_with("seat resigned"), "{result}");
    // One stone of the engine's, its evaluation read, then the policy.
    assert_eq!(err.matches("(engine)").count(), 1, "{err}");
    assert!(err.contains("ev -5000"), "{err}");
    assert!(err.contains("played Resign (policy)"), "{err}");
    assert!(!err.contains("engine failed"), "{err}");
}

#[test]
fn bad_policy_values_are_refused() {
    for (flag, value) in [("--resign", "sometimes"), ("--accept-draw", "after-move x")] {
        let out = tengen(
            "ws://127.0.0.1:9/ws",
            &["engine", "--create", flag, value, "--", "x"],
        )
        .output()
        .unwrap();
        assert!(!out.status.success());
        assert!(
            text(&out.stderr).contains("expected") || text(&out.stderr).contains("takes"),
            "{}",
            text(&out.stderr)
        );
    }
}
