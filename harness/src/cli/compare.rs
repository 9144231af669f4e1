//! `nab compare --baseline DIR --candidate DIR [--judge SPEC…]`: both runs side by side
//! (paired statistics, per-task deltas) in compare.html and on the terminal; with
//! `--judge`, also the position-swapped pairwise judge comparison, fed into both.

use nab_harness::judge_model::{JudgeCallOpts, judge_factory};
use nab_judges::cli::compare::CompareArgs as JudgeCompareArgs;
use nab_judges::pairwise::PairLine;
use nab_protocol::run::RunPaths;
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// The reference run folder (with results.jsonl).
    #[arg(long, value_name = "DIR")]
    baseline: PathBuf,
    /// The run folder being judged against it.
    #[arg(long, value_name = "DIR")]
    candidate: PathBuf,
    /// Judge the (task, trial) pairs both runs completed with this model, both orders
    /// (provider spec as for `nab run --judge`). Repeat for several judges.
    #[arg(long = "judge", value_name = "SPEC")]
    judges: Vec<String>,
    /// Rubric YAML for the pairwise judge (default: the shipped code-quality rubric).
    #[arg(long, value_name = "FILE", requires = "judges")]
    rubric: Option<PathBuf>,
    /// The task suite the runs used, for each task's instruction.md (default: the tasks
    /// folder recorded in the candidate's run.json, else ./tasks).
    #[arg(long, value_name = "DIR")]
    tasks: Option<PathBuf>,
    /// Where the judged pairs go, with both raw answers (JSONL; the input of
    /// `nab review export-pairwise`). Default: <candidate>/pairwise.jsonl. Each pair is
    /// appended as soon as it is judged; run the same command again to resume a stopped
    /// comparison (pairs already in the file are not judged again; a file of another run
    /// pair is refused).
    #[arg(long, value_name = "FILE", requires = "judges")]
    pairs_out: Option<PathBuf>,
    #[command(flatten)]
    judge_call: JudgeCallOpts,
    /// Earlier pairwise results to show (a `--pairs-out` file, or records with task_id,
    /// winner, consistent, judge_model, reason).
    #[arg(long, value_name = "FILE")]
    pairwise: Option<PathBuf>,
    /// With both --pairwise and --judge: show the earlier file's verdicts together with the
    /// new ones. Without it the two are never mixed silently (an error says so).
    #[arg(long, requires_all = ["pairwise", "judges"])]
    merge_pairwise: bool,
    /// Where to write compare.html (default: <candidate>/compare.html).
    #[arg(long, value_name = "FILE")]
    out: Option<PathBuf>,
    /// Seed of the paired bootstrap.
    #[arg(long, default_value_t = nab_reports::stats::bootstrap::DEFAULT_SEED)]
    seed: u64,
}

pub async fn run(args: Args) -> anyhow::Result<ExitCode> {
    // Load both runs first: a typo in a folder must not cost a round of judge calls.
    for dir in [&args.baseline, &args.candidate] {
        nab_reports::Run::load(dir)?;
    }
    if args.pairwise.is_some() && !args.judges.is_empty() && !args.merge_pairwise {
        anyhow::bail!(
            "--pairwise FILE and --judge both given: the earlier file's verdicts would be mixed with the new ones; pass --merge-pairwise to show them together, or drop one"
        );
    }
    let mut pairwise = match &args.pairwise {
        Some(p) => nab_judges::pairwise::read_verdicts(p)?,
        None => Vec::new(),
    };
    if !args.judges.is_empty() {
        let pairs_out = args
            .pairs_out
            .clone()
            .unwrap_or_else(|| RunPaths::new(&args.candidate).pairwise());
        let judged = nab_judges::cli::compare::run(
            JudgeCompareArgs {
                baseline: args.baseline.clone(),
                candidate: args.candidate.clone(),
                judges: args.judges.clone(),
                rubric: args.rubric.clone(),
                tasks: args.tasks.clone(),
                out: Some(pairs_out.clone()),
            },
            &judge_factory(args.judge_call),
        )
        .await?;
        print!("{}", judged.markdown);
        println!("wrote {}\n", pairs_out.display());
        pairwise.extend(judged.pairs.iter().filter_map(PairLine::verdict));
    }
    let cmp =
        nab_reports::cli::compare::load(&args.baseline, &args.candidate, pairwise, args.seed)?;
    let out = args
        .out
        .clone()
        .unwrap_or_else(|| RunPaths::new(&args.candidate).compare());
    let html = nab_reports::html::render_compare(&cmp)?;
    // Written beside and renamed, so a browser never opens half a page.
    nab_protocol::files::write_atomic(&out, html.as_bytes())?;
    print!("{}", cmp.terminal_summary());
    println!("\nwrote {}", out.display());
    Ok(ExitCode::SUCCESS)
}
