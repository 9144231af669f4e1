//! The end of `nab run` and of each run of `nab sweep`: run.json finished and the aggregate
//! outputs (results.parquet, summary.json, report.html) written, their paths printed.
//! run.json's start is `nab_harness::run::meta`.

use nab_protocol::RunMeta;
use std::path::Path;

/// Records the end of the run and writes the aggregate outputs. The trial records are
/// already safe in results.jsonl, so a failure here is a warning that says how to retry.
pub fn finish(out: &Path, mut meta: RunMeta, run_id: &str) {
    meta.run_id = Some(run_id.to_owned());
    meta.finished_at = Some(nab_protocol::now_rfc3339());
    if let Err(e) = meta.write(out) {
        eprintln!("warning: {e}");
    }
    match nab_reports::write_run_outputs(out) {
        Ok(o) => {
            println!("wrote {}", o.summary_json.display());
            println!("      {}", o.parquet.display());
            println!("report {}", o.report_html.display());
        }
        Err(e) => eprintln!(
            "warning: the report was not written: {e}; retry with: nab report --run {}",
            out.display()
        ),
    }
}
