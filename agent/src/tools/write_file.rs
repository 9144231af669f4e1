//! `write_file {path, content}`: creates or replaces a file (and its folders), then runs the
//! syntax check.

use serde::Deserialize;
use serde_json::{Value, json};

use crate::tools::{ToolContext, ToolError, ToolHandler, ToolOutput, args, with_syntax_check};

pub struct WriteFile;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Args {
    path: String,
    content: String,
}

#[async_trait::async_trait]
impl ToolHandler for WriteFile {
    fn name(&self) -> &str {
        "write_file"
    }
    fn description(&self) -> &str {
        "Create or overwrite a file in the workspace with `content` (missing folders are created). Prefer edit_file for small changes to existing files."
    }
    fn parameters(&self) -> Value {
        args::object_schema(
            json!({
                "path": {"type": "string", "description": "File path, relative to the workspace."},
                "content": {"type": "string", "description": "The complete new content of the file."}
            }),
            &["path", "content"],
        )
    }
    fn is_mutating(&self) -> bool {
        true
    }
    async fn handle(&self, ctx: &ToolContext, raw: Value) -> Result<ToolOutput, ToolError> {
        let a: Args = args::parse(self.name(), raw)?;
        let path = ctx.guard.resolve(&a.path)?;
        let rel = ctx.guard.display(&path);
        if path.is_dir() {
            return Err(ToolError::IsDirectory {
                rel,
                hint: "give a file path",
            });
        }
        if let Some(parent) = path.parent() {
            tokio::fs::create_dir_all(parent)
                .await
                .map_err(ToolError::io("cannot create the folders for", &rel))?;
        }
        let existed = path.exists();
        tokio::fs::write(&path, a.content.as_bytes())
            .await
            .map_err(ToolError::io("cannot write", &rel))?;
        let lines = a.content.lines().count();
        let verb = if existed { "overwrote" } else { "created" };
        let out = ToolOutput::ok(format!(
            "{verb} `{rel}` ({} bytes, {lines} lines)",
            a.content.len()
        ));
        Ok(with_syntax_check(out, &path, &rel, &a.content))
    }
}
