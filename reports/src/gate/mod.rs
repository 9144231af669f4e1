//! The CI gate: is the candidate worse than the baseline? Each rule gives a verdict and one
//! line saying why; the gate fails when any enabled rule fails.
//!
//! Every rule that compares pass rates weighs the evidence: a paired interval over tasks, or
//! an exact test per task with a correction for the number of tasks; without enough data a
//! rule says so and is skipped. Trials that ended in `error` have no verdict and are left out
//! of the pass rates, but an agent cannot hide a regression by abstaining: the error-rate
//! rules fail a candidate whose error rate rose significantly or passed a limit.
//!
//! A replayed trial that found no recording has its own rule, `replay_miss` ([`replay`]):
//! the agent's requests changed and the cassette must be recorded again.

pub mod config;
mod errors;
pub mod junit;
mod limits;
pub mod markdown;
mod pass_rate;
pub mod replay;
mod task_regression;

pub use config::{GateConfig, SignificanceTest};

use crate::compare::Comparison;
use serde::Serialize;

#[derive(Debug, Clone, Serialize)]
pub struct RuleResult {
    /// Stable identifier, e.g. `always_passing_now_failing`.
    pub id: &'static str,
    pub title: &'static str,
    pub outcome: RuleOutcome,
    /// One line: the numbers behind the verdict.
    pub detail: String,
    /// Tasks this rule names (for the JUnit per-task cases).
    pub tasks: Vec<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum RuleOutcome {
    Pass,
    Fail,
    /// Disabled in the config, or not enough data to judge.
    Skipped,
}

#[derive(Debug, Clone, Serialize)]
pub struct GateOutcome {
    pub rules: Vec<RuleResult>,
    /// Reported, never failing: infrastructure errors, excluded tasks.
    pub notes: Vec<String>,
    pub comparison: Comparison,
}

impl GateOutcome {
    pub fn passed(&self) -> bool {
        self.rules.iter().all(|r| r.outcome != RuleOutcome::Fail)
    }

    pub fn failing(&self) -> impl Iterator<Item = &RuleResult> {
        self.rules.iter().filter(|r| r.outcome == RuleOutcome::Fail)
    }
}

pub(crate) fn pts(v: f64) -> String {
    format!("{:+.1} pts", v * 100.0)
}

impl RuleResult {
    fn new(
        id: &'static str,
        title: &'static str,
        outcome: RuleOutcome,
        detail: String,
        tasks: Vec<String>,
    ) -> RuleResult {
        RuleResult {
            id,
            title,
            outcome,
            detail,
            tasks,
        }
    }
}

/// Applies every rule of `config` to a comparison.
pub fn evaluate(cmp: Comparison, config: &GateConfig) -> GateOutcome {
    let mut rules = vec![
        replay::rule(&cmp, config),
        pass_rate::significant_drop(&cmp, config),
        pass_rate::absolute_drop(&cmp, config),
        task_regression::rule(&cmp, config),
        errors::error_rate_increase(&cmp, config),
        errors::error_rate_limit(&cmp, config),
        errors::zero_token_trials(&cmp, config),
        limits::fatal_violations(&cmp, config),
    ];
    rules.extend(limits::growth(&cmp, config));
    GateOutcome {
        rules,
        notes: notes(&cmp),
        comparison: cmp,
    }
}

/// What the gate says besides its rules: infrastructure errors, quarantined and excluded
/// tasks, and the minimum detectable effect.
fn notes(cmp: &Comparison) -> Vec<String> {
    let p = &cmp.paired;
    let mut notes = Vec::new();
    let (bi, ci) = (&cmp.baseline.infra, &cmp.candidate.infra);
    if bi.error_trials > 0 || ci.error_trials > 0 {
        notes.push(format!(
            "infrastructure errors (not counted as failures): baseline {} trial(s), candidate {} trial(s)",
            bi.error_trials, ci.error_trials
        ));
    }
    for m in ci.messages.iter().take(3) {
        notes.push(format!("candidate error ×{}: {}", m.count, m.message));
    }
    if !cmp.candidate.quarantined.is_empty() || !cmp.baseline.quarantined.is_empty() {
        let mut q: Vec<String> = cmp
            .baseline
            .quarantined
            .iter()
            .chain(&cmp.candidate.quarantined)
            .map(|q| format!("{} ({})", q.task_id, q.reason))
            .collect();
        q.sort();
        q.dedup();
        notes.push(format!(
            "quarantined (tasks/quarantine.yaml), kept out of every score and rule: {}",
            q.join(", ")
        ));
    }
    if !p.excluded.is_empty() {
        notes.push(format!(
            "left out of the paired statistics (no verdict in one run): {}",
            p.excluded.join(", ")
        ));
    }
    notes.push(format!(
        "minimum detectable effect {}: {} Each run alone (as in its report.html): baseline {}, candidate {}.",
        p.mde.shown(),
        p.mde.explanation,
        cmp.baseline.mde.shown(),
        cmp.candidate.mde.shown()
    ));
    notes
}
