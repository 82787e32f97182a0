//! `protocol/README.md` shows every example exactly as the types produce it,
//! and documents every message, error code and close code: the page cannot
//! drift from the code. (To refresh the examples after changing a type, run
//! the `print` test and update the page.)

use crate::common;

use common::*;
use tengen_protocol::*;

fn readme() -> String {
    std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md")).unwrap()
}

fn assert_shown(readme: &str, line: &str) {
    assert!(
        readme.lines().any(|l| l.contains(line)),
        "README.md lacks the example:\n{line}\n(run: cargo test -p tengen-protocol --test it print:: -- --ignored --nocapture)"
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

/// Each line of `walk` is found in `readme` after `heading`, in order.
fn assert_walk_in_order(readme: &str, heading: &str, walk: Vec<Said>) {
    let mut from = readme
        .find(heading)
        .unwrap_or_else(|| panic!("README.md lacks the heading {heading}"));
    for said in walk {
        let line = match said {
            Said::Client(who, f) => format!("{who} -> {}", json(&f)),
            Said::Server(to, f) => format!("-> {to}: {}", json(&f)),
        };
        let at = readme[from..].find(&line).unwrap_or_else(|| {
            panic!("README.md lacks, or misplaces, the walk-through line:\n{line}")
        });
        from += at + line.len();
    }
}

#[test]
fn the_walkthrough_is_shown_exactly_and_in_order() {
    assert_walk_in_order(
        &readme(),
        "\n## Walk-through: a renju game, free opening\n",
        walkthrough(),
    );
}

#[test]
fn the_rif_walkthrough_is_shown_exactly_and_in_order() {
    assert_walk_in_order(
        &readme(),
        "\n## Walk-through: a renju game with the RIF opening\n",
        rif_walkthrough(),
    );
    let (moves, board) = rif_final();
    let r = readme();
    assert!(
        r.contains(&moves),
        "README.md lacks the RIF game's moves:\n{moves}"
    );
    assert!(
        r.contains(&board),
        "README.md lacks the RIF game's board:\n{board}"
    );
}

#[test]
fn the_reconnection_walkthrough_is_shown_exactly_and_in_order() {
    assert_walk_in_order(&readme(), "\n## Reconnecting\n", reconnect_walkthrough());
}

#[test]
fn the_chat_and_rematch_walkthrough_is_shown_exactly_and_in_order() {
    assert_walk_in_order(
        &readme(),
        "\n## Chat and rematch\n",
        chat_rematch_walkthrough(),
    );
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

/// The variants of `pub enum {name}` in a source file of the rules crate,
/// in snake case, or as a `#[serde(rename = "...")]` line just above one
/// says: the wire names of its values.
fn wire_names(file: &str, name: &str) -> Vec<String> {
    let path = format!("{}/../rules/src/{file}", env!("CARGO_MANIFEST_DIR"));
    let src = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let start = src
        .find(&format!("pub enum {name} {{"))
        .unwrap_or_else(|| panic!("no enum {name} in {path}"));
    let mut names = Vec::new();
    let mut renamed = None;
    for line in src[start..].lines().skip(1) {
        if line == "}" {
            break;
        }
        if let Some(r) = line.trim().strip_prefix("#[serde(rename = \"") {
            renamed = r.split('"').next().map(str::to_string);
            continue;
        }
        let Some(rest) = line.strip_prefix("    ") else {
            continue;
        };
        if let Some(wire) = renamed.take() {
            names.push(wire);
            continue;
        }
        let ident: String = rest
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric())
            .collect();
        if !ident.starts_with(|c: char| c.is_ascii_uppercase()) {
            continue;
        }
        let mut snake = String::new();
        for (i, c) in ident.chars().enumerate() {
            if c.is_ascii_uppercase() {
                if i > 0 {
                    snake.push('_');
                }
                snake.push(c.to_ascii_lowercase());
            } else {
                snake.push(c);
            }
        }
        names.push(snake);
    }
    assert!(!names.is_empty(), "no variants of {name} in {path}");
    names
}

/// Every value of the rules' wire enums (a new opening rule adds some) has
/// an example on the page, and those examples are checked above to be
/// exactly what the types produce.
#[test]
fn every_rules_value_has_an_example() {
    let r = readme();
    let has = |what: &str, pattern: String| {
        assert!(
            r.contains(&pattern),
            "README.md has no example of the {what} ({pattern})"
        )
    };
    for o in wire_names("game/opening_rule.rs", "Opening") {
        let plain = format!("\"opening\":\"{o}\"");
        let with_n = format!("\"opening\":{{\"{o}\":");
        assert!(
            r.contains(&plain) || r.contains(&with_n),
            "README.md has no configuration with the opening {o}"
        );
    }
    for o in wire_names("game/opening_rule.rs", "TaraguchiOption") {
        has("Taraguchi option", format!("\"option\":\"{o}\""));
    }
    for a in wire_names("game/action.rs", "Action") {
        has("action", format!("{{\"type\":\"{a}\""));
    }
    for k in wire_names("game/action.rs", "ActionKind") {
        has("action kind", format!("\"{k}\""));
    }
    for t in wire_names("game/action.rs", "Task") {
        has("task", format!("\"task\":\"{t}\""));
    }
    for e in wire_names("game/event.rs", "Event") {
        has("event", format!("{{\"type\":\"{e}\""));
    }
    for k in wire_names("game/event.rs", "ResultReason") {
        assert!(
            r.contains(&format!("`{k}`")),
            "result reason {k} undocumented"
        );
    }
    for c in wire_names("game/error.rs", "GameError") {
        has("refusal", format!("| `{{\"code\":\"{c}\""));
    }
}
