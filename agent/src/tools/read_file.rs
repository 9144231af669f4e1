//! `read_file {path, offset?, limit?}`: numbered lines, 200 by default, at most 2000.

use std::io::BufRead;

use serde::Deserialize;
use serde_json::{Value, json};

use crate::tools::{ToolContext, ToolError, ToolHandler, ToolOutput, args};

pub const DEFAULT_LIMIT: u64 = 200;
pub const MAX_LIMIT: u64 = 2000;
/// Longer lines are cut so one minified file cannot flood the context.
pub const MAX_LINE_CHARS: usize = 2000;

pub struct ReadFile;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Args {
    path: String,
    #[serde(default)]
    offset: Option<u64>,
    #[serde(default)]
    limit: Option<u64>,
}

#[async_trait::async_trait]
impl ToolHandler for ReadFile {
    fn name(&self) -> &str {
        "read_file"
    }
    fn description(&self) -> &str {
        "Read a text file in the workspace, or a long tool output saved in the state directory (by the absolute path given where it was cut). Returns numbered lines (`N<TAB>text`). Reads 200 lines from `offset` by default (at most 2000); when more remain, the result ends with `continue with offset=N`."
    }
    fn parameters(&self) -> Value {
        args::object_schema(
            json!({
                "path": {"type": "string", "description": "File path, relative to the workspace."},
                "offset": {"type": "integer", "minimum": 1, "description": "1-based line to start at (default 1)."},
                "limit": {"type": "integer", "minimum": 1, "maximum": MAX_LIMIT, "description": "Lines to read (default 200, at most 2000)."}
            }),
            &["path"],
        )
    }
    fn is_mutating(&self) -> bool {
        false
    }
    async fn handle(&self, ctx: &ToolContext, raw: Value) -> Result<ToolOutput, ToolError> {
        let a: Args = args::parse(self.name(), raw)?;
        let offset = a.offset.unwrap_or(1);
        if offset == 0 {
            return Err(ToolError::invalid(
                "read_file",
                "field `offset`: lines are numbered from 1",
            ));
        }
        let limit = a.limit.unwrap_or(DEFAULT_LIMIT);
        if limit == 0 {
            return Err(ToolError::invalid(
                "read_file",
                "field `limit`: must be at least 1",
            ));
        }
        let limit = limit.min(MAX_LIMIT);
        // The workspace, or an offloaded output in the state directory.
        let path = ctx.resolve_readable(&a.path)?;
        let rel = ctx.guard.display(&path);
        let text = tokio::task::spawn_blocking(move || read_lines(&path, &rel, offset, limit))
            .await
            .map_err(|source| ToolError::Task {
                tool: "read_file",
                source,
            })??;
        Ok(ToolOutput::ok(text))
    }
}

fn read_lines(
    path: &std::path::Path,
    rel: &str,
    offset: u64,
    limit: u64,
) -> Result<String, ToolError> {
    let meta = std::fs::metadata(path).map_err(ToolError::io("cannot read", rel))?;
    if meta.is_dir() {
        return Err(ToolError::IsDirectory {
            rel: rel.to_string(),
            hint: "use list_dir to see its entries",
        });
    }
    let file = std::fs::File::open(path).map_err(ToolError::io("cannot open", rel))?;
    let mut reader = std::io::BufReader::new(file);
    {
        let head = reader
            .fill_buf()
            .map_err(ToolError::io("cannot read", rel))?;
        if head[..head.len().min(8192)].contains(&0) {
            return Err(ToolError::Binary {
                rel: rel.to_string(),
                bytes: meta.len(),
            });
        }
    }
    if meta.len() == 0 {
        return Ok(format!("(`{rel}` is empty)"));
    }
    let mut out = String::new();
    let mut line = Vec::new();
    let mut n: u64 = 0;
    let last_wanted = offset + limit - 1;
    loop {
        line.clear();
        let read = reader
            .read_until(b'\n', &mut line)
            .map_err(ToolError::io("cannot read", rel))?;
        if read == 0 {
            break;
        }
        n += 1;
        if n < offset || n > last_wanted {
            continue;
        }
        let text = String::from_utf8_lossy(&line);
        let text = text.trim_end_matches(['\n', '\r']);
        out.push_str(&format!("{n:>6}\t"));
        if text.chars().count() > MAX_LINE_CHARS {
            out.extend(text.chars().take(MAX_LINE_CHARS));
            out.push_str(" … [line cut]");
        } else {
            out.push_str(text);
        }
        out.push('\n');
    }
    let total = n;
    if offset > total {
        return Err(ToolError::PastEnd {
            offset,
            rel: rel.to_string(),
            total,
        });
    }
    if last_wanted < total {
        out.push_str(&format!(
            "... (showing lines {offset}-{last_wanted} of {total}; continue with offset={})",
            last_wanted + 1
        ));
    }
    Ok(out)
}
