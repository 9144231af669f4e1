//! What the runner calls at the end of `nab run` (and `nab report` calls again).

use crate::error::{ReportError, Result};
use crate::html::render_report;
use crate::run::Run;
use crate::summary::RunSummary;
use crate::table::{PARQUET_FILE, write_parquet};
use std::path::{Path, PathBuf};

pub const SUMMARY_FILE: &str = "summary.json";
pub const REPORT_FILE: &str = "report.html";

/// The files written and the aggregates they hold.
#[derive(Debug, Clone)]
pub struct RunOutputs {
    pub parquet: PathBuf,
    pub summary_json: PathBuf,
    pub report_html: PathBuf,
    pub summary: RunSummary,
}

pub(crate) fn write_file(path: &Path, contents: &[u8]) -> Result<()> {
    // Write beside and rename, so a reader never sees half a report.
    let tmp = path.with_extension("tmp");
    std::fs::write(&tmp, contents)
        .and_then(|_| std::fs::rename(&tmp, path))
        .map_err(|source| ReportError::Write {
            path: path.to_owned(),
            source,
        })
}

/// Loads `<run_dir>/results.jsonl` and writes `results.parquet`, `summary.json` and
/// `report.html` into `<run_dir>`.
pub fn write_run_outputs(run_dir: &Path) -> Result<RunOutputs> {
    let run = Run::load(run_dir)?;
    write_outputs_for(&run, run_dir)
}

/// The same for a run already loaded, writing into `out_dir`.
pub fn write_outputs_for(run: &Run, out_dir: &Path) -> Result<RunOutputs> {
    let summary = RunSummary::compute(run);
    let parquet = out_dir.join(PARQUET_FILE);
    write_parquet(run, &parquet)?;
    let summary_json = out_dir.join(SUMMARY_FILE);
    let mut json = serde_json::to_vec_pretty(&summary).map_err(|e| ReportError::Write {
        path: summary_json.clone(),
        source: std::io::Error::other(e),
    })?;
    json.push(b'\n');
    write_file(&summary_json, &json)?;
    let report_html = out_dir.join(REPORT_FILE);
    write_file(&report_html, render_report(run, &summary)?.as_bytes())?;
    Ok(RunOutputs {
        parquet,
        summary_json,
        report_html,
        summary,
    })
}
