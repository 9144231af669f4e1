//! `list_dir {path?}`: a folder's entries, folders marked with `/`.

use serde::Deserialize;
use serde_json::{Value, json};

use crate::tools::{ToolContext, ToolError, ToolHandler, ToolOutput, args};

pub const MAX_ENTRIES: usize = 1000;

pub struct ListDir;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Args {
    #[serde(default)]
    path: Option<String>,
}

#[async_trait::async_trait]
impl ToolHandler for ListDir {
    fn name(&self) -> &str {
        "list_dir"
    }
    fn description(&self) -> &str {
        "List the entries of a folder in the workspace (default: the workspace root). Folders end with `/`."
    }
    fn parameters(&self) -> Value {
        args::object_schema(
            json!({
                "path": {"type": "string", "description": "Folder path, relative to the workspace (default \".\")."}
            }),
            &[],
        )
    }
    fn is_mutating(&self) -> bool {
        false
    }
    async fn handle(&self, ctx: &ToolContext, raw: Value) -> Result<ToolOutput, ToolError> {
        let a: Args = args::parse(self.name(), raw)?;
        let path = ctx.guard.resolve(a.path.as_deref().unwrap_or("."))?;
        let rel = ctx.guard.display(&path);
        let mut dir = tokio::fs::read_dir(&path)
            .await
            .map_err(ToolError::io("cannot list", &rel))?;
        let mut entries = Vec::new();
        while let Some(e) = dir
            .next_entry()
            .await
            .map_err(ToolError::io("cannot list", &rel))?
        {
            let name = e.file_name().to_string_lossy().into_owned();
            let is_dir = e.file_type().await.map(|t| t.is_dir()).unwrap_or(false);
            entries.push(if is_dir { format!("{name}/") } else { name });
        }
        entries.sort();
        if entries.is_empty() {
            return Ok(ToolOutput::ok(format!("(`{rel}` is empty)")));
        }
        let total = entries.len();
        let mut text = entries
            .into_iter()
            .take(MAX_ENTRIES)
            .collect::<Vec<_>>()
            .join("\n");
        if total > MAX_ENTRIES {
            text.push_str(&format!(
                "\n... ({} more entries not shown)",
                total - MAX_ENTRIES
            ));
        }
        Ok(ToolOutput::ok(text))
    }
}
