//! The long-context requirement, reported apart from the answers: per task that requires a
//! compaction (`agent.requires_compaction`), how many trials' answers the hidden tests
//! passed and how many met the requirement, so a reader sees whether a task was lost on
//! its answers or on nab-agent's context management.

use crate::run::Run;
use nab_protocol::{CompactionCheck, TrialStatus};
use serde::{Deserialize, Serialize};

/// One task's trials that carry a compaction check (errors left out: nothing was judged).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CompactionRow {
    pub task_id: String,
    /// Trials with a verdict and a compaction check.
    pub trials: u32,
    /// Of those, trials whose answers the hidden tests passed (`verifier_passed`).
    pub answers_passed: u32,
    /// Trials that met the requirement.
    pub met: u32,
    /// Trials that missed it (failed with `missing_compaction`).
    pub missed: u32,
    /// Trials of agents it is not judged for (scored on their answers alone).
    pub not_judged: u32,
}

/// The rows, in the run's task order; empty when no trial carries a compaction check.
pub fn compaction_rows(run: &Run) -> Vec<CompactionRow> {
    run.tasks
        .iter()
        .filter_map(|t| {
            let mut row = CompactionRow {
                task_id: t.task_id.clone(),
                trials: 0,
                answers_passed: 0,
                met: 0,
                missed: 0,
                not_judged: 0,
            };
            for r in t.trial_indexes.iter().map(|&i| &run.records[i]) {
                let Some(check) = r.outcome.compaction else {
                    continue;
                };
                if r.outcome.status == TrialStatus::Error {
                    continue;
                }
                row.trials += 1;
                row.answers_passed += u32::from(r.outcome.verifier_passed == Some(true));
                match check {
                    CompactionCheck::Met => row.met += 1,
                    CompactionCheck::Missed => row.missed += 1,
                    CompactionCheck::NotJudged | CompactionCheck::Other => row.not_judged += 1,
                }
            }
            (row.trials > 0).then_some(row)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use nab_protocol::{FailureReason, RunMeta, TrialRecord};
    use std::path::Path;

    fn rec(task: &str, trial: u32, status: TrialStatus) -> TrialRecord {
        let mut r = TrialRecord::new("r", task, "long-context", trial, "nab-agent");
        r.outcome.status = status;
        r
    }

    #[test]
    fn answers_and_the_requirement_are_counted_apart() {
        // lc-a: right answers but no compaction; right answers with it; wrong answers with it.
        let mut missed = rec("lc-a", 0, TrialStatus::Failed);
        missed.outcome.failure_reason = Some(FailureReason::MissingCompaction);
        missed.outcome.verifier_passed = Some(true);
        missed.outcome.compaction = Some(CompactionCheck::Missed);
        let mut met = rec("lc-a", 1, TrialStatus::Passed);
        met.outcome.verifier_passed = Some(true);
        met.outcome.compaction = Some(CompactionCheck::Met);
        let mut wrong = rec("lc-a", 2, TrialStatus::Failed);
        wrong.outcome.verifier_passed = Some(false);
        wrong.outcome.compaction = Some(CompactionCheck::Met);
        // An error trial judged nothing; another agent's trial is not judged.
        let mut error = rec("lc-a", 3, TrialStatus::Error);
        error.outcome.compaction = Some(CompactionCheck::Missed);
        let mut other = rec("lc-b", 0, TrialStatus::Passed);
        other.outcome.verifier_passed = Some(true);
        other.outcome.compaction = Some(CompactionCheck::NotJudged);
        // A task without the requirement has no row.
        let plain = rec("bug", 0, TrialStatus::Passed);
        let run = Run::from_records(
            Path::new("/nonexistent"),
            RunMeta::default(),
            vec![missed, met, wrong, error, other, plain],
            false,
        );
        let rows = compaction_rows(&run);
        assert_eq!(
            rows,
            vec![
                CompactionRow {
                    task_id: "lc-a".into(),
                    trials: 3,
                    answers_passed: 2,
                    met: 2,
                    missed: 1,
                    not_judged: 0,
                },
                CompactionRow {
                    task_id: "lc-b".into(),
                    trials: 1,
                    answers_passed: 1,
                    met: 0,
                    missed: 0,
                    not_judged: 1,
                },
            ]
        );
    }
}
