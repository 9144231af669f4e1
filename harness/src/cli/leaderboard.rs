//! `nab leaderboard DIR... [--out DIR] [--allow-mixed]`: runs and sweeps ranked on their
//! common tasks (leaderboard.html, .md, .json). The logic is nab-reports' `leaderboard`.

use std::process::ExitCode;

pub type Args = nab_reports::cli::LeaderboardArgs;

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    nab_reports::cli::leaderboard::run(&args)?;
    Ok(ExitCode::SUCCESS)
}
