//! The end of `nab run` and of each run of `nab sweep`: run.json finished, each trial's
//! trajectory in ATIF, and the aggregate outputs (results.parquet, summary.json,
//! report.html) written, their paths printed.
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
    write_trajectories(out);
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

/// Each trial's trajectory in ATIF, in the run's atif/ folder, before the report (which
/// links it). A trial whose files the export refuses (they are the agent's) is named; the
/// run's results stand either way.
fn write_trajectories(out: &Path) {
    let retry = || format!("retry with: nab export atif {}", out.display());
    match nab_reports::export::export_atif(&[out.to_owned()], None) {
        Ok(e) => {
            if !e.written.is_empty() {
                let dir = out.join(nab_protocol::ATIF_DIR);
                println!("trajectories {} (ATIF)", dir.display());
            }
            for f in &e.failed {
                eprintln!("warning: a trajectory was not written: {f}");
            }
        }
        Err(e) => eprintln!(
            "warning: the ATIF trajectories were not written: {e}; {}",
            retry()
        ),
    }
}
