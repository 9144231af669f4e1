//! `nab export --format atif`: each trial's trajectory in Harbor's Agent Trajectory
//! Interchange Format (ATIF, RFC 0001), one JSON file per trial, for the tools that read it
//! (viewers, training pipelines, other harnesses).
//!
//! - [`schema`]: the format's types, as nab writes them.
//! - [`read`]: a trial's files opened as hostile input (no links, no FIFOs, size caps).
//! - [`events`], [`transcript`], [`turn`]: what each file gives the trajectory.
//! - [`time`]: step times.
//! - [`build`]: one trial's trajectory.
//!
//! The layout is `<root>/<task>/<trial folder>.json`; the root is the run's own `atif/`
//! folder (which the report links) unless `--out` names another.

pub mod build;
pub mod events;
pub mod read;
pub mod schema;
pub mod time;
pub mod transcript;
pub mod turn;

use crate::error::{ReportError, Result};
use build::NotBuilt;
use nab_protocol::{RunMeta, RunPaths, TrialRecord};
use std::path::{Path, PathBuf};

/// What writing one run's trajectories did.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct AtifWritten {
    /// The files written, in the records' order.
    pub written: Vec<PathBuf>,
    /// Trials with nothing to write (no transcript, no events), each named.
    pub empty: Vec<String>,
    /// Lines of the trials' files that were skipped, each `path:line: why`.
    pub skipped: Vec<String>,
    /// Trials that could not be written, each with the file and what was wrong.
    pub failed: Vec<String>,
}

/// Writes the trajectory of each of `records` (of the run in `run_dir`) under `root`. A
/// trial that fails is listed and the others are still written; a `root` that is a link or
/// not a folder fails them all, before any is read.
pub fn write_run(
    run_dir: &Path,
    meta: &RunMeta,
    records: &[TrialRecord],
    root: &Path,
) -> Result<AtifWritten> {
    not_a_link(root).map_err(|message| ReportError::ExportInput {
        path: root.to_owned(),
        message,
    })?;
    let mut out = AtifWritten::default();
    let paths = RunPaths::new(run_dir);
    for r in records {
        let name = format!("{} trial {}", r.task_id, r.trial);
        let (dir, file) = match (paths.trial_of(r), RunPaths::atif_in(root, r)) {
            (Ok(d), Ok(f)) => (d, f),
            (Err(e), _) | (_, Err(e)) => {
                out.failed.push(e.to_string());
                continue;
            }
        };
        let built = match build::build(r, meta, &dir) {
            Ok(b) => b,
            Err(NotBuilt::Nothing) => {
                out.empty.push(format!(
                    "{name}: no transcript or events to build a trajectory from"
                ));
                continue;
            }
            Err(NotBuilt::Refused { path, message }) => {
                out.failed.push(format!("{}: {message}", path.display()));
                continue;
            }
        };
        out.skipped.extend(built.skipped);
        match write_one(&file, &built.trajectory) {
            Ok(()) => out.written.push(file),
            Err(e) => out.failed.push(e),
        }
    }
    Ok(out)
}

/// Writes one trajectory, never through a linked folder (a run folder may come from
/// anywhere, and `atif/<task>` could point at any folder of the reader's).
fn write_one(file: &Path, t: &schema::Trajectory) -> Result<(), String> {
    let parent = file.parent().unwrap_or(Path::new("."));
    not_a_link(parent).map_err(|m| format!("{}: {m}", parent.display()))?;
    std::fs::create_dir_all(parent)
        .map_err(|e| format!("cannot create {}: {e}", parent.display()))?;
    nab_protocol::write_json_atomic(file, t).map_err(|e| e.to_string())
}

/// `Ok` when `dir` is absent or a real folder.
fn not_a_link(dir: &Path) -> std::result::Result<(), String> {
    match std::fs::symlink_metadata(dir) {
        Ok(m) if m.file_type().is_symlink() => {
            Err("a symbolic link: refusing to write through it".into())
        }
        Ok(m) if !m.is_dir() => Err("not a folder".into()),
        _ => Ok(()),
    }
}
