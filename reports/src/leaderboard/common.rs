//! The one task set a leaderboard page uses for everything — ranks, intervals, the
//! significance matrix, pass@k and the per-category table: the tasks every run has trials
//! of. A task some run never ran is left out of every row (and named). A task a run ran
//! only into infrastructure errors stays in: those trials count as not passed (and the row
//! and task are marked), so erroring cannot take a task off the page.

use crate::run::Run;
use serde::Serialize;
use std::collections::{BTreeMap, BTreeSet};

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ExcludedTask {
    pub task_id: String,
    pub reason: String,
}

/// pass@k and pass^k at one k: offered only for k up to the fewest trials any common task
/// has in any run, so every k averages all the common tasks (the page's one task set).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct KSet {
    pub k: u32,
    /// Indexes into [`CommonTasks::ids`] (all of them).
    #[serde(skip)]
    pub members: Vec<usize>,
    pub tasks: usize,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CommonTasks {
    /// In id order.
    pub ids: Vec<String>,
    /// The category of each common task (from the first run that has it).
    pub categories: Vec<String>,
    pub excluded: Vec<ExcludedTask>,
    pub k_sets: Vec<KSet>,
}

impl CommonTasks {
    /// `labels[i]` names run i in the reasons.
    pub fn of(labels: &[String], runs: &[&Run]) -> CommonTasks {
        let mut all: BTreeMap<&str, &str> = BTreeMap::new();
        for run in runs {
            for t in &run.tasks {
                all.entry(&t.task_id).or_insert(&t.category);
            }
        }
        let mut ids = Vec::new();
        let mut categories = Vec::new();
        let mut excluded = Vec::new();
        for (id, category) in all {
            let missing: Vec<&String> = runs
                .iter()
                .zip(labels)
                .filter(|(r, _)| r.task(id).is_none_or(|t| t.trials() == 0))
                .map(|(_, l)| l)
                .collect();
            if missing.is_empty() {
                ids.push(id.to_owned());
                categories.push(category.to_owned());
            } else {
                let why: Vec<String> = missing.iter().map(|l| format!("not run by {l}")).collect();
                excluded.push(ExcludedTask {
                    task_id: id.to_owned(),
                    reason: why.join("; "),
                });
            }
        }
        // The fewest trials any common task has in any run: every k up to it averages all
        // the common tasks.
        let max_k = ids
            .iter()
            .flat_map(|id| runs.iter().filter_map(|r| r.task(id).map(|t| t.trials())))
            .min()
            .unwrap_or(0);
        let k_sets = (1..=max_k)
            .map(|k| KSet {
                k,
                tasks: ids.len(),
                members: (0..ids.len()).collect(),
            })
            .collect();
        CommonTasks {
            ids,
            categories,
            excluded,
            k_sets,
        }
    }

    /// The k shown in the main table: the largest k offered (pass@1 is the pass rate, so a
    /// larger k says more).
    pub fn headline_k(&self) -> Option<u32> {
        self.k_sets
            .iter()
            .filter(|s| s.tasks > 0)
            .map(|s| s.k)
            .max()
    }

    /// The distinct categories of the common tasks, sorted.
    pub fn category_names(&self) -> Vec<String> {
        let set: BTreeSet<&String> = self.categories.iter().collect();
        set.into_iter().cloned().collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use nab_protocol::RunMeta;
    use nab_protocol::{TrialRecord, TrialStatus};
    use std::path::Path;

    fn run(trials: &[(&str, u32, TrialStatus)]) -> Run {
        let recs = trials
            .iter()
            .map(|(id, n, s)| {
                let mut r = TrialRecord::new("r", id, "cat", *n, "a");
                r.outcome.status = *s;
                r
            })
            .collect();
        Run::from_records(Path::new("r"), RunMeta::default(), recs, false)
    }

    #[test]
    fn tasks_every_run_has_are_common_errors_included_and_k_stops_at_the_fewest_trials() {
        use TrialStatus::*;
        let a = run(&[
            ("t1", 0, Passed),
            ("t1", 1, Failed),
            ("t2", 0, Passed),
            ("t3", 0, Passed),
        ]);
        let b = run(&[
            ("t1", 0, Passed),
            ("t1", 1, Passed),
            ("t2", 0, Failed),
            ("t3", 0, Error),
            ("t4", 0, Passed),
        ]);
        let labels = vec!["A".to_owned(), "B".to_owned()];
        let c = CommonTasks::of(&labels, &[&a, &b]);
        // t3 ran only into errors in B: it stays (as 0% for B), never drops off the page.
        assert_eq!(c.ids, ["t1", "t2", "t3"]);
        assert_eq!(c.excluded.len(), 1);
        assert_eq!(c.excluded[0].reason, "not run by A");
        // t2 and t3 have one trial in a run: only k = 1 averages every common task.
        assert_eq!(
            c.k_sets.iter().map(|s| (s.k, s.tasks)).collect::<Vec<_>>(),
            [(1, 3)]
        );
        assert_eq!(c.headline_k(), Some(1));
    }
}
