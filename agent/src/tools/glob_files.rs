//! `glob_files {pattern, path?}`: files matching a glob, respecting .gitignore.

use serde::Deserialize;
use serde_json::{Value, json};

use crate::tools::walk::{PathGlob, search_files};
use crate::tools::{ToolContext, ToolError, ToolHandler, ToolOutput, args};

pub const MAX_RESULTS: usize = 500;

pub struct GlobFiles;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Args {
    pattern: String,
    #[serde(default)]
    path: Option<String>,
}

#[async_trait::async_trait]
impl ToolHandler for GlobFiles {
    fn name(&self) -> &str {
        "glob_files"
    }
    fn description(&self) -> &str {
        "Find files by glob pattern (e.g. `**/*.py`, `src/**/test_*.java`, `*.c`), respecting .gitignore. A pattern without `/` also matches file names in any folder. Paths are relative to the workspace."
    }
    fn parameters(&self) -> Value {
        args::object_schema(
            json!({
                "pattern": {"type": "string", "description": "Glob pattern, matched against paths relative to `path`."},
                "path": {"type": "string", "description": "Folder to search (default: the workspace root)."}
            }),
            &["pattern"],
        )
    }
    fn is_mutating(&self) -> bool {
        false
    }
    async fn handle(&self, ctx: &ToolContext, raw: Value) -> Result<ToolOutput, ToolError> {
        let a: Args = args::parse(self.name(), raw)?;
        let glob = PathGlob::new(&a.pattern).map_err(|e| ToolError::BadPattern {
            tool: "glob_files",
            field: "pattern",
            source: e.into(),
        })?;
        let pattern = a.pattern.clone();
        let found = search_files(ctx, "glob_files", a.path.as_deref(), Some(glob), |found| {
            found
                .into_iter()
                .map(|(_, rel)| rel.display().to_string())
                .collect::<Vec<_>>()
        })
        .await?;
        if found.is_empty() {
            return Ok(ToolOutput::ok(format!("no files match `{pattern}`")));
        }
        let total = found.len();
        let mut text = found
            .into_iter()
            .take(MAX_RESULTS)
            .collect::<Vec<_>>()
            .join("\n");
        if total > MAX_RESULTS {
            text.push_str(&format!(
                "\n... ({} more; narrow the pattern)",
                total - MAX_RESULTS
            ));
        }
        Ok(ToolOutput::ok(text))
    }
}
