//! The runs table: one row per run, with summary.json's figures (quarantined tasks left
//! out, as on every page nab writes), and the run identity columns the tasks table shares.

use super::load::LoadedRun;
use crate::summary::RunSummary;
use crate::table::values::{Columns, Values, col};

/// The run's folder, id, agent and model, for each row of a table (run.json's, else the
/// records').
pub(crate) fn identity<R>(rows: &[R], run: impl Fn(&R) -> &LoadedRun) -> Columns {
    let s = |f: fn(&LoadedRun) -> Option<String>| Values::Str(col(rows, |r| f(run(r))));
    vec![
        ("run_dir", s(|r| Some(r.all.dir.display().to_string()))),
        ("run_id", s(|r| r.all.run_id())),
        ("agent", s(|r| r.all.agent())),
        ("model", s(|r| r.all.model())),
    ]
}

/// One row per run, in the order read.
pub(crate) fn columns(runs: &[LoadedRun]) -> Columns {
    let mut all = identity(runs, |r| r);
    all.extend(meta_columns(runs));
    all.extend(outcome_columns(runs));
    all.extend(usage_columns(runs));
    all
}

/// When and with what the run ran, from its run.json.
fn meta_columns(runs: &[LoadedRun]) -> Columns {
    let s = |f: fn(&LoadedRun) -> Option<&String>| Values::Str(col(runs, |r| f(r).cloned()));
    vec![
        ("started_at", s(|r| r.all.meta.started_at.as_ref())),
        ("finished_at", s(|r| r.all.meta.finished_at.as_ref())),
        ("nab_version", s(|r| r.all.meta.nab_version.as_ref())),
        ("tasks_hash", s(|r| r.all.meta.tasks_hash.as_ref())),
    ]
}

/// A count from the summary, as a column.
fn count(runs: &[LoadedRun], f: fn(&RunSummary) -> usize) -> Values {
    Values::U64(col(runs, |r| u64::try_from(f(&r.summary)).ok()))
}

/// The verdicts: counts, the headline pass rate with its interval, the error rate.
fn outcome_columns(runs: &[LoadedRun]) -> Columns {
    let rate = |f: fn(&RunSummary) -> Option<f64>| Values::F64(col(runs, |r| f(&r.summary)));
    vec![
        ("tasks", count(runs, |s| s.tasks)),
        ("trials", count(runs, |s| s.trials)),
        ("passed", count(runs, |s| s.passed_trials)),
        ("failed", count(runs, |s| s.scored_trials - s.passed_trials)),
        ("errors", count(runs, |s| s.infra.error_trials)),
        ("pass_rate", rate(|s| s.pass_rate)),
        ("pass_rate_low", rate(|s| s.pass_rate_ci.map(|c| c.low))),
        ("pass_rate_high", rate(|s| s.pass_rate_ci.map(|c| c.high))),
        ("scored_pass_rate", rate(|s| s.scored_pass_rate)),
        ("error_rate", rate(|s| s.error_rate)),
        ("quarantined_tasks", count(runs, |s| s.quarantined.len())),
        (
            "quarantined_trials",
            count(runs, |s| s.quarantined.iter().map(|q| q.trials).sum()),
        ),
        (
            "truncated_tail",
            Values::Bool(col(runs, |r| Some(r.all.truncated_tail))),
        ),
    ]
}

/// What the run spent: sums over its trials (an absent count as 0, as in summary.json) and
/// the mean agent time.
fn usage_columns(runs: &[LoadedRun]) -> Columns {
    let sum = |f: fn(&RunSummary) -> u64| Values::U64(col(runs, |r| Some(f(&r.summary))));
    vec![
        ("llm_calls", sum(|s| s.usage.llm_calls)),
        ("input_tokens", sum(|s| s.usage.input_tokens)),
        ("output_tokens", sum(|s| s.usage.output_tokens)),
        ("cached_tokens", sum(|s| s.usage.cached_tokens)),
        (
            "cost_usd",
            Values::F64(col(runs, |r| r.summary.usage.cost_usd)),
        ),
        (
            "cost_known_trials",
            count(runs, |s| s.usage.cost_known_trials),
        ),
        (
            "mean_agent_s",
            Values::F64(col(runs, |r| r.summary.distributions.agent_s.mean)),
        ),
    ]
}
