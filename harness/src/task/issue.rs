//! One problem found in the suite, and the error that carries all of them.

use std::fmt;
use std::path::PathBuf;

/// A problem in a file of the suite (or a sweep file), where it is and what is wrong.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TaskIssue {
    pub file: PathBuf,
    /// 1-based line and column, when the problem has a position in the file.
    pub position: Option<(usize, usize)>,
    /// Dotted path of the field (`limits.cpus`, `verify[0].argv`, `models[1]`), when there
    /// is one.
    pub field: Option<String>,
    pub message: String,
}

impl TaskIssue {
    pub fn new(file: impl Into<PathBuf>, field: Option<&str>, message: impl Into<String>) -> Self {
        TaskIssue {
            file: file.into(),
            position: None,
            field: field.map(str::to_owned),
            message: message.into(),
        }
    }
}

impl fmt::Display for TaskIssue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.file.display())?;
        if let Some((l, c)) = self.position {
            write!(f, ":{l}:{c}")?;
        }
        if let Some(field) = &self.field {
            write!(f, ": field `{field}`")?;
        }
        write!(f, ": {}", self.message)
    }
}

/// Every problem in the suite; nothing runs while there is one.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub struct SuiteError {
    pub issues: Vec<TaskIssue>,
}

impl fmt::Display for SuiteError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "the task suite has {} problem(s); nothing was run:",
            self.issues.len()
        )?;
        for i in &self.issues {
            writeln!(f, "  {i}")?;
        }
        Ok(())
    }
}
