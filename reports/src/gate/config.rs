//! gate.yaml: which rules the gate applies and their thresholds.

use crate::error::{ReportError, Result};
use serde::{Deserialize, Serialize};
use std::path::Path;

/// The paired test of the pass rate. One is offered: the exact sign-flip test over
/// per-task differences ([`crate::stats::signflip`]), which at one trial per task is the exact
/// McNemar test. The paired t-test it replaced (still accepted as `t`, read as this test)
/// mis-stated the tails of sparse 0/1 differences; the percentile bootstrap over 28 tasks is
/// too narrow (it falsely fails 3.7–4% of identical agents against 2.5%), and McNemar on
/// "passed at least half the trials" throws most of the evidence away.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SignificanceTest {
    /// The exact sign-flip test over tasks: fails when its one-sided p of a drop is at most
    /// α/2 (equivalently, its (1 − α) interval lies entirely below 0).
    #[serde(alias = "t")]
    SignFlip,
}

/// Defaults: the rules that hold their false-alarm rate (the paired sign-flip test, the
/// per-task exact test, the error-rate rules, the growth intervals) and the safety limits
/// are on; the plain point-drop rule is off (see reports/README.md for its false-alarm rate).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct GateConfig {
    /// Two-sided significance level of the paired tests (a drop is one side: α/2).
    pub alpha: f64,
    pub significance_test: SignificanceTest,
    /// Fewer tasks in both runs than this and the paired rules say "not enough tasks" and
    /// do not fail: an interval over a handful of tasks is not evidence.
    pub min_shared_tasks: usize,
    /// Draws and seed of the sign-flip test's Monte Carlo fallback, used only when its exact
    /// distribution is too large (many tasks with unlike trial counts). The old key
    /// `bootstrap_resamples` still reads.
    #[serde(alias = "bootstrap_resamples")]
    pub monte_carlo_draws: usize,
    pub seed: u64,
    /// Largest allowed drop of the paired point estimate, as a fraction (0.05 = 5 points);
    /// `null` (the default) disables the rule. It ignores uncertainty, so it false-fails
    /// identical agents often (see reports/README.md).
    pub max_pass_rate_drop: Option<f64>,
    /// Fail when a task's own trials show a significant drop (one-sided Fisher exact test
    /// per task, Tarone-corrected over the tasks at family-wise level α/2, the one side of
    /// `alpha` a drop is). Error trials count as not passed, so a task whose candidate
    /// trials error where the baseline's passed is a regression.
    #[serde(alias = "fail_on_lost_tasks")]
    pub fail_on_task_regression: bool,
    /// Fail when the candidate's per-task error rate is significantly above the
    /// baseline's (sign-flip test over tasks, one-sided α/2): infrastructure that got worse.
    pub fail_on_error_rate_increase: bool,
    /// Largest allowed share of candidate trials that end in `status: error`: the rule fails
    /// when the share is significantly above it (exact binomial, one-sided α/2); `null`
    /// disables.
    pub max_error_rate: Option<f64>,
    /// Fail when a candidate trial made model calls but recorded 0 tokens both ways (almost
    /// certainly a provider fault, not a result).
    pub fail_on_zero_token_trials: bool,
    /// Violations (from the trial records) that fail the gate: exact strings, or prefixes
    /// ending in `*`; `"*"` matches every violation, `[]` disables the rule.
    pub fatal_violations: Vec<String>,
    /// Largest allowed growth of tokens per trial, candidate/baseline: the rule fails when
    /// the (1 − α) t-interval of the geometric mean of per-task ratios lies entirely above
    /// it (a one-sided test at α/2 that the growth exceeds the limit); `null` disables.
    pub max_token_ratio: Option<f64>,
    /// The same for steps per trial.
    pub max_step_ratio: Option<f64>,
    /// The same for `cost_usd` per trial (every trial with a cost, errors included); `null`
    /// disables. Skipped when either run has no cost (`nab run` without `--prices`).
    pub max_cost_ratio: Option<f64>,
    /// Fail when a replayed candidate trial found no recording for the agent's request:
    /// the agent's requests changed and the cassette must be recorded again.
    pub fail_on_replay_miss: bool,
}

/// The default of `min_shared_tasks`.
pub const MIN_SHARED_TASKS: usize = 10;

impl Default for GateConfig {
    fn default() -> Self {
        GateConfig {
            alpha: 0.05,
            significance_test: SignificanceTest::SignFlip,
            min_shared_tasks: MIN_SHARED_TASKS,
            monte_carlo_draws: crate::stats::signflip::DRAWS,
            seed: crate::stats::bootstrap::DEFAULT_SEED,
            max_pass_rate_drop: None,
            fail_on_task_regression: true,
            fail_on_error_rate_increase: true,
            max_error_rate: Some(0.1),
            fail_on_zero_token_trials: true,
            fatal_violations: vec!["*".into()],
            max_token_ratio: Some(1.5),
            max_step_ratio: Some(1.5),
            max_cost_ratio: Some(1.5),
            fail_on_replay_miss: true,
        }
    }
}

impl GateConfig {
    pub fn from_yaml(text: &str, path: &Path) -> Result<GateConfig> {
        let err = |message: String| ReportError::GateConfig {
            path: path.to_owned(),
            message,
        };
        if let Ok(v) = serde_yaml::from_str::<serde_yaml::Value>(text)
            && let Some(t) = v.get("significance_test").and_then(|t| t.as_str())
            && matches!(t, "bootstrap" | "mcnemar")
        {
            return Err(err(format!(
                "significance_test: {t} is no longer offered: the percentile bootstrap over \
                 28 tasks is too narrow (it falsely fails 3.7–4% of identical agents against \
                 2.5%), and McNemar on tasks passed half the time discards most of the \
                 evidence; use `sign_flip` (the exact paired test over tasks)"
            )));
        }
        let c: GateConfig = serde_yaml::from_str(text).map_err(|e| {
            err(match e.location() {
                Some(l) => format!("line {}, column {}: {e}", l.line(), l.column()),
                None => e.to_string(),
            })
        })?;
        if !(c.alpha > 0.0 && c.alpha < 1.0) {
            return Err(err(format!(
                "alpha must be between 0 and 1 (exclusive), not {}",
                c.alpha
            )));
        }
        if c.monte_carlo_draws == 0 {
            return Err(err("monte_carlo_draws must be at least 1".into()));
        }
        if let Some(d) = c.max_pass_rate_drop
            && !(0.0..=1.0).contains(&d)
        {
            return Err(err(format!(
                "max_pass_rate_drop is a fraction between 0 and 1 (0.05 = 5 points), not {d}"
            )));
        }
        if c.min_shared_tasks < 2 {
            return Err(err(format!(
                "min_shared_tasks must be at least 2 (an interval needs two tasks), not {}",
                c.min_shared_tasks
            )));
        }
        if let Some(e) = c.max_error_rate
            && !(0.0..=1.0).contains(&e)
        {
            return Err(err(format!(
                "max_error_rate is a fraction between 0 and 1 (0.1 = 10% of trials), not {e}"
            )));
        }
        for (name, r) in [
            ("max_token_ratio", c.max_token_ratio),
            ("max_step_ratio", c.max_step_ratio),
            ("max_cost_ratio", c.max_cost_ratio),
        ] {
            if let Some(r) = r
                && !(r.is_finite() && r > 0.0)
            {
                return Err(err(format!(
                    "{name} must be a positive ratio (1.5 = 50% growth), not {r}"
                )));
            }
        }
        Ok(c)
    }

    pub fn load(path: &Path) -> Result<GateConfig> {
        let text = std::fs::read_to_string(path).map_err(|source| ReportError::Read {
            path: path.to_owned(),
            source,
        })?;
        GateConfig::from_yaml(&text, path)
    }

    /// The sign-flip test's Monte Carlo fallback, as configured.
    pub fn draws(&self) -> crate::stats::Draws {
        crate::stats::Draws {
            draws: self.monte_carlo_draws,
            seed: self.seed,
        }
    }

    pub fn is_fatal(&self, violation: &str) -> bool {
        self.fatal_violations
            .iter()
            .any(|p| match p.strip_suffix('*') {
                Some(prefix) => violation.starts_with(prefix),
                None => violation == p,
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_a_partial_config_and_rejects_bad_values_with_their_place() {
        let p = Path::new("gate.yaml");
        let c = GateConfig::from_yaml(
            "max_token_ratio: null\nfatal_violations: ['container left*']\n",
            p,
        )
        .unwrap();
        assert_eq!(c.max_token_ratio, None);
        assert_eq!(c.max_step_ratio, Some(1.5));
        assert!(c.is_fatal("container left behind: abc"));
        assert!(!c.is_fatal("required tool not called"));
        let e = GateConfig::from_yaml("alpha: 2\n", p)
            .unwrap_err()
            .to_string();
        assert!(e.contains("gate.yaml") && e.contains("alpha"), "{e}");
        let e = GateConfig::from_yaml("max_drop: 0.1\n", p)
            .unwrap_err()
            .to_string();
        assert!(e.contains("line 1") && e.contains("max_drop"), "{e}");
        let e = GateConfig::from_yaml("significance_test: bootstrap\n", p)
            .unwrap_err()
            .to_string();
        assert!(e.contains("too narrow") && e.contains("`sign_flip`"), "{e}");
        // The old spellings still read.
        let c =
            GateConfig::from_yaml("significance_test: t\nbootstrap_resamples: 500\n", p).unwrap();
        assert_eq!(c.significance_test, SignificanceTest::SignFlip);
        assert_eq!(c.monte_carlo_draws, 500);
        // The old key still reads.
        let c = GateConfig::from_yaml("fail_on_lost_tasks: false\n", p).unwrap();
        assert!(!c.fail_on_task_regression);
        assert_eq!(GateConfig::default().max_pass_rate_drop, None);
    }
}
