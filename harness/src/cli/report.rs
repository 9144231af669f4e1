//! `nab report --run DIR`: (re)write results.parquet, summary.json and report.html.

use std::process::ExitCode;

pub type Args = nab_reports::cli::ReportArgs;

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    nab_reports::cli::report::run(&args)?;
    Ok(ExitCode::SUCCESS)
}
