//! The runs an export reads. DIRs are expanded as the leaderboard expands them (a sweep
//! folder into its runs, each results.jsonl and run.json a regular file of bounded size);
//! an export also refuses those files as symbolic links, since a run folder may come from
//! anywhere and a link can point at any file of the reader's.

use crate::error::{ReportError, Result};
use crate::leaderboard::inputs;
use crate::run::Run;
use crate::summary::RunSummary;
use nab_protocol::{RESULTS_FILE, RUN_META_FILE};
use std::path::{Path, PathBuf};

/// One run as the tables see it.
#[derive(Debug, Clone)]
pub(crate) struct LoadedRun {
    /// Every trial the run recorded (a trial recorded twice, once: the last line wins),
    /// quarantined tasks' included.
    pub all: Run,
    /// The tasks `tasks/quarantine.yaml` keeps out of the scores.
    pub quarantined: Vec<String>,
    /// summary.json's figures: quarantined tasks left out, as on every page nab writes.
    pub summary: RunSummary,
}

impl LoadedRun {
    /// Whether `task` is kept out of the scores.
    pub fn is_quarantined(&self, task: &str) -> bool {
        self.quarantined.iter().any(|q| q == task)
    }
}

/// The runs, in the order given, and the notes of reading them.
#[derive(Debug, Clone)]
pub(crate) struct Loaded {
    pub runs: Vec<LoadedRun>,
    pub notes: Vec<String>,
}

/// Expands, checks and loads every DIR; the first bad file ends it, named.
pub(crate) fn load(dirs: &[PathBuf]) -> Result<Loaded> {
    let inputs = inputs::expand(dirs)?;
    let mut notes = inputs.notes;
    let mut runs = Vec::new();
    for dir in &inputs.runs {
        refuse_links(dir)?;
        let (all, entries) = Run::load_unquarantined(dir)?;
        if all.truncated_tail {
            notes.push(format!(
                "{}: the last line was cut off (an interrupted run) and is not exported",
                dir.join(RESULTS_FILE).display()
            ));
        }
        let scored = all.clone().quarantine(&entries);
        runs.push(LoadedRun {
            quarantined: scored
                .quarantined
                .iter()
                .map(|q| q.task_id.clone())
                .collect(),
            // No bootstrap: the one figure it gives (cost per solved task's interval) is
            // not a column.
            summary: RunSummary::compute_with(&scored, 0),
            all,
        });
    }
    Ok(Loaded { runs, notes })
}

/// results.jsonl and run.json must not be symbolic links (the size checks of
/// [`inputs::check_run_files`] see only what a link points at).
fn refuse_links(run: &Path) -> Result<()> {
    for name in [RESULTS_FILE, RUN_META_FILE] {
        let path = run.join(name);
        if std::fs::symlink_metadata(&path).is_ok_and(|m| m.file_type().is_symlink()) {
            return Err(ReportError::ExportInput {
                path,
                message:
                    "a symbolic link: refusing to follow it (copy the file into the run folder)"
                        .into(),
            });
        }
    }
    Ok(())
}
