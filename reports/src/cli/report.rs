//! `nab report --run DIR`: (re)write results.parquet, summary.json and report.html.

use crate::finish::write_outputs_for;
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

pub fn run(args: &ReportArgs) -> anyhow::Result<()> {
    let mut run = Run::load(&args.run)?;
    if let Some(tasks) = &args.tasks {
        let dir = nab_protocol::run::resolve_tasks_dir(&run.meta, &run.dir, Some(tasks))?;
        run.meta.tasks_dir = Some(std::path::absolute(&dir).unwrap_or(dir));
    }
    let out = args.out.clone().unwrap_or_else(|| args.run.clone());
    std::fs::create_dir_all(&out).with_context(|| format!("cannot create {}", out.display()))?;
    let o = write_outputs_for(&run, &out)?;
    let pct = |v: Option<f64>| {
        v.map(|v| format!("{:.1}%", v * 100.0))
            .unwrap_or_else(|| "—".into())
    };
    println!(
        "pass rate {} (95% CI {} – {}) over {} tasks, {} trials, {} infrastructure errors",
        pct(o.summary.pass_rate),
        pct(o.summary.pass_rate_ci.map(|c| c.low)),
        pct(o.summary.pass_rate_ci.map(|c| c.high)),
        o.summary.tasks,
        o.summary.trials,
        o.summary.infra.error_trials
    );
    if !o.summary.flaky_tasks.is_empty() {
        println!(
            "{} flaky task(s) (verdicts flip across trials; flip rate = chance two trials disagree):",
            o.summary.flaky_tasks.len()
        );
        for f in &o.summary.flaky_tasks {
            println!(
                "  {:<40} {}/{} passed, flip rate {:.0}%",
                f.task_id,
                f.passed,
                f.scored,
                f.flip_rate * 100.0
            );
        }
    }
    if o.summary.zero_token_trials > 0 {
        println!(
            "{} trial(s) made model calls but recorded 0 tokens both ways: a provider fault, not a result",
            o.summary.zero_token_trials
        );
    }
    println!("wrote {}", o.report_html.display());
    println!("wrote {}", o.summary_json.display());
    println!("wrote {}", o.parquet.display());
    Ok(())
}
