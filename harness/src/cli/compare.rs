//! `nab compare --baseline DIR --candidate DIR [--judge SPEC…]`: both runs side by side
//! (paired statistics, per-task deltas) in compare.html and on the terminal; with
//! `--judge`, also the position-swapped pairwise judge comparison, fed into both.

use nab_harness::run::judge_model::{JudgeCallOpts, judge_factory};
use std::process::ExitCode;

/// The reports' and the judges' arguments, flattened unchanged, and how the harness calls
/// models. The help lists the options in the order they have always had: the runs, the
/// judges and their calls, then the earlier verdicts, the page and the seed.
#[derive(Debug, clap::Args)]
#[command(
    mut_arg("pairwise", |a| a.display_order(900)),
    mut_arg("merge_pairwise", |a| a.display_order(901)),
    mut_arg("out", |a| a.display_order(902)),
    mut_arg("seed", |a| a.display_order(903))
)]
pub struct Args {
    #[command(flatten)]
    runs: nab_reports::CompareArgs,
    #[command(flatten)]
    pairwise: nab_judges::PairwiseArgs,
    #[command(flatten)]
    judge_call: JudgeCallOpts,
}

pub async fn run(args: Args) -> anyhow::Result<ExitCode> {
    let Args {
        runs,
        pairwise,
        judge_call,
    } = args;
    // Load both runs first: a typo in a folder must not cost a round of judge calls.
    for dir in [&runs.baseline, &runs.candidate] {
        nab_reports::Run::load(dir)?;
    }
    // Pairwise verdicts carry no cost (nab compare has no --prices).
    let factory = judge_factory(judge_call, None);
    let pairwise =
        nab_judges::cli::compare::run(pairwise, &runs.baseline, &runs.candidate, &factory).await?;
    if let Some((judged, pairs_out)) = &pairwise.judged {
        print!("{}", judged.markdown);
        println!("wrote {}\n", pairs_out.display());
    }
    let written = nab_reports::cli::compare::run(&runs, pairwise.verdicts)?;
    print!("{}", written.comparison.terminal_summary());
    println!("\nwrote {}", written.html.display());
    Ok(ExitCode::SUCCESS)
}
