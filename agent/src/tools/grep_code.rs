//! `grep_code {pattern, path?, glob?, max_results?}`: regex search with ripgrep's crates;
//! results are `file:line: text`.

use grep_regex::RegexMatcher;
use grep_searcher::sinks::UTF8;
use grep_searcher::{BinaryDetection, SearcherBuilder};
use serde::Deserialize;
use serde_json::{Value, json};

use crate::tools::walk::{PathGlob, search_files};
use crate::tools::{ToolContext, ToolError, ToolHandler, ToolOutput, args};

pub const DEFAULT_MAX: usize = 100;
pub const CAP_MAX: usize = 1000;
const MAX_TEXT_CHARS: usize = 300;

pub struct GrepCode;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Args {
    pattern: String,
    #[serde(default)]
    path: Option<String>,
    #[serde(default)]
    glob: Option<String>,
    #[serde(default)]
    max_results: Option<usize>,
}

#[async_trait::async_trait]
impl ToolHandler for GrepCode {
    fn name(&self) -> &str {
        "grep_code"
    }
    fn description(&self) -> &str {
        "Search file contents with a regular expression (Rust regex syntax), respecting .gitignore. Results are `file:line: text`, at most `max_results` (default 100, at most 1000). Narrow with `path` (a file or folder) and `glob` (e.g. `*.py`)."
    }
    fn parameters(&self) -> Value {
        args::object_schema(
            json!({
                "pattern": {"type": "string", "description": "Regular expression to search for."},
                "path": {"type": "string", "description": "File or folder to search (default: the workspace root)."},
                "glob": {"type": "string", "description": "Only search files matching this glob, e.g. `*.java`."},
                "max_results": {"type": "integer", "minimum": 1, "maximum": CAP_MAX, "description": "Maximum matching lines to return (default 100)."}
            }),
            &["pattern"],
        )
    }
    fn is_mutating(&self) -> bool {
        false
    }
    async fn handle(&self, ctx: &ToolContext, raw: Value) -> Result<ToolOutput, ToolError> {
        let a: Args = args::parse(self.name(), raw)?;
        let bad = |field, e: Box<dyn std::error::Error + Send + Sync>| ToolError::BadPattern {
            tool: "grep_code",
            field,
            source: e,
        };
        let matcher =
            RegexMatcher::new_line_matcher(&a.pattern).map_err(|e| bad("pattern", e.into()))?;
        let glob = a
            .glob
            .as_deref()
            .map(PathGlob::new)
            .transpose()
            .map_err(|e| bad("glob", e.into()))?;
        let max = match a.max_results {
            Some(0) => {
                return Err(ToolError::invalid(
                    "grep_code",
                    "field `max_results`: must be at least 1",
                ));
            }
            Some(n) => n.min(CAP_MAX),
            None => DEFAULT_MAX,
        };
        let pattern = a.pattern.clone();
        let (lines, truncated) =
            search_files(ctx, "grep_code", a.path.as_deref(), glob, move |found| {
                search(&matcher, found, max)
            })
            .await?;
        if lines.is_empty() {
            return Ok(ToolOutput::ok(format!("no matches for /{pattern}/")));
        }
        let mut text = lines.join("\n");
        if truncated {
            text.push_str(&format!(
                "\n... (stopped at {max} results; narrow the search with path or glob)"
            ));
        }
        Ok(ToolOutput::ok(text))
    }
}

/// Returns the matching lines and whether the cap cut the search short.
fn search(
    matcher: &RegexMatcher,
    found: Vec<(std::path::PathBuf, std::path::PathBuf)>,
    max: usize,
) -> (Vec<String>, bool) {
    let mut searcher = SearcherBuilder::new()
        .binary_detection(BinaryDetection::quit(0))
        .line_number(true)
        .build();
    let mut out = Vec::new();
    let mut truncated = false;
    for (abs, rel) in found {
        let shown = rel.display().to_string();
        let _ = searcher.search_path(
            matcher,
            &abs,
            UTF8(|line_no, text| {
                if out.len() >= max {
                    truncated = true;
                    return Ok(false);
                }
                let text = text.trim_end_matches(['\n', '\r']);
                let text: String = if text.chars().count() > MAX_TEXT_CHARS {
                    text.chars()
                        .take(MAX_TEXT_CHARS)
                        .chain(" …".chars())
                        .collect()
                } else {
                    text.to_string()
                };
                out.push(format!("{shown}:{line_no}: {text}"));
                Ok(true)
            }),
        );
        if truncated {
            break;
        }
    }
    (out, truncated)
}
