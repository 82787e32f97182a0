//! `protocol/README.md` shows every example exactly as the types produce it,
//! and documents every message, error code and close code: the page cannot
//! drift from the code. (To refresh the examples after changing a type, run
//! the `print` test and update the page.)

mod common;

use common::*;
use tengen_protocol::*;

fn readme() -> String {
    std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md")).unwrap()
}

fn assert_shown(readme: &str, line: &str) {
    assert!(
        readme.lines().any(|l| l.contains(line)),
        "README.md lacks the example:\n{line}\n(run: cargo test -p tengen-protocol --test print -- --ignored --nocapture)"
    );
}

#[test]
fn every_message_example_is_shown_exactly() {
    let r = readme();
    for f in client_examples() {
        assert_shown(&r, &json(&f));
    }
    for f in server_examples() {
        assert_shown(&r, &json(&f));
    }
}

#[test]
fn the_walkthrough_is_shown_exactly_and_in_order() {
    let r = readme();
    let mut from = 0;
    for said in walkthrough() {
        let line = match said {
            Said::Client(who, f) => format!("{who} -> {}", json(&f)),
            Said::Server(to, f) => format!("-> {to}: {}", json(&f)),
        };
        let at = r[from..].find(&line).unwrap_or_else(|| {
            panic!("README.md lacks, or misplaces, the walk-through line:\n{line}")
        });
        from += at + line.len();
    }
}

#[test]
fn game_values_and_refusals_are_shown_exactly() {
    let r = readme();
    for v in game_values() {
        assert_shown(&r, &v);
    }
    for e in game_errors() {
        assert_shown(&r, &format!("| `{}` | {} |", json(&e), e));
    }
}

#[test]
fn every_type_code_and_limit_is_documented() {
    let r = readme();
    for t in ClientMsg::TYPES.iter().chain(ServerMsg::TYPES) {
        assert!(r.contains(&format!("\n### `{t}`\n")), "no section for {t}");
    }
    for t in ClientMsg::TYPES {
        assert!(
            r.contains(&format!("| `{t}` |")),
            "{t} missing from the request table"
        );
    }
    for code in ErrorCode::ALL {
        assert!(
            r.contains(&format!("| `{code}` |")),
            "error code {code} undocumented"
        );
    }
    for c in CloseCode::ALL {
        assert!(
            r.contains(&format!("| {} |", c.code())),
            "close code {c:?} undocumented"
        );
    }
    for name in RESERVED_CLIENT_TYPES.iter().chain(RESERVED_SERVER_TYPES) {
        assert!(
            r.contains(&format!("`{name}`")),
            "reserved {name} not listed"
        );
    }
    let l = Limits::DEFAULT;
    for (name, value) in [
        ("max_frame_bytes", l.max_frame_bytes as u64),
        ("rate_per_sec", l.rate_per_sec as u64),
        ("rate_burst", l.rate_burst as u64),
        ("idle_timeout_ms", l.idle_timeout_ms),
        ("max_seats", l.max_seats as u64),
        ("max_watch", l.max_watch as u64),
    ] {
        assert!(
            r.contains(&format!("| `{name}` | {value} |")),
            "limit {name}"
        );
    }
    assert!(r.contains(&format!("Protocol version: **{PROTOCOL_VERSION}**")));
    assert!(r.contains(&format!("close 1009 beyond {MAX_WS_MESSAGE_BYTES}")));
    assert!(r.contains(&format!("{} rooms in one `rooms`", MAX_ROOMS_LISTED)));
    assert!(r.contains(&format!("`hello` within {} s", HELLO_TIMEOUT_MS / 1000)));
    assert!(r.contains(&format!("deeper than {MAX_DEPTH}")));
    assert!(r.contains(&format!("`{WS_PATH}` path")));
}

#[test]
fn the_messagepack_example_is_exact() {
    let bytes = encode_client(
        &Envelope::with_id(Some(7), ClientMsg::Ping),
        Encoding::MsgPack,
    );
    let hex: Vec<String> = bytes.iter().map(|b| format!("{b:02x}")).collect();
    let r = readme().replace("\n", " ");
    assert!(r.contains(&format!("the {} bytes `{}`", bytes.len(), hex.join(" "))));
}
