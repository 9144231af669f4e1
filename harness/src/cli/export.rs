//! `nab export [--format csv|parquet|atif] [--out DIR] DIR...`: runs and sweeps as tables
//! (one row per trial, per run and task, per run) or as ATIF trajectories (one file per
//! trial). The logic is nab-reports' `export`.

use std::process::ExitCode;

pub type Args = nab_reports::ExportArgs;

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let exported = nab_reports::cli::export::run(&args)?;
    print!("{}", nab_reports::cli::export::terminal(&exported));
    // A trial left out is a failure a script must see, after the others were written.
    Ok(if exported.failed.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}
