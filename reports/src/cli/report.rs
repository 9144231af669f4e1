//! `nab report --run DIR`: (re)write results.parquet, summary.json and report.html.

use crate::finish::{RunOutputs, write_outputs_for};
use crate::run::Run;
use anyhow::Context;
use std::path::PathBuf;

#[derive(Debug, Clone, clap::Args)]
pub struct ReportArgs {
    /// The run directory (the folder holding results.jsonl).
    #[arg(long, value_name = "DIR")]
    pub run: PathBuf,
    /// Where to write the outputs (default: the run directory).
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// The task suite, for the instructions in trial views (default: the folder run.json
    /// records, else ./tasks). Checked against the suite hash run.json records.
    #[arg(long, value_name = "DIR")]
    pub tasks: Option<PathBuf>,
}

/// Writes the run's outputs; [`terminal`] words what they say for the binary to print.
pub fn run(args: &ReportArgs) -> anyhow::Result<RunOutputs> {
    let mut run = Run::load(&args.run)?;
    if let Some(tasks) = &args.tasks {
        let dir = nab_protocol::resolve_tasks_dir(&run.meta, &run.dir, Some(tasks))?;
        run.meta.tasks_dir = Some(std::path::absolute(&dir).unwrap_or(dir));
    }
    let out = args.out.clone().unwrap_or_else(|| args.run.clone());
    std::fs::create_dir_all(&out).with_context(|| format!("cannot create {}", out.display()))?;
    Ok(write_outputs_for(&run, &out)?)
}
