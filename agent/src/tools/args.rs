//! Argument parsing that names the bad field.

use serde::de::DeserializeOwned;
use serde_json::Value;

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
