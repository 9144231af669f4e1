//! The end of a run in the terminal, the one summary every command prints (`nab run`,
//! `nab merge`, `nab sweep`, `nab report`): a table per task from the records, then what
//! the run's summary says ([`headline`]).

use crate::summary::RunSummary;
use nab_protocol::{TrialRecord, TrialStatus};
use std::collections::BTreeMap;
use std::fmt::Write;

/// One row per task (trials passed, failed, errors, timeouts, mean agent time) and the pass
/// rate over all trials: what `nab run`, `nab merge` and `nab sweep` print when trials end,
/// and `nab report` prints above [`headline`].
pub fn tasks_table(records: &[TrialRecord]) -> String {
    #[derive(Default)]
    struct Row {
        category: String,
        passed: u32,
        failed: u32,
        errors: u32,
        agent_s: f64,
        timeouts: u32,
    }
    let mut rows: BTreeMap<&str, Row> = BTreeMap::new();
    for r in records {
        let row = rows.entry(&r.task_id).or_default();
        row.category = r.category.clone();
        match r.outcome.status {
            TrialStatus::Passed => row.passed += 1,
            TrialStatus::Failed => row.failed += 1,
            TrialStatus::Error => row.errors += 1,
        }
        row.agent_s += r.outcome.agent_s;
        if r.outcome.exit_reason == Some(nab_protocol::SandboxExit::Timeout) {
            row.timeouts += 1;
        }
    }
    let w = rows.keys().map(|k| k.len()).max().unwrap_or(4).max(4);
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{:<w$}  {:<12}  {:>6}  {:>6}  {:>6}  {:>8}  {:>11}",
        "task", "category", "passed", "failed", "errors", "timeouts", "mean agent s"
    );
    // Every trial counts (an infrastructure error as not passed): the same rule as the
    // reports, so this line never reads higher than the report's pass rate.
    let (mut p, mut n, mut scored) = (0u32, 0u32, 0u32);
    for (task, r) in &rows {
        let trials = r.passed + r.failed + r.errors;
        let _ = writeln!(
            out,
            "{task:<w$}  {:<12}  {:>6}  {:>6}  {:>6}  {:>8}  {:>11.1}",
            r.category,
            r.passed,
            r.failed,
            r.errors,
            r.timeouts,
            r.agent_s / trials.max(1) as f64
        );
        p += r.passed;
        n += trials;
        scored += r.passed + r.failed;
    }
    let errors: u32 = rows.values().map(|r| r.errors).sum();
    let share = |a: u32, b: u32| {
        if b > 0 {
            format!(" = {:.1}%", 100.0 * f64::from(a) / f64::from(b))
        } else {
            String::new()
        }
    };
    let _ = writeln!(
        out,
        "pass rate {p}/{n}{} of all trials ({errors} infrastructure error(s), counted as not passed; over scored trials {p}/{scored}{})",
        share(p, n),
        share(p, scored)
    );
    out
}

/// What the outputs say, in the terminal, before their paths: the pass rate with its
/// interval, flaky tasks, trials with token-less model calls.
pub fn headline(summary: &RunSummary) -> String {
    let mut s = String::new();
    let pct = |v: Option<f64>| {
        v.map(|v| format!("{:.1}%", v * 100.0))
            .unwrap_or_else(|| "—".into())
    };
    let _ = writeln!(
        s,
        "pass rate {} (95% CI {} – {}) over {} tasks, {} trials, {} infrastructure errors",
        pct(summary.pass_rate),
        pct(summary.pass_rate_ci.map(|c| c.low)),
        pct(summary.pass_rate_ci.map(|c| c.high)),
        summary.tasks,
        summary.trials,
        summary.infra.error_trials
    );
    if !summary.flaky_tasks.is_empty() {
        let _ = writeln!(
            s,
            "{} flaky task(s) (verdicts flip across trials; flip rate = chance two trials disagree):",
            summary.flaky_tasks.len()
        );
        for f in &summary.flaky_tasks {
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
    if summary.zero_token_trials > 0 {
        let _ = writeln!(
            s,
            "{} trial(s) made model calls but recorded 0 tokens both ways: a provider fault, not a result",
            summary.zero_token_trials
        );
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn errors_count_as_not_passed_in_the_last_line() {
        let rec = |task: &str, s: TrialStatus| {
            let mut r = TrialRecord::new("r", task, "c", 0, "a");
            r.outcome.status = s;
            r
        };
        let t = tasks_table(&[
            rec("a", TrialStatus::Passed),
            rec("b", TrialStatus::Error),
            rec("c", TrialStatus::Failed),
            rec("d", TrialStatus::Passed),
        ]);
        assert!(
            t.contains("pass rate 2/4 = 50.0% of all trials (1 infrastructure error(s), counted as not passed; over scored trials 2/3 = 66.7%)"),
            "{t}"
        );
    }
}
