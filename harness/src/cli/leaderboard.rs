//! `nab leaderboard DIR... [--out DIR] [--allow-mixed]`: runs and sweeps ranked on their
//! common tasks (leaderboard.html, .md, .json). The logic is nab-reports' `leaderboard`.

use std::process::ExitCode;

pub type Args = nab_reports::LeaderboardArgs;

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let r = nab_reports::cli::leaderboard::run(&args)?;
    print!("{}", nab_reports::cli::leaderboard::terminal(&r.board));
    for written in [&r.written.html, &r.written.markdown, &r.written.json] {
        println!("wrote {}", written.display());
    }
    Ok(ExitCode::SUCCESS)
}
