//! The CI gate: is the candidate worse than the baseline? Each rule gives a verdict and one
//! line saying why; the gate fails when any enabled rule fails.
//!
//! Infrastructure errors never fail the gate: trials that ended in `error` have no verdict,
//! tasks without a verdict on one side are left out of the paired statistics, and both are
//! reported as notes.

pub mod config;
pub mod junit;
pub mod markdown;

pub use config::{GateConfig, SignificanceTest};

use crate::compare::Comparison;
use crate::stats;
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

fn pts(v: f64) -> String {
    format!("{:+.1} pts", v * 100.0)
}

/// Applies every rule of `config` to a comparison.
pub fn evaluate(cmp: Comparison, config: &GateConfig) -> GateOutcome {
    let mut rules = Vec::new();
    let p = &cmp.paired;
    let diffs: Vec<f64> = cmp.tasks.iter().filter_map(|t| t.delta).collect();
    let level = 1.0 - config.alpha;

    // 1. A significant drop by the paired test.
    let (sig, sig_detail) = match config.significance_test {
        SignificanceTest::Bootstrap => {
            match stats::paired_bootstrap(&diffs, config.bootstrap_resamples, level, config.seed) {
                Some(b) => (
                    Some(b.interval.high < 0.0),
                    format!(
                        "mean {} , {:.0}% bootstrap interval [{:+.1}, {:+.1}] pts over {} tasks",
                        pts(b.mean),
                        level * 100.0,
                        b.interval.low * 100.0,
                        b.interval.high * 100.0,
                        diffs.len()
                    ),
                ),
                None => (None, "no task has a verdict in both runs".into()),
            }
        }
        SignificanceTest::T => match stats::paired_t_interval(&diffs, level) {
            Some(t) => (
                Some(t.interval.high < 0.0),
                format!(
                    "mean {} , {:.0}% t-interval [{:+.1}, {:+.1}] pts over {} tasks",
                    pts(t.mean),
                    level * 100.0,
                    t.interval.low * 100.0,
                    t.interval.high * 100.0,
                    t.n
                ),
            ),
            None => (
                None,
                "fewer than two tasks with a verdict in both runs".into(),
            ),
        },
        SignificanceTest::Mcnemar => {
            let m = &p.mcnemar;
            (
                Some(m.b > m.c && m.p_value < config.alpha),
                format!(
                    "exact McNemar: {} tasks lost, {} gained, p = {:.4} (α = {})",
                    m.b, m.c, m.p_value, config.alpha
                ),
            )
        }
    };
    rules.push(RuleResult {
        id: "pass_rate_significant_drop",
        title: "Pass rate did not drop significantly",
        outcome: match sig {
            Some(true) => RuleOutcome::Fail,
            Some(false) => RuleOutcome::Pass,
            None => RuleOutcome::Skipped,
        },
        detail: if sig == Some(true) {
            format!("the pass rate dropped significantly: {sig_detail}, entirely below 0")
        } else {
            sig_detail
        },
        tasks: Vec::new(),
    });

    // 2. An absolute drop beyond the configured amount.
    rules.push(match (config.max_pass_rate_drop, p.mean_diff) {
        (Some(max), Some(d)) => RuleResult {
            id: "pass_rate_absolute_drop",
            title: "Pass rate dropped no more than allowed",
            outcome: if -d > max + 1e-12 {
                RuleOutcome::Fail
            } else {
                RuleOutcome::Pass
            },
            detail: format!(
                "paired pass rate changed by {} (limit −{:.1} pts)",
                pts(d),
                max * 100.0
            ),
            tasks: Vec::new(),
        },
        (max, _) => RuleResult {
            id: "pass_rate_absolute_drop",
            title: "Pass rate dropped no more than allowed",
            outcome: RuleOutcome::Skipped,
            detail: if max.is_none() {
                "disabled (max_pass_rate_drop: null)".into()
            } else {
                "no task has a verdict in both runs".into()
            },
            tasks: Vec::new(),
        },
    });

    // 3. Tasks that always passed and now always fail.
    let lost: Vec<String> = cmp
        .tasks
        .iter()
        .filter(|t| {
            let b = t
                .baseline
                .as_ref()
                .is_some_and(|s| s.scored > 0 && s.passed == s.scored);
            let c = t
                .candidate
                .as_ref()
                .is_some_and(|s| s.scored > 0 && s.passed == 0);
            b && c
        })
        .map(|t| t.task_id.clone())
        .collect();
    rules.push(RuleResult {
        id: "always_passing_now_failing",
        title: "No always-passing task now always fails",
        outcome: if !config.fail_on_lost_tasks {
            RuleOutcome::Skipped
        } else if lost.is_empty() {
            RuleOutcome::Pass
        } else {
            RuleOutcome::Fail
        },
        detail: if lost.is_empty() {
            "no task went from passing every trial to failing every trial".into()
        } else {
            format!(
                "{} task(s) passed every baseline trial and fail every candidate trial: {}",
                lost.len(),
                lost.join(", ")
            )
        },
        tasks: lost,
    });

    // 4. Sandbox or policy violations the config marks fatal.
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
    let mut fatal_tasks: Vec<String> = fatal.iter().map(|(t, _)| t.clone()).collect();
    fatal_tasks.dedup();
    rules.push(RuleResult {
        id: "fatal_violations",
        title: "No fatal sandbox or policy violation",
        outcome: if config.fatal_violations.is_empty() {
            RuleOutcome::Skipped
        } else if fatal.is_empty() {
            RuleOutcome::Pass
        } else {
            RuleOutcome::Fail
        },
        detail: match fatal.first() {
            None if config.fatal_violations.is_empty() => "disabled (fatal_violations: [])".into(),
            None => "the candidate has no violation marked fatal".into(),
            Some((task, v)) => format!(
                "{} fatal violation(s) in {} task(s); first: {task}: {v}",
                fatal.len(),
                fatal_tasks.len()
            ),
        },
        tasks: fatal_tasks,
    });

    // 5 and 6. Token and step growth.
    for (id, title, limit, ratio, what) in [
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
    ] {
        rules.push(match (limit, ratio) {
            (Some(max), Some(r)) => RuleResult {
                id,
                title,
                outcome: if r > max {
                    RuleOutcome::Fail
                } else {
                    RuleOutcome::Pass
                },
                detail: format!("{what}: candidate/baseline = {r:.2}× (limit {max:.2}×)"),
                tasks: Vec::new(),
            },
            (None, _) => RuleResult {
                id,
                title,
                outcome: RuleOutcome::Skipped,
                detail: "disabled in the config".into(),
                tasks: Vec::new(),
            },
            (Some(_), None) => RuleResult {
                id,
                title,
                outcome: RuleOutcome::Skipped,
                detail: format!("{what} not recorded in both runs"),
                tasks: Vec::new(),
            },
        });
    }

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
    if !p.excluded.is_empty() {
        notes.push(format!(
            "left out of the paired statistics (no verdict in one run): {}",
            p.excluded.join(", ")
        ));
    }
    if let Some(mde) = p.mde {
        notes.push(format!(
            "with {} paired tasks the smallest drop this gate can reliably detect is about {:.1} pts",
            p.tasks,
            mde * 100.0
        ));
    }
    GateOutcome {
        rules,
        notes,
        comparison: cmp,
    }
}
