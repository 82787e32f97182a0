//! The protocol's generated JSON Schema (`protocol/schema/tengen.schema.json`)
//! as validators of whole frames, for the tests that check what a real
//! server sends against it.

use std::sync::OnceLock;

use serde_json::Value;
use tengen_protocol::{ClientFrame, ClientMsg, ServerFrame, ServerMsg};

/// Validators of the committed schema's two frame definitions.
pub struct Schemas {
    pub client: jsonschema::Validator,
    pub server: jsonschema::Validator,
}

pub fn schemas() -> &'static Schemas {
    static SCHEMAS: OnceLock<Schemas> = OnceLock::new();
    SCHEMAS.get_or_init(|| {
        let path = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../protocol/schema/tengen.schema.json"
        );
        let text = std::fs::read_to_string(path).expect("the committed schema");
        let schema: Value = serde_json::from_str(&text).expect("the schema is JSON");
        let validator = |def: &str| {
            let mut root = schema.clone();
            let object = root.as_object_mut().unwrap();
            object.remove("anyOf");
            object.insert("$ref".into(), format!("#/$defs/{def}").into());
            jsonschema::validator_for(&root).expect("the schema compiles")
        };
        Schemas {
            client: validator("ClientFrame"),
            server: validator("ServerFrame"),
        }
    })
}

/// Panics, quoting the frame and every violation, unless `frame` is valid.
pub fn validate(validator: &jsonschema::Validator, what: &str, frame: &Value) {
    let errors: Vec<String> = validator
        .iter_errors(frame)
        .map(|e| format!("{} at {}", e, e.instance_path()))
        .collect();
    assert!(
        errors.is_empty(),
        "a {what} frame the schema does not allow:\n{frame}\n{}",
        errors.join("\n")
    );
}

/// Panics unless `msg`, framed as the server frames it (JSON), is valid
/// against the schema's server frame.
pub fn assert_valid(msg: &ServerMsg) {
    let frame = ServerFrame {
        id: None,
        msg: msg.clone(),
    };
    let text = serde_json::to_string(&frame).expect("a frame encodes");
    let value: Value = serde_json::from_str(&text).expect("a frame is JSON");
    validate(&schemas().server, "server", &value);
}

/// Panics unless `msg`, framed as a client frames it (JSON), is valid
/// against the schema's client frame.
pub fn assert_client_valid(msg: &ClientMsg) {
    let frame = ClientFrame {
        id: Some(1),
        msg: msg.clone(),
    };
    let text = serde_json::to_string(&frame).expect("a frame encodes");
    let value: Value = serde_json::from_str(&text).expect("a frame is JSON");
    validate(&schemas().client, "client", &value);
}
