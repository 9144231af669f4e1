//! Rules on trials without a verdict. An infrastructure error is neither a pass nor a
//! failure, so it leaves the pass rate alone; an agent that could turn its failures into
//! errors would hide a regression by abstaining. These rules close that door.

use super::{GateConfig, RuleOutcome, RuleResult, pts};
use crate::compare::Comparison;
use crate::stats;

const INC_ID: &str = "error_rate_increase";
const INC_TITLE: &str = "Error rate did not rise significantly";

fn pct(v: f64) -> String {
    format!("{:.1}%", v * 100.0)
}

/// When the candidate missed the cassette and the `replay_miss` rule fails the gate, the
/// error rules stand aside: those trials are a stale recording, not the agent's abstention,
/// and one failing rule that says "re-record" is clearer than three.
fn stale_cassette(
    cmp: &Comparison,
    config: &GateConfig,
    id: &'static str,
    title: &'static str,
) -> Option<RuleResult> {
    let misses: usize = cmp
        .tasks
        .iter()
        .filter_map(|t| t.candidate.as_ref())
        .map(|c| c.replay_misses.len())
        .sum();
    (config.fail_on_replay_miss && misses > 0).then(|| {
        RuleResult::new(
            id,
            title,
            RuleOutcome::Skipped,
            format!(
                "not judged: {misses} trial(s) found no recording, so the replay_miss rule fails the gate until the cassette is re-recorded"
            ),
            Vec::new(),
        )
    })
}

/// Share of a run's trials that ended in an infrastructure error.
fn trial_error_rate(s: &crate::summary::RunSummary) -> Option<f64> {
    (s.trials > 0).then(|| s.infra.error_trials as f64 / s.trials as f64)
}

/// Fails when the paired (1 − α) t-interval of per-task error-rate differences (candidate −
/// baseline, over tasks with trials in both runs) lies entirely above 0.
pub(super) fn error_rate_increase(cmp: &Comparison, config: &GateConfig) -> RuleResult {
    if !config.fail_on_error_rate_increase {
        return RuleResult::new(
            INC_ID,
            INC_TITLE,
            RuleOutcome::Skipped,
            "off (fail_on_error_rate_increase: false)".into(),
            Vec::new(),
        );
    }
    if let Some(skipped) = stale_cassette(cmp, config, INC_ID, INC_TITLE) {
        return skipped;
    }
    let diffs: Vec<f64> = cmp
        .tasks
        .iter()
        .filter_map(|t| {
            let b = t.baseline.as_ref()?.error_rate()?;
            let c = t.candidate.as_ref()?.error_rate()?;
            Some(c - b)
        })
        .collect();
    if diffs.len() < config.min_shared_tasks {
        return RuleResult::new(
            INC_ID,
            INC_TITLE,
            RuleOutcome::Skipped,
            format!(
                "not enough tasks: {} in both runs, the paired test needs at least {} (min_shared_tasks)",
                diffs.len(),
                config.min_shared_tasks
            ),
            Vec::new(),
        );
    }
    let level = 1.0 - config.alpha;
    let Some(t) = stats::paired_t_interval(&diffs, level) else {
        return RuleResult::new(
            INC_ID,
            INC_TITLE,
            RuleOutcome::Skipped,
            "fewer than two tasks in both runs".into(),
            Vec::new(),
        );
    };
    let rates = format!(
        "error rate {} → {} of trials; per-task mean {}, {:.0}% paired t-interval [{:+.1}, {:+.1}] pts over {} tasks",
        trial_error_rate(&cmp.baseline)
            .map(pct)
            .unwrap_or("—".into()),
        trial_error_rate(&cmp.candidate)
            .map(pct)
            .unwrap_or("—".into()),
        pts(t.mean),
        level * 100.0,
        t.interval.low * 100.0,
        t.interval.high * 100.0,
        t.n
    );
    if t.interval.low > 0.0 {
        let tasks = cmp
            .tasks
            .iter()
            .filter(|t| {
                let e = |s: &Option<crate::compare::TaskSide>| {
                    s.as_ref().and_then(|s| s.error_rate()).unwrap_or(0.0)
                };
                e(&t.candidate) > e(&t.baseline)
            })
            .map(|t| t.task_id.clone())
            .collect();
        RuleResult::new(
            INC_ID,
            INC_TITLE,
            RuleOutcome::Fail,
            format!("the candidate's error rate rose significantly: {rates}, entirely above 0"),
            tasks,
        )
    } else {
        RuleResult::new(INC_ID, INC_TITLE, RuleOutcome::Pass, rates, Vec::new())
    }
}

const LIM_ID: &str = "error_rate_limit";
const LIM_TITLE: &str = "Error rate within the limit";

/// Fails when the candidate's share of error trials is above `max_error_rate`.
pub(super) fn error_rate_limit(cmp: &Comparison, config: &GateConfig) -> RuleResult {
    if let Some(skipped) = stale_cassette(cmp, config, LIM_ID, LIM_TITLE) {
        return skipped;
    }
    let (Some(max), Some(rate)) = (config.max_error_rate, trial_error_rate(&cmp.candidate)) else {
        return RuleResult::new(
            LIM_ID,
            LIM_TITLE,
            RuleOutcome::Skipped,
            if config.max_error_rate.is_none() {
                "off (max_error_rate: null)".into()
            } else {
                "the candidate has no trials".into()
            },
            Vec::new(),
        );
    };
    let detail = format!(
        "{} of {} candidate trials ended in an infrastructure error ({}; limit {})",
        cmp.candidate.infra.error_trials,
        cmp.candidate.trials,
        pct(rate),
        pct(max)
    );
    RuleResult::new(
        LIM_ID,
        LIM_TITLE,
        if rate > max + 1e-12 {
            RuleOutcome::Fail
        } else {
            RuleOutcome::Pass
        },
        detail,
        Vec::new(),
    )
}

const ZERO_ID: &str = "zero_token_trials";
const ZERO_TITLE: &str = "No trial made model calls with 0 tokens";

/// Fails when a candidate trial has `llm_calls > 0` and 0 tokens in both directions.
pub(super) fn zero_token_trials(cmp: &Comparison, config: &GateConfig) -> RuleResult {
    let tasks: Vec<(String, u32)> = cmp
        .tasks
        .iter()
        .filter_map(|t| {
            let n = t.candidate.as_ref()?.zero_token_trials;
            (n > 0).then(|| (t.task_id.clone(), n))
        })
        .collect();
    let total: u32 = tasks.iter().map(|(_, n)| n).sum();
    let outcome = if !config.fail_on_zero_token_trials {
        RuleOutcome::Skipped
    } else if tasks.is_empty() {
        RuleOutcome::Pass
    } else {
        RuleOutcome::Fail
    };
    let detail = if tasks.is_empty() {
        "every candidate trial that called the model recorded tokens".into()
    } else {
        format!(
            "{total} candidate trial(s) made model calls but recorded 0 tokens both ways (a provider fault, not a result): {}",
            tasks
                .iter()
                .map(|(t, n)| format!("{t} ×{n}"))
                .collect::<Vec<_>>()
                .join(", ")
        )
    };
    RuleResult::new(
        ZERO_ID,
        ZERO_TITLE,
        outcome,
        if config.fail_on_zero_token_trials {
            detail
        } else {
            format!("off (fail_on_zero_token_trials: false); {detail}")
        },
        tasks.into_iter().map(|(t, _)| t).collect(),
    )
}
