//! `nab export`: the trials of many runs as tables for analysis (polars, pandas, duckdb, R,
//! a spreadsheet), in one of several formats with the same columns in each.
//!
//! - [`load`]: run and sweep folders expanded into runs, checked and loaded, every trial
//!   kept (a quarantined one marked, not dropped).
//! - [`trials`], [`tasks`], [`runs`]: the three tables' columns: one row per trial, per
//!   (run, task) and per run.
//! - [`write`]: the files, all or none.
//! - [`atif`]: not a table: each trial's trajectory in ATIF, one file per trial.
//!
//! The column lists are in `docs/src/reference/export-tables.md`; a column added here is
//! added there.

pub mod atif;
mod load;
mod runs;
mod tasks;
mod trials;
mod write;

use crate::error::{ReportError, Result};
use crate::table::values::Columns;
use std::path::{Path, PathBuf};

/// What `nab export` writes. The table formats share every column; `atif` is of another
/// shape (one trajectory file per trial) and has its own writer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
#[non_exhaustive]
pub enum Format {
    /// Comma-separated text (RFC 4180), a header row first.
    Csv,
    /// Typed Parquet (zstd), as results.parquet.
    Parquet,
    /// Each trial's trajectory in ATIF (Harbor's Agent Trajectory Interchange Format), one
    /// JSON file per trial, not tables.
    Atif,
}

impl Format {
    /// The tables' file extension.
    pub fn extension(self) -> &'static str {
        match self {
            Format::Csv => "csv",
            Format::Parquet => "parquet",
            Format::Atif => "json",
        }
    }
}

/// The three tables' names, in the order they are written (`<name>.<ext>`).
pub const TABLES: [&str; 3] = ["trials", "tasks", "runs"];

/// What an export read and wrote.
#[derive(Debug, Clone, PartialEq)]
pub struct Exported {
    /// The run folders read, in order.
    pub runs: Vec<PathBuf>,
    /// Rows of the trials table.
    pub trials: usize,
    /// The files written: trials, tasks, runs.
    pub written: Vec<PathBuf>,
    /// What a reader should know (a sweep's run without results, a torn last line).
    pub notes: Vec<String>,
    /// Trials that could not be exported (ATIF: a refused file), each with the file and
    /// why; the others were written.
    pub failed: Vec<String>,
}

/// Reads every DIR (run or sweep folder) and writes `trials`, `tasks` and `runs` in
/// `format` into `out` (created if missing). Nothing is written unless every run loads.
pub fn export(dirs: &[PathBuf], out: &Path, format: Format) -> Result<Exported> {
    if format == Format::Atif {
        return export_atif(dirs, Some(out));
    }
    let loaded = load::load(dirs)?;
    let tables: [(&str, Columns); 3] = [
        (TABLES[0], trials::columns(&loaded.runs)),
        (TABLES[1], tasks::columns(&loaded.runs)),
        (TABLES[2], runs::columns(&loaded.runs)),
    ];
    let written = write::write_tables(out, format, &tables)?;
    Ok(Exported {
        runs: loaded.runs.iter().map(|r| r.all.dir.clone()).collect(),
        trials: loaded.runs.iter().map(|r| r.all.records.len()).sum(),
        written,
        notes: loaded.notes,
        failed: Vec::new(),
    })
}

/// Reads every DIR and writes each trial's ATIF trajectory: into `out` (one run only:
/// `<out>/<task>/<trial>.json`), or without `out` into each run's own `atif/` folder, where
/// the report links it. A trial whose files are refused is listed in `failed`; the other
/// trials are written.
pub fn export_atif(dirs: &[PathBuf], out: Option<&Path>) -> Result<Exported> {
    let loaded = load::load(dirs)?;
    if let (Some(out), true) = (out, loaded.runs.len() > 1) {
        return Err(ReportError::ExportInput {
            path: out.to_owned(),
            message: format!(
                "--out with --format atif takes one run, not {}: without --out each run's \
                 trajectories go into its own atif/ folder",
                loaded.runs.len()
            ),
        });
    }
    let mut e = Exported {
        runs: Vec::new(),
        trials: 0,
        written: Vec::new(),
        notes: loaded.notes,
        failed: Vec::new(),
    };
    for run in &loaded.runs {
        let dir = &run.all.dir;
        let root = out.map_or_else(|| dir.join(nab_protocol::ATIF_DIR), Path::to_owned);
        let w = atif::write_run(dir, &run.all.meta, &run.all.records, &root)?;
        e.runs.push(dir.clone());
        e.trials += run.all.records.len();
        e.written.extend(w.written);
        e.notes.extend(w.empty);
        e.notes.extend(w.skipped);
        e.failed.extend(w.failed);
    }
    Ok(e)
}
