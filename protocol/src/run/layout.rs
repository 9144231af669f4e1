//! The names of the files in a run folder and the paths built from them.

use crate::trial::TrialRecord;
use std::path::{Component, Path, PathBuf};

/// One trial record per line, appended as trials finish.
pub const RESULTS_FILE: &str = "results.jsonl";
/// What the run was ([`super::RunMeta`]).
pub const RUN_META_FILE: &str = "run.json";
/// The run's aggregates, written by nab-reports.
pub const SUMMARY_FILE: &str = "summary.json";
/// The self-contained HTML report.
pub const REPORT_FILE: &str = "report.html";
/// The trial records as a table.
pub const PARQUET_FILE: &str = "results.parquet";
/// `nab compare`'s page, in the candidate run by default.
pub const COMPARE_FILE: &str = "compare.html";
/// `nab compare --judge`'s judged pairs, in the candidate run by default.
pub const PAIRWISE_FILE: &str = "pairwise.jsonl";
/// `nab review export`'s output folder by default.
pub const REVIEW_DIR: &str = "review";
/// The folder of per-trial folders.
pub const TRIALS_DIR: &str = "trials";
/// The folder of the trials' trajectories in ATIF (`atif/<task>/<trial>.json`), written by
/// `nab export --format atif` and linked from the report.
pub const ATIF_DIR: &str = "atif";

/// The agent's change, as a unified diff.
pub const DIFF_FILE: &str = "diff.patch";
/// The agent's events (nab-agent's `events.jsonl`, checked and copied by the harness).
pub const EVENTS_FILE: &str = "events.jsonl";
/// The gateway's transcript of the trial's model calls.
pub const TRANSCRIPT_FILE: &str = "transcript.jsonl";
/// The tool calls that reached the task's MCP servers (one JSON object per line), as the
/// harness saw them pass its socket.
pub const MCP_CALLS_FILE: &str = "mcp_calls.jsonl";
/// What the task's MCP servers wrote to standard error, and how their connections ended.
pub const MCP_LOG_FILE: &str = "mcp.log";
/// The agent's output.
pub const AGENT_LOG_FILE: &str = "agent.log";
/// The verifier's output.
pub const VERIFY_LOG_FILE: &str = "verify.log";
/// Every judge attempt (raw answer and rejection), appended by `nab judge`.
pub const JUDGE_ATTEMPTS_FILE: &str = "judge_attempts.jsonl";
/// The test ids of the verifier's reports (a sorted JSON array), which `nab validate` pins.
pub const TEST_IDS_FILE: &str = "test_ids.json";

/// A task's instruction inside the task suite.
pub const INSTRUCTION_FILE: &str = "instruction.md";

/// `<tasks>/<task>/instruction.md`.
pub fn instruction_path(tasks_dir: &Path, task_id: &str) -> PathBuf {
    tasks_dir.join(task_id).join(INSTRUCTION_FILE)
}

/// A record whose trial folder cannot be inside the run folder.
#[derive(Debug, thiserror::Error)]
#[error(
    "{run}: trial record of task {task:?} names the folder {folder:?}, which is not a plain folder name; the record is damaged"
)]
pub struct LayoutError {
    /// The run folder.
    pub run: PathBuf,
    /// The record's task.
    pub task: String,
    /// The folder name the record gives.
    pub folder: String,
}

/// The paths of one run folder.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RunPaths {
    root: PathBuf,
}

impl RunPaths {
    /// The paths of the run folder `root`.
    pub fn new(root: impl Into<PathBuf>) -> RunPaths {
        RunPaths { root: root.into() }
    }

    /// The run folder itself.
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// `<run>/results.jsonl`.
    pub fn results(&self) -> PathBuf {
        self.root.join(RESULTS_FILE)
    }

    /// `<run>/run.json`.
    pub fn meta(&self) -> PathBuf {
        self.root.join(RUN_META_FILE)
    }

    /// `<run>/summary.json`.
    pub fn summary(&self) -> PathBuf {
        self.root.join(SUMMARY_FILE)
    }

    /// `<run>/report.html`.
    pub fn report(&self) -> PathBuf {
        self.root.join(REPORT_FILE)
    }

    /// `<run>/results.parquet`.
    pub fn parquet(&self) -> PathBuf {
        self.root.join(PARQUET_FILE)
    }

    /// `<run>/compare.html`.
    pub fn compare(&self) -> PathBuf {
        self.root.join(COMPARE_FILE)
    }

    /// `<run>/pairwise.jsonl`.
    pub fn pairwise(&self) -> PathBuf {
        self.root.join(PAIRWISE_FILE)
    }

    /// `<run>/review/`.
    pub fn review(&self) -> PathBuf {
        self.root.join(REVIEW_DIR)
    }

    /// `<run>/trials/<task>/<folder>/` for a folder name the caller chose (the runner).
    pub fn trial(&self, task_id: &str, folder: &str) -> TrialDir {
        TrialDir(self.root.join(TRIALS_DIR).join(task_id).join(folder))
    }

    /// The folder of the trial `record` describes: the folder it names, else its index.
    /// Both names come from a file, so each must be one plain path component.
    pub fn trial_of(&self, record: &TrialRecord) -> Result<TrialDir, LayoutError> {
        let index = record.trial.to_string();
        let folder = record.trial_dir.as_deref().unwrap_or(&index);
        for name in [record.task_id.as_str(), folder] {
            if !is_plain(name) {
                return Err(LayoutError {
                    run: self.root.clone(),
                    task: record.task_id.clone(),
                    folder: folder.to_owned(),
                });
            }
        }
        Ok(self.trial(&record.task_id, folder))
    }

    /// `<root>/<task>/<trial folder>.json`: where the trial `record` describes has its ATIF
    /// trajectory in a folder of trajectories `root` (the run's [`ATIF_DIR`], or another).
    /// The names are checked as in [`RunPaths::trial_of`].
    pub fn atif_in(root: &Path, record: &TrialRecord) -> Result<PathBuf, LayoutError> {
        let dir = RunPaths::new(root).trial_of(record)?;
        let mut path = root.join(&record.task_id);
        let folder = dir.path().file_name().unwrap_or_default().to_string_lossy();
        path.push(format!("{folder}.json"));
        Ok(path)
    }

    /// `<run>/atif/<task>/<trial folder>.json` ([`RunPaths::atif_in`] the run's `atif/`).
    pub fn atif_of(&self, record: &TrialRecord) -> Result<PathBuf, LayoutError> {
        RunPaths::atif_in(&self.root.join(ATIF_DIR), record)
    }
}

/// One normal path component: no separator, not `.` or `..`, not empty.
fn is_plain(name: &str) -> bool {
    let mut parts = Path::new(name).components();
    matches!((parts.next(), parts.next()), (Some(Component::Normal(n)), None) if n == name)
}

/// One trial's folder and the files in it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TrialDir(PathBuf);

impl TrialDir {
    /// A trial folder the caller already has (the harness, while it runs the trial).
    pub fn new(path: impl Into<PathBuf>) -> TrialDir {
        TrialDir(path.into())
    }

    /// The trial folder itself.
    pub fn path(&self) -> &Path {
        &self.0
    }

    /// `<trial>/diff.patch`.
    pub fn diff(&self) -> PathBuf {
        self.0.join(DIFF_FILE)
    }

    /// `<trial>/events.jsonl`.
    pub fn events(&self) -> PathBuf {
        self.0.join(EVENTS_FILE)
    }

    /// `<trial>/transcript.jsonl`.
    pub fn transcript(&self) -> PathBuf {
        self.0.join(TRANSCRIPT_FILE)
    }

    /// `<trial>/agent.log`.
    pub fn agent_log(&self) -> PathBuf {
        self.0.join(AGENT_LOG_FILE)
    }

    /// `<trial>/verify.log`.
    pub fn verify_log(&self) -> PathBuf {
        self.0.join(VERIFY_LOG_FILE)
    }

    /// `<trial>/judge_attempts.jsonl`.
    pub fn judge_attempts(&self) -> PathBuf {
        self.0.join(JUDGE_ATTEMPTS_FILE)
    }

    /// `<trial>/test_ids.json`.
    pub fn test_ids(&self) -> PathBuf {
        self.0.join(TEST_IDS_FILE)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_record_finds_the_folder_it_was_written_to_and_cannot_leave_the_run() {
        let run = RunPaths::new("/r");
        let mut rec = TrialRecord::new("run", "t1", "c", 3, "oracle");
        assert_eq!(
            run.trial_of(&rec).unwrap().diff(),
            Path::new("/r/trials/t1/3/diff.patch")
        );
        // `nab validate` runs several agents as trial 0 of one task: each its own folder.
        rec.trial_dir = Some("wrong-off-by-one".into());
        assert_eq!(
            run.trial_of(&rec).unwrap().path(),
            Path::new("/r/trials/t1/wrong-off-by-one")
        );
        for bad in ["..", "a/b", "", ".", "/etc"] {
            rec.trial_dir = Some(bad.into());
            let e = run.trial_of(&rec).unwrap_err();
            assert!(e.to_string().contains("not a plain folder name"), "{e}");
        }
        rec.trial_dir = None;
        rec.task_id = "../x".into();
        assert!(run.trial_of(&rec).is_err());
    }
}
