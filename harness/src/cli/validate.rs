//! `nab validate`: every task's oracle must pass; the null agent and every known-wrong
//! solution must fail. Field and file problems are reported before any container starts.
//! With `--repeat N` each of them runs N times, and a task whose verdicts differ between
//! runs is reported as unstable: a flaky check would make every score on it noise.
//! Each oracle that passed records its task's test ids in `tests.lock` (see
//! `nab_harness::task::pinned`). The jobs and the verdicts are `nab_harness::run::validate`'s.

use super::common::{default_out, load_or_report};
use nab_harness::exit::{BAD_INPUT, FAILED, INTERRUPTED, exit};
use nab_harness::run::{RunConfig, new_run_id, run_jobs, validate};
use std::path::PathBuf;
use std::process::ExitCode;
use tokio_util::sync::CancellationToken;

#[derive(Debug, clap::Args)]
pub struct Args {
    #[arg(long, default_value = "tasks")]
    tasks: PathBuf,
    /// Checks at once (default: two per processor, as many as the available memory holds
    /// at the largest task's memory limit). The slowest tasks' checks start first.
    #[arg(short = 'j', long = "jobs")]
    jobs: Option<usize>,
    #[command(flatten)]
    engines: super::common::EngineOpts,
    /// Output folder (default runs/validate-<run id>).
    #[arg(long)]
    out: Option<PathBuf>,
    #[arg(long, default_value_t = 2)]
    attempts: u32,
    /// Run each oracle, null and known-wrong agent N times and report every task whose
    /// verdict is not the same in all N runs (unstable).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=100))]
    repeat: u32,
    /// Run every hidden test of the checks that must fail (null, known-wrong) too. By
    /// default they stop at their first failing test: one failure settles their verdict,
    /// and a wrong solution that passes every test still runs them all. Use it to see
    /// every test that catches each wrong solution.
    #[arg(long)]
    all_tests: bool,
    /// Only check fields and files; start no container.
    #[arg(long)]
    static_only: bool,
    #[arg(long)]
    run_id: Option<String>,
    /// Task ids (default: every task in --tasks).
    ids: Vec<String>,
}

pub async fn run(args: Args) -> anyhow::Result<ExitCode> {
    let Some(mut tasks) = load_or_report(&args.tasks, &args.ids) else {
        return Ok(exit(BAD_INPUT));
    };
    if args.static_only {
        println!("{} task(s): every field and file is valid", tasks.len());
        return Ok(ExitCode::SUCCESS);
    }
    // Each task's files as they were loaded: a check reads its task's files when it starts,
    // so an edit made while the run goes on would judge later checks on other files.
    let before = nab_harness::run::task_files::TaskFiles::hash(&tasks)?;
    let width = args
        .jobs
        .unwrap_or_else(|| validate::default_jobs(&tasks))
        .max(1);
    let prepared = super::prepare_engines(&args.engines, width, &mut tasks).await?;
    let (engines, image) = (prepared.connected.pool()?, prepared.image.clone());
    let run_id = args.run_id.clone().unwrap_or_else(new_run_id);
    let out = args
        .out
        .clone()
        .unwrap_or_else(|| default_out("validate-", &run_id));
    let jobs = validate::jobs(&tasks, args.repeat, args.all_tests);
    announce(&args, tasks.len(), jobs.len(), width);
    let cfg = RunConfig {
        images: prepared.images.clone(),
        progress: prepared.progress.clone(),
        ..RunConfig::on_engines(engines, image, out.clone(), run_id, args.attempts)
    };
    let started = std::time::Instant::now();
    let report = run_jobs(cfg, jobs, CancellationToken::new()).await?;
    let changed = before.changed(&tasks);
    let verdict_problems = print_verdicts(args.repeat, &tasks, &report.records, &changed);
    // The oracles that passed pin their tasks' test sets in tests.lock.
    let unchanged: Vec<_> = tasks
        .iter()
        .filter(|t| !changed.iter().any(|id| id == t.id()))
        .cloned()
        .collect();
    let recorded =
        nab_harness::task::pinned::record(&args.tasks, &unchanged, &report.records, &out)?;
    for n in &recorded.notes {
        println!("{n}");
    }
    let problems = verdict_problems + recorded.problems;
    println!(
        "{} task(s) in {:.1} s; logs in {}",
        tasks.len(),
        started.elapsed().as_secs_f64(),
        out.display()
    );
    if report.interrupted {
        return Ok(exit(INTERRUPTED));
    }
    if problems > 0 {
        println!("{problems} problem(s)");
        return Ok(exit(FAILED));
    }
    println!("all tasks valid");
    Ok(ExitCode::SUCCESS)
}

/// The line a run starts with: how many checks, how many at once, and whether they stop early.
fn announce(args: &Args, tasks: usize, checks: usize, width: usize) {
    eprintln!(
        "validate: {} task(s), {} check(s), {width} at once{}; {}",
        tasks,
        checks,
        if args.jobs.is_none() {
            " (-j from the processors and memory here)"
        } else {
            ""
        },
        if args.all_tests {
            "every check runs every test"
        } else {
            "the checks that must fail stop at their first failing test (--all-tests: every test)"
        }
    );
}

/// Prints the verdicts' table, the tasks whose folders changed while their checks ran and,
/// with `--repeat`, the unstable ones; returns the number of problems among them.
fn print_verdicts(
    repeat: u32,
    tasks: &[std::sync::Arc<nab_harness::task::Task>],
    records: &[nab_protocol::TrialRecord],
    changed: &[String],
) -> usize {
    let v = validate::verdicts(tasks, records);
    print!("{}", v.table);
    for id in changed {
        println!(
            "PROBLEM: {id}: its folder changed while its checks ran, so they did not all check the same files; nothing of it is recorded in tests.lock: run it again"
        );
    }
    if repeat > 1 {
        if v.unstable.is_empty() {
            println!("{} run(s) each: every verdict stable", repeat);
        } else {
            println!(
                "{} run(s) each: unstable task(s): {}",
                repeat,
                v.unstable.join(", ")
            );
        }
    }
    v.problems + changed.len()
}
