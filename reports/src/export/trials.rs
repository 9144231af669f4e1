//! The trials table: one row per trial of every run. Its columns are the run folder, then
//! results.parquet's columns in their order (so code written for one run's results.parquet
//! reads it), then the record's fields results.parquet leaves out.

use super::load::LoadedRun;
use crate::table::results;
use crate::table::values::{Columns, Values, col};
use nab_protocol::TrialRecord;
use serde::Serialize;

/// The trials of `runs`, run by run, each run's sorted by task then trial.
pub(crate) fn columns(runs: &[LoadedRun]) -> Columns {
    let rows: Vec<(&LoadedRun, &TrialRecord)> = runs
        .iter()
        .flat_map(|run| run.all.records.iter().map(move |r| (run, r)))
        .collect();
    let records: Vec<TrialRecord> = rows.iter().map(|(_, r)| (*r).clone()).collect();
    let mut all = vec![(
        "run_dir",
        Values::Str(col(&rows, |(run, _)| {
            Some(run.all.dir.display().to_string())
        })),
    )];
    all.extend(results::columns(&records));
    all.extend(record_columns(&records));
    all.push((
        "quarantined",
        Values::Bool(col(&rows, |(run, r)| Some(run.is_quarantined(&r.task_id)))),
    ));
    all
}

/// The name an enum is written under in results.jsonl (its serde name), so a value this
/// build does not know still reads as what the record says.
fn serde_name(v: &impl Serialize) -> Option<String> {
    match serde_json::to_value(v) {
        Ok(serde_json::Value::String(s)) => Some(s),
        _ => None,
    }
}

/// The record's fields that results.parquet does not have.
fn record_columns(r: &[TrialRecord]) -> Columns {
    let s = |f| results::strs(r, f);
    vec![
        ("trial_dir", s(|t| t.trial_dir.as_deref())),
        ("model_s", Values::F64(col(r, |t| t.outcome.model_s))),
        (
            "error_kind",
            Values::Str(col(r, |t| {
                t.outcome.error_kind.as_ref().and_then(serde_name)
            })),
        ),
        (
            "failure_reason",
            s(|t| t.outcome.failure_reason.map(|f| f.as_str())),
        ),
        (
            "tamper_flags",
            Values::StrList(r.iter().map(|t| t.outcome.tamper_flags.clone()).collect()),
        ),
        (
            "verdict_reachable",
            Values::Bool(col(r, |t| Some(t.outcome.verdict_reachable))),
        ),
        ("engine", s(|t| t.outcome.engine.as_deref())),
        (
            "cache_write_tokens",
            Values::U64(col(r, |t| t.usage.cache_write_tokens)),
        ),
        ("cost_usd", Values::F64(col(r, |t| t.usage.cost_usd))),
        (
            "refused_requests",
            Values::U64(col(r, |t| t.behaviour.refused_requests)),
        ),
        (
            "replay_drift",
            Values::StrList(r.iter().map(|t| t.behaviour.replay_drift.clone()).collect()),
        ),
        (
            "judges",
            Values::U32(col(r, |t| u32::try_from(t.judges.len()).ok())),
        ),
    ]
}
