//! `nab view [DIR]`: one static page, DIR/index.html, over every run and sweep under DIR:
//! each run with its agent, model, date, pass rate, errors and cost, a filter and sortable
//! columns, links to its report, its trials and its sweep's leaderboard, and any two runs
//! side by side. Regenerated on demand (no server); self-contained like the reports; every
//! link relative, so the folder can be moved or published as it is.
//!
//! - [`walk`]: the run and sweep folders under DIR (bounded, never through a link).
//! - [`entry`]: one run's row, tasks and trials.
//! - [`href`]: relative links and the compare page's name for a pair.
//! - [`command`]: the shell commands shown.
//!
//! The page is `crate::html::view`.

pub mod command;
pub mod entry;
pub mod href;
pub mod walk;

use crate::error::{ReportError, Result};
use crate::output::write_file;
use entry::{CompareLink, RunEntry};
use nab_protocol::SweepIndex;
use serde::Serialize;
use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// The page's file name, in DIR.
pub const INDEX_FILE: &str = "index.html";

/// Version of the JSON embedded in the page.
pub const VIEW_VERSION: u32 = 1;

/// Everything the page shows.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ViewIndex {
    pub v: u32,
    /// DIR as given.
    pub dir: String,
    pub runs: Vec<RunEntry>,
    pub sweeps: Vec<SweepEntry>,
    /// Folders passed over, one sentence each.
    pub notes: Vec<String>,
    pub generated_at: String,
}

/// A sweep folder (it holds sweep.json).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SweepEntry {
    /// Relative to DIR, `/`-separated (empty when DIR is the sweep).
    pub path: String,
    pub started_at: Option<String>,
    /// As shown (`2026-12-01 03:00`).
    pub date: Option<String>,
    /// The sweep file it ran, as sweep.json records it.
    pub sweep_file: Option<String>,
    /// Runs of the index in it.
    pub runs: usize,
    /// leaderboard.html, relative to DIR, when it is there.
    pub leaderboard: Option<String>,
    /// What writes (or rewrites) it.
    pub leaderboard_command: String,
}

/// Reads every run and sweep under `dir` (which must be a folder).
pub fn build(dir: &Path) -> Result<ViewIndex> {
    match std::fs::metadata(dir) {
        Ok(m) if m.is_dir() => {}
        Ok(_) => {
            return Err(not_a_folder(
                dir,
                "not a folder: pass the folder that holds your runs",
            ));
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return Err(not_a_folder(
                dir,
                "no such folder: pass the folder that holds your runs (nab run and nab sweep write under runs/ by default)",
            ));
        }
        Err(source) => {
            return Err(ReportError::Read {
                path: dir.to_owned(),
                source,
            });
        }
    }
    let found = walk::walk(dir);
    let mut notes = found.notes;
    let mut runs = Vec::new();
    for f in &found.runs {
        match entry::load(dir, &f.rel, f.sweep) {
            Ok(e) => runs.push(e),
            Err(e) => notes.push(format!(
                "{}: {e}; left out of the index",
                dir.join(&f.rel).display()
            )),
        }
    }
    link_compares(dir, &mut runs);
    let sweeps = found
        .sweeps
        .iter()
        .enumerate()
        .map(|(i, rel)| {
            sweep_entry(
                dir,
                rel,
                runs.iter().filter(|r| r.sweep == Some(i)).count(),
                &mut notes,
            )
        })
        .collect();
    Ok(ViewIndex {
        v: VIEW_VERSION,
        dir: dir.display().to_string(),
        runs,
        sweeps,
        notes,
        generated_at: nab_protocol::now_rfc3339(),
    })
}

fn not_a_folder(dir: &Path, message: &str) -> ReportError {
    ReportError::ViewInput {
        path: dir.to_owned(),
        message: message.to_owned(),
    }
}

fn sweep_entry(root: &Path, rel: &Path, runs: usize, notes: &mut Vec<String>) -> SweepEntry {
    let dir = entry::folder(root, rel);
    let index = SweepIndex::read(&dir).unwrap_or_else(|e| {
        notes.push(format!(
            "{e}: the sweep is listed without its start and file"
        ));
        None
    });
    let board = dir.join(crate::leaderboard::write::HTML_FILE);
    SweepEntry {
        path: entry::rel_string(rel),
        started_at: index.as_ref().map(|i| i.started_at.clone()),
        date: index.as_ref().map(|i| entry::shown_date(&i.started_at)),
        sweep_file: index.map(|i| i.sweep_file.display().to_string()),
        runs,
        leaderboard: std::fs::symlink_metadata(&board)
            .is_ok_and(|m| m.is_file())
            .then(|| href::to_file(rel, crate::leaderboard::write::HTML_FILE)),
        leaderboard_command: command::leaderboard(&command::quote(&dir.display().to_string())),
    }
}

/// Finds each run's compare pages named for another run of the index as baseline.
fn link_compares(root: &Path, runs: &mut [RunEntry]) {
    let by_name: HashMap<String, usize> = runs
        .iter()
        .enumerate()
        .map(|(i, r)| (r.compare_name.clone(), i))
        .collect();
    for (i, run) in runs.iter_mut().enumerate() {
        let rel = PathBuf::from(&run.path);
        let Ok(entries) = std::fs::read_dir(entry::folder(root, &rel)) else {
            continue;
        };
        for e in entries.flatten() {
            let Ok(name) = e.file_name().into_string() else {
                continue;
            };
            let is_file = e.file_type().is_ok_and(|t| t.is_file());
            if let Some(&baseline) = by_name.get(&name).filter(|&&b| b != i && is_file) {
                run.compares.push(CompareLink {
                    baseline,
                    href: href::to_file(&rel, &name),
                });
            }
        }
        run.compares.sort_by_key(|c| c.baseline);
    }
}

/// What `nab view` wrote.
#[derive(Debug, Clone)]
pub struct ViewOutputs {
    pub index: ViewIndex,
    /// DIR/index.html.
    pub html: PathBuf,
}

/// Builds the index of `dir` and writes DIR/index.html (beside and renamed).
pub fn write_index(dir: &Path) -> Result<ViewOutputs> {
    let index = build(dir)?;
    let html = dir.join(INDEX_FILE);
    write_file(&html, crate::html::render_view(&index)?.as_bytes())?;
    Ok(ViewOutputs { index, html })
}
