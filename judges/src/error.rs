//! Errors of the library. Messages say what was wrong, where, and what is allowed.

use std::path::PathBuf;

#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum JudgeError {
    #[error("cannot read {path}: {source}")]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
    /// A rubric file failed to load; every problem found is listed.
    #[error("invalid rubric {path}:\n{}", problems.iter().map(|p| format!("  - {p}")).collect::<Vec<_>>().join("\n"))]
    Rubric {
        path: PathBuf,
        problems: Vec<String>,
    },
    #[error("cannot render judge prompt template `{template}`: {message}")]
    Template { template: String, message: String },
    #[error("{path}: {message}")]
    RunDir { path: PathBuf, message: String },
    #[error("{path}:{line}: {message}")]
    Verdicts {
        path: PathBuf,
        line: usize,
        message: String,
    },
    /// A line of a JSON Lines input was refused (`path:line: why`).
    #[error(transparent)]
    Lines(nab_protocol::JsonlError),
    #[error("{0}")]
    Invalid(String),
    #[error(transparent)]
    Run(#[from] nab_protocol::RunFolderError),
}
