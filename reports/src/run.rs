//! A run directory loaded: its trial records grouped by task.

use crate::error::Result;
use nab_protocol::{RunFolder, RunMeta};
use nab_protocol::{TrialRecord, TrialStatus};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// One loaded run.
#[derive(Debug, Clone)]
pub struct Run {
    pub dir: PathBuf,
    pub meta: RunMeta,
    /// Every trial, one per (task, trial index), sorted by task then trial.
    pub records: Vec<TrialRecord>,
    /// Tasks in id order.
    pub tasks: Vec<TaskTrials>,
    /// The last line of results.jsonl was cut off (an interrupted writer) and skipped.
    pub truncated_tail: bool,
    /// Tasks kept out of every score (`tasks/quarantine.yaml`); their trials are not in
    /// `records` or `tasks`.
    pub quarantined: Vec<crate::quarantine::QuarantinedTask>,
}

/// The trials of one task and their verdict counts.
///
/// One accounting rule holds everywhere (report, compare, gate, leaderboard, sweep): every
/// trial the run recorded counts, and a trial that is still an infrastructure `error` after
/// its attempts counts as **not passed** in the headline rate. So turning failures into
/// errors can never raise a rate; the rate over scored trials, the error rate and the
/// errors' causes are shown beside it.
#[derive(Debug, Clone, PartialEq)]
pub struct TaskTrials {
    pub task_id: String,
    pub category: String,
    /// Indexes into [`Run::records`].
    pub trial_indexes: Vec<usize>,
    /// Trials with a verdict (passed or failed).
    pub scored: u32,
    pub passed: u32,
    /// Trials that ended in an infrastructure error (not passed).
    pub errors: u32,
}

impl TaskTrials {
    /// Every trial of the task, errors included: the denominator of its pass rate.
    pub fn trials(&self) -> u32 {
        self.scored + self.errors
    }

    /// The task's headline pass rate: passed / every trial (an error is not a pass).
    /// `None` only for a task without trials.
    pub fn pass_rate(&self) -> Option<f64> {
        let n = self.trials();
        (n > 0).then(|| f64::from(self.passed) / f64::from(n))
    }

    /// The pass rate over the trials with a verdict, shown beside the headline; `None` when
    /// every trial was an error.
    pub fn scored_pass_rate(&self) -> Option<f64> {
        (self.scored > 0).then(|| f64::from(self.passed) / f64::from(self.scored))
    }

    /// A one-word status for tables and filters.
    pub fn status(&self) -> &'static str {
        match (self.scored, self.passed) {
            (0, _) => "error",
            (n, c) if c == n => "passed",
            (_, 0) => "failed",
            _ => "flaky",
        }
    }
}

impl Run {
    /// Loads `<dir>/results.jsonl` and `<dir>/run.json` (optional).
    ///
    /// A trial recorded twice (a resumed run that retried it) counts once: the last line wins.
    pub fn load(dir: &Path) -> Result<Run> {
        let (run, quarantine) = Run::load_unquarantined(dir)?;
        Ok(run.quarantine(&quarantine))
    }

    /// [`Run::load`] with every trial kept, quarantined or not, and the suite's quarantine
    /// list beside it (empty when the suite cannot be found or does not match its hash):
    /// for an export, which lists every trial and marks those the scores leave out.
    pub(crate) fn load_unquarantined(
        dir: &Path,
    ) -> Result<(Run, Vec<crate::quarantine::QuarantineEntry>)> {
        let folder = RunFolder::open(dir)?;
        let run = Run::from_records(dir, folder.meta, folder.records, folder.truncated_tail);
        let quarantine = match nab_protocol::resolve_tasks_dir(&run.meta, dir, None) {
            Ok(tasks) => crate::quarantine::load(&tasks)?,
            Err(_) => Vec::new(),
        };
        Ok((run, quarantine))
    }

    /// Builds a run from records already in memory (tests, benchmarks, the runner).
    pub fn from_records(
        dir: &Path,
        meta: RunMeta,
        records: Vec<TrialRecord>,
        truncated_tail: bool,
    ) -> Run {
        let mut latest: BTreeMap<(String, u32), TrialRecord> = BTreeMap::new();
        for r in records {
            latest.insert((r.task_id.clone(), r.trial), r);
        }
        let records: Vec<TrialRecord> = latest.into_values().collect();
        let mut tasks: Vec<TaskTrials> = Vec::new();
        for (i, r) in records.iter().enumerate() {
            if tasks.last().map(|t| t.task_id != r.task_id).unwrap_or(true) {
                tasks.push(TaskTrials {
                    task_id: r.task_id.clone(),
                    category: r.category.clone(),
                    trial_indexes: Vec::new(),
                    scored: 0,
                    passed: 0,
                    errors: 0,
                });
            }
            if let Some(t) = tasks.last_mut() {
                t.trial_indexes.push(i);
                match r.outcome.status {
                    TrialStatus::Passed => {
                        t.scored += 1;
                        t.passed += 1;
                    }
                    TrialStatus::Failed => t.scored += 1,
                    TrialStatus::Error => t.errors += 1,
                }
            }
        }
        Run {
            dir: dir.to_owned(),
            meta,
            records,
            tasks,
            truncated_tail,
            quarantined: Vec::new(),
        }
    }

    /// Moves the trials of quarantined tasks out of the scores, keeping the list (with each
    /// task's reason and trial count) for the reports.
    pub fn quarantine(self, entries: &[crate::quarantine::QuarantineEntry]) -> Run {
        if entries.is_empty() {
            return self;
        }
        let mut quarantined = self.quarantined.clone();
        for e in entries {
            if !quarantined.iter().any(|q| q.task_id == e.task) {
                quarantined.push(crate::quarantine::QuarantinedTask {
                    task_id: e.task.clone(),
                    reason: e.reason.clone(),
                    trials: self.records.iter().filter(|r| r.task_id == e.task).count(),
                });
            }
        }
        let kept = self
            .records
            .into_iter()
            .filter(|r| !quarantined.iter().any(|q| q.task_id == r.task_id))
            .collect();
        let mut run = Run::from_records(&self.dir, self.meta, kept, self.truncated_tail);
        quarantined.sort_by(|a, b| a.task_id.cmp(&b.task_id));
        run.quarantined = quarantined;
        run
    }

    pub fn task(&self, id: &str) -> Option<&TaskTrials> {
        self.tasks
            .binary_search_by(|t| t.task_id.as_str().cmp(id))
            .ok()
            .map(|i| &self.tasks[i])
    }

    /// The agent: from run.json, else the records.
    pub fn agent(&self) -> Option<String> {
        self.meta
            .agent
            .clone()
            .or_else(|| self.records.first().map(|r| r.agent.clone()))
    }

    /// The model: from run.json, else the records.
    pub fn model(&self) -> Option<String> {
        self.meta
            .model
            .clone()
            .or_else(|| self.records.iter().find_map(|r| r.model.clone()))
    }

    pub fn run_id(&self) -> Option<String> {
        self.meta
            .run_id
            .clone()
            .or_else(|| self.records.first().map(|r| r.run_id.clone()))
    }
}
