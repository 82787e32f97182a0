//! TypeScript declarations read off the generated JSON Schema.
//!
//! Why from the schema and not from a second derive (ts-rs): the schema
//! already says exactly what is on the wire in each direction (which
//! fields may be left out, which are never `null`, the `…Input` forms), and
//! declarations converted from it agree with it by construction; a second
//! derive would repeat every serde attribute in its own dialect (64-bit
//! integers as `number`, skipped fields as optional) and could disagree.
//! The schema uses a small, known part of JSON Schema; anything else stops
//! the conversion with a panic naming it, so a new construct is handled on
//! purpose, never guessed at.
//!
//! Messages are discriminated unions on `type` (`ClientMsg`, `ServerMsg`,
//! with `ClientMsgOf<"act">` picking one); plain records are interfaces;
//! documentation becomes JSDoc, defaults `@default`.

use std::collections::BTreeMap;

use serde_json::{Map, Value};

use crate::schema::{DEFS, INPUT_SUFFIX};

/// Keywords that only document or constrain a value TypeScript cannot
/// express; they are read for documentation or skipped.
const DESCRIPTIVE: &[&str] = &[
    "description",
    "default",
    "examples",
    "format",
    "minimum",
    "maximum",
    "pattern",
    "minLength",
    "maxLength",
    "title",
    "$comment",
];

/// The definitions declared first, in this order; the rest follow by name.
const FIRST: &[&str] = &[
    "ClientFrame",
    "ClientMsg",
    "ServerFrame",
    "ServerMsg",
    "CloseCode",
];

/// The declarations of every definition of `schema` (as made by
/// [`crate::schema::json_schema`]), as one `.d.ts` module.
pub fn typescript(schema: &Value) -> String {
    let defs = schema
        .get("$defs")
        .and_then(Value::as_object)
        .expect("the schema has $defs");
    let mut ts = Ts {
        defs,
        alias: BTreeMap::new(),
    };
    ts.alias_indistinct_inputs();
    let mut out = String::new();
    out.push_str(&format!(
        "// {}: TypeScript declarations of every frame.\n\
         // Generated from tengen-protocol's types (through tengen.schema.json): do\n\
         // not edit; protocol/README.md says how to regenerate.\n\
         //\n\
         // Client frames are declared as the server reads them, server frames as\n\
         // the server writes them. Where the two forms of a type differ (fields\n\
         // a client may leave out to take their default), the client's is\n\
         // `…Input`; any value of the plain type is a valid input too.\n\
         // A client ignores message types and fields it does not know.\n",
        schema
            .get("title")
            .and_then(Value::as_str)
            .unwrap_or("The Tengen wire protocol")
    ));
    let mut names: Vec<&String> = defs.keys().filter(|n| !ts.alias.contains_key(*n)).collect();
    names.sort_by_key(|n| {
        (
            FIRST.iter().position(|f| f == n).unwrap_or(FIRST.len()),
            n.to_string(),
        )
    });
    for name in names {
        out.push('\n');
        out.push_str(&ts.declaration(name, &defs[name], true));
        if name == "ClientMsg" || name == "ServerMsg" {
            out.push_str(&format!(
                "\n/** The `{name}` of one `type`: `{name}Of<\"{}\">`. */\n\
                 export type {name}Of<T extends {name}[\"type\"]> = Extract<{name}, {{ type: T }}>;\n",
                if name == "ClientMsg" { "act" } else { "table_event" }
            ));
        }
    }
    out
}

struct Ts<'a> {
    defs: &'a Map<String, Value>,
    /// `…Input` definitions declared as their plain form, because
    /// TypeScript cannot tell the two apart (a pattern, a closed object).
    alias: BTreeMap<String, String>,
}

impl Ts<'_> {
    /// Finds the `…Input` forms whose declaration, documentation aside,
    /// is the plain form's (referring to inputs already found so), until
    /// no more are found.
    fn alias_indistinct_inputs(&mut self) {
        loop {
            let found: Vec<(String, String)> = self
                .defs
                .keys()
                .filter(|n| !self.alias.contains_key(*n))
                .filter_map(|n| {
                    let plain = n.strip_suffix(INPUT_SUFFIX)?;
                    let plain_def = self.defs.get(plain)?;
                    (self.body(plain_def, false) == self.body(&self.defs[n], false))
                        .then(|| (n.clone(), plain.to_string()))
                })
                .collect();
            if found.is_empty() {
                return;
            }
            self.alias.extend(found);
        }
    }

    /// `export interface` for a plain record, `export type` for the rest.
    fn declaration(&self, name: &str, def: &Value, docs: bool) -> String {
        let mut out = doc_comment(def, 0, false);
        if is_plain_object(def) {
            out.push_str(&format!(
                "export interface {name} {}\n",
                self.object(def, 0, docs, true)
            ));
        } else {
            let body = self.body(def, docs);
            let sep = if body.starts_with('\n') { "" } else { " " };
            out.push_str(&format!("export type {name} ={sep}{body};\n"));
        }
        out
    }

    /// A definition's type, as declared at the top level.
    fn body(&self, def: &Value, docs: bool) -> String {
        self.ty(def, 0, docs)
    }

    fn ref_name(&self, target: &str) -> String {
        let name = target
            .strip_prefix(DEFS)
            .unwrap_or_else(|| panic!("a $ref outside $defs: {target}"));
        assert!(self.defs.contains_key(name), "a $ref to nothing: {target}");
        self.alias
            .get(name)
            .cloned()
            .unwrap_or_else(|| name.to_string())
    }

    /// The type of `schema`, written at indentation `depth`.
    fn ty(&self, schema: &Value, depth: usize, docs: bool) -> String {
        let object = match schema {
            Value::Bool(true) => return "unknown".into(),
            Value::Object(object) => object,
            other => panic!("a schema TypeScript is not made from: {other}"),
        };
        for key in object.keys() {
            assert!(
                DESCRIPTIVE.contains(&key.as_str())
                    || [
                        "type",
                        "properties",
                        "required",
                        "additionalProperties",
                        "items",
                        "minItems",
                        "maxItems",
                        "oneOf",
                        "anyOf",
                        "allOf",
                        "$ref",
                        "const",
                        "enum",
                    ]
                    .contains(&key.as_str()),
                "a schema keyword the TypeScript conversion does not know: {key}"
            );
        }
        let mut parts: Vec<String> = Vec::new();
        if object.contains_key("properties") || additional(object).is_some() {
            parts.push(self.object(schema, depth, docs, false));
        }
        if let Some(Value::String(target)) = object.get("$ref") {
            parts.push(self.ref_name(target));
        }
        for key in ["oneOf", "anyOf"] {
            if let Some(Value::Array(alternatives)) = object.get(key) {
                parts.push(self.union(alternatives, depth, docs, !parts.is_empty()));
            }
        }
        if let Some(Value::Array(all)) = object.get("allOf") {
            parts.extend(all.iter().map(|s| self.ty(s, depth, docs)));
        }
        if parts.is_empty() {
            parts.push(self.scalar(object, depth, docs));
        }
        parts.join(" & ")
    }

    /// A schema without structure: a constant, an enumeration, or `type`.
    fn scalar(&self, object: &Map<String, Value>, depth: usize, docs: bool) -> String {
        if let Some(value) = object.get("const") {
            return value.to_string();
        }
        if let Some(Value::Array(values)) = object.get("enum") {
            return values
                .iter()
                .map(Value::to_string)
                .collect::<Vec<_>>()
                .join(" | ");
        }
        let types: Vec<&str> = match object.get("type") {
            Some(Value::String(t)) => vec![t.as_str()],
            Some(Value::Array(ts)) => ts.iter().filter_map(Value::as_str).collect(),
            other => panic!("a schema without a type: {other:?} in {object:?}"),
        };
        types
            .iter()
            .map(|t| match *t {
                "string" => "string".to_string(),
                "integer" | "number" => "number".to_string(),
                "boolean" => "boolean".to_string(),
                "null" => "null".to_string(),
                "array" => self.array(object, depth, docs),
                "object" => "Record<string, never>".to_string(),
                other => panic!("a JSON type TypeScript is not made from: {other}"),
            })
            .collect::<Vec<_>>()
            .join(" | ")
    }

    /// `T[]`, or a tuple when the length is fixed.
    fn array(&self, object: &Map<String, Value>, depth: usize, docs: bool) -> String {
        let items = object.get("items").expect("an array schema has items");
        let item = self.ty(items, depth, docs);
        let fixed = match (object.get("minItems"), object.get("maxItems")) {
            (Some(min), Some(max)) if min == max => min.as_u64(),
            _ => None,
        };
        match fixed {
            Some(n) => format!("[{}]", vec![item; n as usize].join(", ")),
            None if item.contains(' ') => format!("({item})[]"),
            None => format!("{item}[]"),
        }
    }

    /// An object type: `{ a: T; b?: U }`, on several lines when any field
    /// is documented or the one line would be long.
    fn object(&self, schema: &Value, depth: usize, docs: bool, multiline: bool) -> String {
        let empty = Map::new();
        let properties = schema
            .get("properties")
            .and_then(Value::as_object)
            .unwrap_or(&empty);
        let required: Vec<&str> = schema
            .get("required")
            .and_then(Value::as_array)
            .map(|r| r.iter().filter_map(Value::as_str).collect())
            .unwrap_or_default();
        // Declared in the order serde writes them: the tag, then the
        // required fields as the type lists them, then the optional ones.
        let mut names: Vec<&String> = properties.keys().collect();
        names.sort_by_key(|n| {
            (
                properties[*n].get("const").is_none(),
                required
                    .iter()
                    .position(|r| r == n)
                    .unwrap_or(required.len()),
            )
        });
        let fields: Vec<(String, String)> = names
            .iter()
            .map(|name| {
                let property = &properties[*name];
                let optional = if required.contains(&name.as_str()) {
                    ""
                } else {
                    "?"
                };
                (
                    if docs {
                        doc_comment(property, depth + 1, optional == "?")
                    } else {
                        String::new()
                    },
                    format!(
                        "{}{optional}: {};",
                        key(name),
                        self.ty(property, depth + 1, docs)
                    ),
                )
            })
            .chain(additional(schema.as_object().unwrap()).map(|extra| {
                (
                    String::new(),
                    format!("[key: string]: {};", self.ty(extra, depth + 1, docs)),
                )
            }))
            .collect();
        let one_line = format!(
            "{{ {} }}",
            fields
                .iter()
                .map(|(_, f)| f.as_str())
                .collect::<Vec<_>>()
                .join(" ")
                .trim_end_matches(';')
        );
        if fields.is_empty() {
            return "Record<string, never>".into();
        }
        let documented = fields.iter().any(|(d, _)| !d.is_empty());
        if !multiline && !documented && !one_line.contains('\n') && one_line.len() <= 72 {
            return one_line;
        }
        let pad = "  ".repeat(depth + 1);
        let mut out = String::from("{\n");
        for (doc, field) in fields {
            out.push_str(&doc);
            out.push_str(&pad);
            out.push_str(&field);
            out.push('\n');
        }
        out.push_str(&"  ".repeat(depth));
        out.push('}');
        out
    }

    /// Alternatives, one per line with their documentation when any is
    /// documented or long, else on one line.
    fn union(&self, alternatives: &[Value], depth: usize, docs: bool, nested: bool) -> String {
        let members: Vec<(String, String)> = alternatives
            .iter()
            .map(|a| {
                // A member's own lines sit under its `| `.
                let ty = self.ty(a, depth + 2, docs);
                let ty = if ty.contains(" & ") {
                    format!("({ty})")
                } else {
                    ty
                };
                (
                    if docs {
                        doc_comment(a, depth + 1, false)
                    } else {
                        String::new()
                    },
                    ty,
                )
            })
            .collect();
        let one_line = members
            .iter()
            .map(|(_, t)| t.as_str())
            .collect::<Vec<_>>()
            .join(" | ");
        let documented = members.iter().any(|(d, _)| !d.is_empty());
        if !documented && !one_line.contains('\n') && one_line.len() <= 72 {
            return if nested {
                format!("({one_line})")
            } else {
                one_line
            };
        }
        let pad = "  ".repeat(depth + 1);
        let mut out = String::from(if nested { "(\n" } else { "\n" });
        for (doc, ty) in members {
            out.push_str(&doc);
            out.push_str(&format!("{pad}| {ty}\n"));
        }
        if nested {
            out.push_str(&"  ".repeat(depth));
            out.push(')');
        } else {
            out.pop();
        }
        out
    }
}

/// The schema of an object's other keys (a map), if it has any.
fn additional(object: &Map<String, Value>) -> Option<&Value> {
    object.get("additionalProperties").filter(|a| a.is_object())
}

/// A record with named fields only: declared as an interface.
fn is_plain_object(def: &Value) -> bool {
    let Some(object) = def.as_object() else {
        return false;
    };
    object.get("type") == Some(&Value::from("object"))
        && object.contains_key("properties")
        && !["oneOf", "anyOf", "allOf", "$ref"]
            .iter()
            .any(|k| object.contains_key(*k))
        && additional(object).is_none()
}

/// A field's name, quoted when it is not an identifier.
fn key(name: &str) -> String {
    if name
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '$')
        && !name.starts_with(|c: char| c.is_ascii_digit())
    {
        name.to_string()
    } else {
        Value::from(name).to_string()
    }
}

/// The JSDoc of a schema (its description, and its default when it may be
/// left out), at indentation `depth`, wrapped at 80 columns; empty when it
/// has neither.
fn doc_comment(schema: &Value, depth: usize, optional: bool) -> String {
    let description = schema
        .get("description")
        .and_then(Value::as_str)
        .unwrap_or("");
    let mut lines: Vec<String> = Vec::new();
    for (i, paragraph) in description
        .split("\n\n")
        .filter(|p| !p.is_empty())
        .enumerate()
    {
        if i > 0 {
            lines.push(String::new());
        }
        lines.extend(wrap(&paragraph.replace("*/", "*\\/"), 76 - 2 * depth));
    }
    if let Some(default) = schema.get("default").filter(|_| optional) {
        lines.push(format!("@default {default}"));
    }
    if lines.is_empty() {
        return String::new();
    }
    let pad = "  ".repeat(depth);
    if lines.len() == 1 && lines[0].len() + pad.len() + 7 <= 80 {
        return format!("{pad}/** {} */\n", lines[0]);
    }
    let mut out = format!("{pad}/**\n");
    for line in lines {
        if line.is_empty() {
            out.push_str(&format!("{pad} *\n"));
        } else {
            out.push_str(&format!("{pad} * {line}\n"));
        }
    }
    out.push_str(&format!("{pad} */\n"));
    out
}

fn wrap(text: &str, width: usize) -> Vec<String> {
    let mut lines = Vec::new();
    let mut line = String::new();
    for word in text.split_whitespace() {
        if !line.is_empty() && line.chars().count() + 1 + word.chars().count() > width {
            lines.push(std::mem::take(&mut line));
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(word);
    }
    if !line.is_empty() {
        lines.push(line);
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn declare(defs: Value) -> String {
        typescript(&json!({ "$defs": defs }))
    }

    #[test]
    fn tagged_unions_records_and_inputs() {
        let ts = declare(json!({
            "Msg": { "oneOf": [
                { "description": "A ping.", "type": "object",
                  "properties": { "type": { "type": "string", "const": "ping" } },
                  "required": ["type"] },
                { "type": "object",
                  "properties": { "type": { "type": "string", "const": "hi" } },
                  "$ref": "#/$defs/Hi", "required": ["type"] },
            ] },
            "Hi": { "type": "object", "properties": {
                "at": { "type": "integer", "format": "uint64" },
                "to": { "anyOf": [{ "$ref": "#/$defs/Point" }, { "type": "null" }] },
                "pair": { "type": "array", "items": { "type": "integer" }, "minItems": 2, "maxItems": 2 },
                "tags": { "type": "object", "additionalProperties": { "type": "string" } },
                "n": { "type": "integer", "default": 8 },
            }, "required": ["at", "to", "pair"] },
            "Point": { "type": "string", "pattern": "^[A-S]" },
            "PointInput": { "type": "string" },
        }));
        assert!(ts.contains("export type Msg =\n  /** A ping. */\n  | { type: \"ping\" }\n  | ({ type: \"hi\" } & Hi);\n"), "{ts}");
        assert!(ts.contains("export interface Hi {\n  at: number;\n  to: Point | null;\n  pair: [number, number];\n"), "{ts}");
        assert!(ts.contains("  /** @default 8 */\n  n?: number;\n"), "{ts}");
        assert!(ts.contains("tags?: { [key: string]: string };"), "{ts}");
        assert!(
            !ts.contains("PointInput"),
            "an indistinct input is not declared: {ts}"
        );
    }

    #[test]
    #[should_panic(expected = "does not know: patternProperties")]
    fn an_unknown_keyword_stops_the_conversion() {
        declare(json!({ "X": { "type": "object", "patternProperties": {} } }));
    }
}
