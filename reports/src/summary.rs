//! The aggregates of one run: what summary.json holds and the report's summary shows.

use crate::run::Run;
use crate::stats::{self, Interval, Z95};
use nab_protocol::{TrialRecord, TrialStatus};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

pub const SUMMARY_VERSION: u32 = 1;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RunSummary {
    pub v: u32,
    pub run_id: Option<String>,
    pub agent: Option<String>,
    pub model: Option<String>,
    /// Tasks with at least one record.
    pub tasks: usize,
    /// Tasks with at least one scored (non-error) trial: the sample size of every interval.
    pub scored_tasks: usize,
    pub trials: usize,
    pub scored_trials: usize,
    pub passed_trials: usize,
    /// The most scored trials any task has (the largest k for pass@k).
    pub max_trials_per_task: u32,
    /// Mean over scored tasks of each task's pass rate (= the pass@1 estimate).
    pub pass_rate: Option<f64>,
    /// Wilson 95% interval with the number of scored tasks as n.
    pub pass_rate_ci: Option<Interval>,
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
    /// The paired MDE against a rerun of the same design (see [`crate::mde`]).
    pub mde: crate::mde::Mde,
    /// Share of trials that ended in an infrastructure error (`status: error`): shown next to
    /// the pass rate, because the pass rate leaves those trials out.
    pub error_rate: Option<f64>,
    /// Trials that made model calls but recorded 0 tokens both ways (see [`is_zero_token`]).
    #[serde(default)]
    pub zero_token_trials: usize,
    pub infra: InfraSummary,
    pub usage: UsageTotals,
    pub distributions: Distributions,
    pub safety: SafetySummary,
    pub judges: Option<JudgeSummary>,
}

/// pass@k or pass^k at one k: the mean over tasks with at least k scored trials.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct KMetric {
    pub k: u32,
    /// Absent when no task has k scored trials.
    pub value: Option<f64>,
    /// How many tasks had at least k scored trials and entered the mean.
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
    pub tasks: usize,
    pub scored_tasks: usize,
    pub pass_rate: Option<f64>,
    pub ci: Option<Interval>,
}

/// Infrastructure errors are kept apart: they are neither passes nor failures.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct InfraSummary {
    pub error_trials: usize,
    /// Tasks where every trial was an infrastructure error (no verdict at all).
    pub tasks_without_verdict: Vec<String>,
    /// Distinct error messages (first line, capped) and how often each occurred.
    pub messages: Vec<ErrorCount>,
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
    pub cached_tokens: u64,
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
    pub agent_s: Dist,
    /// `cost_usd` per scored trial that has one.
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

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct JudgeSummary {
    pub judged_trials: usize,
    /// Mean over trials that no judge vetoed of the trial's score, which is the mean of its
    /// judges' weighted scores (several judges are combined per trial first, so a trial
    /// counts once however many judges read it). Vetoed trials are counted apart.
    pub mean_score: Option<f64>,
    /// Trials that entered `mean_score`.
    #[serde(default)]
    pub scored_trials: usize,
    pub vetoed_trials: usize,
    pub gate_failed_trials: usize,
    pub judge_errors: usize,
}

/// A trial that made model calls but recorded 0 tokens in both directions: almost certainly
/// a provider fault (an empty or failed response counted as a call), not a result.
pub fn is_zero_token(r: &TrialRecord) -> bool {
    r.llm_calls.unwrap_or(0) > 0
        && r.input_tokens.unwrap_or(0) == 0
        && r.output_tokens.unwrap_or(0) == 0
}

/// Per-trial values for the distributions (scored trials only: an infrastructure error
/// says nothing about the agent's cost).
pub fn trial_tokens(r: &TrialRecord) -> Option<f64> {
    match (r.input_tokens, r.output_tokens) {
        (None, None) => None,
        (i, o) => Some(i.unwrap_or(0).saturating_add(o.unwrap_or(0)) as f64),
    }
}

impl RunSummary {
    pub fn compute(run: &Run) -> RunSummary {
        let scored_tasks: Vec<_> = run.tasks.iter().filter(|t| t.scored > 0).collect();
        let rates: Vec<f64> = scored_tasks.iter().filter_map(|t| t.pass_rate()).collect();
        let m = rates.len();
        let pass_rate = (m > 0).then(|| rates.iter().sum::<f64>() / m as f64);
        let pass_rate_ci = pass_rate.and_then(|p| stats::wilson(p * m as f64, m as f64, Z95));
        let max_n = run.tasks.iter().map(|t| t.scored).max().unwrap_or(0);

        let k_metric = |k: u32, f: fn(u32, u32, u32) -> Option<f64>| {
            let vals: Vec<f64> = run
                .tasks
                .iter()
                .filter_map(|t| f(t.scored, t.passed, k))
                .collect();
            KMetric {
                k,
                value: (!vals.is_empty()).then(|| vals.iter().sum::<f64>() / vals.len() as f64),
                tasks: vals.len(),
            }
        };
        let pass_at_k = (1..=max_n).map(|k| k_metric(k, stats::pass_at_k)).collect();
        let pass_hat_k = (1..=max_n)
            .map(|k| k_metric(k, stats::pass_hat_k))
            .collect();

        let mut by_cat: BTreeMap<&str, Vec<&crate::run::TaskTrials>> = BTreeMap::new();
        for t in &run.tasks {
            by_cat.entry(t.category.as_str()).or_default().push(t);
        }
        let categories = by_cat
            .into_iter()
            .map(|(cat, ts)| {
                let r: Vec<f64> = ts.iter().filter_map(|t| t.pass_rate()).collect();
                let p = (!r.is_empty()).then(|| r.iter().sum::<f64>() / r.len() as f64);
                CategorySummary {
                    category: cat.to_owned(),
                    tasks: ts.len(),
                    scored_tasks: r.len(),
                    pass_rate: p,
                    ci: p.and_then(|p| stats::wilson(p * r.len() as f64, r.len() as f64, Z95)),
                }
            })
            .collect();

        let counts: Vec<(u32, u32)> = run.tasks.iter().map(|t| (t.scored, t.passed)).collect();

        let mut infra = InfraSummary::default();
        let mut msgs: BTreeMap<String, usize> = BTreeMap::new();
        for r in &run.records {
            if r.attempts > 1 {
                infra.retried_trials += 1;
            }
            if r.status == TrialStatus::Error {
                infra.error_trials += 1;
                let msg = r
                    .error
                    .as_deref()
                    .unwrap_or("infrastructure error (no message)");
                let first: String = msg.lines().next().unwrap_or("").chars().take(200).collect();
                *msgs.entry(first).or_default() += 1;
            }
        }
        infra.messages = msgs
            .into_iter()
            .map(|(message, count)| ErrorCount { message, count })
            .collect();
        infra
            .messages
            .sort_by(|a, b| b.count.cmp(&a.count).then(a.message.cmp(&b.message)));
        infra.tasks_without_verdict = run
            .tasks
            .iter()
            .filter(|t| t.scored == 0)
            .map(|t| t.task_id.clone())
            .collect();

        let mut usage = UsageTotals::default();
        let mut safety = SafetySummary::default();
        // Saturating: token counts are what an upstream reported, absurd ones included.
        for r in &run.records {
            usage.llm_calls = usage.llm_calls.saturating_add(r.llm_calls.unwrap_or(0));
            usage.input_tokens = usage
                .input_tokens
                .saturating_add(r.input_tokens.unwrap_or(0));
            usage.output_tokens = usage
                .output_tokens
                .saturating_add(r.output_tokens.unwrap_or(0));
            usage.cached_tokens = usage
                .cached_tokens
                .saturating_add(r.cached_tokens.unwrap_or(0));
            if let Some(c) = r.cost_usd {
                let total = usage.cost_usd.get_or_insert(0.0);
                *total = (*total + c).min(f64::MAX);
                usage.cost_known_trials += 1;
            }
            safety.violations += r.violations.len();
            safety.trials_with_violations += usize::from(!r.violations.is_empty());
            safety.policy_blocks += r.policy_blocks.unwrap_or(0);
        }
        usage.total_tokens = usage.input_tokens.saturating_add(usage.output_tokens);

        let scored: Vec<&TrialRecord> = run
            .records
            .iter()
            .filter(|r| r.status != TrialStatus::Error)
            .collect();
        let collect = |f: &dyn Fn(&TrialRecord) -> Option<f64>| {
            scored.iter().filter_map(|r| f(r)).collect::<Vec<_>>()
        };
        let distributions = Distributions {
            tokens: Dist::of(&collect(&trial_tokens)),
            steps: Dist::of(&collect(&|r| r.steps.map(|s| s as f64))),
            tool_failure_rate: Dist::of(&collect(&|r| r.tool_failure_rate)),
            agent_s: Dist::of(&collect(&|r| Some(r.agent_s))),
            cost_usd: Dist::of(&collect(&|r| r.cost_usd)),
        };

        RunSummary {
            v: SUMMARY_VERSION,
            run_id: run.run_id(),
            agent: run.agent(),
            model: run.model(),
            tasks: run.tasks.len(),
            scored_tasks: m,
            trials: run.records.len(),
            scored_trials: scored.len(),
            passed_trials: scored
                .iter()
                .filter(|r| r.status == TrialStatus::Passed)
                .count(),
            max_trials_per_task: max_n,
            pass_rate,
            pass_rate_ci,
            pass_at_k,
            pass_hat_k,
            categories,
            flip_rate: stats::flip_rate(&counts),
            flaky_tasks: flaky_tasks(run),
            quarantined: run.quarantined.clone(),
            mde: crate::mde::Mde::for_run(&counts),
            error_rate: (!run.records.is_empty())
                .then(|| infra.error_trials as f64 / run.records.len() as f64),
            zero_token_trials: run.records.iter().filter(|r| is_zero_token(r)).count(),
            infra,
            usage,
            distributions,
            safety,
            judges: judge_summary(&run.records),
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

fn judge_summary(records: &[TrialRecord]) -> Option<JudgeSummary> {
    let judged: Vec<&TrialRecord> = records.iter().filter(|r| !r.judges.is_empty()).collect();
    if judged.is_empty() {
        return None;
    }
    let scores: Vec<f64> = judged
        .iter()
        .filter(|r| !r.judges.iter().any(|j| j.vetoed))
        .filter_map(|r| {
            let per_judge: Vec<f64> = r.judges.iter().filter_map(|j| j.weighted_score).collect();
            (!per_judge.is_empty()).then(|| per_judge.iter().sum::<f64>() / per_judge.len() as f64)
        })
        .collect();
    Some(JudgeSummary {
        judged_trials: judged.len(),
        mean_score: (!scores.is_empty()).then(|| scores.iter().sum::<f64>() / scores.len() as f64),
        scored_trials: scores.len(),
        vetoed_trials: judged
            .iter()
            .filter(|r| r.judges.iter().any(|j| j.vetoed))
            .count(),
        gate_failed_trials: judged
            .iter()
            .filter(|r| r.judges.iter().any(|j| j.gate_passed == Some(false)))
            .count(),
        judge_errors: judged
            .iter()
            .map(|r| r.judges.iter().filter(|j| j.error.is_some()).count())
            .sum(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use nab_protocol::JudgeRecord;

    fn judge(score: f64, vetoed: bool) -> JudgeRecord {
        serde_json::from_value(serde_json::json!({
            "judge_model": "j", "rubric_id": "r", "rubric_hash": "h", "prompt_hash": "p",
            "weighted_score": score, "vetoed": vetoed
        }))
        .unwrap()
    }

    #[test]
    fn judge_means_combine_judges_per_trial_and_leave_vetoed_trials_out() {
        let mut recs: Vec<TrialRecord> = (0..3)
            .map(|i| TrialRecord::new("r", &format!("t{i}"), "c", 0, "a"))
            .collect();
        // Two judges on one trial count once, at their mean 3; a vetoed trial at full
        // score is left out; one judge at 1.
        recs[0].judges = vec![judge(2.0, false), judge(4.0, false)];
        recs[1].judges = vec![judge(5.0, true)];
        recs[2].judges = vec![judge(1.0, false)];
        let s = judge_summary(&recs).unwrap();
        assert_eq!(s.mean_score, Some(2.0));
        assert_eq!(
            (s.scored_trials, s.vetoed_trials, s.judged_trials),
            (2, 1, 3)
        );
    }
}
