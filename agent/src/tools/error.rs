//! Why a tool call failed, as the model reads it.
//!
//! Handlers return `Result<ToolOutput, ToolError>`; [`super::ToolHandler::call`] turns an error
//! into the `ERROR: …` result. Each message is the text the model has always been shown:
//! recorded cassettes replay byte for byte, so a wording changes only with a re-recording.

use std::io;

use crate::guard::PathError;

/// A failed tool call. `Display` is the text after `ERROR: `.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ToolError {
    /// The arguments break a rule (a missing or conflicting field, a zero that must not be).
    #[error("invalid arguments for `{tool}`: {problem}")]
    InvalidArguments { tool: String, problem: String },
    /// The arguments do not fit the tool's schema; `path` names the field, when there is one.
    #[error("invalid arguments for `{tool}`: {}{source}", field_prefix(.path))]
    Schema {
        tool: String,
        path: Option<String>,
        #[source]
        source: serde_json::Error,
    },
    /// A field holds a pattern that does not compile.
    #[error("invalid arguments for `{tool}`: field `{field}`: {source}")]
    BadPattern {
        tool: &'static str,
        field: &'static str,
        #[source]
        source: Box<dyn std::error::Error + Send + Sync>,
    },
    /// The path guard refused the path.
    #[error(transparent)]
    Path(#[from] PathError),
    /// A filesystem call on `rel` failed; `action` says which ("cannot read", …).
    #[error("{action} `{rel}`: {source}")]
    Io {
        action: &'static str,
        rel: String,
        #[source]
        source: io::Error,
    },
    #[error("`{rel}` is a directory; {hint}")]
    IsDirectory { rel: String, hint: &'static str },
    #[error("`{rel}` is a binary file ({bytes} bytes); not shown")]
    Binary { rel: String, bytes: u64 },
    #[error("offset {offset} is past the end of `{rel}` ({total} lines)")]
    PastEnd {
        offset: u64,
        rel: String,
        total: u64,
    },
    #[error(
        "`old` was not found in `{rel}` (0 matches); read the file again and copy the text exactly, including whitespace"
    )]
    NotFound { rel: String },
    #[error(
        "`old` matched {count} times in `{rel}`; it must match exactly once, so include more surrounding lines"
    )]
    Ambiguous { rel: String, count: usize },
    #[error("`old` and `new` are identical; nothing to change")]
    NoChange,
    #[error("could not start `{program}`: {source}")]
    Spawn {
        program: String,
        #[source]
        source: io::Error,
    },
    #[error("waiting for `{program}` failed: {source}")]
    Wait {
        program: String,
        #[source]
        source: io::Error,
    },
    /// The blocking task that did the work panicked or was cancelled.
    #[error("{tool} failed: {source}")]
    Task {
        tool: &'static str,
        #[source]
        source: tokio::task::JoinError,
    },
    /// An external (MCP) tool answered with an error; its text is passed on as it is.
    #[error("{0}")]
    External(String),
}

impl ToolError {
    /// A rule the arguments break, in the tool's own words.
    pub fn invalid(tool: &str, problem: impl Into<String>) -> ToolError {
        ToolError::InvalidArguments {
            tool: tool.to_string(),
            problem: problem.into(),
        }
    }

    /// A failed filesystem call on the workspace path `rel`.
    pub fn io(action: &'static str, rel: &str) -> impl FnOnce(io::Error) -> ToolError {
        let rel = rel.to_string();
        move |source| ToolError::Io {
            action,
            rel,
            source,
        }
    }
}

fn field_prefix(path: &Option<String>) -> String {
    match path {
        Some(p) => format!("field `{p}`: "),
        None => String::new(),
    }
}
