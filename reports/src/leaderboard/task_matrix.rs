//! The task × model matrix: each common task's passed / all trials in every row, so a
//! reader sees *where* the rows differ, not only by how much. The columns are the
//! leaderboard's rows, best first; the lines are the common tasks, in id order (the page
//! sorts them, by default the tasks that separate the rows most first).

use super::common::CommonTasks;
use crate::run::Run;
use nab_protocol::TrialStatus;
use serde::Serialize;

/// One common task across the rows.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct TaskLine {
    pub task_id: String,
    pub category: String,
    /// The highest row pass rate on this task minus the lowest: 0 when every row did the
    /// same, 1 when one row always passed and another never did.
    pub spread: f64,
    /// One cell per leaderboard row, in the rows' order.
    pub cells: Vec<TaskCell>,
}

/// One row's trials of one task.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct TaskCell {
    pub passed: u32,
    /// Every trial, errors included (an error is not a pass, as in the ranking).
    pub trials: u32,
    pub errors: u32,
    /// passed / trials.
    pub rate: f64,
    /// The trial a link to this cell opens in the run's report: the first that did not
    /// pass (what a reader looks for), else the first.
    pub open_trial: Option<u32>,
}

impl TaskCell {
    fn of(run: &Run, task_id: &str) -> TaskCell {
        let Some(t) = run.task(task_id) else {
            return TaskCell {
                passed: 0,
                trials: 0,
                errors: 0,
                rate: 0.0,
                open_trial: None,
            };
        };
        let mut records: Vec<_> = t.trial_indexes.iter().map(|&i| &run.records[i]).collect();
        records.sort_by_key(|r| r.trial);
        let open_trial = records
            .iter()
            .find(|r| r.outcome.status != TrialStatus::Passed)
            .or(records.first())
            .map(|r| r.trial);
        TaskCell {
            passed: t.passed,
            trials: t.trials(),
            errors: t.errors,
            rate: t.pass_rate().unwrap_or(0.0),
            open_trial,
        }
    }
}

/// The matrix of `runs` (in the leaderboard's row order) over the common tasks.
pub fn build(runs: &[&Run], common: &CommonTasks) -> Vec<TaskLine> {
    common
        .ids
        .iter()
        .zip(&common.categories)
        .map(|(id, category)| {
            let cells: Vec<TaskCell> = runs.iter().map(|r| TaskCell::of(r, id)).collect();
            let rates = cells.iter().map(|c| c.rate);
            let hi = rates.clone().fold(f64::NEG_INFINITY, f64::max);
            let lo = rates.fold(f64::INFINITY, f64::min);
            TaskLine {
                task_id: id.clone(),
                category: category.clone(),
                spread: if cells.is_empty() { 0.0 } else { hi - lo },
                cells,
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use nab_protocol::{RunMeta, TrialRecord};
    use std::path::Path;

    fn rec(task: &str, trial: u32, status: TrialStatus) -> TrialRecord {
        let mut r = TrialRecord::new("r", task, "c", trial, "a");
        r.outcome.status = status;
        r
    }

    #[test]
    fn cells_count_every_trial_and_open_the_first_that_did_not_pass() {
        use TrialStatus::*;
        let a = Run::from_records(
            Path::new("a"),
            RunMeta::default(),
            vec![
                rec("x", 0, Passed),
                rec("x", 2, Error),
                rec("x", 1, Failed),
                rec("y", 0, Passed),
            ],
            false,
        );
        let b = Run::from_records(
            Path::new("b"),
            RunMeta::default(),
            vec![rec("x", 0, Passed), rec("y", 0, Failed)],
            false,
        );
        let common = CommonTasks::of(&["a".into(), "b".into()], &[&a, &b]);
        let m = build(&[&a, &b], &common);
        assert_eq!(m.len(), 2);
        let x = &m[0];
        assert_eq!(x.task_id, "x");
        assert_eq!(
            (x.cells[0].passed, x.cells[0].trials, x.cells[0].errors),
            (1, 3, 1)
        );
        assert_eq!(
            x.cells[0].open_trial,
            Some(1),
            "trial 1 is the first not passed"
        );
        assert_eq!(x.cells[1].open_trial, Some(0), "all passed: the first");
        assert!((x.spread - (1.0 - 1.0 / 3.0)).abs() < 1e-9);
        assert_eq!(m[1].spread, 1.0);
    }
}
