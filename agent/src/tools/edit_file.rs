//! `edit_file {path, old, new}`: replaces text that must occur exactly once.

use serde::Deserialize;
use serde_json::{Value, json};

use crate::tools::{ToolContext, ToolError, ToolHandler, ToolOutput, args, with_syntax_check};

pub struct EditFile;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Args {
    path: String,
    old: String,
    new: String,
}

#[async_trait::async_trait]
impl ToolHandler for EditFile {
    fn name(&self) -> &str {
        "edit_file"
    }
    fn description(&self) -> &str {
        "Replace the exact text `old` with `new` in a file. `old` must occur exactly once (copy it from read_file output without the line-number prefix, including indentation); include more surrounding lines if it is not unique."
    }
    fn parameters(&self) -> Value {
        args::object_schema(
            json!({
                "path": {"type": "string", "description": "File path, relative to the workspace."},
                "old": {"type": "string", "description": "Exact text to replace; must match exactly once."},
                "new": {"type": "string", "description": "Replacement text."}
            }),
            &["path", "old", "new"],
        )
    }
    fn is_mutating(&self) -> bool {
        true
    }
    async fn handle(&self, ctx: &ToolContext, raw: Value) -> Result<ToolOutput, ToolError> {
        let a: Args = args::parse(self.name(), raw)?;
        if a.old.is_empty() {
            return Err(ToolError::invalid(
                "edit_file",
                "field `old`: must not be empty (to create a file use write_file)",
            ));
        }
        let path = ctx.guard.resolve(&a.path)?;
        let rel = ctx.guard.display(&path);
        let text = tokio::fs::read_to_string(&path)
            .await
            .map_err(ToolError::io("cannot read", &rel))?;
        match text.matches(a.old.as_str()).count() {
            0 => return Err(ToolError::NotFound { rel }),
            1 => {}
            count => return Err(ToolError::Ambiguous { rel, count }),
        }
        if a.old == a.new {
            return Err(ToolError::NoChange);
        }
        let updated = text.replacen(a.old.as_str(), &a.new, 1);
        tokio::fs::write(&path, updated.as_bytes())
            .await
            .map_err(ToolError::io("cannot write", &rel))?;
        let line = text[..text.find(a.old.as_str()).unwrap_or(0)]
            .lines()
            .count()
            .max(1);
        let out = ToolOutput::ok(format!(
            "edited `{rel}` at line {line}: replaced {} line(s) with {}",
            a.old.lines().count().max(1),
            a.new.lines().count()
        ));
        Ok(with_syntax_check(out, &path, &rel, &updated))
    }
}
