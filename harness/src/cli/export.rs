//! `nab export [--format csv|parquet] [--out DIR] DIR...`: runs and sweeps as tables (one
//! row per trial, per run and task, per run). The logic is nab-reports' `export`.

use std::process::ExitCode;

pub type Args = nab_reports::ExportArgs;

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let exported = nab_reports::cli::export::run(&args)?;
    print!("{}", nab_reports::cli::export::terminal(&exported));
    Ok(ExitCode::SUCCESS)
}
