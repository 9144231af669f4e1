//! The part of `nab validate` that records each task's pinned test set in `tests.lock`:
//! the ids of the oracle's reports (canary left out), when every oracle run passed and all
//! runs listed the same ids. Entries of tasks not validated this time are kept as they are.

use super::{Entry, TestLock, tests_hash};
use crate::task::Task;
use nab_protocol::RunPaths;
use nab_protocol::{TrialRecord, TrialStatus};
use std::collections::BTreeSet;
use std::path::Path;
use std::sync::Arc;

/// What recording found: lines to print, and how many tasks' ids could not be recorded.
pub struct Recorded {
    pub notes: Vec<String>,
    pub problems: usize,
}

/// Updates `<tasks_dir>/tests.lock` from the oracle trials under `out` (folder
/// `oracle`, or `oracle.<i>` with `--repeat`).
pub fn record(
    tasks_dir: &Path,
    tasks: &[Arc<Task>],
    records: &[TrialRecord],
    out: &Path,
) -> anyhow::Result<Recorded> {
    let mut lock = TestLock::read(tasks_dir)?;
    let mut notes = Vec::new();
    let mut problems = 0;
    let mut changed = Vec::new();
    for t in tasks {
        let oracle: Vec<&TrialRecord> = records
            .iter()
            .filter(|r| r.task_id == t.id() && r.agent == "oracle")
            .collect();
        // An oracle that did not pass says nothing about the test set; the table above
        // already names it.
        if oracle.is_empty()
            || oracle
                .iter()
                .any(|r| r.outcome.status != TrialStatus::Passed)
        {
            continue;
        }
        let mut sets = Vec::new();
        for r in &oracle {
            // The folder the record names (the runner's), not one rebuilt here.
            let path = RunPaths::new(out).trial_of(r)?.test_ids();
            let text = std::fs::read_to_string(&path)
                .map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))?;
            let ids: BTreeSet<String> = serde_json::from_str(&text)
                .map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))?;
            sets.push(ids);
        }
        let Some(first) = sets.first().cloned() else {
            continue;
        };
        if sets.iter().any(|s| *s != first) {
            notes.push(format!(
                "PROBLEM: {}: the oracle's runs listed different test ids; tests.lock keeps its entry",
                t.id()
            ));
            problems += 1;
            continue;
        }
        let entry = Entry {
            tests_hash: tests_hash(&t.dir)?,
            ids: first,
        };
        if lock.tasks.get(t.id()) != Some(&entry) {
            changed.push(format!("{} ({} tests)", t.id(), entry.ids.len()));
            lock.tasks.insert(t.id().to_owned(), entry);
        }
    }
    if !changed.is_empty() {
        lock.write(tasks_dir)?;
        notes.push(format!(
            "{}: recorded {}",
            TestLock::path(tasks_dir).display(),
            changed.join(", ")
        ));
    }
    Ok(Recorded { notes, problems })
}
