//! `nab report --run DIR`: (re)write results.parquet, summary.json and report.html.

use crate::finish::{RunOutputs, write_outputs_for};
use crate::run::Run;
use anyhow::Context;
use std::path::PathBuf;

#[derive(Debug, Clone, clap::Args)]
pub struct ReportArgs {
    /// The run directory (the folder holding results.jsonl).
    #[arg(long, value_name = "DIR")]
    pub run: PathBuf,
    /// Where to write the outputs (default: the run directory).
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// The task suite, for the instructions in trial views (default: the folder run.json
    /// records, else ./tasks). Checked against the suite hash run.json records.
    #[arg(long, value_name = "DIR")]
    pub tasks: Option<PathBuf>,
}

/// Writes the run's outputs; [`terminal`] words what they say for the binary to print.
pub fn run(args: &ReportArgs) -> anyhow::Result<RunOutputs> {
    let mut run = Run::load(&args.run)?;
    if let Some(tasks) = &args.tasks {
        let dir = nab_protocol::resolve_tasks_dir(&run.meta, &run.dir, Some(tasks))?;
        run.meta.tasks_dir = Some(std::path::absolute(&dir).unwrap_or(dir));
    }
    let out = args.out.clone().unwrap_or_else(|| args.run.clone());
    std::fs::create_dir_all(&out).with_context(|| format!("cannot create {}", out.display()))?;
    Ok(write_outputs_for(&run, &out)?)
}

/// What `nab report` says of the outputs before naming them: the pass rate, flaky tasks,
/// trials with token-less model calls.
pub fn terminal(o: &RunOutputs) -> String {
    use std::fmt::Write;
    let mut s = String::new();
    let pct = |v: Option<f64>| {
        v.map(|v| format!("{:.1}%", v * 100.0))
            .unwrap_or_else(|| "—".into())
    };
    let _ = writeln!(
        s,
        "pass rate {} (95% CI {} – {}) over {} tasks, {} trials, {} infrastructure errors",
        pct(o.summary.pass_rate),
        pct(o.summary.pass_rate_ci.map(|c| c.low)),
        pct(o.summary.pass_rate_ci.map(|c| c.high)),
        o.summary.tasks,
        o.summary.trials,
        o.summary.infra.error_trials
    );
    if !o.summary.flaky_tasks.is_empty() {
        let _ = writeln!(
            s,
            "{} flaky task(s) (verdicts flip across trials; flip rate = chance two trials disagree):",
            o.summary.flaky_tasks.len()
        );
        for f in &o.summary.flaky_tasks {
            let _ = writeln!(
                s,
                "  {:<40} {}/{} passed, flip rate {:.0}%",
                f.task_id,
                f.passed,
                f.scored,
                f.flip_rate * 100.0
            );
        }
    }
    if o.summary.zero_token_trials > 0 {
        let _ = writeln!(
            s,
            "{} trial(s) made model calls but recorded 0 tokens both ways: a provider fault, not a result",
            o.summary.zero_token_trials
        );
    }
    s
}
