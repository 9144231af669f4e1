//! Safety and cost limits: fatal violations, token, step and dollar-cost growth.

use super::{GateConfig, RuleOutcome, RuleResult};
use crate::compare::Comparison;

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

/// Token, step and cost growth: the candidate/baseline ratio of per-trial means over paired
/// tasks.
pub(super) fn growth(cmp: &Comparison, config: &GateConfig) -> Vec<RuleResult> {
    let p = &cmp.paired;
    [
        (
            "token_growth",
            "Tokens grew no more than allowed",
            config.max_token_ratio,
            p.token_ratio,
            "tokens per trial",
        ),
        (
            "step_growth",
            "Steps grew no more than allowed",
            config.max_step_ratio,
            p.step_ratio,
            "steps per trial",
        ),
        (
            "cost_growth",
            "Dollar cost grew no more than allowed",
            config.max_cost_ratio,
            p.cost_ratio,
            "cost per trial (USD)",
        ),
    ]
    .into_iter()
    .map(|(id, title, limit, ratio, what)| match (limit, ratio) {
        (Some(max), Some(r)) => RuleResult::new(
            id,
            title,
            if r > max {
                RuleOutcome::Fail
            } else {
                RuleOutcome::Pass
            },
            format!("{what}: candidate/baseline = {r:.2}× (limit {max:.2}×)"),
            Vec::new(),
        ),
        (None, _) => RuleResult::new(
            id,
            title,
            RuleOutcome::Skipped,
            "disabled in the config".into(),
            Vec::new(),
        ),
        (Some(_), None) => RuleResult::new(
            id,
            title,
            RuleOutcome::Skipped,
            format!("{what} not recorded in both runs"),
            Vec::new(),
        ),
    })
    .collect()
}
