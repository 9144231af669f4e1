//! What the runner calls at the end of `nab run` (and `nab report` calls again).

use crate::error::{ReportError, Result};
use crate::html::render_report_at;
use crate::output::write_file;
use crate::run::Run;
use crate::summary::RunSummary;
use crate::table::write_parquet;
use nab_protocol::RunPaths;
use std::path::{Path, PathBuf};

/// The files written and the aggregates they hold.
#[derive(Debug, Clone)]
pub struct RunOutputs {
    pub parquet: PathBuf,
    pub summary_json: PathBuf,
    pub report_html: PathBuf,
    pub summary: RunSummary,
    /// [`crate::run_end::tasks_table`] of the run's scored records, made here where the
    /// records are at hand.
    pub tasks_table: String,
}

/// Loads `<run_dir>/results.jsonl` and writes `results.parquet`, `summary.json` and
/// `report.html` into `<run_dir>`.
pub fn write_run_outputs(run_dir: &Path) -> Result<RunOutputs> {
    let run = Run::load(run_dir)?;
    write_outputs_for(&run, run_dir)
}

/// The same for a run already loaded, writing into `out_dir`.
pub fn write_outputs_for(run: &Run, out_dir: &Path) -> Result<RunOutputs> {
    write_outputs_at(run, out_dir, &nab_protocol::now_rfc3339())
}

/// [`write_outputs_for`] with the report's generation time given: the same run then gives
/// the same files, byte for byte (`nab merge` run twice).
pub fn write_outputs_at(run: &Run, out_dir: &Path, generated_at: &str) -> Result<RunOutputs> {
    let summary = RunSummary::compute(run);
    let paths = RunPaths::new(out_dir);
    let parquet = paths.parquet();
    write_parquet(run, &parquet)?;
    let summary_json = paths.summary();
    let mut json = serde_json::to_vec_pretty(&summary).map_err(|e| ReportError::Write {
        path: summary_json.clone(),
        source: std::io::Error::other(e),
    })?;
    json.push(b'\n');
    write_file(&summary_json, &json)?;
    let report_html = paths.report();
    write_file(
        &report_html,
        render_report_at(run, &summary, generated_at)?.as_bytes(),
    )?;
    Ok(RunOutputs {
        parquet,
        summary_json,
        report_html,
        summary,
        tasks_table: crate::run_end::tasks_table(&run.records),
    })
}
