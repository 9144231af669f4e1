//! The columns of results.parquet, one row per trial: the trial record's identity, verdict,
//! timings, usage and behaviour, with the judges flattened. `nab export`'s trials table
//! starts from these same columns.

use super::values::{Columns, Values, col};
use nab_protocol::{SandboxExit, TrialPhase, TrialRecord, TrialStatus};

fn status_str(s: TrialStatus) -> &'static str {
    match s {
        TrialStatus::Passed => "passed",
        TrialStatus::Failed => "failed",
        TrialStatus::Error => "error",
    }
}

fn exit_str(s: SandboxExit) -> &'static str {
    match s {
        SandboxExit::Exited => "exited",
        SandboxExit::Timeout => "timeout",
        SandboxExit::Killed => "killed",
    }
}

/// The table's columns, in order: one row per trial.
pub(crate) fn columns(r: &[TrialRecord]) -> Columns {
    let mut all = outcome_columns(r);
    all.extend(usage_columns(r));
    all.extend(phase_columns(r));
    all
}

/// Milliseconds per phase of the trial (`phase_ms`), one column per phase in the order
/// they run, named `<phase>_ms`; null where the phase did not run or was not recorded.
fn phase_columns(r: &[TrialRecord]) -> Columns {
    TrialPhase::ALL
        .into_iter()
        .map(|p| {
            let name: &'static str = PHASE_COLUMNS[p as usize];
            (name, Values::U64(col(r, |t| t.outcome.phase_ms.get(p))))
        })
        .collect()
}

/// The column of each [`TrialPhase`], in [`TrialPhase::ALL`]'s order.
const PHASE_COLUMNS: [&str; 15] = [
    "prepare_ms",
    "quota_ms",
    "agent_start_ms",
    "workspace_in_ms",
    "agent_ms",
    "agent_stop_ms",
    "workspace_out_ms",
    "diff_ms",
    "tamper_ms",
    "metrics_ms",
    "verify_stage_ms",
    "verifier_start_ms",
    "tests_in_ms",
    "tests_ms",
    "cleanup_ms",
];

/// A string column of `f` of each record.
pub(crate) fn strs(r: &[TrialRecord], f: fn(&TrialRecord) -> Option<&str>) -> Values {
    Values::Str(col(r, |t| f(t).map(str::to_owned)))
}

/// The trial's identity, verdict and timings.
fn outcome_columns(r: &[TrialRecord]) -> Columns {
    let s = |f| strs(r, f);
    vec![
        ("run_id", s(|t| Some(&t.run_id))),
        ("task_id", s(|t| Some(&t.task_id))),
        ("category", s(|t| Some(&t.category))),
        ("trial", Values::U32(col(r, |t| Some(t.trial)))),
        ("agent", s(|t| Some(&t.agent))),
        ("model", s(|t| t.model.as_deref())),
        ("status", s(|t| Some(status_str(t.outcome.status)))),
        (
            "passed",
            Values::Bool(col(r, |t| match t.outcome.status {
                TrialStatus::Error => None,
                s => Some(s == TrialStatus::Passed),
            })),
        ),
        ("reward", Values::F64(col(r, |t| Some(t.outcome.reward)))),
        (
            "tests_passed",
            Values::U32(col(r, |t| t.outcome.tests_passed)),
        ),
        (
            "tests_total",
            Values::U32(col(r, |t| t.outcome.tests_total)),
        ),
        (
            "verifier_passed",
            Values::Bool(col(r, |t| t.outcome.verifier_passed)),
        ),
        (
            "compaction",
            s(|t| t.outcome.compaction.map(|c| c.as_str())),
        ),
        ("exit_reason", s(|t| t.outcome.exit_reason.map(exit_str))),
        (
            "agent_exit_code",
            Values::I64(col(r, |t| t.outcome.agent_exit_code)),
        ),
        (
            "agent_exit_reason",
            s(|t| t.behaviour.agent_exit_reason.as_deref()),
        ),
        ("agent_s", Values::F64(col(r, |t| Some(t.outcome.agent_s)))),
        (
            "verify_s",
            Values::F64(col(r, |t| Some(t.outcome.verify_s))),
        ),
        ("error", s(|t| t.outcome.error.as_deref())),
        (
            "attempts",
            Values::U32(col(r, |t| Some(t.outcome.attempts))),
        ),
        ("started_at", s(|t| t.outcome.started_at.as_deref())),
    ]
}

/// What the trial spent and how the agent behaved; judge results are flattened to the mean
/// weighted score and whether any judge vetoed.
fn usage_columns(r: &[TrialRecord]) -> Columns {
    vec![
        ("llm_calls", Values::U64(col(r, |t| t.usage.llm_calls))),
        (
            "input_tokens",
            Values::U64(col(r, |t| t.usage.input_tokens)),
        ),
        (
            "output_tokens",
            Values::U64(col(r, |t| t.usage.output_tokens)),
        ),
        (
            "cached_tokens",
            Values::U64(col(r, |t| t.usage.cached_tokens)),
        ),
        ("steps", Values::U64(col(r, |t| t.behaviour.steps))),
        (
            "tool_calls",
            Values::U64(col(r, |t| t.behaviour.tool_calls)),
        ),
        (
            "tool_failures",
            Values::U64(col(r, |t| t.behaviour.tool_failures)),
        ),
        (
            "tool_failure_rate",
            Values::F64(col(r, |t| t.behaviour.tool_failure_rate)),
        ),
        (
            "policy_blocks",
            Values::U64(col(r, |t| t.behaviour.policy_blocks)),
        ),
        (
            "budget_exceeded",
            Values::Bool(col(r, |t| t.behaviour.budget_exceeded)),
        ),
        (
            "violations",
            Values::StrList(r.iter().map(|t| t.behaviour.violations.clone()).collect()),
        ),
        (
            "judge_score",
            Values::F64(col(r, |t| {
                let s: Vec<f64> = t.judges.iter().filter_map(|j| j.weighted_score).collect();
                (!s.is_empty()).then(|| s.iter().sum::<f64>() / s.len() as f64)
            })),
        ),
        (
            "judge_vetoed",
            Values::Bool(col(r, |t| {
                (!t.judges.is_empty()).then(|| t.judges.iter().any(|j| j.vetoed))
            })),
        ),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_phase_has_its_column_in_order() {
        for (i, p) in TrialPhase::ALL.into_iter().enumerate() {
            assert_eq!(PHASE_COLUMNS[i], format!("{}_ms", p.as_str()));
            assert_eq!(p as usize, i);
        }
    }
}
