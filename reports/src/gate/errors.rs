//! Rules on trials without a verdict. An error trial already counts as not passed in the
//! pass rate (so erroring cannot hide a regression); these rules say when the
//! infrastructure itself got worse or is too unreliable to trust the run.

use super::stale_cassette;
use super::{GateConfig, RuleOutcome, RuleResult, pts};
use crate::compare::Comparison;
use crate::stats;

const INC_ID: &str = "error_rate_increase";
const INC_TITLE: &str = "Error rate did not rise significantly";

fn pct(v: f64) -> String {
    format!("{:.1}%", v * 100.0)
}

/// Share of a run's trials that ended in an infrastructure error.
fn trial_error_rate(s: &crate::summary::RunSummary) -> Option<f64> {
    (s.trials > 0).then(|| s.infra.error_trials as f64 / s.trials as f64)
}

/// Fails when the sign-flip test of per-task error-rate differences (candidate − baseline,
/// over tasks in both runs) gives a one-sided p of a rise of at most α/2: its (1 − α)
/// interval lies entirely above 0.
pub(super) fn error_rate_increase(cmp: &Comparison, config: &GateConfig) -> RuleResult {
    let skipped = |detail: String| {
        RuleResult::new(INC_ID, INC_TITLE, RuleOutcome::Skipped, detail, Vec::new())
    };
    if !config.fail_on_error_rate_increase {
        return skipped("off (fail_on_error_rate_increase: false)".into());
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
        return skipped(format!(
            "not enough tasks: {} in both runs, the paired test needs at least {} (min_shared_tasks)",
            diffs.len(),
            config.min_shared_tasks
        ));
    }
    let level = 1.0 - config.alpha;
    let Some(t) = stats::sign_flip(
        &diffs,
        level,
        crate::compare::PASS_RATE_RANGE,
        config.draws(),
    ) else {
        return skipped("no task in both runs".into());
    };
    let rates = error_rate_text(cmp, &t, level);
    if t.p_upper <= config.alpha / 2.0 + 1e-12 {
        RuleResult::new(
            INC_ID,
            INC_TITLE,
            RuleOutcome::Fail,
            format!("the candidate's error rate rose significantly: {rates}, entirely above 0"),
            tasks_with_more_errors(cmp),
        )
    } else {
        RuleResult::new(INC_ID, INC_TITLE, RuleOutcome::Pass, rates, Vec::new())
    }
}

/// Both runs' error rates and the test of their per-task difference (`t`, at `level`).
fn error_rate_text(cmp: &Comparison, t: &stats::SignFlip, level: f64) -> String {
    format!(
        "error rate {} → {} of trials; per-task mean {}, {:.0}% interval [{:+.1}, {:+.1}] pts over {} tasks (exact sign-flip test, one-sided p of a rise = {:.4})",
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
        t.n,
        t.p_upper
    )
}

/// The tasks whose candidate trials errored more often than the baseline's.
fn tasks_with_more_errors(cmp: &Comparison) -> Vec<String> {
    cmp.tasks
        .iter()
        .filter(|t| {
            let e = |s: &Option<crate::compare::TaskSide>| {
                s.as_ref().and_then(|s| s.error_rate()).unwrap_or(0.0)
            };
            e(&t.candidate) > e(&t.baseline)
        })
        .map(|t| t.task_id.clone())
        .collect()
}

const LIM_ID: &str = "error_rate_limit";
const LIM_TITLE: &str = "Error rate within the limit";

/// Fails when the candidate's share of error trials is significantly above
/// `max_error_rate`: the exact binomial test of "at most that share", one-sided at α/2.
/// A bare "more than 10%" would fail a healthy run by chance (3 errors of 28 trials at a
/// true 3% happen 5% of the time).
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
    let (k, n) = (
        cmp.candidate.infra.error_trials as u64,
        cmp.candidate.trials as u64,
    );
    let p = stats::binomial::upper_tail(k, n, max);
    let detail = format!(
        "{k} of {n} candidate trials ended in an infrastructure error ({}; limit {}; exact binomial p of a share above the limit = {p:.2e}, α/2 = {})",
        pct(rate),
        pct(max),
        config.alpha / 2.0
    );
    RuleResult::new(
        LIM_ID,
        LIM_TITLE,
        if rate > max + 1e-12 && p <= config.alpha / 2.0 + 1e-12 {
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
