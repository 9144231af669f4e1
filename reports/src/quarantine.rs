//! `tasks/quarantine.yaml`: tasks kept out of every score, each with a reason.
//!
//! ```yaml
//! - task: java-flaky-clock
//!   reason: "oracle verdict flips under load (nab validate --repeat 5: 3/5)"
//! ```
//!
//! A quarantined task's trials are still recorded; reports and the gate list the task apart
//! (with its reason) and leave it out of the pass rate, the paired statistics and the rules.
//! When two runs are compared, a task quarantined for either is left out of both.

use crate::error::{ReportError, Result};
use serde::{Deserialize, Serialize};
use std::path::Path;

pub const QUARANTINE_FILE: &str = "quarantine.yaml";

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct QuarantineEntry {
    pub task: String,
    pub reason: String,
}

/// A quarantined task as a run reports it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct QuarantinedTask {
    pub task_id: String,
    pub reason: String,
    /// This run's trials of the task, left out of the scores.
    pub trials: usize,
}

/// Reads `<tasks_dir>/quarantine.yaml`; no file means no quarantine.
pub fn load(tasks_dir: &Path) -> Result<Vec<QuarantineEntry>> {
    let path = tasks_dir.join(QUARANTINE_FILE);
    let text = match std::fs::read_to_string(&path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(source) => return Err(ReportError::Read { path, source }),
    };
    parse(&text, &path)
}

pub fn parse(text: &str, path: &Path) -> Result<Vec<QuarantineEntry>> {
    let err = |message: String| ReportError::Quarantine {
        path: path.to_owned(),
        message,
    };
    if text.trim().is_empty() {
        return Ok(Vec::new());
    }
    let entries: Vec<QuarantineEntry> = serde_yaml::from_str(text).map_err(|e| {
        err(match e.location() {
            Some(l) => format!("line {}, column {}: {e}", l.line(), l.column()),
            None => e.to_string(),
        })
    })?;
    for (i, e) in entries.iter().enumerate() {
        if e.task.trim().is_empty() || e.reason.trim().is_empty() {
            return Err(err(format!(
                "entry {}: every quarantined task needs a task id and a reason",
                i + 1
            )));
        }
    }
    Ok(entries)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_entries_and_rejects_a_missing_reason_with_its_place() {
        let p = Path::new("tasks/quarantine.yaml");
        let q = parse("- task: a\n  reason: flaky oracle\n", p).unwrap();
        assert_eq!(q[0].task, "a");
        let e = parse("- task: a\n  reason: ''\n", p)
            .unwrap_err()
            .to_string();
        assert!(e.contains("quarantine.yaml") && e.contains("reason"), "{e}");
        let e = parse("- task: a\n  why: x\n", p).unwrap_err().to_string();
        assert!(e.contains("line 2") && e.contains("why"), "{e}");
        assert!(parse("", p).unwrap().is_empty());
    }
}
