//! One run as the viewer lists it: the figures of its report's headline, its tasks and
//! trials (each with the index its report opens it by), and where its pages are.

use super::{command, href};
use crate::error::Result;
use crate::leaderboard::inputs::check_run_files;
use crate::run::Run;
use crate::stats::Interval;
use crate::summary::RunSummary;
use nab_protocol::{REPORT_FILE, RESULTS_FILE, TrialStatus};
use serde::Serialize;
use std::path::Path;

/// One row of the index.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RunEntry {
    /// The folder relative to DIR, `/`-separated (empty when DIR is the run).
    pub path: String,
    /// The folder as DIR was given joined with `path` (for the commands shown, quoted).
    pub cli_path: String,
    pub run_id: Option<String>,
    pub agent: Option<String>,
    pub model: Option<String>,
    /// When the run started (RFC 3339), and as shown (`2026-11-30 04:00`).
    pub started_at: Option<String>,
    pub date: Option<String>,
    pub tasks: usize,
    pub trials: usize,
    pub passed_trials: usize,
    /// The report's headline: mean over tasks, every trial counts (an error as not passed).
    pub pass_rate: Option<f64>,
    pub pass_rate_ci: Option<Interval>,
    pub error_trials: usize,
    /// Sum over the trials that have a cost; `None` when none has.
    pub cost_usd: Option<f64>,
    pub cost_known_trials: usize,
    /// Index into the index's sweeps.
    pub sweep: Option<usize>,
    /// report.html, relative to DIR, when it is there.
    pub report: Option<String>,
    /// report.html is older than results.jsonl: it may not show every trial.
    pub report_stale: bool,
    /// What makes (or remakes) report.html.
    pub report_command: String,
    /// The last line of results.jsonl was cut off (an interrupted run).
    pub truncated_tail: bool,
    /// The compare page named for this run as baseline ([`href::compare_file`]).
    pub compare_name: String,
    /// Compare pages in this run's folder with another run of the index as baseline.
    pub compares: Vec<CompareLink>,
    /// Tasks in id order.
    pub per_task: Vec<TaskEntry>,
}

/// A compare page found: this run (the candidate) against `baseline`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CompareLink {
    /// Index into the index's runs.
    pub baseline: usize,
    pub href: String,
}

/// One task of a run: its pass count and its trials.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct TaskEntry {
    pub id: String,
    pub passed: u32,
    /// Every trial, errors included (the denominator of the pass rate).
    pub trials: u32,
    pub errors: u32,
    pub runs: Vec<TrialEntry>,
}

/// One trial, and the anchor its report opens it at (`report.html#trial-<idx>`).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct TrialEntry {
    pub trial: u32,
    pub status: &'static str,
    /// The trial's index in the loaded run's records: the report's `#trial-<idx>`.
    pub idx: usize,
}

/// Reads the run at `root/rel` (checked as the leaderboard checks a run folder first).
pub fn load(root: &Path, rel: &Path, sweep: Option<usize>) -> Result<RunEntry> {
    let dir = folder(root, rel);
    check_run_files(&dir)?;
    // Run::load is what `nab report` renders from, so the trial indexes below are the
    // report's (the same records, deduplicated and quarantined the same way).
    let run = Run::load(&dir)?;
    // No bootstrap: the index shows no cost-per-solved interval.
    let s = RunSummary::compute_with(&run, 0);
    let started_at = run.meta.started_at.clone().or_else(|| {
        run.records
            .iter()
            .find_map(|r| r.outcome.started_at.clone())
    });
    let report = dir.join(REPORT_FILE);
    let report_there = std::fs::symlink_metadata(&report).is_ok_and(|m| m.is_file());
    let path = rel_string(rel);
    let cli_path = dir.display().to_string();
    Ok(RunEntry {
        report: report_there.then(|| href::to_file(rel, REPORT_FILE)),
        report_stale: report_there && older(&report, &dir.join(RESULTS_FILE)),
        report_command: format!("nab report --run {}", command::quote(&cli_path)),
        compare_name: href::compare_file(&path),
        path,
        cli_path,
        run_id: s.run_id,
        agent: s.agent,
        model: s.model,
        date: started_at.as_deref().map(shown_date),
        started_at,
        tasks: s.tasks,
        trials: s.trials,
        passed_trials: s.passed_trials,
        pass_rate: s.pass_rate,
        pass_rate_ci: s.pass_rate_ci,
        error_trials: s.infra.error_trials,
        cost_usd: s.usage.cost_usd,
        cost_known_trials: s.usage.cost_known_trials,
        sweep,
        truncated_tail: run.truncated_tail,
        compares: Vec::new(),
        per_task: per_task(&run),
    })
}

/// `root/rel`, or `root` itself (not `root/`) when `rel` is empty.
pub fn folder(root: &Path, rel: &Path) -> std::path::PathBuf {
    if rel.as_os_str().is_empty() {
        root.to_owned()
    } else {
        root.join(rel)
    }
}

/// `a/b` whatever the platform's separator.
pub fn rel_string(rel: &Path) -> String {
    rel.iter()
        .map(|p| p.to_string_lossy())
        .collect::<Vec<_>>()
        .join("/")
}

/// `2026-11-30T04:00:00.000Z` → `2026-11-30 04:00`; anything else as it is.
pub fn shown_date(rfc3339: &str) -> String {
    match rfc3339.get(..16) {
        Some(head) if head.as_bytes().get(10) == Some(&b'T') => head.replacen('T', " ", 1),
        _ => rfc3339.to_owned(),
    }
}

fn older(a: &Path, b: &Path) -> bool {
    let modified = |p: &Path| std::fs::metadata(p).and_then(|m| m.modified()).ok();
    matches!((modified(a), modified(b)), (Some(a), Some(b)) if a < b)
}

fn per_task(run: &Run) -> Vec<TaskEntry> {
    run.tasks
        .iter()
        .map(|t| TaskEntry {
            id: t.task_id.clone(),
            passed: t.passed,
            trials: t.trials(),
            errors: t.errors,
            runs: t
                .trial_indexes
                .iter()
                .map(|&idx| TrialEntry {
                    trial: run.records[idx].trial,
                    status: match run.records[idx].outcome.status {
                        TrialStatus::Passed => "passed",
                        TrialStatus::Failed => "failed",
                        TrialStatus::Error => "error",
                    },
                    idx,
                })
                .collect(),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_are_shown_to_the_minute() {
        assert_eq!(shown_date("2026-11-30T04:00:00.000Z"), "2026-11-30 04:00");
        assert_eq!(shown_date("yesterday"), "yesterday");
        assert_eq!(rel_string(Path::new("a/b")), "a/b");
    }
}
