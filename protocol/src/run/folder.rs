//! Loading a run folder: its `run.json` and its trial records. The one loader every
//! reader of a run uses (the judges, the reports, the harness's commands).

use super::error::RunFolderError;
use super::layout::{RunPaths, TrialDir};
use super::meta::RunMeta;
use crate::trial::TrialRecord;
use std::path::Path;

/// A run folder as it is on disk: every line of `results.jsonl` in file order (a trial
/// retried by `--resume` appears twice; readers that score pick the last) and `run.json`.
#[derive(Debug, Clone)]
pub struct RunFolder {
    /// The paths of the folder's files.
    pub paths: RunPaths,
    /// `run.json` (empty when the run has none).
    pub meta: RunMeta,
    /// Every line of `results.jsonl`, in file order.
    pub records: Vec<TrialRecord>,
    /// The last line of results.jsonl was cut off (an interrupted writer) and skipped.
    pub truncated_tail: bool,
}

impl RunFolder {
    /// Loads `<dir>/results.jsonl` (required; an unknown record version is refused with a
    /// message naming it) and `<dir>/run.json` (optional).
    pub fn open(dir: &Path) -> Result<RunFolder, RunFolderError> {
        let paths = RunPaths::new(dir);
        let results = paths.results();
        if !results.is_file() && dir.join(crate::sweep::SWEEP_INDEX_FILE).is_file() {
            return Err(RunFolderError::ASweep {
                path: dir.to_owned(),
            });
        }
        if !results.is_file() {
            return Err(RunFolderError::NotARun {
                path: dir.to_owned(),
            });
        }
        let read =
            crate::jsonl::read_jsonl_with(&results, usize::MAX, |_, l| TrialRecord::parse_line(l))
                .map_err(|source| RunFolderError::Results {
                    path: dir.to_owned(),
                    source,
                })?;
        Ok(RunFolder {
            meta: RunMeta::read(dir)?,
            paths,
            records: read.records,
            truncated_tail: read.truncated_tail,
        })
    }

    /// The run folder itself.
    pub fn dir(&self) -> &Path {
        self.paths.root()
    }

    /// The folder of one of this run's trials.
    pub fn trial_dir(&self, record: &TrialRecord) -> Result<TrialDir, RunFolderError> {
        Ok(self.paths.trial_of(record)?)
    }

    /// Replaces `results.jsonl` with `records`, atomically (a re-grade interrupted at any
    /// point leaves either the old file or the new one).
    pub fn write_records(&self, records: &[TrialRecord]) -> Result<(), RunFolderError> {
        Ok(crate::files::write_jsonl_atomic(
            &self.paths.results(),
            records,
        )?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::run::RESULTS_FILE;

    #[test]
    fn a_run_loads_its_records_and_refuses_what_it_cannot_read() {
        let dir = tempfile::tempdir().unwrap();
        let e = RunFolder::open(dir.path()).unwrap_err().to_string();
        assert!(e.contains("no results.jsonl"), "{e}");
        std::fs::write(dir.path().join(crate::sweep::SWEEP_INDEX_FILE), "{}").unwrap();
        let e = RunFolder::open(dir.path()).unwrap_err().to_string();
        assert!(
            e.contains("is a sweep folder") && e.contains("nab leaderboard"),
            "{e}"
        );
        let rec = TrialRecord::new("r", "t", "c", 0, "oracle");
        let line = serde_json::to_string(&rec).unwrap();
        std::fs::write(
            dir.path().join(RESULTS_FILE),
            format!("{line}\n{line}\n{{\"v\":1,"),
        )
        .unwrap();
        let run = RunFolder::open(dir.path()).unwrap();
        assert_eq!(run.records.len(), 2);
        assert!(run.truncated_tail);
        run.write_records(&run.records[..1]).unwrap();
        assert_eq!(RunFolder::open(dir.path()).unwrap().records.len(), 1);
        std::fs::write(dir.path().join(RESULTS_FILE), "{\"v\":9}\n").unwrap();
        let e = RunFolder::open(dir.path()).unwrap_err().to_string();
        assert!(
            e.contains("results.jsonl:1") && e.contains("version 9"),
            "{e}"
        );
    }
}
