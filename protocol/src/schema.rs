//! The protocol's reference, generated from the types: a JSON Schema of
//! every frame both ways (TypeScript declarations are made from it by
//! [`crate::typescript`]).
//!
//! Why generated: a reference written by hand drifts from the types the
//! server really speaks; one derived from them cannot. The derives
//! (`schemars`, behind the `schema` feature here and in the rules crate)
//! read the same serde attributes the codec obeys, and the few values with
//! hand-written serde (points, offer sets, ids) describe themselves by
//! hand beside that serde. The committed files,
//! `protocol/schema/tengen.schema.json` and `protocol/schema/tengen.d.ts`,
//! are compared with these functions' output by a test that fails, saying
//! how to regenerate them, whenever a type changes.
//!
//! Each direction is described as it is on the wire: server frames as the
//! server writes them (the serialize contract: a field that may be left out
//! is never `null`, a field that is always written is required), client
//! frames as the server reads them (the deserialize contract: a field that
//! takes a default may be left out). A field that may be left out is
//! never `null` in either. A type whose two forms differ (a
//! configuration's defaults, a point's accepted spellings) gets a second
//! definition named `…Input`, used by client frames only; any value of the
//! plain form is a valid input.

use std::collections::{BTreeMap, BTreeSet};

use schemars::JsonSchema;
use schemars::generate::SchemaSettings;
use serde_json::{Map, Value, json};

use crate::client::ClientMsg;
use crate::close::CloseCode;
use crate::codec::{ClientFrame, ServerFrame};
use crate::server::ServerMsg;

/// Where the definitions of the generated schema live.
pub(crate) const DEFS: &str = "#/$defs/";

/// The suffix of a definition's client (deserialize) form, where it differs.
pub const INPUT_SUFFIX: &str = "Input";

/// The whole reference as one JSON Schema (draft 2020-12): `$defs` holds
/// `ClientFrame` (what a client may send) and `ServerFrame` (what a server
/// sends), their message unions `ClientMsg` and `ServerMsg`, and every type
/// they carry. The root accepts a frame of either direction.
pub fn json_schema() -> Value {
    let server = contract::<ServerMsg, ServerFrame>(SchemaSettings::draft2020_12().for_serialize());
    let client =
        contract::<ClientMsg, ClientFrame>(SchemaSettings::draft2020_12().for_deserialize());
    let mut defs = merge(server, client);
    defs.insert("CloseCode".into(), close_codes());
    for def in defs.values_mut() {
        clean_docs(def);
    }
    json!({
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$comment": "Generated from tengen-protocol's types; do not edit (protocol/README.md says how to regenerate).",
        "title": format!("The Tengen wire protocol, version {}", crate::PROTOCOL_VERSION),
        "description": "Every frame of the Tengen WebSocket protocol: `ClientFrame` is what a client may send, `ServerFrame` what a server sends. JSON in text frames; MessagePack (maps with the same names) in binary frames. `CloseCode` lists the codes the server closes the WebSocket with.",
        "anyOf": [
            { "$ref": format!("{DEFS}ClientFrame") },
            { "$ref": format!("{DEFS}ServerFrame") },
        ],
        "$defs": defs,
    })
}

/// The schema of one frame type `Frame` (an envelope around `Msg`) under
/// `settings`: `Msg`'s definitions, with `Frame` as `ClientFrame` or
/// `ServerFrame`: the message union plus the envelope's `id`.
fn contract<Msg: JsonSchema, Frame: JsonSchema>(settings: SchemaSettings) -> Map<String, Value> {
    let serialize = settings.contract.is_serialize();
    let mut generator = settings.into_generator();
    let msg_ref = generator.subschema_for::<Msg>();
    let envelope = generator.root_schema_for::<Frame>();
    let mut defs = generator.take_definitions(true);
    let frame_name = format!("{}Frame", Msg::schema_name().trim_end_matches("Msg"));
    let mut id = envelope
        .get("properties")
        .and_then(|p| p.get("id"))
        .cloned()
        .expect("the envelope has an id");
    if let Some(id) = id.as_object_mut() {
        id.insert(
            "description".into(),
            if serialize {
                "The `id` of the request this frame answers; absent on pushes."
            } else {
                "A number of the client's choosing (below 2^53 for JavaScript's sake), echoed in the reply."
            }
            .into(),
        );
    }
    defs.insert(
        frame_name,
        json!({
            "description": envelope.get("description").cloned().unwrap_or_default(),
            "type": "object",
            "$ref": msg_ref.get("$ref").cloned().expect("a message union is a definition"),
            "properties": { "id": id },
        }),
    );
    for def in defs.values_mut() {
        never_null_when_left_out(def);
    }
    defs
}

/// The WebSocket close codes, as numbers, each with its documentation and
/// whether a client should reconnect by itself. Not a frame, but a client
/// acts on them as on error codes.
fn close_codes() -> Value {
    let mut generator = SchemaSettings::draft2020_12().into_generator();
    let mut schema = generator.root_schema_for::<CloseCode>().to_value();
    let variants = schema
        .get_mut("oneOf")
        .and_then(Value::as_array_mut)
        .expect("close codes are a oneOf of documented variants");
    for variant in variants.iter_mut() {
        let name = variant["const"].as_str().expect("a variant's name");
        let code = CloseCode::ALL
            .into_iter()
            .find(|c| format!("{c:?}") == name)
            .expect("every variant is in CloseCode::ALL");
        let doc = variant["description"].as_str().unwrap_or_default();
        let doc = doc
            .strip_prefix(&format!("{}: ", code.code()))
            .unwrap_or(doc);
        let mut chars = doc.chars();
        let doc: String = chars
            .next()
            .map(|c| c.to_uppercase().chain(chars).collect())
            .unwrap_or_default();
        let advice = if code.should_reconnect() && !doc.to_lowercase().contains("reconnect") {
            " Reconnect (with backoff)."
        } else {
            ""
        };
        *variant = json!({
            "description": format!("{doc}{advice}"),
            "type": "integer",
            "const": code.code(),
        });
    }
    json!({
        "description": "Why the server closed the WebSocket (the close frame's code; the reason text is for people).",
        "oneOf": variants,
    })
}

/// A field that may be left out is left out, never written as `null`: so
/// the server writes every such field (`skip_serializing_if`), and so the
/// reference tells clients to send them (the server also reads a `null`
/// there as absent, but one way of writing a value is enough).
fn never_null_when_left_out(schema: &mut Value) {
    let Some(object) = schema.as_object_mut() else {
        return;
    };
    let required: BTreeSet<String> = object
        .get("required")
        .and_then(Value::as_array)
        .map(|r| {
            r.iter()
                .filter_map(Value::as_str)
                .map(String::from)
                .collect()
        })
        .unwrap_or_default();
    if let Some(Value::Object(properties)) = object.get_mut("properties") {
        for (name, property) in properties.iter_mut() {
            if !required.contains(name) {
                drop_null(property);
            }
        }
    }
    for value in object.values_mut() {
        match value {
            Value::Array(items) => items.iter_mut().for_each(never_null_when_left_out),
            Value::Object(_) => never_null_when_left_out(value),
            _ => {}
        }
    }
}

/// Removes `null` from a schema's alternatives (`"type": [T, "null"]` or
/// `anyOf: [.., {"type": "null"}]`).
fn drop_null(schema: &mut Value) {
    let Some(object) = schema.as_object_mut() else {
        return;
    };
    if let Some(Value::Array(types)) = object.get_mut("type") {
        types.retain(|t| t != "null");
        if types.len() == 1 {
            let only = types[0].clone();
            object.insert("type".into(), only);
        }
    }
    if let Some(Value::Array(alternatives)) = object.get("anyOf") {
        let kept: Vec<Value> = alternatives
            .iter()
            .filter(|a| a.get("type").and_then(Value::as_str) != Some("null"))
            .cloned()
            .collect();
        if kept.len() == 1 {
            object.remove("anyOf");
            if let Value::Object(only) = &kept[0] {
                for (k, v) in only {
                    object.entry(k.clone()).or_insert_with(|| v.clone());
                }
            }
        } else {
            object.insert("anyOf".into(), Value::Array(kept));
        }
    }
}

/// The two contracts' definitions as one set: a definition identical in
/// both is kept once; one that differs (or refers to one that differs)
/// keeps its server form under its name and its client form as `…Input`,
/// to which the client's definitions then refer.
fn merge(server: Map<String, Value>, client: Map<String, Value>) -> Map<String, Value> {
    let mut differ: BTreeSet<String> = BTreeSet::new();
    let renamed = |differ: &BTreeSet<String>| -> BTreeMap<String, Value> {
        client
            .iter()
            .map(|(name, def)| {
                let mut def = def.clone();
                rename_refs(&mut def, differ);
                (name.clone(), def)
            })
            .collect()
    };
    // A fixpoint: a definition that refers to a differing one differs too.
    let client = loop {
        let client = renamed(&differ);
        let more: BTreeSet<String> = client
            .iter()
            .filter(|(name, def)| server.get(*name).is_some_and(|s| s != *def))
            .map(|(name, _)| name.clone())
            .collect();
        if more.is_subset(&differ) {
            break client;
        }
        differ.extend(more);
    };
    let mut defs = server;
    for (name, def) in client {
        let key = if differ.contains(&name) {
            format!("{name}{INPUT_SUFFIX}")
        } else {
            name
        };
        if let Some(existing) = defs.get(&key) {
            assert_eq!(existing, &def, "two different definitions named {key}");
        }
        defs.insert(key, def);
    }
    defs
}

/// Points every `$ref` to a definition in `differ` at its `…Input` form.
fn rename_refs(schema: &mut Value, differ: &BTreeSet<String>) {
    match schema {
        Value::Object(object) => {
            if let Some(Value::String(target)) = object.get_mut("$ref")
                && let Some(name) = target.strip_prefix(DEFS)
                && differ.contains(name)
            {
                *target = format!("{DEFS}{name}{INPUT_SUFFIX}");
            }
            object
                .values_mut()
                .for_each(|value| rename_refs(value, differ));
        }
        Value::Array(items) => items.iter_mut().for_each(|v| rename_refs(v, differ)),
        _ => {}
    }
}

/// The Rust constants the types' documentation names, by value: a client
/// author reads the number, not the name of a constant they cannot see.
fn constants() -> BTreeMap<&'static str, String> {
    use crate::limits::*;
    use tengen_rules::game::{JONSSON_MAX_OFFERS, MAX_FIFTH_OFFERS, SUPER_SAKATA_MAX_ROUNDS};
    [
        ("MAX_ROOMS_LISTED", MAX_ROOMS_LISTED.to_string()),
        ("MAX_FRAME_BYTES", MAX_FRAME_BYTES.to_string()),
        ("MAX_WS_MESSAGE_BYTES", MAX_WS_MESSAGE_BYTES.to_string()),
        ("MAX_LEADERBOARD", MAX_LEADERBOARD.to_string()),
        ("MAX_RATING_POINTS", MAX_RATING_POINTS.to_string()),
        ("HELLO_TIMEOUT_MS", HELLO_TIMEOUT_MS.to_string()),
        ("PROTOCOL_VERSION", crate::PROTOCOL_VERSION.to_string()),
        ("MAX_FIFTH_OFFERS", MAX_FIFTH_OFFERS.to_string()),
        ("JONSSON_MAX_OFFERS", JONSSON_MAX_OFFERS.to_string()),
        (
            "SUPER_SAKATA_MAX_ROUNDS",
            SUPER_SAKATA_MAX_ROUNDS.to_string(),
        ),
        (
            "MAX_AUDIT_ENTRIES",
            crate::moderation::MAX_AUDIT_ENTRIES.to_string(),
        ),
        (
            "MAX_SWISS_ROUNDS",
            crate::tournament::MAX_SWISS_ROUNDS.to_string(),
        ),
        (
            "MAX_WAIT_SECS",
            crate::tournament::MAX_WAIT_SECS.to_string(),
        ),
        (
            "DEFAULT_WAIT_SECS",
            crate::tournament::DEFAULT_WAIT_SECS.to_string(),
        ),
        (
            "MIN_ARENA_SECS",
            crate::tournament::MIN_ARENA_SECS.to_string(),
        ),
        (
            "MAX_ARENA_SECS",
            crate::tournament::MAX_ARENA_SECS.to_string(),
        ),
    ]
    .into_iter()
    .collect()
}

/// Rewrites the types' documentation for readers of the wire: paragraphs
/// on one line each, and rustdoc's links (`[`Action::Swap`]`) as the wire
/// names they stand for (`swap`), constants as their values.
fn clean_docs(schema: &mut Value) {
    let constants = constants();
    fn walk(schema: &mut Value, constants: &BTreeMap<&'static str, String>) {
        match schema {
            Value::Object(object) => {
                for (key, value) in object.iter_mut() {
                    if key == "description"
                        && let Value::String(text) = value
                    {
                        *text = clean_text(text, constants);
                    } else if key != "examples" && key != "default" && key != "const" {
                        walk(value, constants);
                    }
                }
            }
            Value::Array(items) => items.iter_mut().for_each(|v| walk(v, constants)),
            _ => {}
        }
    }
    walk(schema, &constants);
}

fn clean_text(text: &str, constants: &BTreeMap<&'static str, String>) -> String {
    let paragraphs: Vec<String> = text
        .split("\n\n")
        .map(|p| p.split_whitespace().collect::<Vec<_>>().join(" "))
        .collect();
    let mut out = paragraphs.join("\n\n");
    while let Some(start) = out.find("[`") {
        let Some(len) = out[start..].find("`]") else {
            break;
        };
        let inner = out[start + 2..start + len].to_string();
        out.replace_range(start..start + len + 2, &wire_name(&inner, constants));
    }
    out
}

/// What a rustdoc link names, as a client sees it: a constant's value, an
/// enum variant's wire name, a field as `type.field`, a type's name.
fn wire_name(path: &str, constants: &BTreeMap<&'static str, String>) -> String {
    let segments: Vec<&str> = path
        .split("::")
        .filter(|s| !matches!(*s, "crate" | "super" | "self" | "tengen_rules" | "game"))
        .collect();
    let last = segments.last().copied().unwrap_or(path);
    if let Some(value) = constants.get(last) {
        let unit = match last.rsplit('_').next() {
            Some("MS") => " ms",
            Some("BYTES") => " bytes",
            Some("SECS") => " s",
            _ => "",
        };
        return format!("{value}{unit}");
    }
    match segments.as_slice() {
        [_, member] if member.starts_with(char::is_uppercase) => {
            format!("`{}`", snake_case(member))
        }
        [ty, member] => format!("`{ty}.{member}`"),
        _ => format!("`{last}`"),
    }
}

/// `PlaceTwo` as serde's `rename_all = "snake_case"` writes it; `Yamaguchi52`
/// is the one variant renamed by hand (`yamaguchi_52`).
fn snake_case(ident: &str) -> String {
    if ident == "Yamaguchi52" {
        return "yamaguchi_52".into();
    }
    let mut out = String::new();
    for (i, c) in ident.chars().enumerate() {
        if c.is_ascii_uppercase() {
            if i > 0 {
                out.push('_');
            }
            out.push(c.to_ascii_lowercase());
        } else {
            out.push(c);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rustdoc_links_become_wire_names() {
        let c = constants();
        assert_eq!(
            clean_text(
                "Take [`Action::PlaceTwo`]\nor [`crate::MAX_ROOMS_LISTED`].",
                &c
            ),
            "Take `place_two` or 500."
        );
        assert_eq!(
            clean_text("See [`TableSnapshot::forbidden`].\n\nNext.", &c),
            "See `TableSnapshot.forbidden`.\n\nNext."
        );
        assert_eq!(clean_text("[`Opening::Yamaguchi52`]", &c), "`yamaguchi_52`");
    }

    #[test]
    fn left_out_fields_lose_null() {
        let mut s = json!({
            "type": "object",
            "properties": {
                "a": { "type": ["integer", "null"] },
                "b": { "anyOf": [{ "$ref": "#/$defs/X" }, { "type": "null" }] },
                "c": { "type": ["integer", "null"] },
            },
            "required": ["c"],
        });
        never_null_when_left_out(&mut s);
        assert_eq!(s["properties"]["a"], json!({ "type": "integer" }));
        assert_eq!(s["properties"]["b"], json!({ "$ref": "#/$defs/X" }));
        assert_eq!(s["properties"]["c"], json!({ "type": ["integer", "null"] }));
    }

    #[test]
    fn differing_forms_split_and_spread_to_their_users() {
        let server = json!({
            "A": { "type": "string", "pattern": "^[A-S]$" },
            "B": { "type": "object", "properties": { "a": { "$ref": "#/$defs/A" } } },
            "C": { "type": "integer" },
        });
        let client = json!({
            "A": { "type": "string" },
            "B": { "type": "object", "properties": { "a": { "$ref": "#/$defs/A" } } },
            "C": { "type": "integer" },
            "D": { "$ref": "#/$defs/B" },
        });
        let merged = merge(
            server.as_object().unwrap().clone(),
            client.as_object().unwrap().clone(),
        );
        let names: Vec<&str> = merged.keys().map(String::as_str).collect();
        assert_eq!(names, ["A", "AInput", "B", "BInput", "C", "D"]);
        assert_eq!(
            merged["BInput"]["properties"]["a"]["$ref"],
            "#/$defs/AInput"
        );
        assert_eq!(merged["B"]["properties"]["a"]["$ref"], "#/$defs/A");
        assert_eq!(merged["D"]["$ref"], "#/$defs/BInput");
    }
}
