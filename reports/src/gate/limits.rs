//! Safety and cost limits: fatal violations, token, step and dollar-cost growth.

use super::{GateConfig, RuleOutcome, RuleResult};
use crate::compare::{Comparison, TaskSide};
use crate::stats;

/// Fails when a candidate trial has a violation the config marks fatal.
pub(super) fn fatal_violations(cmp: &Comparison, config: &GateConfig) -> RuleResult {
    let mut fatal: Vec<(String, String)> = Vec::new();
    for t in &cmp.tasks {
        if let Some(c) = &t.candidate {
            for v in &c.violations {
                if config.is_fatal(v) {
                    fatal.push((t.task_id.clone(), v.clone()));
                }
            }
        }
    }
    let mut tasks: Vec<String> = fatal.iter().map(|(t, _)| t.clone()).collect();
    tasks.dedup();
    RuleResult::new(
        "fatal_violations",
        "No fatal sandbox or policy violation",
        if config.fatal_violations.is_empty() {
            RuleOutcome::Skipped
        } else if fatal.is_empty() {
            RuleOutcome::Pass
        } else {
            RuleOutcome::Fail
        },
        match fatal.first() {
            None if config.fatal_violations.is_empty() => "disabled (fatal_violations: [])".into(),
            None => "the candidate has no violation marked fatal".into(),
            Some((task, v)) => format!(
                "{} fatal violation(s) in {} task(s); first: {task}: {v}",
                fatal.len(),
                tasks.len()
            ),
        },
        tasks,
    )
}

/// Token, step and cost growth: the (1 − α) t-interval over tasks of the geometric-mean
/// ratio candidate/baseline of per-task means ([`crate::stats::growth`]). A rule fails when
/// the whole interval lies above its limit: the growth exceeds the limit at one-sided α/2.
/// A point ratio would fail identical agents whenever noise pushes it over the limit (with
/// a live model's token noise, about a fifth of the time).
pub(super) fn growth(cmp: &Comparison, config: &GateConfig) -> Vec<RuleResult> {
    let level = 1.0 - config.alpha;
    let per_task = |f: fn(&TaskSide) -> Option<f64>| -> Vec<(f64, f64)> {
        cmp.tasks
            .iter()
            .filter_map(|t| Some((f(t.baseline.as_ref()?)?, f(t.candidate.as_ref()?)?)))
            .collect()
    };
    // (id, title, limit, per-task (baseline, candidate) means, what is measured)
    type Growth<'a> = (&'a str, &'a str, Option<f64>, Vec<(f64, f64)>, &'a str);
    let rules: [Growth<'static>; 3] = [
        (
            "token_growth",
            "Tokens grew no more than allowed",
            config.max_token_ratio,
            per_task(|s| s.mean_tokens),
            "tokens per trial",
        ),
        (
            "step_growth",
            "Steps grew no more than allowed",
            config.max_step_ratio,
            per_task(|s| s.mean_steps),
            "steps per trial",
        ),
        (
            "cost_growth",
            "Dollar cost grew no more than allowed",
            config.max_cost_ratio,
            per_task(|s| s.mean_cost_usd),
            "cost per trial (USD)",
        ),
    ];
    rules
        .into_iter()
        .map(|(id, title, limit, pairs, what)| {
            let Some(max) = limit else {
                return RuleResult::new(
                    id,
                    title,
                    RuleOutcome::Skipped,
                    "disabled in the config".into(),
                    Vec::new(),
                );
            };
            let g = stats::growth::growth(&pairs, level);
            match g.and_then(|g| Some((g, g.interval?))) {
                None => RuleResult::new(
                    id,
                    title,
                    RuleOutcome::Skipped,
                    match g {
                        None => format!("{what} not recorded in both runs"),
                        Some(_) => format!("{what}: fewer than two tasks have it in both runs"),
                    },
                    Vec::new(),
                ),
                Some((g, i)) => RuleResult::new(
                    id,
                    title,
                    if i.low > max {
                        RuleOutcome::Fail
                    } else {
                        RuleOutcome::Pass
                    },
                    format!(
                        "{what}: candidate/baseline = {}; fails when the interval lies entirely above the limit {max:.2}×",
                        crate::compare::growth_text(&g)
                    ),
                    Vec::new(),
                ),
            }
        })
        .collect()
}
