//! The end-of-run table: one row per task.

use nab_protocol::{TrialRecord, TrialStatus};
use std::collections::BTreeMap;
use std::fmt::Write;

pub fn summary_table(records: &[TrialRecord]) -> String {
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
        match r.status {
            TrialStatus::Passed => row.passed += 1,
            TrialStatus::Failed => row.failed += 1,
            TrialStatus::Error => row.errors += 1,
        }
        row.agent_s += r.agent_s;
        if r.exit_reason == Some(nab_protocol::SandboxExit::Timeout) {
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
    let (mut p, mut n) = (0u32, 0u32);
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
        n += r.passed + r.failed;
    }
    let errors: u32 = rows.values().map(|r| r.errors).sum();
    let _ = writeln!(
        out,
        "pass rate {p}/{n}{} (infrastructure errors are not counted: {errors})",
        if n > 0 {
            format!(" = {:.1}%", 100.0 * p as f64 / n as f64)
        } else {
            String::new()
        }
    );
    out
}
