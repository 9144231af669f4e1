//! `edit_file {path, old, new}`: replaces text that must occur exactly once.

use serde::Deserialize;
use serde_json::{Value, json};

use crate::tools::{ToolContext, ToolHandler, ToolOutput, args, with_syntax_check};

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
        json!({
            "type": "object",
            "properties": {
                "path": {"type": "string", "description": "File path, relative to the workspace."},
                "old": {"type": "string", "description": "Exact text to replace; must match exactly once."},
                "new": {"type": "string", "description": "Replacement text."}
            },
            "required": ["path", "old", "new"],
            "additionalProperties": false
        })
    }
    fn is_mutating(&self) -> bool {
        true
    }
    async fn handle(&self, ctx: &ToolContext, raw: Value) -> ToolOutput {
        let a: Args = match args::parse(self.name(), raw) {
            Ok(a) => a,
            Err(e) => return e,
        };
        if a.old.is_empty() {
            return ToolOutput::error(
                "invalid arguments for `edit_file`: field `old`: must not be empty (to create a file use write_file)",
            );
        }
        let path = match ctx.guard.resolve(&a.path) {
            Ok(p) => p,
            Err(e) => return ToolOutput::error(e),
        };
        let rel = ctx.guard.display(&path);
        let text = match tokio::fs::read_to_string(&path).await {
            Ok(t) => t,
            Err(e) => return ToolOutput::error(format!("cannot read `{rel}`: {e}")),
        };
        let count = text.matches(a.old.as_str()).count();
        match count {
            0 => {
                return ToolOutput::error(format!(
                    "`old` was not found in `{rel}` (0 matches); read the file again and copy the text exactly, including whitespace"
                ));
            }
            1 => {}
            n => {
                return ToolOutput::error(format!(
                    "`old` matched {n} times in `{rel}`; it must match exactly once, so include more surrounding lines"
                ));
            }
        }
        if a.old == a.new {
            return ToolOutput::error("`old` and `new` are identical; nothing to change");
        }
        let updated = text.replacen(a.old.as_str(), &a.new, 1);
        if let Err(e) = tokio::fs::write(&path, updated.as_bytes()).await {
            return ToolOutput::error(format!("cannot write `{rel}`: {e}"));
        }
        let line = text[..text.find(a.old.as_str()).unwrap_or(0)]
            .lines()
            .count()
            .max(1);
        let out = ToolOutput::ok(format!(
            "edited `{rel}` at line {line}: replaced {} line(s) with {}",
            a.old.lines().count().max(1),
            a.new.lines().count()
        ));
        with_syntax_check(out, &path, &rel, &updated)
    }
}
