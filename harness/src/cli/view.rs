//! `nab view [DIR]`: writes DIR/index.html over every run and sweep under DIR, and says
//! where it is. The logic is nab-reports' `view`.

use std::process::ExitCode;

pub type Args = nab_reports::ViewArgs;

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let out = nab_reports::cli::view::run(&args)?;
    print!("{}", nab_reports::cli::view::terminal(&out));
    Ok(ExitCode::SUCCESS)
}
