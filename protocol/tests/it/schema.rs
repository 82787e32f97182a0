//! The committed reference (`protocol/schema/`) is what the types make:
//! change a message and this test fails until the reference is
//! regenerated, so a client author never reads a stale one.
//!
//! Regenerate: `REGENERATE=1 cargo test -p tengen-protocol --test it schema::`.

use crate::common;

use std::path::PathBuf;

use common::schema::{example_frames, validator};
use serde_json::{Value, json};
use tengen_protocol::{schema, typescript};

const REGENERATE: &str = "REGENERATE=1 cargo test -p tengen-protocol --test it schema::";

fn path(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("schema")
        .join(name)
}

/// Writes `text` to `name` when regenerating; otherwise fails unless the
/// committed file holds exactly `text`, naming the first differing line.
fn check(name: &str, text: &str) {
    let file = path(name);
    if std::env::var_os("REGENERATE").is_some() {
        std::fs::write(&file, text).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
        return;
    }
    let committed = std::fs::read_to_string(&file).unwrap_or_default();
    if committed == text {
        return;
    }
    let line = committed
        .lines()
        .zip(text.lines())
        .position(|(a, b)| a != b)
        .unwrap_or_else(|| committed.lines().count().min(text.lines().count()));
    panic!(
        "protocol/schema/{name} is not what the types make (first difference at line {}: \
         committed {:?}, generated {:?}).\nThe protocol's types changed: regenerate the reference with\n  {REGENERATE}\nand commit it.",
        line + 1,
        committed.lines().nth(line).unwrap_or("<end>"),
        text.lines().nth(line).unwrap_or("<end>"),
    );
}

#[test]
fn the_committed_reference_is_what_the_types_make() {
    let schema = schema::json_schema();
    let mut json = serde_json::to_string_pretty(&schema).unwrap();
    json.push('\n');
    check("tengen.schema.json", &json);
    check("tengen.d.ts", &typescript::typescript(&schema));
}

fn errors(validator: &jsonschema::Validator, frame: &Value) -> Vec<String> {
    validator
        .iter_errors(frame)
        .map(|e| format!("{e} at {}", e.instance_path()))
        .collect()
}

#[test]
fn the_schema_is_valid_json_schema() {
    let schema = schema::json_schema();
    if let Err(e) = jsonschema::meta::validate(&schema) {
        panic!("the generated schema breaks the 2020-12 meta-schema: {e}");
    }
}

/// Every example message the guide and the codec tests are built from
/// (every client and server message, the walk-throughs' frames) is valid
/// against the schema, in its direction.
#[test]
fn every_example_frame_is_valid() {
    let (client, server) = (validator("ClientFrame"), validator("ServerFrame"));
    let frames: Vec<(bool, Value)> = example_frames()
        .into_iter()
        .map(|(from_client, f)| (from_client, serde_json::from_str(&f).unwrap()))
        .collect();
    assert!(frames.len() > 300, "{} frames", frames.len());
    for (from_client, frame) in &frames {
        let v = if *from_client { &client } else { &server };
        let e = errors(v, frame);
        assert!(e.is_empty(), "{frame}\n{}", e.join("\n"));
    }
}

/// The schema is not a blank cheque: frames a server would refuse, or
/// never write, are invalid.
#[test]
fn frames_off_the_wire_form_are_invalid() {
    let (client, server) = (validator("ClientFrame"), validator("ServerFrame"));
    let act = |action: Value| json!({ "type": "act", "table": "t1", "action": action, "id": 3 });
    assert!(errors(&client, &act(json!({ "type": "place", "point": "h8" }))).is_empty());
    let bad_client = [
        json!({ "type": "teleport" }),
        json!({ "type": "join_room" }),
        json!({ "type": "join_room", "room": "UPPER" }),
        json!({ "type": "ping", "id": -1 }),
        act(json!({ "type": "place", "point": "H0" })),
        act(json!({ "type": "place", "point": { "x": 7, "y": 7 } })),
        act(json!({ "type": "resign", "seat": "first" })),
        act(
            json!({ "type": "offer_fifths", "points": ["A1","A2","A3","A4","A5","A6","A7","A8","A9","A10","A11"] }),
        ),
        json!({ "type": "create_room", "config": { "rule_set": "renju", "opening": "free", "board_size": 15 } }),
        json!({ "type": "watch", "table": "t1", "since": "3" }),
    ];
    for frame in bad_client {
        assert!(!errors(&client, &frame).is_empty(), "accepted: {frame}");
    }
    let pong = json!({ "type": "pong", "time_ms": 5 });
    assert!(errors(&server, &pong).is_empty());
    let bad_server = [
        json!({ "type": "pong" }),
        json!({ "type": "error", "code": "other", "message": "?" }),
        json!({ "type": "error", "code": "rate_limited", "message": "?", "retry_after_ms": null }),
        json!({ "type": "acted", "table": "t1", "seq": 2, "id": null }),
        json!({ "type": "joined", "room": "r1", "seat": "third" }),
    ];
    for frame in bad_server {
        assert!(!errors(&server, &frame).is_empty(), "accepted: {frame}");
    }
}
