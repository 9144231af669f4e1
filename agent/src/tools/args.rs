//! Argument parsing that names the bad field.

use serde::de::DeserializeOwned;
use serde_json::{Map, Value, json};

use crate::tools::ToolError;

/// Deserializes `args` into `T`; on failure the error names the tool and the field.
pub fn parse<T: DeserializeOwned>(tool: &str, args: Value) -> Result<T, ToolError> {
    serde_path_to_error::deserialize::<_, T>(args).map_err(|e| {
        let path = e.path().to_string();
        ToolError::Schema {
            tool: tool.to_string(),
            path: (path != "." && !path.is_empty()).then_some(path),
            source: e.into_inner(),
        }
    })
}

/// A tool's parameter schema: an object of `properties` (each a JSON Schema), the
/// `required` ones, and no other field (arguments are parsed with `deny_unknown_fields`).
pub fn object_schema(properties: Value, required: &[&str]) -> Value {
    let mut schema = Map::new();
    schema.insert("type".into(), json!("object"));
    schema.insert("properties".into(), properties);
    if !required.is_empty() {
        schema.insert("required".into(), json!(required));
    }
    schema.insert("additionalProperties".into(), json!(false));
    Value::Object(schema)
}
