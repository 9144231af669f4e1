//! Tools: one file per tool, each a JSON Schema plus a handler behind [`ToolHandler`].
//!
//! The [`ToolRegistry`] holds the tools by name and can gain or lose tools while the agent
//! runs (MCP servers register theirs as `mcp__<server>__<tool>`). Schemas are rendered sorted
//! by name on every request, so a provider's prefix cache sees the same bytes each time.

pub mod args;
pub mod edit_file;
pub mod error;
pub mod execute_command;
pub mod glob_files;
pub mod grep_code;
pub mod list_dir;
pub mod read_file;
pub mod walk;
pub mod write_file;

use std::collections::BTreeMap;
use std::sync::{Arc, RwLock};

use nab_protocol::ToolStatus;
use serde_json::{Value, json};

use crate::diagnostics::Finding;
use crate::guard::{CommandPolicy, PathError, PathGuard};

pub use error::ToolError;

/// What every tool may use.
#[derive(Debug)]
pub struct ToolContext {
    pub guard: PathGuard,
    pub policy: CommandPolicy,
    /// The scrubbed environment for child processes.
    pub child_env: Vec<(String, String)>,
    /// `--state-dir`: `read_file` may read files here too (offloaded tool outputs).
    pub state_dir: Option<std::path::PathBuf>,
}

impl ToolContext {
    pub fn new(workspace: &std::path::Path) -> std::io::Result<ToolContext> {
        Ok(ToolContext {
            guard: PathGuard::new(workspace)?,
            policy: CommandPolicy::default(),
            child_env: crate::guard::env::child_env(std::env::vars_os()),
            state_dir: None,
        })
    }

    /// A path `read_file` may read: inside the workspace (the path guard), or an existing
    /// file under the state directory, given by its absolute path (context management
    /// offloads long outputs there). Symlinks are resolved before the check.
    pub fn resolve_readable(&self, user_path: &str) -> Result<std::path::PathBuf, PathError> {
        match self.guard.resolve(user_path) {
            Ok(p) => Ok(p),
            Err(e) => {
                if let Some(dir) = &self.state_dir
                    && std::path::Path::new(user_path).is_absolute()
                    && let (Ok(real), Ok(root)) =
                        (std::fs::canonicalize(user_path), std::fs::canonicalize(dir))
                    && real.starts_with(&root)
                {
                    return Ok(real);
                }
                Err(e)
            }
        }
    }
}

/// Something a tool did that the event stream must show.
#[derive(Debug, Clone, PartialEq)]
pub enum ToolNote {
    PolicyBlock {
        command: String,
        rule: String,
        reason: String,
    },
    Diagnostics {
        path: String,
        findings: Vec<Finding>,
        total: u32,
    },
}

/// A tool's answer: the text the model sees, and how it went.
#[derive(Debug, Clone, PartialEq)]
pub struct ToolOutput {
    pub text: String,
    pub status: ToolStatus,
    pub notes: Vec<ToolNote>,
}

impl ToolOutput {
    pub fn ok(text: impl Into<String>) -> ToolOutput {
        ToolOutput {
            text: text.into(),
            status: ToolStatus::Ok,
            notes: Vec::new(),
        }
    }
    /// The tool ran (or tried to) and failed. Worded "ERROR: …" so the model can tell it
    /// from a policy refusal ("BLOCKED …") and a timeout ("TIMEOUT …").
    pub fn error(text: impl std::fmt::Display) -> ToolOutput {
        ToolOutput {
            text: format!("ERROR: {text}"),
            status: ToolStatus::Error,
            notes: Vec::new(),
        }
    }
    pub fn timeout(text: impl std::fmt::Display) -> ToolOutput {
        ToolOutput {
            text: format!("TIMEOUT: {text}"),
            status: ToolStatus::Timeout,
            notes: Vec::new(),
        }
    }
    pub fn blocked(command: &str, rule: &str, reason: &str) -> ToolOutput {
        ToolOutput {
            text: format!(
                "BLOCKED by policy rule `{rule}`: this command {reason}. It was not run. Use a command that stays inside the workspace and does not need this."
            ),
            status: ToolStatus::Blocked,
            notes: vec![ToolNote::PolicyBlock {
                command: command.chars().take(500).collect(),
                rule: rule.into(),
                reason: reason.into(),
            }],
        }
    }
}

impl From<ToolError> for ToolOutput {
    fn from(e: ToolError) -> ToolOutput {
        ToolOutput::error(e)
    }
}

/// One tool (codex-rs style): a name, a schema, whether it changes anything, a handler.
#[async_trait::async_trait]
pub trait ToolHandler: Send + Sync {
    fn name(&self) -> &str;
    fn description(&self) -> &str;
    /// The JSON Schema of the arguments object.
    fn parameters(&self) -> Value;
    /// Mutating tools run one at a time in call order; the others may run concurrently.
    fn is_mutating(&self) -> bool;
    /// Runs the tool. A failure is an error; [`ToolHandler::call`] words it for the model.
    async fn handle(&self, ctx: &ToolContext, args: Value) -> Result<ToolOutput, ToolError>;

    /// Runs the tool and always answers: a failure becomes the `ERROR: …` result the model
    /// reads. The executor calls this; handlers implement [`ToolHandler::handle`].
    async fn call(&self, ctx: &ToolContext, args: Value) -> ToolOutput {
        self.handle(ctx, args)
            .await
            .unwrap_or_else(ToolOutput::from)
    }

    /// The `tools[]` entry sent to the model.
    fn schema(&self) -> Value {
        json!({
            "type": "function",
            "function": {
                "name": self.name(),
                "description": self.description(),
                "parameters": self.parameters(),
            }
        })
    }
}

/// The tools the model may call, by name. Thread-safe; tools may come and go at runtime.
#[derive(Default)]
pub struct ToolRegistry {
    tools: RwLock<BTreeMap<String, Arc<dyn ToolHandler>>>,
}

impl std::fmt::Debug for ToolRegistry {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ToolRegistry")
            .field("tools", &self.names())
            .finish()
    }
}

impl ToolRegistry {
    /// The seven built-in tools.
    pub fn with_builtins() -> ToolRegistry {
        let r = ToolRegistry::default();
        r.register(Arc::new(read_file::ReadFile));
        r.register(Arc::new(write_file::WriteFile));
        r.register(Arc::new(edit_file::EditFile));
        r.register(Arc::new(list_dir::ListDir));
        r.register(Arc::new(glob_files::GlobFiles));
        r.register(Arc::new(grep_code::GrepCode));
        r.register(Arc::new(execute_command::ExecuteCommand));
        r
    }

    /// Adds (or replaces) a tool; returns the one it replaced.
    pub fn register(&self, tool: Arc<dyn ToolHandler>) -> Option<Arc<dyn ToolHandler>> {
        let mut map = self.tools.write().unwrap_or_else(|p| p.into_inner());
        map.insert(tool.name().to_string(), tool)
    }

    pub fn unregister(&self, name: &str) -> Option<Arc<dyn ToolHandler>> {
        let mut map = self.tools.write().unwrap_or_else(|p| p.into_inner());
        map.remove(name)
    }

    /// Removes every tool whose name starts with `prefix` (e.g. `mcp__tracker__` when a
    /// server dies); returns how many went.
    pub fn unregister_prefix(&self, prefix: &str) -> usize {
        let mut map = self.tools.write().unwrap_or_else(|p| p.into_inner());
        let before = map.len();
        map.retain(|k, _| !k.starts_with(prefix));
        before - map.len()
    }

    pub fn get(&self, name: &str) -> Option<Arc<dyn ToolHandler>> {
        self.tools
            .read()
            .unwrap_or_else(|p| p.into_inner())
            .get(name)
            .cloned()
    }

    /// Names in sorted order.
    pub fn names(&self) -> Vec<String> {
        self.tools
            .read()
            .unwrap_or_else(|p| p.into_inner())
            .keys()
            .cloned()
            .collect()
    }

    /// The `tools[]` array, sorted by name.
    pub fn schemas(&self) -> Vec<Value> {
        self.tools
            .read()
            .unwrap_or_else(|p| p.into_inner())
            .values()
            .map(|t| t.schema())
            .collect()
    }
}

/// Renders up to `max` findings after a write or edit, for the model.
pub fn render_diagnostics(rel: &str, language: &str, findings: &[Finding], total: u32) -> String {
    let mut s = format!(
        "\n\nSyntax check ({language}) found {total} problem(s) in {rel}; fix them before moving on:"
    );
    for f in findings {
        s.push_str(&format!("\n  {rel}:{}:{}: {}", f.line, f.column, f.message));
    }
    if total as usize > findings.len() {
        s.push_str(&format!(
            "\n  ... and {} more",
            total as usize - findings.len()
        ));
    }
    s
}

/// Runs the syntax check on a file just written and appends what it found.
pub fn with_syntax_check(
    mut out: ToolOutput,
    path: &std::path::Path,
    rel: &str,
    content: &str,
) -> ToolOutput {
    if let Some(report) = crate::diagnostics::check(path, content)
        && report.total > 0
    {
        out.text.push_str(&render_diagnostics(
            rel,
            report.language,
            &report.findings,
            report.total,
        ));
        out.notes.push(ToolNote::Diagnostics {
            path: rel.to_string(),
            findings: report.findings,
            total: report.total,
        });
    }
    out
}
