//! The aggregates of one run: what summary.json holds and the report's summary shows.

use crate::run::Run;
use crate::stats::{self, Interval, Z95};
use nab_protocol::{TrialRecord, TrialStatus};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// Version 2: every trial counts, errors as not passed (the headline rate of version 1
/// left errors out); `scored_pass_rate` is the old figure.
pub const SUMMARY_VERSION: u32 = 2;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RunSummary {
    pub v: u32,
    pub run_id: Option<String>,
    pub agent: Option<String>,
    pub model: Option<String>,
    /// Tasks with at least one record: the sample size of every interval.
    pub tasks: usize,
    /// Tasks with at least one scored (non-error) trial.
    pub scored_tasks: usize,
    pub trials: usize,
    pub scored_trials: usize,
    pub passed_trials: usize,
    /// The most trials any task has (the largest k for pass@k).
    pub max_trials_per_task: u32,
    /// The headline: mean over tasks of each task's passed / all its trials. A trial that
    /// is still an infrastructure error after its attempts counts as not passed, so an
    /// agent cannot raise this by turning failures into errors (= the pass@1 estimate).
    pub pass_rate: Option<f64>,
    /// Wilson 95% interval with the number of tasks as n.
    pub pass_rate_ci: Option<Interval>,
    /// Beside the headline: mean over the tasks with a verdict of passed / scored trials
    /// (errors left out). Never used to rank or gate.
    #[serde(default)]
    pub scored_pass_rate: Option<f64>,
    pub pass_at_k: Vec<KMetric>,
    pub pass_hat_k: Vec<KMetric>,
    pub categories: Vec<CategorySummary>,
    /// Share of tasks (with ≥ 2 scored trials) whose verdicts differ across trials.
    pub flip_rate: Option<f64>,
    /// Tasks kept out of every score by `tasks/quarantine.yaml`, with their reasons.
    #[serde(default)]
    pub quarantined: Vec<crate::quarantine::QuarantinedTask>,
    /// Tasks whose verdicts flip across trials of this agent, most flaky first.
    #[serde(default)]
    pub flaky_tasks: Vec<FlakyTask>,
    /// Tasks that require a compaction of nab-agent: their answers and the requirement,
    /// counted apart (see [`crate::compaction`]).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub compaction: Vec<crate::compaction::CompactionRow>,
    /// The paired MDE against a rerun of the same design (see [`crate::mde`]).
    pub mde: crate::mde::Mde,
    /// Share of trials that ended in an infrastructure error (`status: error`), shown next
    /// to the pass rate (which counts them as not passed); their causes are in `infra`.
    pub error_rate: Option<f64>,
    /// Trials that made model calls but recorded 0 tokens both ways (see [`is_zero_token`]).
    #[serde(default)]
    pub zero_token_trials: usize,
    pub infra: InfraSummary,
    pub usage: UsageTotals,
    /// Total cost / trials passed, with a task-clustered bootstrap interval; absent unless
    /// every trial has a cost.
    #[serde(default)]
    pub cost_per_solved: Option<stats::ratio::Ratio>,
    pub distributions: Distributions,
    pub safety: SafetySummary,
    pub judges: Option<JudgeSummary>,
}

/// pass@k or pass^k at one k: the mean over tasks with at least k trials (errors count as
/// trials that did not pass).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct KMetric {
    pub k: u32,
    /// Absent when no task has k trials.
    pub value: Option<f64>,
    /// How many tasks had at least k trials and entered the mean.
    pub tasks: usize,
}

/// A task whose verdict is not stable across trials of the same agent.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FlakyTask {
    pub task_id: String,
    pub passed: u32,
    pub scored: u32,
    /// The chance that two of its trials disagree (see [`stats::task_flip_rate`]).
    pub flip_rate: f64,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CategorySummary {
    pub category: String,
    /// Tasks of the category: the n of its interval.
    pub tasks: usize,
    pub scored_tasks: usize,
    pub pass_rate: Option<f64>,
    pub ci: Option<Interval>,
}

/// Infrastructure errors: counted as not passed, and listed with their causes.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct InfraSummary {
    pub error_trials: usize,
    /// Tasks where every trial was an infrastructure error (no verdict at all).
    pub tasks_without_verdict: Vec<String>,
    /// Tasks with at least one error trial (marked in every table that lists tasks).
    #[serde(default)]
    pub tasks_with_errors: Vec<String>,
    /// Distinct error messages (first line, capped) and how often each occurred.
    pub messages: Vec<ErrorCount>,
    /// Error trials by `error_kind` (sandbox, image, provider, replay_miss, harness, …).
    #[serde(default)]
    pub kinds: Vec<ErrorCount>,
    /// Trials that needed more than one attempt.
    pub retried_trials: usize,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ErrorCount {
    pub message: String,
    pub count: usize,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct UsageTotals {
    pub llm_calls: u64,
    pub input_tokens: u64,
    pub output_tokens: u64,
    /// Of the input tokens, cache reads.
    pub cached_tokens: u64,
    /// Of the input tokens, cache writes (priced apart).
    #[serde(default)]
    pub cache_write_tokens: u64,
    pub total_tokens: u64,
    /// Sum of `cost_usd` over every trial that has one (infrastructure errors too: their
    /// calls were paid for); absent when no trial has a cost (`nab run` without `--prices`,
    /// or no price for the model).
    #[serde(default)]
    pub cost_usd: Option<f64>,
    /// Trials with a `cost_usd`, of all the run's trials.
    #[serde(default)]
    pub cost_known_trials: usize,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Distributions {
    /// Input + output tokens per scored trial.
    pub tokens: Dist,
    pub steps: Dist,
    pub tool_failure_rate: Dist,
    /// Wall seconds of the agent phase per scored trial (model calls included).
    pub agent_s: Dist,
    /// Seconds per scored trial the gateway waited for the model (`model_s`).
    #[serde(default)]
    pub model_s: Dist,
    /// The agent's own seconds per scored trial (`agent_s − model_s`): what its time limit
    /// counts.
    #[serde(default)]
    pub own_s: Dist,
    /// `cost_usd` per trial that has one, error trials included (they were paid for).
    #[serde(default)]
    pub cost_usd: Dist,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Dist {
    pub n: usize,
    pub mean: Option<f64>,
    pub median: Option<f64>,
    pub p90: Option<f64>,
    pub max: Option<f64>,
}

impl Dist {
    pub fn of(values: &[f64]) -> Dist {
        Dist {
            n: values.len(),
            mean: (!values.is_empty()).then(|| values.iter().sum::<f64>() / values.len() as f64),
            median: stats::median(values),
            p90: stats::p90(values),
            max: values.iter().copied().reduce(f64::max),
        }
    }
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct SafetySummary {
    pub violations: usize,
    pub trials_with_violations: usize,
    pub policy_blocks: u64,
}

pub use crate::judge_summary::JudgeSummary;

/// A trial that made model calls but recorded 0 tokens in both directions: almost certainly
/// a provider fault (an empty or failed response counted as a call), not a result.
pub fn is_zero_token(r: &TrialRecord) -> bool {
    r.usage.llm_calls.unwrap_or(0) > 0
        && r.usage.input_tokens.unwrap_or(0) == 0
        && r.usage.output_tokens.unwrap_or(0) == 0
}

/// Per-trial values for the distributions (scored trials only: an infrastructure error
/// says nothing about the agent's cost).
pub fn trial_tokens(r: &TrialRecord) -> Option<f64> {
    match (r.usage.input_tokens, r.usage.output_tokens) {
        (None, None) => None,
        (i, o) => Some(i.unwrap_or(0).saturating_add(o.unwrap_or(0)) as f64),
    }
}

/// The agent's own seconds of a trial: its agent phase less the time the gateway waited
/// for the model (what the agent time limit counts).
pub fn own_seconds(r: &TrialRecord) -> f64 {
    (r.outcome.agent_s - r.outcome.model_s.unwrap_or(0.0)).max(0.0)
}

impl RunSummary {
    pub fn compute(run: &Run) -> RunSummary {
        Self::compute_with(run, stats::bootstrap::RESAMPLES)
    }

    /// [`RunSummary::compute`] with the number of bootstrap resamples behind the cost per
    /// solved task's interval (0 leaves that figure out: the gate's simulations, which do
    /// not show it).
    pub fn compute_with(run: &Run, resamples: usize) -> RunSummary {
        let m = run.tasks.len();
        let rates: Vec<f64> = run.tasks.iter().filter_map(|t| t.pass_rate()).collect();
        let pass_rate = (!rates.is_empty()).then(|| rates.iter().sum::<f64>() / rates.len() as f64);
        let pass_rate_ci = pass_rate.and_then(|p| stats::wilson(p * m as f64, m as f64, Z95));
        let scored_rates: Vec<f64> = run
            .tasks
            .iter()
            .filter_map(|t| t.scored_pass_rate())
            .collect();
        let scored_tasks = scored_rates.len();
        let scored_pass_rate = (!scored_rates.is_empty())
            .then(|| scored_rates.iter().sum::<f64>() / scored_rates.len() as f64);
        let max_n = run.tasks.iter().map(|t| t.trials()).max().unwrap_or(0);

        // Flakiness is about the agent's verdicts: scored trials only.
        let scored_counts: Vec<(u32, u32)> =
            run.tasks.iter().map(|t| (t.scored, t.passed)).collect();
        // Every other figure counts every trial (an error did not pass).
        let counts: Vec<(u32, u32)> = run.tasks.iter().map(|t| (t.trials(), t.passed)).collect();

        let infra = infra_summary(run);
        let (usage, safety) = usage_and_safety(run);
        let scored: Vec<&TrialRecord> = run
            .records
            .iter()
            .filter(|r| r.outcome.status != TrialStatus::Error)
            .collect();

        RunSummary {
            v: SUMMARY_VERSION,
            run_id: run.run_id(),
            agent: run.agent(),
            model: run.model(),
            tasks: m,
            scored_tasks,
            trials: run.records.len(),
            scored_trials: scored.len(),
            passed_trials: scored
                .iter()
                .filter(|r| r.outcome.status == TrialStatus::Passed)
                .count(),
            max_trials_per_task: max_n,
            pass_rate,
            pass_rate_ci,
            scored_pass_rate,
            pass_at_k: k_metrics(run, max_n, stats::pass_at_k),
            pass_hat_k: k_metrics(run, max_n, stats::pass_hat_k),
            categories: category_summaries(run),
            flip_rate: stats::flip_rate(&scored_counts),
            flaky_tasks: flaky_tasks(run),
            compaction: crate::compaction::compaction_rows(run),
            quarantined: run.quarantined.clone(),
            mde: crate::mde::Mde::for_run(&counts),
            error_rate: (!run.records.is_empty())
                .then(|| infra.error_trials as f64 / run.records.len() as f64),
            zero_token_trials: run.records.iter().filter(|r| is_zero_token(r)).count(),
            infra,
            cost_per_solved: cost_per_solved(run, resamples),
            usage,
            distributions: distributions(run, &scored),
            safety,
            judges: crate::judge_summary::summarize(run),
        }
    }

    pub fn pass_at(&self, k: u32) -> Option<f64> {
        self.pass_at_k
            .iter()
            .find(|m| m.k == k)
            .and_then(|m| m.value)
    }

    pub fn pass_hat(&self, k: u32) -> Option<f64> {
        self.pass_hat_k
            .iter()
            .find(|m| m.k == k)
            .and_then(|m| m.value)
    }
}

/// `f` (pass@k or pass^k) averaged over the tasks it is defined for, for every k from 1 to
/// `max_n`.
fn k_metrics(run: &Run, max_n: u32, f: fn(u32, u32, u32) -> Option<f64>) -> Vec<KMetric> {
    (1..=max_n)
        .map(|k| {
            let vals: Vec<f64> = run
                .tasks
                .iter()
                .filter_map(|t| f(t.trials(), t.passed, k))
                .collect();
            KMetric {
                k,
                value: (!vals.is_empty()).then(|| vals.iter().sum::<f64>() / vals.len() as f64),
                tasks: vals.len(),
            }
        })
        .collect()
}

/// Pass rate and its interval per category, in category order.
fn category_summaries(run: &Run) -> Vec<CategorySummary> {
    let mut by_cat: BTreeMap<&str, Vec<&crate::run::TaskTrials>> = BTreeMap::new();
    for t in &run.tasks {
        by_cat.entry(t.category.as_str()).or_default().push(t);
    }
    by_cat
        .into_iter()
        .map(|(cat, ts)| {
            let r: Vec<f64> = ts.iter().filter_map(|t| t.pass_rate()).collect();
            let p = (!r.is_empty()).then(|| r.iter().sum::<f64>() / r.len() as f64);
            CategorySummary {
                category: cat.to_owned(),
                tasks: ts.len(),
                scored_tasks: ts.iter().filter(|t| t.scored > 0).count(),
                pass_rate: p,
                ci: p.and_then(|p| stats::wilson(p * r.len() as f64, r.len() as f64, Z95)),
            }
        })
        .collect()
}

/// Model usage and safety counts summed over every trial, errors included.
fn usage_and_safety(run: &Run) -> (UsageTotals, SafetySummary) {
    let mut usage = UsageTotals::default();
    let mut safety = SafetySummary::default();
    // Saturating: token counts are what an upstream reported, absurd ones included.
    for r in &run.records {
        usage.llm_calls = usage
            .llm_calls
            .saturating_add(r.usage.llm_calls.unwrap_or(0));
        usage.input_tokens = usage
            .input_tokens
            .saturating_add(r.usage.input_tokens.unwrap_or(0));
        usage.output_tokens = usage
            .output_tokens
            .saturating_add(r.usage.output_tokens.unwrap_or(0));
        usage.cached_tokens = usage
            .cached_tokens
            .saturating_add(r.usage.cached_tokens.unwrap_or(0));
        usage.cache_write_tokens = usage
            .cache_write_tokens
            .saturating_add(r.usage.cache_write_tokens.unwrap_or(0));
        if let Some(c) = r.usage.cost_usd {
            let total = usage.cost_usd.get_or_insert(0.0);
            *total = (*total + c).min(f64::MAX);
            usage.cost_known_trials += 1;
        }
        safety.violations += r.behaviour.violations.len();
        safety.trials_with_violations += usize::from(!r.behaviour.violations.is_empty());
        safety.policy_blocks += r.behaviour.policy_blocks.unwrap_or(0);
    }
    usage.total_tokens = usage.input_tokens.saturating_add(usage.output_tokens);
    (usage, safety)
}

/// The per-trial distributions: over the `scored` trials, but cost over every trial.
fn distributions(run: &Run, scored: &[&TrialRecord]) -> Distributions {
    let collect = |f: &dyn Fn(&TrialRecord) -> Option<f64>| {
        scored.iter().filter_map(|r| f(r)).collect::<Vec<_>>()
    };
    Distributions {
        tokens: Dist::of(&collect(&trial_tokens)),
        steps: Dist::of(&collect(&|r| r.behaviour.steps.map(|s| s as f64))),
        tool_failure_rate: Dist::of(&collect(&|r| r.behaviour.tool_failure_rate)),
        agent_s: Dist::of(&collect(&|r| Some(r.outcome.agent_s))),
        model_s: Dist::of(&collect(&|r| r.outcome.model_s)),
        own_s: Dist::of(&collect(&|r| r.outcome.model_s.map(|_| own_seconds(r)))),
        // Every trial with a cost: an error's calls were paid for too.
        cost_usd: Dist::of(
            &run.records
                .iter()
                .filter_map(|r| r.usage.cost_usd)
                .collect::<Vec<_>>(),
        ),
    }
}

/// Error trials, their causes and the tasks they touch.
fn infra_summary(run: &Run) -> InfraSummary {
    let mut infra = InfraSummary::default();
    let mut msgs: BTreeMap<String, usize> = BTreeMap::new();
    let mut kinds: BTreeMap<String, usize> = BTreeMap::new();
    for r in &run.records {
        if r.outcome.attempts > 1 {
            infra.retried_trials += 1;
        }
        if r.outcome.status == TrialStatus::Error {
            infra.error_trials += 1;
            let msg = r
                .outcome
                .error
                .as_deref()
                .unwrap_or("infrastructure error (no message)");
            let first: String = msg.lines().next().unwrap_or("").chars().take(200).collect();
            *msgs.entry(first).or_default() += 1;
            let kind = r
                .outcome
                .error_kind
                .and_then(|k| serde_json::to_value(k).ok())
                .and_then(|v| v.as_str().map(str::to_owned))
                .unwrap_or_else(|| "unknown".to_owned());
            *kinds.entry(kind).or_default() += 1;
        }
    }
    let sorted = |m: BTreeMap<String, usize>| {
        let mut v: Vec<ErrorCount> = m
            .into_iter()
            .map(|(message, count)| ErrorCount { message, count })
            .collect();
        v.sort_by(|a, b| b.count.cmp(&a.count).then(a.message.cmp(&b.message)));
        v
    };
    infra.messages = sorted(msgs);
    infra.kinds = sorted(kinds);
    infra.tasks_without_verdict = run
        .tasks
        .iter()
        .filter(|t| t.scored == 0)
        .map(|t| t.task_id.clone())
        .collect();
    infra.tasks_with_errors = run
        .tasks
        .iter()
        .filter(|t| t.errors > 0)
        .map(|t| t.task_id.clone())
        .collect();
    infra
}

/// Cost per solved task: every trial's cost (errors included) over the trials that
/// passed, with a bootstrap over tasks. Absent unless every trial has a cost (a partial
/// sum would understate it).
pub fn cost_per_solved(run: &Run, resamples: usize) -> Option<stats::ratio::Ratio> {
    if run.records.is_empty()
        || run.records.iter().any(|r| r.usage.cost_usd.is_none())
        || resamples == 0
    {
        return None;
    }
    let pairs: Vec<(f64, f64)> = run
        .tasks
        .iter()
        .map(|t| {
            let cost: f64 = t
                .trial_indexes
                .iter()
                .filter_map(|&i| run.records[i].usage.cost_usd)
                .sum();
            (cost, f64::from(t.passed))
        })
        .collect();
    stats::ratio::ratio_bootstrap(&pairs, resamples, 0.95, stats::bootstrap::DEFAULT_SEED)
}

fn flaky_tasks(run: &Run) -> Vec<FlakyTask> {
    let mut v: Vec<FlakyTask> = run
        .tasks
        .iter()
        .filter_map(|t| {
            let f = stats::task_flip_rate(t.scored, t.passed)?;
            (f > 0.0).then(|| FlakyTask {
                task_id: t.task_id.clone(),
                passed: t.passed,
                scored: t.scored,
                flip_rate: f,
            })
        })
        .collect();
    v.sort_by(|a, b| {
        b.flip_rate
            .total_cmp(&a.flip_rate)
            .then(a.task_id.cmp(&b.task_id))
    });
    v
}

#[cfg(test)]
mod tests {
    use super::*;
    use nab_protocol::RunMeta;
    use std::path::Path;

    fn run(trials: &[(&str, char, Option<f64>)]) -> Run {
        let recs = trials
            .iter()
            .enumerate()
            .map(|(i, (task, s, cost))| {
                let mut r = TrialRecord::new("r", task, "c", i as u32, "a");
                r.outcome.status = match s {
                    'P' => TrialStatus::Passed,
                    'F' => TrialStatus::Failed,
                    _ => TrialStatus::Error,
                };
                r.usage.cost_usd = *cost;
                r
            })
            .collect();
        Run::from_records(Path::new("r"), RunMeta::default(), recs, false)
    }

    #[test]
    fn relabelling_failures_as_errors_never_lifts_the_headline() {
        let honest = run(&[
            ("a", 'P', None),
            ("a", 'F', None),
            ("b", 'F', None),
            ("b", 'P', None),
        ]);
        let gamed = run(&[
            ("a", 'P', None),
            ("a", 'E', None),
            ("b", 'E', None),
            ("b", 'P', None),
        ]);
        let (h, g) = (RunSummary::compute(&honest), RunSummary::compute(&gamed));
        assert_eq!(h.pass_rate, Some(0.5));
        assert_eq!(g.pass_rate, Some(0.5), "an error counts as not passed");
        // The rate over scored trials rises, and is shown beside, never ranked.
        assert_eq!(g.scored_pass_rate, Some(1.0));
        assert_eq!(g.error_rate, Some(0.5));
        assert_eq!(g.infra.tasks_with_errors, ["a", "b"]);
        // pass@1 is the headline; pass@2 counts the error as a trial that did not pass.
        assert_eq!(g.pass_at(1), Some(0.5));
        assert_eq!(g.pass_at(2), Some(1.0));
        assert_eq!(g.pass_hat(2), Some(0.0));
        // A task with only errors counts as 0, never drops out.
        let all_err = run(&[("a", 'P', None), ("b", 'E', None)]);
        let s = RunSummary::compute(&all_err);
        assert_eq!((s.pass_rate, s.tasks, s.scored_tasks), (Some(0.5), 2, 1));
        assert_eq!(s.infra.tasks_without_verdict, ["b"]);
    }

    #[test]
    fn the_agents_own_time_and_the_model_time_are_both_summarised() {
        let mut r = run(&[("a", 'P', None), ("b", 'F', None)]);
        r.records[0].outcome.agent_s = 100.0;
        r.records[0].outcome.model_s = Some(70.0);
        r.records[1].outcome.agent_s = 50.0;
        r.records[1].outcome.model_s = Some(10.0);
        let s = RunSummary::compute(&r);
        let d = &s.distributions;
        assert_eq!(
            (d.agent_s.max, d.model_s.max, d.own_s.max),
            (Some(100.0), Some(70.0), Some(40.0))
        );
        assert_eq!(d.own_s.mean, Some(35.0));
    }

    #[test]
    fn cost_per_solved_counts_every_trials_cost_and_needs_them_all() {
        // 0.1 + 0.3 (an error, paid for) + 0.2 over 2 passes = 0.3.
        let r = run(&[
            ("a", 'P', Some(0.1)),
            ("a", 'E', Some(0.3)),
            ("b", 'P', Some(0.2)),
        ]);
        let s = RunSummary::compute(&r);
        let c = s.cost_per_solved.unwrap();
        assert!((c.value.unwrap() - 0.3).abs() < 1e-12, "{c:?}");
        assert!(c.low.unwrap() <= 0.3 + 1e-12 && c.high.unwrap() >= 0.3 - 1e-12);
        assert_eq!(
            s.distributions.cost_usd.n, 3,
            "the error's cost is in the distribution"
        );
        let partial = run(&[("a", 'P', Some(0.1)), ("b", 'P', None)]);
        assert!(RunSummary::compute(&partial).cost_per_solved.is_none());
    }
}
