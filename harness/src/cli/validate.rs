//! `nab validate`: every task's oracle must pass; the null agent and every known-wrong
//! solution must fail. Field and file problems are reported before any container starts.
//! With `--repeat N` each of them runs N times, and a task whose verdicts differ between
//! runs is reported as unstable: a flaky check would make every score on it noise.
//! Each oracle that passed records its task's test ids in `tests.lock` (see
//! `nab_harness::task::pinned`).

use super::common::{default_out, load_or_report};
use nab_harness::exit::{BAD_INPUT, FAILED, INTERRUPTED, exit};
use nab_harness::run::{Job, RunConfig, new_run_id, run_jobs};
use nab_harness::trial::AgentKind;
use nab_protocol::{TrialRecord, TrialStatus};
use std::fmt::Write as _;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;
use tokio_util::sync::CancellationToken;

#[derive(Debug, clap::Args)]
pub struct Args {
    #[arg(long, default_value = "tasks")]
    tasks: PathBuf,
    #[arg(short = 'j', long = "jobs", default_value_t = 1)]
    jobs: usize,
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
    let (connected, image) = super::prepare_engines(&args.engines, args.jobs, &mut tasks).await?;
    let engines = connected.pool();
    let run_id = args.run_id.unwrap_or_else(new_run_id);
    let out = args
        .out
        .unwrap_or_else(|| default_out("validate-", &run_id));
    let mut jobs = Vec::new();
    for t in &tasks {
        let mut agents = vec![AgentKind::Oracle, AgentKind::Null];
        agents.extend(t.wrong.iter().map(|w| AgentKind::Wrong(w.clone())));
        for a in agents {
            for trial in 0..args.repeat {
                let dir_name = if args.repeat == 1 {
                    a.label()
                } else {
                    format!("{}.{trial}", a.label())
                };
                jobs.push(Job {
                    task: t.clone(),
                    dir_name,
                    agent: a.clone(),
                    trial,
                });
            }
        }
    }
    let cfg = RunConfig::on_engines(engines, image, out.clone(), run_id, args.attempts);
    let started = std::time::Instant::now();
    let report = run_jobs(cfg, jobs, CancellationToken::new()).await?;
    let v = verdicts(&tasks, &report.records);
    print!("{}", v.table);
    if args.repeat > 1 {
        if v.unstable.is_empty() {
            println!("{} run(s) each: every verdict stable", args.repeat);
        } else {
            println!(
                "{} run(s) each: unstable task(s): {}",
                args.repeat,
                v.unstable.join(", ")
            );
        }
    }
    // The oracles that passed pin their tasks' test sets in tests.lock.
    let recorded = nab_harness::task::pinned::record(&args.tasks, &tasks, &report.records, &out)?;
    for n in &recorded.notes {
        println!("{n}");
    }
    let problems = v.problems + recorded.problems;
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

/// The table `nab validate` prints, its problem count and the tasks whose verdicts
/// differ between repeated runs.
struct Verdicts {
    table: String,
    problems: usize,
    unstable: Vec<String>,
}

/// What one agent got on one task over its runs: `pass`, `fail`, `ERROR`, or the mix
/// (`pass 2/3`) when the runs disagree.
fn show(rs: &[&TrialRecord]) -> String {
    let word = |s: TrialStatus| match s {
        TrialStatus::Passed => "pass",
        TrialStatus::Failed => "fail",
        TrialStatus::Error => "ERROR",
    };
    let Some(first) = rs.first() else {
        return "-".into();
    };
    if rs.iter().all(|r| r.status == first.status) {
        return word(first.status).into();
    }
    let passed = rs
        .iter()
        .filter(|r| r.status == TrialStatus::Passed)
        .count();
    format!("pass {passed}/{}", rs.len())
}

/// One row per task: what each agent got, and whether that is what it should get.
fn verdicts(tasks: &[Arc<nab_harness::task::Task>], records: &[TrialRecord]) -> Verdicts {
    let w = tasks.iter().map(|t| t.id().len()).max().unwrap_or(4).max(4);
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{:<w$}  {:<8}  {:<8}  {:<16}  verdict",
        "task", "oracle", "null", "wrong"
    );
    let mut problems = 0;
    let mut unstable = Vec::new();
    for t in tasks {
        let get = |agent: &str| -> Vec<&TrialRecord> {
            records
                .iter()
                .filter(|r| r.task_id == t.id() && r.agent == agent)
                .collect()
        };
        let mut issues = Vec::new();
        let mut mixed = false;
        let mut expect = |name: &str, rs: &[&TrialRecord], want: TrialStatus| {
            if rs.is_empty() || rs.iter().any(|r| r.status != want) {
                let must = if want == TrialStatus::Passed {
                    "pass"
                } else {
                    "fail"
                };
                issues.push(format!("{name} {} (must {must})", show(rs)));
            }
            mixed |= rs.iter().any(|r| r.status != rs[0].status);
        };
        let oracle = get("oracle");
        expect("oracle", &oracle, TrialStatus::Passed);
        let null = get("null");
        expect("null", &null, TrialStatus::Failed);
        let mut wrong_cells = Vec::new();
        for name in &t.wrong {
            let rs = get(&format!("wrong:{name}"));
            wrong_cells.push(show(&rs));
            expect(&format!("wrong/{name}"), &rs, TrialStatus::Failed);
        }
        if mixed {
            unstable.push(t.id().to_owned());
        }
        for r in oracle.iter().chain(&null) {
            if let Some(e) = &r.error {
                issues.push(format!("{}: {e}", r.agent));
            }
        }
        let wrong = if t.spec.origin.is_some() && wrong_cells.is_empty() {
            // A converter cannot invent plausible wrong fixes; the check is skipped, openly.
            "skipped:imported".to_owned()
        } else if wrong_cells.is_empty() {
            "(none)".to_owned()
        } else {
            wrong_cells.join(",")
        };
        let verdict = if issues.is_empty() {
            "ok".to_owned()
        } else {
            format!("PROBLEM: {}", issues.join("; "))
        };
        problems += issues.len();
        let _ = writeln!(
            out,
            "{:<w$}  {:<8}  {:<8}  {:<16}  {verdict}",
            t.id(),
            show(&oracle),
            show(&null),
            wrong
        );
    }
    Verdicts {
        table: out,
        problems,
        unstable,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn task() -> Arc<nab_harness::task::Task> {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../tasks/py-pagination-offbyone");
        Arc::new(nab_harness::task::load_task(&dir).expect("a shipped task"))
    }

    fn rec(task: &str, agent: &str, trial: u32, status: TrialStatus) -> TrialRecord {
        let mut r = TrialRecord::new("r", task, "bug-fix", trial, agent);
        r.status = status;
        r
    }

    fn runs(t: &nab_harness::task::Task, oracle: &[TrialStatus]) -> Vec<TrialRecord> {
        let mut out = Vec::new();
        for (i, s) in oracle.iter().enumerate() {
            let i = i as u32;
            out.push(rec(t.id(), "oracle", i, *s));
            out.push(rec(t.id(), "null", i, TrialStatus::Failed));
            for w in &t.wrong {
                out.push(rec(t.id(), &format!("wrong:{w}"), i, TrialStatus::Failed));
            }
        }
        out
    }

    #[test]
    fn repeated_runs_that_agree_are_valid_and_stable() {
        let t = task();
        let v = verdicts(
            std::slice::from_ref(&t),
            &runs(&t, &[TrialStatus::Passed; 3]),
        );
        assert_eq!((v.problems, v.unstable.len()), (0, 0), "{}", v.table);
        assert!(v.table.contains(" ok"), "{}", v.table);
    }

    #[test]
    fn an_oracle_that_passes_two_runs_of_three_is_unstable_and_a_problem() {
        let t = task();
        let statuses = [
            TrialStatus::Passed,
            TrialStatus::Failed,
            TrialStatus::Passed,
        ];
        let v = verdicts(std::slice::from_ref(&t), &runs(&t, &statuses));
        assert_eq!(v.unstable, [t.id()]);
        assert_eq!(v.problems, 1, "{}", v.table);
        assert!(
            v.table.contains("oracle pass 2/3 (must pass)"),
            "{}",
            v.table
        );
    }

    #[test]
    fn an_imported_task_without_wrong_solutions_says_the_check_is_skipped() {
        let mut t = (*task()).clone();
        t.wrong.clear();
        t.spec.origin = Some(nab_harness::task::Origin::Harbor);
        let t = Arc::new(t);
        let v = verdicts(std::slice::from_ref(&t), &runs(&t, &[TrialStatus::Passed]));
        assert_eq!(v.problems, 0, "{}", v.table);
        assert!(v.table.contains("skipped:imported"), "{}", v.table);
    }

    #[test]
    fn a_missing_verdict_is_a_problem() {
        let t = task();
        let v = verdicts(std::slice::from_ref(&t), &[]);
        assert!(v.problems >= 2, "{}", v.table);
        assert!(v.table.contains("oracle - (must pass)"), "{}", v.table);
    }
}
