//! Argument parsing that names the bad field.

use serde::de::DeserializeOwned;
use serde_json::Value;

use crate::tools::ToolOutput;

/// Deserializes `args` into `T`; on failure the result names the tool and the field.
pub fn parse<T: DeserializeOwned>(tool: &str, args: Value) -> Result<T, ToolOutput> {
    serde_path_to_error::deserialize::<_, T>(args).map_err(|e| {
        let path = e.path().to_string();
        let inner = e.into_inner();
        if path == "." || path.is_empty() {
            ToolOutput::error(format!("invalid arguments for `{tool}`: {inner}"))
        } else {
            ToolOutput::error(format!(
                "invalid arguments for `{tool}`: field `{path}`: {inner}"
            ))
        }
    })
}
