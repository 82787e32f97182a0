//! The generated schema as the tests use it: a validator per frame
//! definition, and every example frame with its direction.

use super::*;

/// A validator of the generated schema's definition `def` (`ClientFrame`,
/// `ServerFrame`).
pub fn validator(def: &str) -> jsonschema::Validator {
    let mut root = tengen_protocol::schema::json_schema();
    let object = root.as_object_mut().unwrap();
    object.remove("anyOf");
    object.insert("$ref".into(), format!("#/$defs/{def}").into());
    jsonschema::validator_for(&root).expect("the schema compiles")
}

/// Every frame the examples and walk-throughs make, as JSON text, each
/// with whether a client sends it.
pub fn example_frames() -> Vec<(bool, String)> {
    let mut all: Vec<(bool, String)> = client_examples().iter().map(|f| (true, json(f))).collect();
    all.extend(server_examples().iter().map(|f| (false, json(f))));
    for walk in [
        walkthrough(),
        rif_walkthrough(),
        reconnect_walkthrough(),
        chat_rematch_walkthrough(),
    ] {
        for said in walk {
            all.push(match said {
                Said::Client(_, f) => (true, json(&f)),
                Said::Server(_, f) => (false, json(&f)),
            });
        }
    }
    all
}
