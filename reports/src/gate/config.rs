//! gate.yaml: which rules the gate applies and their thresholds.

use crate::error::{ReportError, Result};
use serde::{Deserialize, Serialize};
use std::path::Path;

/// The paired test of the pass rate. Only the t-interval over tasks is offered: over 28 tasks
/// the percentile bootstrap is about 0.94× its width and falsely fails identical agents
/// 3.7–4.0% of the time against a nominal 2.5%, and McNemar on "passed at least half the
/// trials" throws most of the evidence away (both stay in `nab compare` as secondary figures).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SignificanceTest {
    /// The paired t-interval over tasks (clustered by task) lies entirely below 0.
    T,
}

/// Defaults: the rules that hold their false-alarm rate (the paired t-test, the per-task
/// exact test, the error-rate rules) and the cost and safety limits are on; the plain
/// point-drop rule is off (see the README for its false-alarm rate).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct GateConfig {
    /// Two-sided significance level of the paired tests (a drop is one side: α/2).
    pub alpha: f64,
    pub significance_test: SignificanceTest,
    /// Fewer tasks with a verdict in both runs than this and the paired rules say "not
    /// enough tasks" and do not fail: an interval over a handful of tasks is not evidence.
    pub min_shared_tasks: usize,
    /// Resamples and seed of the (secondary) bootstrap interval `nab compare` shows.
    pub bootstrap_resamples: usize,
    pub seed: u64,
    /// Largest allowed drop of the paired point estimate, as a fraction (0.05 = 5 points);
    /// `null` (the default) disables the rule. It ignores uncertainty, so it false-fails
    /// identical agents often (see the README).
    pub max_pass_rate_drop: Option<f64>,
    /// Fail when a task's own trials show a significant drop (one-sided Fisher exact test
    /// per task, Tarone-corrected over the tasks at family-wise level `alpha`).
    #[serde(alias = "fail_on_lost_tasks")]
    pub fail_on_task_regression: bool,
    /// Fail when the candidate's per-task error rate is significantly above the
    /// baseline's (paired t over tasks): an agent must not hide a regression by abstaining.
    pub fail_on_error_rate_increase: bool,
    /// Largest allowed share of candidate trials that end in `status: error`; `null` disables.
    pub max_error_rate: Option<f64>,
    /// Fail when a candidate trial made model calls but recorded 0 tokens both ways (almost
    /// certainly a provider fault, not a result).
    pub fail_on_zero_token_trials: bool,
    /// Violations (from the trial records) that fail the gate: exact strings, or prefixes
    /// ending in `*`; `"*"` matches every violation, `[]` disables the rule.
    pub fatal_violations: Vec<String>,
    /// Largest allowed candidate/baseline ratio of mean tokens per trial; `null` disables.
    pub max_token_ratio: Option<f64>,
    pub max_step_ratio: Option<f64>,
    /// Largest allowed candidate/baseline ratio of mean `cost_usd` per trial (over paired
    /// tasks where both runs have a cost); `null` disables. Skipped when either run has no
    /// cost (`nab run` without `--prices`).
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
            significance_test: SignificanceTest::T,
            min_shared_tasks: MIN_SHARED_TASKS,
            bootstrap_resamples: crate::stats::bootstrap::RESAMPLES,
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
                 evidence; use `t` (the paired t-interval over tasks)"
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
        if c.bootstrap_resamples == 0 {
            return Err(err("bootstrap_resamples must be at least 1".into()));
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
        assert!(e.contains("too narrow") && e.contains("`t`"), "{e}");
        // The old key still reads.
        let c = GateConfig::from_yaml("fail_on_lost_tasks: false\n", p).unwrap();
        assert!(!c.fail_on_task_regression);
        assert_eq!(GateConfig::default().max_pass_rate_drop, None);
    }
}
