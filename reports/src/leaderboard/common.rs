//! The task set a leaderboard ranks on: the tasks with a verdict in every run. A task one
//! run never reached, or reached only through infrastructure errors, is left out of every
//! row (and named), so each row's pass rate averages the same tasks.

use crate::run::Run;
use serde::Serialize;
use std::collections::{BTreeMap, BTreeSet};

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ExcludedTask {
    pub task_id: String,
    pub reason: String,
}

/// pass@k and pass^k at one k average the common tasks with at least k scored trials in
/// every run (so a k never compares different tasks between rows).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct KSet {
    pub k: u32,
    /// Indexes into [`CommonTasks::ids`].
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
            let missing: Vec<(&String, bool)> = runs
                .iter()
                .zip(labels)
                .filter_map(|(r, l)| match r.task(id) {
                    None => Some((l, false)),
                    Some(t) if t.scored == 0 => Some((l, true)),
                    Some(_) => None,
                })
                .collect();
            if missing.is_empty() {
                ids.push(id.to_owned());
                categories.push(category.to_owned());
            } else {
                let why: Vec<String> = missing
                    .iter()
                    .map(|(l, errored)| {
                        if *errored {
                            format!("only infrastructure errors in {l}")
                        } else {
                            format!("not run by {l}")
                        }
                    })
                    .collect();
                excluded.push(ExcludedTask {
                    task_id: id.to_owned(),
                    reason: why.join("; "),
                });
            }
        }
        let min_scored: Vec<u32> = ids
            .iter()
            .map(|id| {
                runs.iter()
                    .filter_map(|r| r.task(id).map(|t| t.scored))
                    .min()
                    .unwrap_or(0)
            })
            .collect();
        let max_k = min_scored.iter().copied().max().unwrap_or(0);
        let k_sets = (1..=max_k)
            .map(|k| {
                let members: Vec<usize> = (0..ids.len()).filter(|&i| min_scored[i] >= k).collect();
                KSet {
                    k,
                    tasks: members.len(),
                    members,
                }
            })
            .collect();
        CommonTasks {
            ids,
            categories,
            excluded,
            k_sets,
        }
    }

    /// The k shown in the main table: the largest k whose set still holds at least half of
    /// the common tasks (pass@1 is the pass rate, so a larger k says more), else 1.
    pub fn headline_k(&self) -> Option<u32> {
        let half = self.ids.len().div_ceil(2);
        self.k_sets
            .iter()
            .filter(|s| s.tasks >= half && s.tasks > 0)
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
                r.status = *s;
                r
            })
            .collect();
        Run::from_records(Path::new("r"), RunMeta::default(), recs, false)
    }

    #[test]
    fn only_tasks_with_a_verdict_everywhere_are_common_and_k_sets_shrink() {
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
        assert_eq!(c.ids, ["t1", "t2"]);
        assert_eq!(c.excluded.len(), 2);
        assert_eq!(c.excluded[0].reason, "only infrastructure errors in B");
        assert_eq!(c.excluded[1].reason, "not run by A");
        assert_eq!(
            c.k_sets.iter().map(|s| (s.k, s.tasks)).collect::<Vec<_>>(),
            [(1, 2), (2, 1)]
        );
        // k = 2 holds one task of two: at least half, so it is the headline.
        assert_eq!(c.headline_k(), Some(2));
    }
}
