//! `nab validate`: every task's oracle must pass; the null agent and every known-wrong
//! solution must fail. Field and file problems are reported before any container starts.

use super::common::{default_out, load_or_report};
use nab_harness::agent::AgentKind;
use nab_harness::runner::{Job, RunConfig, new_run_id, run_jobs};
use nab_harness::sandbox::DockerBackend;
use nab_protocol::trial::{TrialRecord, TrialStatus};
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
    /// Output folder (default runs/validate-<run id>).
    #[arg(long)]
    out: Option<PathBuf>,
    #[arg(long, default_value_t = 2)]
    attempts: u32,
    /// Only check fields and files; start no container.
    #[arg(long)]
    static_only: bool,
    #[arg(long)]
    run_id: Option<String>,
    /// Task ids (default: every task in --tasks).
    ids: Vec<String>,
}

pub async fn run(args: Args) -> anyhow::Result<ExitCode> {
    let Some(tasks) = load_or_report(&args.tasks, &args.ids) else {
        return Ok(ExitCode::from(2));
    };
    if args.static_only {
        println!("{} task(s): every field and file is valid", tasks.len());
        return Ok(ExitCode::SUCCESS);
    }
    let docker = nab_harness::docker::connect().await?;
    let image = super::ensure_image(&docker, false).await?;
    let run_id = args.run_id.unwrap_or_else(new_run_id);
    let out = args
        .out
        .unwrap_or_else(|| default_out("validate-", &run_id));
    let mut jobs = Vec::new();
    for t in &tasks {
        let mut agents = vec![AgentKind::Oracle, AgentKind::Null];
        agents.extend(t.wrong.iter().map(|w| AgentKind::Wrong(w.clone())));
        for a in agents {
            jobs.push(Job {
                task: t.clone(),
                dir_name: a.label(),
                agent: a,
                trial: 0,
            });
        }
    }
    let cfg = RunConfig {
        backend: Arc::new(DockerBackend::new(docker)),
        image,
        out_dir: out.clone(),
        run_id,
        jobs: args.jobs,
        max_attempts: args.attempts,
        resume: false,
        progress: super::progress_target(),
        model: None,
        judge: None,
    };
    let started = std::time::Instant::now();
    let report = run_jobs(cfg, jobs, CancellationToken::new()).await?;
    let (table, problems) = verdicts(&tasks, &report.records);
    print!("{table}");
    println!(
        "{} task(s) in {:.1} s; logs in {}",
        tasks.len(),
        started.elapsed().as_secs_f64(),
        out.display()
    );
    if report.interrupted {
        return Ok(ExitCode::from(130));
    }
    if problems > 0 {
        println!("{problems} problem(s)");
        return Ok(ExitCode::from(1));
    }
    println!("all tasks valid");
    Ok(ExitCode::SUCCESS)
}

/// One row per task: what each agent got, and whether that is what it should get.
fn verdicts(tasks: &[Arc<nab_harness::task::Task>], records: &[TrialRecord]) -> (String, usize) {
    let w = tasks.iter().map(|t| t.id().len()).max().unwrap_or(4).max(4);
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{:<w$}  {:<8}  {:<8}  {:<16}  verdict",
        "task", "oracle", "null", "wrong"
    );
    let mut problems = 0;
    for t in tasks {
        let get = |agent: &str| {
            records
                .iter()
                .find(|r| r.task_id == t.id() && r.agent == agent)
        };
        let show = |r: Option<&TrialRecord>| match r.map(|r| r.status) {
            Some(TrialStatus::Passed) => "pass",
            Some(TrialStatus::Failed) => "fail",
            Some(TrialStatus::Error) => "ERROR",
            None => "-",
        };
        let mut issues = Vec::new();
        let oracle = get("oracle");
        if oracle.map(|r| r.status) != Some(TrialStatus::Passed) {
            issues.push(format!("oracle {} (must pass)", show(oracle)));
        }
        let null = get("null");
        if null.map(|r| r.status) != Some(TrialStatus::Failed) {
            issues.push(format!("null {} (must fail)", show(null)));
        }
        let mut wrong_cells = Vec::new();
        for name in &t.wrong {
            let r = get(&format!("wrong:{name}"));
            wrong_cells.push(show(r));
            if r.map(|r| r.status) != Some(TrialStatus::Failed) {
                issues.push(format!("wrong/{name} {} (must fail)", show(r)));
            }
        }
        for r in [oracle, null].into_iter().flatten() {
            if let Some(e) = &r.error {
                issues.push(format!("{}: {e}", r.agent));
            }
        }
        let wrong = if wrong_cells.is_empty() {
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
            show(oracle),
            show(null),
            wrong
        );
    }
    (out, problems)
}
