//! One row of the leaderboard: an agent/model pair (one run), measured on the common tasks.

use super::common::CommonTasks;
use crate::run::{Run, TaskTrials};
use crate::stats::{self, Interval, RankInterval, Z95, ratio::Ratio};
use crate::summary::{KMetric, own_seconds, trial_tokens};
use nab_protocol::{TrialRecord, TrialStatus};
use serde::Serialize;

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Row {
    /// `agent · model`, shortened for display (unique among the rows).
    pub label: String,
    pub agent: Option<String>,
    pub model: Option<String>,
    pub run_id: Option<String>,
    pub run_dir: String,
    /// What `nab regrade` found here for the bundle this run came from, if it was re-graded.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub regraded: Option<String>,
    /// The suite hash run.json records.
    pub suite_hash: Option<String>,
    /// The observed rank (1 = best; tied rows share the better rank) and its simultaneous
    /// 95% interval (read off the significance matrix); set once every row is known.
    pub rank: RankInterval,
    /// Common tasks (the sample size of the interval).
    pub tasks: usize,
    /// Every trial on the common tasks (errors included), scored and passed ones.
    #[serde(default)]
    pub common_trials: usize,
    pub scored_trials: usize,
    pub passed_trials: usize,
    /// Mean over the common tasks of each task's passed / all its trials (an error is not a
    /// pass): the figure the row is ranked by.
    pub pass_rate: Option<f64>,
    /// Wilson 95% interval with n = common tasks.
    pub pass_rate_ci: Option<Interval>,
    /// Beside it: the mean over common tasks with a verdict of passed / scored trials.
    pub scored_pass_rate: Option<f64>,
    /// pass@k and pass^k over the common tasks (see [`super::common::KSet`]).
    pub pass_at_k: Vec<KMetric>,
    pub pass_hat_k: Vec<KMetric>,
    pub categories: Vec<CategoryRate>,
    /// Common tasks where this run had error trials: the row is marked where it is ranked.
    pub tasks_with_errors: Vec<String>,
    /// Mean over the common tasks of each task's mean input + output tokens per scored trial.
    pub tokens_per_task: Option<f64>,
    /// Mean over the common tasks of each task's mean `cost_usd` per trial (errors included:
    /// they were paid for); absent unless every trial of the common tasks has a cost.
    pub cost_per_task_usd: Option<f64>,
    /// Trials of the common tasks that have a cost.
    pub cost_known_trials: usize,
    /// Cost per solved task on the common tasks: every trial's cost / trials passed, with a
    /// bootstrap interval over tasks; absent unless every trial has a cost.
    pub cost_per_solved: Option<Ratio>,
    /// Sum of `cost_usd` over every trial of the run (errors too: they were paid for);
    /// absent unless every trial has one.
    pub total_cost_usd: Option<f64>,
    /// Mean over the common tasks of each task's mean agent seconds (wall) per scored trial.
    pub agent_s_per_task: Option<f64>,
    /// The same for the agent's own seconds (`agent_s − model_s`, what its limit counts).
    pub own_s_per_task: Option<f64>,
    /// The same for the seconds the gateway waited for the model (`model_s`).
    pub model_s_per_task: Option<f64>,
    /// The whole run's wall time, from run.json's start and finish.
    pub wall_s: Option<f64>,
    /// Every trial of the run (all tasks, errors included).
    pub trials: usize,
    pub error_trials: usize,
    /// error_trials / trials: errors count as not passed in the pass rate; this shows how
    /// many there were.
    pub error_rate: Option<f64>,
    /// The last line of results.jsonl was torn (an interrupted writer) and not counted.
    pub truncated_tail: bool,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CategoryRate {
    pub category: String,
    pub tasks: usize,
    pub pass_rate: Option<f64>,
    pub ci: Option<Interval>,
}

fn mean(v: &[f64]) -> Option<f64> {
    (!v.is_empty()).then(|| v.iter().sum::<f64>() / v.len() as f64)
}

fn scored<'a>(run: &'a Run, t: &TaskTrials) -> Vec<&'a TrialRecord> {
    t.trial_indexes
        .iter()
        .map(|&i| &run.records[i])
        .filter(|r| r.outcome.status != TrialStatus::Error)
        .collect()
}

/// The task's mean of `f` over its scored trials that have a value.
fn task_mean(recs: &[&TrialRecord], f: impl Fn(&TrialRecord) -> Option<f64>) -> Option<f64> {
    mean(&recs.iter().filter_map(|r| f(r)).collect::<Vec<_>>())
}

fn wall_seconds(run: &Run) -> Option<f64> {
    let parse = |s: &Option<String>| {
        s.as_deref()
            .and_then(|s| chrono::DateTime::parse_from_rfc3339(s).ok())
    };
    let (a, b) = (parse(&run.meta.started_at)?, parse(&run.meta.finished_at)?);
    let s = (b - a).num_milliseconds() as f64 / 1000.0;
    (s >= 0.0).then_some(s)
}

/// Each common task's pass rate in `run` (every trial counts, an error as not passed), in
/// [`CommonTasks::ids`] order (every run has every common task).
pub fn task_rates(run: &Run, common: &CommonTasks) -> Vec<f64> {
    common
        .ids
        .iter()
        .map(|id| run.task(id).and_then(|t| t.pass_rate()).unwrap_or(0.0))
        .collect()
}

impl Row {
    /// `resamples` and `seed`: the cost-per-solved-task bootstrap's.
    pub fn compute(
        label: String,
        run: &Run,
        common: &CommonTasks,
        resamples: usize,
        seed: u64,
    ) -> Row {
        let tasks: Vec<&TaskTrials> = common.ids.iter().filter_map(|id| run.task(id)).collect();
        let rates = task_rates(run, common);
        let m = rates.len();
        let pass_rate = mean(&rates);
        let pass_rate_ci = pass_rate.and_then(|p| stats::wilson(p * m as f64, m as f64, Z95));
        let scored_rates: Vec<f64> = tasks.iter().filter_map(|t| t.scored_pass_rate()).collect();

        // Per common task: every trial, and the scored ones.
        let all: Vec<Vec<&TrialRecord>> = tasks
            .iter()
            .map(|t| t.trial_indexes.iter().map(|&i| &run.records[i]).collect())
            .collect();
        let per_task: Vec<Vec<&TrialRecord>> = tasks.iter().map(|t| scored(run, t)).collect();
        let scored_trials: usize = per_task.iter().map(Vec::len).sum();
        let common_trials: usize = all.iter().map(Vec::len).sum();
        let costs = Costs::of(&all, &tasks, resamples, seed);
        let error_trials = run
            .records
            .iter()
            .filter(|r| r.outcome.status == TrialStatus::Error)
            .count();
        let all_costs: Option<Vec<f64>> = run.records.iter().map(|r| r.usage.cost_usd).collect();
        Row {
            label,
            agent: run.agent(),
            model: run.model(),
            run_id: run.run_id(),
            run_dir: run.dir.display().to_string(),
            regraded: None,
            suite_hash: run.meta.tasks_hash.clone(),
            rank: RankInterval {
                rank: 0,
                low: 0,
                high: 0,
            },
            tasks: m,
            common_trials,
            scored_trials,
            passed_trials: tasks.iter().map(|t| t.passed as usize).sum(),
            pass_rate,
            pass_rate_ci,
            scored_pass_rate: mean(&scored_rates),
            pass_at_k: k_metrics(&tasks, common, stats::pass_at_k),
            pass_hat_k: k_metrics(&tasks, common, stats::pass_hat_k),
            categories: category_rates(common, &rates),
            tasks_with_errors: tasks
                .iter()
                .filter(|t| t.errors > 0)
                .map(|t| t.task_id.clone())
                .collect(),
            tokens_per_task: mean_over_tasks(&per_task, &trial_tokens),
            cost_per_task_usd: costs.per_task_usd,
            cost_known_trials: costs.known_trials,
            cost_per_solved: costs.per_solved,
            total_cost_usd: all_costs.filter(|c| !c.is_empty()).map(|c| c.iter().sum()),
            agent_s_per_task: mean_over_tasks(&per_task, &|r| Some(r.outcome.agent_s)),
            own_s_per_task: mean_over_tasks(&per_task, &|r| {
                r.outcome.model_s.map(|_| own_seconds(r))
            }),
            model_s_per_task: mean_over_tasks(&per_task, &|r| r.outcome.model_s),
            wall_s: wall_seconds(run),
            trials: run.records.len(),
            error_trials,
            error_rate: (!run.records.is_empty())
                .then(|| error_trials as f64 / run.records.len() as f64),
            truncated_tail: run.truncated_tail,
        }
    }

    pub fn pass_at(&self, k: u32) -> Option<&KMetric> {
        self.pass_at_k.iter().find(|m| m.k == k)
    }

    pub fn pass_hat(&self, k: u32) -> Option<&KMetric> {
        self.pass_hat_k.iter().find(|m| m.k == k)
    }
}

/// `f` (pass@k or pass^k) at each k of [`CommonTasks::k_sets`], averaged over that k's
/// tasks (`tasks`: the run's common tasks, in [`CommonTasks::ids`] order).
fn k_metrics(
    tasks: &[&TaskTrials],
    common: &CommonTasks,
    f: fn(u32, u32, u32) -> Option<f64>,
) -> Vec<KMetric> {
    common
        .k_sets
        .iter()
        .map(|s| {
            let vals: Vec<f64> = s
                .members
                .iter()
                .filter_map(|&i| tasks.get(i).and_then(|t| f(t.trials(), t.passed, s.k)))
                .collect();
            KMetric {
                k: s.k,
                value: mean(&vals),
                tasks: vals.len(),
            }
        })
        .collect()
}

/// Pass rate and its interval per category of the common tasks (`rates`: [`task_rates`]).
fn category_rates(common: &CommonTasks, rates: &[f64]) -> Vec<CategoryRate> {
    common
        .category_names()
        .into_iter()
        .map(|category| {
            let r: Vec<f64> = common
                .categories
                .iter()
                .zip(rates)
                .filter(|(c, _)| **c == category)
                .map(|(_, r)| *r)
                .collect();
            let p = mean(&r);
            CategoryRate {
                tasks: r.len(),
                ci: p.and_then(|p| stats::wilson(p * r.len() as f64, r.len() as f64, Z95)),
                pass_rate: p,
                category,
            }
        })
        .collect()
}

/// The mean over tasks of each task's mean of `f` (over its `trials` that have a value).
fn mean_over_tasks(
    trials: &[Vec<&TrialRecord>],
    f: &dyn Fn(&TrialRecord) -> Option<f64>,
) -> Option<f64> {
    mean(
        &trials
            .iter()
            .filter_map(|recs| task_mean(recs, f))
            .collect::<Vec<_>>(),
    )
}

/// A row's cost figures on the common tasks.
struct Costs {
    /// Trials with a cost.
    known_trials: usize,
    /// The mean over tasks of each task's mean cost per trial; absent unless every trial
    /// has a cost.
    per_task_usd: Option<f64>,
    /// Absent unless every trial has a cost, or without resamples.
    per_solved: Option<Ratio>,
}

impl Costs {
    /// `all`: each common task's trials (errors included: they were paid for), beside
    /// `tasks`; `resamples` and `seed`: the cost-per-solved-task bootstrap's.
    fn of(all: &[Vec<&TrialRecord>], tasks: &[&TaskTrials], resamples: usize, seed: u64) -> Costs {
        let trials: usize = all.iter().map(Vec::len).sum();
        let known_trials = all
            .iter()
            .flatten()
            .filter(|r| r.usage.cost_usd.is_some())
            .count();
        let fully_priced = trials > 0 && known_trials == trials;
        Costs {
            known_trials,
            per_task_usd: if fully_priced {
                mean_over_tasks(all, &|r| r.usage.cost_usd)
            } else {
                None
            },
            per_solved: if fully_priced && resamples > 0 {
                cost_per_solved(all, tasks, resamples, seed)
            } else {
                None
            },
        }
    }
}

/// Every trial's cost over the trials passed, with a bootstrap interval over tasks (`all`:
/// each task's trials, beside `tasks`).
fn cost_per_solved(
    all: &[Vec<&TrialRecord>],
    tasks: &[&TaskTrials],
    resamples: usize,
    seed: u64,
) -> Option<Ratio> {
    let pairs: Vec<(f64, f64)> = all
        .iter()
        .zip(tasks)
        .map(|(recs, t)| {
            (
                recs.iter().filter_map(|r| r.usage.cost_usd).sum(),
                f64::from(t.passed),
            )
        })
        .collect();
    stats::ratio::ratio_bootstrap(&pairs, resamples, 0.95, seed)
}
