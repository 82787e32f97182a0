//! The committed reference (`protocol/schema/`) is what the types make:
//! change a message and this test fails until the reference is
//! regenerated, so a client author never reads a stale one.
//!
//! Regenerate: `REGENERATE=1 cargo test -p tengen-protocol --test schema`.

use std::path::PathBuf;

use tengen_protocol::{schema, typescript};

const REGENERATE: &str = "REGENERATE=1 cargo test -p tengen-protocol --test schema";

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
