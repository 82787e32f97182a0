//! `protocol/README.md`, the client author's guide, cannot drift from the
//! code: every frame it shows is one the types make and is valid against
//! the generated schema, its walk-throughs are shown whole and in order,
//! and every error code, close code and limit is in it. (To refresh its
//! frames after changing a type, run the `print` test and paste.)

use crate::common;

use common::schema::{example_frames, validator};
use common::*;
use serde_json::Value;
use tengen_protocol::*;

fn readme() -> String {
    std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md")).unwrap()
}

/// How the guide shows a frame: sent by a client, received by clients, or
/// on its own.
#[derive(Debug)]
enum Shown {
    Sent(String),
    Received(String),
    Alone(String),
}

/// Every frame in the guide's code blocks.
fn shown_frames(readme: &str) -> Vec<Shown> {
    let mut frames = Vec::new();
    let mut in_block = false;
    for line in readme.lines() {
        if line.starts_with("```") {
            in_block = !in_block;
            continue;
        }
        if !in_block {
            continue;
        }
        if let Some((who, json)) = line.split_once(" -> ")
            && !who.contains(' ')
        {
            frames.push(Shown::Sent(json.to_string()));
        } else if let Some(rest) = line.strip_prefix("-> ") {
            let (_, json) = rest.split_once(": ").expect("`-> who: {...}`");
            frames.push(Shown::Received(json.to_string()));
        } else if line.starts_with('{') {
            frames.push(Shown::Alone(line.to_string()));
        }
    }
    frames
}

#[test]
fn every_frame_shown_is_made_by_the_types_and_valid() {
    let r = readme();
    let frames = shown_frames(&r);
    assert!(frames.len() > 80, "{} frames", frames.len());
    let made: Vec<String> = example_frames().into_iter().map(|(_, f)| f).collect();
    let (client, server) = (validator("ClientFrame"), validator("ServerFrame"));
    for frame in &frames {
        let (text, validators): (&str, Vec<&jsonschema::Validator>) = match frame {
            Shown::Sent(t) => (t, vec![&client]),
            Shown::Received(t) => (t, vec![&server]),
            Shown::Alone(t) => (t, vec![&client, &server]),
        };
        assert!(
            made.iter().any(|m| m == text),
            "README.md shows a frame the types do not make (run the print test):\n{text}"
        );
        let value: Value = serde_json::from_str(text).unwrap();
        assert!(
            validators.iter().any(|v| v.is_valid(&value)),
            "README.md shows a frame the schema does not allow:\n{text}"
        );
    }
}

/// Each line of `walk` is found in `readme` after `heading`, in order.
fn assert_walk_in_order(readme: &str, heading: &str, walk: Vec<Said>) {
    let mut from = readme
        .find(heading)
        .unwrap_or_else(|| panic!("README.md lacks {heading:?}"));
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
fn the_walkthroughs_are_shown_whole_and_in_order() {
    let r = readme();
    assert_walk_in_order(&r, "\n### The walk-through\n", walkthrough());
    assert_walk_in_order(&r, "\n## Opening rules\n", rif_opening());
    assert_walk_in_order(&r, "\n## Reconnecting\n", reconnect_walkthrough());
    assert_walk_in_order(&r, "\n## Chat and rematch\n", chat_rematch_walkthrough());
}

#[test]
fn every_code_and_limit_is_in_the_guide() {
    let r = readme();
    for code in ErrorCode::ALL {
        assert!(
            r.contains(&format!("`{code}` |")) || r.contains(&format!("`{code}`,")),
            "error code {code} is not in the errors table"
        );
    }
    for c in CloseCode::ALL {
        assert!(
            r.contains(&format!("\n| {} |", c.code())),
            "close code {c:?} is not in the close codes table"
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
    let flat = r.replace('\n', " ");
    for fact in [
        format!("Protocol version: **{PROTOCOL_VERSION}**"),
        format!("close 1009 beyond {MAX_WS_MESSAGE_BYTES} bytes"),
        format!("at most {MAX_ROOMS_LISTED} rooms in one `rooms`"),
        format!("`hello` within {} s", HELLO_TIMEOUT_MS / 1000),
        format!("deeper than {MAX_DEPTH} in MessagePack (JSON: {MAX_JSON_DEPTH})"),
        format!("`{WS_PATH}` path"),
    ] {
        assert!(flat.contains(&fact), "README.md lacks {fact:?}");
    }
    // Every task a prompt may carry has its row in the guide's table.
    let schema = tengen_protocol::schema::json_schema();
    let tasks = schema["$defs"]["Prompt"]["oneOf"].as_array().unwrap();
    for task in tasks {
        let name = task["properties"]["task"]["const"].as_str().unwrap();
        assert!(r.contains(&format!("| `{name}` |")), "task {name}");
    }
}

/// The guide is short, points at the reference and the example client on
/// its first screen, and keeps the anchors other documents link to.
#[test]
fn the_guide_is_short_and_points_at_the_reference() {
    let r = readme();
    let lines = r.lines().count();
    assert!(lines <= 620, "README.md has {lines} lines: keep it a guide");
    let first_screen: String = r.lines().take(30).collect::<Vec<_>>().join("\n");
    for link in [
        "(schema/tengen.schema.json)",
        "(schema/tengen.d.ts)",
        "(examples/readme_client.py)",
    ] {
        assert!(first_screen.contains(link), "the first screen lacks {link}");
        let path = format!(
            "{}/{}",
            env!("CARGO_MANIFEST_DIR"),
            link.trim_matches(['(', ')'])
        );
        assert!(std::path::Path::new(&path).exists(), "{path}");
    }
    for heading in [
        "## Accounts and ranked play",
        "## Moderation",
        "### `become_bot`",
        "## Twin rooms",
        "### When a node or Redis fails",
        "## Reconnecting",
        "## Order of messages",
        "## Limits",
        "## Tournaments",
    ] {
        assert!(
            r.contains(&format!("\n{heading}\n")),
            "README.md lacks {heading:?}, which other documents link to"
        );
    }
}

#[test]
fn the_messagepack_example_is_exact() {
    let bytes = encode_client(
        &Envelope::with_id(Some(7), ClientMsg::Ping),
        Encoding::MsgPack,
    );
    let hex: Vec<String> = bytes.iter().map(|b| format!("{b:02x}")).collect();
    let r = readme().replace('\n', " ");
    assert!(r.contains(&format!("the {} bytes `{}`", bytes.len(), hex.join(" "))));
}
