//! `nab judge --run DIR`: grade, or re-grade, the trials of an existing run with LLM
//! judges, then rewrite the run's report so it shows the verdicts.

use nab_harness::judge_model::{JudgeCallOpts, judge_factory};
use nab_judges::cli::JudgeOpts;
use nab_judges::cli::judge::JudgeArgs;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// The run folder (with results.jsonl and trials/).
    #[arg(long, value_name = "DIR")]
    run: PathBuf,
    #[command(flatten)]
    opts: JudgeOpts,
    #[command(flatten)]
    call: JudgeCallOpts,
    /// The task suite the run used, for each task's instruction.md (default: the tasks
    /// folder recorded in <run>/run.json, else ./tasks).
    #[arg(long, value_name = "DIR")]
    tasks: Option<PathBuf>,
    /// Re-grade trials that already have a verdict from the same judge and rubric.
    #[arg(long)]
    force: bool,
}

/// The tasks folder of a run: `explicit` when given, else the one `run.json` records
/// (relative to the run folder), else `./tasks`; checked against the suite hash run.json
/// records, so a copied run folder is never judged against other tasks.
pub(crate) fn tasks_dir_of(run: &Path, explicit: Option<PathBuf>) -> anyhow::Result<PathBuf> {
    let meta = nab_protocol::run::RunMeta::read(run)?;
    Ok(nab_reports::suite::resolve_tasks_dir(
        &meta,
        run,
        explicit.as_deref(),
    )?)
}

pub async fn run(args: Args) -> anyhow::Result<ExitCode> {
    let tasks = tasks_dir_of(&args.run, args.tasks)?;
    let summary = nab_judges::cli::judge::run(
        JudgeArgs {
            run: args.run.clone(),
            opts: args.opts,
            tasks,
            force: args.force,
        },
        &judge_factory(args.call),
    )
    .await?;
    print!("{}", summary.markdown);
    println!(
        "\ngraded {} trial verdict(s), skipped {}, judge errors {} → {}",
        summary.graded,
        summary.skipped,
        summary.judge_errors,
        nab_protocol::run::RunPaths::new(&args.run)
            .results()
            .display()
    );
    // The verdicts are in results.jsonl whatever happens here; a report that cannot be
    // rewritten is worth a warning, not a failed command.
    match nab_reports::write_run_outputs(&args.run) {
        Ok(o) => println!("wrote {}", o.report_html.display()),
        Err(e) => eprintln!("warning: the report was not rewritten: {e}"),
    }
    Ok(ExitCode::SUCCESS)
}
