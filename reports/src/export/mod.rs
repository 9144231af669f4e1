//! `nab export`: the trials of many runs as tables for analysis (polars, pandas, duckdb, R,
//! a spreadsheet), in one of several formats with the same columns in each.
//!
//! - [`load`]: run and sweep folders expanded into runs, checked and loaded, every trial
//!   kept (a quarantined one marked, not dropped).
//! - [`trials`], [`tasks`], [`runs`]: the three tables' columns: one row per trial, per
//!   (run, task) and per run.
//! - [`write`]: the files, all or none.
//!
//! The column lists are in `docs/src/reference/export-tables.md`; a column added here is
//! added there.

mod load;
mod runs;
mod tasks;
mod trials;
mod write;

use crate::error::Result;
use crate::table::values::Columns;
use std::path::{Path, PathBuf};

/// What `nab export` writes. The table formats share every column; a format of another
/// shape (a trajectory format) would be one more variant with its own writer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
#[non_exhaustive]
pub enum Format {
    /// Comma-separated text (RFC 4180), a header row first.
    Csv,
    /// Typed Parquet (zstd), as results.parquet.
    Parquet,
}

impl Format {
    /// The tables' file extension.
    pub fn extension(self) -> &'static str {
        match self {
            Format::Csv => "csv",
            Format::Parquet => "parquet",
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
}

/// Reads every DIR (run or sweep folder) and writes `trials`, `tasks` and `runs` in
/// `format` into `out` (created if missing). Nothing is written unless every run loads.
pub fn export(dirs: &[PathBuf], out: &Path, format: Format) -> Result<Exported> {
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
    })
}
