//! The tasks table: one row per (run, task), with the task's verdict counts and what a
//! trial cost on average. Quarantined tasks have rows too, marked.

use super::load::LoadedRun;
use crate::run::TaskTrials;
use crate::table::values::{Columns, Values, col};
use nab_protocol::{TrialRecord, TrialStatus};

/// One row: the run and one of its tasks.
struct Row<'a> {
    run: &'a LoadedRun,
    task: &'a TaskTrials,
}

impl Row<'_> {
    fn records(&self) -> impl Iterator<Item = &TrialRecord> {
        self.task
            .trial_indexes
            .iter()
            .filter_map(|&i| self.run.all.records.get(i))
    }

    /// The mean of `f` over the task's trials that recorded it (an absent value is
    /// unknown, not 0), infrastructure errors left out unless `with_errors` (an error's
    /// time and tokens say nothing of the agent, but its cost was paid); `None` when none
    /// did.
    fn mean(&self, with_errors: bool, f: impl Fn(&TrialRecord) -> Option<f64>) -> Option<f64> {
        let v: Vec<f64> = self
            .records()
            .filter(|r| with_errors || r.outcome.status != TrialStatus::Error)
            .filter_map(f)
            .collect();
        (!v.is_empty()).then(|| v.iter().sum::<f64>() / v.len() as f64)
    }
}

/// Every task of every run, run by run, tasks in id order.
pub(crate) fn columns(runs: &[LoadedRun]) -> Columns {
    let rows: Vec<Row> = runs
        .iter()
        .flat_map(|run| run.all.tasks.iter().map(move |task| Row { run, task }))
        .collect();
    let mut all = super::runs::identity(&rows, |r| r.run);
    all.extend(verdict_columns(&rows));
    all.extend(mean_columns(&rows));
    all
}

fn verdict_columns(rows: &[Row]) -> Columns {
    let count = |f: fn(&TaskTrials) -> u32| Values::U32(col(rows, |r| Some(f(r.task))));
    vec![
        (
            "task_id",
            Values::Str(col(rows, |r| Some(r.task.task_id.clone()))),
        ),
        (
            "category",
            Values::Str(col(rows, |r| Some(r.task.category.clone()))),
        ),
        (
            "quarantined",
            Values::Bool(col(rows, |r| Some(r.run.is_quarantined(&r.task.task_id)))),
        ),
        ("trials", count(TaskTrials::trials)),
        ("passed", count(|t| t.passed)),
        ("failed", count(|t| t.scored - t.passed)),
        ("errors", count(|t| t.errors)),
        ("pass_rate", Values::F64(col(rows, |r| r.task.pass_rate()))),
        (
            "scored_pass_rate",
            Values::F64(col(rows, |r| r.task.scored_pass_rate())),
        ),
        (
            "status",
            Values::Str(col(rows, |r| Some(r.task.status().to_owned()))),
        ),
    ]
}

/// Means per scored trial, as the leaderboard's tokens and time per task; the cost per
/// trial, errors included, as its cost per task.
fn mean_columns(rows: &[Row]) -> Columns {
    let mean = |f: fn(&TrialRecord) -> Option<f64>| Values::F64(col(rows, |r| r.mean(false, f)));
    vec![
        (
            "mean_input_tokens",
            mean(|t| t.usage.input_tokens.map(|n| n as f64)),
        ),
        (
            "mean_output_tokens",
            mean(|t| t.usage.output_tokens.map(|n| n as f64)),
        ),
        (
            "mean_cost_usd",
            Values::F64(col(rows, |r| r.mean(true, |t| t.usage.cost_usd))),
        ),
        ("mean_agent_s", mean(|t| Some(t.outcome.agent_s))),
        ("mean_verify_s", mean(|t| Some(t.outcome.verify_s))),
        ("mean_steps", mean(|t| t.behaviour.steps.map(|n| n as f64))),
        (
            "mean_tool_calls",
            mean(|t| t.behaviour.tool_calls.map(|n| n as f64)),
        ),
    ]
}
