//! `nab judge --run DIR`: grade, or re-grade, the trials of an existing run with LLM
//! judges, then rewrite the run's report so it shows the verdicts.

use nab_harness::run::judge_model::{JudgeCallOpts, judge_factory};
use std::process::ExitCode;

/// The judges crate's arguments, flattened unchanged, and how the harness calls models.
#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(flatten)]
    judge: nab_judges::JudgeArgs,
    #[command(flatten)]
    call: JudgeCallOpts,
    /// A prices file (as for `nab run --prices`): each judge's calls are priced at the entry
    /// matching its model, in `cost_usd` on its verdict. Without it verdicts have no cost.
    #[arg(long, value_name = "FILE")]
    prices: Option<std::path::PathBuf>,
}

pub async fn run(args: Args) -> anyhow::Result<ExitCode> {
    let run_dir = args.judge.run.clone();
    let tasks = args.judge.tasks.clone();
    let prices = args
        .prices
        .as_deref()
        .map(nab_gateway::Prices::load)
        .transpose()?
        .map(std::sync::Arc::new);
    let summary =
        nab_judges::cli::judge::run(args.judge, &judge_factory(args.call, prices)).await?;
    print!("{}", summary.markdown);
    println!(
        "\ngraded {} trial verdict(s), skipped {}, judge errors {} → {}",
        summary.graded,
        summary.skipped,
        summary.judge_errors,
        nab_protocol::RunPaths::new(&run_dir).results().display()
    );
    // The verdicts are in results.jsonl whatever happens here; a report that cannot be
    // rewritten is worth a warning, not a failed command. It reads the suite the judges
    // read (`--tasks`), so a copied run's trial views still show their instructions.
    let report = nab_reports::ReportArgs {
        run: run_dir.clone(),
        out: None,
        tasks,
    };
    match nab_reports::cli::report::run(&report) {
        Ok(o) => println!("wrote {}", o.report_html.display()),
        Err(e) => eprintln!("warning: the report was not rewritten: {e}"),
    }
    // Nothing graded at all is not a success: every verdict asked for came back an error.
    if summary.graded > 0 && summary.judge_errors == summary.graded {
        eprintln!(
            "every one of the {} verdict(s) failed: the judges' answers and errors are in each trial's {}",
            summary.graded,
            nab_protocol::JUDGE_ATTEMPTS_FILE
        );
        return Ok(nab_harness::exit::exit(nab_harness::exit::FAILED));
    }
    Ok(ExitCode::SUCCESS)
}
