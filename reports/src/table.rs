//! results.parquet: the per-trial table, typed, for researchers (polars, pandas, duckdb).

use crate::error::{ReportError, Result};
use crate::run::Run;
use nab_protocol::{SandboxExit, TrialStatus};
use polars::prelude::*;
use std::path::Path;

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

/// One row per trial. Integers stay integers, absent metrics are nulls (never 0), and
/// `violations` is a list column. Judge results are flattened to the mean weighted score
/// and whether any judge vetoed.
pub fn trials_frame(run: &Run) -> PolarsResult<DataFrame> {
    let r = &run.records;
    macro_rules! col {
        ($name:expr, $f:expr) => {
            Column::new($name.into(), r.iter().map($f).collect::<Vec<_>>())
        };
    }
    let violations: Vec<Series> = r
        .iter()
        .map(|t| {
            Series::new(
                "".into(),
                t.behaviour
                    .violations
                    .iter()
                    .map(String::as_str)
                    .collect::<Vec<_>>(),
            )
        })
        .collect();
    let columns = vec![
        col!("run_id", |t| t.run_id.as_str()),
        col!("task_id", |t| t.task_id.as_str()),
        col!("category", |t| t.category.as_str()),
        col!("trial", |t| t.trial),
        col!("agent", |t| t.agent.as_str()),
        col!("model", |t| t.model.as_deref()),
        col!("status", |t| status_str(t.outcome.status)),
        col!("passed", |t| match t.outcome.status {
            TrialStatus::Error => None,
            s => Some(s == TrialStatus::Passed),
        }),
        col!("reward", |t| t.outcome.reward),
        col!("tests_passed", |t| t.outcome.tests_passed),
        col!("tests_total", |t| t.outcome.tests_total),
        col!("verifier_passed", |t| t.outcome.verifier_passed),
        col!("compaction", |t| t.outcome.compaction.map(|c| c.as_str())),
        col!("exit_reason", |t| t.outcome.exit_reason.map(exit_str)),
        col!("agent_exit_code", |t| t.outcome.agent_exit_code),
        col!("agent_exit_reason", |t| t
            .behaviour
            .agent_exit_reason
            .as_deref()),
        col!("agent_s", |t| t.outcome.agent_s),
        col!("verify_s", |t| t.outcome.verify_s),
        col!("error", |t| t.outcome.error.as_deref()),
        col!("attempts", |t| t.outcome.attempts),
        col!("started_at", |t| t.outcome.started_at.as_deref()),
        col!("llm_calls", |t| t.usage.llm_calls),
        col!("input_tokens", |t| t.usage.input_tokens),
        col!("output_tokens", |t| t.usage.output_tokens),
        col!("cached_tokens", |t| t.usage.cached_tokens),
        col!("steps", |t| t.behaviour.steps),
        col!("tool_calls", |t| t.behaviour.tool_calls),
        col!("tool_failures", |t| t.behaviour.tool_failures),
        col!("tool_failure_rate", |t| t.behaviour.tool_failure_rate),
        col!("policy_blocks", |t| t.behaviour.policy_blocks),
        col!("budget_exceeded", |t| t.behaviour.budget_exceeded),
        Column::new("violations".into(), violations),
        col!("judge_score", |t| {
            let s: Vec<f64> = t.judges.iter().filter_map(|j| j.weighted_score).collect();
            (!s.is_empty()).then(|| s.iter().sum::<f64>() / s.len() as f64)
        }),
        col!("judge_vetoed", |t| (!t.judges.is_empty())
            .then(|| t.judges.iter().any(|j| j.vetoed))),
    ];
    DataFrame::new(r.len(), columns)
}

/// Writes `<path>` (normally `<run>/results.parquet`).
pub fn write_parquet(run: &Run, path: &Path) -> Result<()> {
    let table_err = |e: PolarsError| ReportError::Table {
        path: path.to_owned(),
        message: e.to_string(),
    };
    let mut df = trials_frame(run).map_err(table_err)?;
    let file = std::fs::File::create(path).map_err(|source| ReportError::Write {
        path: path.to_owned(),
        source,
    })?;
    ParquetWriter::new(file)
        .finish(&mut df)
        .map_err(table_err)?;
    Ok(())
}
