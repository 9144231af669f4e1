//! The CI gate: is the candidate worse than the baseline? Each rule gives a verdict and one
//! line saying why; the gate fails when any enabled rule fails.
//!
//! Every rule that compares pass rates weighs the evidence: an exact paired test over tasks
//! (the sign-flip test), or an exact test per task with a correction for the number of
//! tasks; without enough data a rule says so and is skipped. Every trial counts: one that
//! ended in `error` counts as not passed, so a candidate that errors where the baseline
//! passed has regressed, and erroring can never hide a regression. The error-rate rules
//! say, besides, when the infrastructure itself got worse. Token, step and cost growth are
//! tested with intervals over tasks, not point ratios.
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

/// What the gate concludes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum GateVerdict {
    /// No rule failed, and some rule that compares pass rates ran.
    Passed,
    /// A rule failed.
    Failed,
    /// No rule failed, but no rule that compares pass rates could run (too few tasks or
    /// trials, or all of them off): a drop from 100% to 0% would have passed unseen.
    Inconclusive,
}

/// The rules that can see a drop in the pass rate; at least one must run for a pass.
pub const PASS_RATE_RULES: &[&str] = &[pass_rate::SIG_ID, pass_rate::ABS_ID, task_regression::ID];

impl GateOutcome {
    /// No rule failed (an inconclusive gate has not failed either; see [`Self::verdict`]).
    pub fn passed(&self) -> bool {
        self.rules.iter().all(|r| r.outcome != RuleOutcome::Fail)
    }

    /// Passed, failed, or inconclusive when no pass-rate rule could run.
    pub fn verdict(&self) -> GateVerdict {
        if !self.passed() {
            return GateVerdict::Failed;
        }
        let judged = self
            .rules
            .iter()
            .any(|r| PASS_RATE_RULES.contains(&r.id) && r.outcome == RuleOutcome::Pass);
        if judged {
            GateVerdict::Passed
        } else {
            GateVerdict::Inconclusive
        }
    }

    pub fn failing(&self) -> impl Iterator<Item = &RuleResult> {
        self.rules.iter().filter(|r| r.outcome == RuleOutcome::Fail)
    }
}

/// When the candidate missed the cassette and the `replay_miss` rule fails the gate, the
/// pass-rate and error rules stand aside: those trials are a stale recording, not the
/// agent's work, and one failing rule that says "re-record" is clearer than four.
pub(super) fn stale_cassette(
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

pub(crate) fn pts(v: f64) -> String {
    format!("{:+.1} pts", v * 100.0)
}

fn pct(v: Option<f64>) -> String {
    v.map(|v| format!("{:.1}%", v * 100.0))
        .unwrap_or_else(|| "—".into())
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
            "infrastructure errors (counted as not passed): baseline {} trial(s), candidate {} trial(s); pass rate over scored trials: baseline {}, candidate {}",
            bi.error_trials,
            ci.error_trials,
            pct(cmp.baseline.scored_pass_rate),
            pct(cmp.candidate.scored_pass_rate)
        ));
    }
    if !ci.kinds.is_empty() {
        notes.push(format!(
            "candidate errors by kind: {}",
            ci.kinds
                .iter()
                .map(|k| format!("{} ×{}", k.message, k.count))
                .collect::<Vec<_>>()
                .join(", ")
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
            "left out of the paired statistics (in one run only): {}",
            p.excluded.join(", ")
        ));
    }
    if !ci.tasks_without_verdict.is_empty() {
        notes.push(format!(
            "candidate tasks with only error trials (counted as 0% passed): {}",
            ci.tasks_without_verdict.join(", ")
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
