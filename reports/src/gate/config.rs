//! gate.yaml: which rules the gate applies and their thresholds.

use crate::error::{ReportError, Result};
use serde::{Deserialize, Serialize};
use std::path::Path;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SignificanceTest {
    /// The paired bootstrap interval over tasks lies entirely below 0.
    Bootstrap,
    /// The paired t-interval (clustered by task) lies entirely below 0.
    T,
    /// Exact McNemar on task verdicts: more tasks lost than gained, p < alpha.
    Mcnemar,
}

/// Defaults: every rule on; a drop beyond 5 points, or tokens/steps beyond 1.5× fail.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct GateConfig {
    /// Significance level of the paired test.
    pub alpha: f64,
    pub significance_test: SignificanceTest,
    pub bootstrap_resamples: usize,
    pub seed: u64,
    /// Largest allowed drop of the paired pass rate, as a fraction (0.05 = 5 points);
    /// `null` disables the rule.
    pub max_pass_rate_drop: Option<f64>,
    /// Fail when a task passed every baseline trial and fails every candidate trial.
    pub fail_on_lost_tasks: bool,
    /// Violations (from the trial records) that fail the gate: exact strings, or prefixes
    /// ending in `*`; `"*"` matches every violation, `[]` disables the rule.
    pub fatal_violations: Vec<String>,
    /// Largest allowed candidate/baseline ratio of mean tokens per trial; `null` disables.
    pub max_token_ratio: Option<f64>,
    pub max_step_ratio: Option<f64>,
}

impl Default for GateConfig {
    fn default() -> Self {
        GateConfig {
            alpha: 0.05,
            significance_test: SignificanceTest::Bootstrap,
            bootstrap_resamples: crate::stats::bootstrap::RESAMPLES,
            seed: crate::stats::bootstrap::DEFAULT_SEED,
            max_pass_rate_drop: Some(0.05),
            fail_on_lost_tasks: true,
            fatal_violations: vec!["*".into()],
            max_token_ratio: Some(1.5),
            max_step_ratio: Some(1.5),
        }
    }
}

impl GateConfig {
    pub fn from_yaml(text: &str, path: &Path) -> Result<GateConfig> {
        let err = |message: String| ReportError::GateConfig {
            path: path.to_owned(),
            message,
        };
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
        for (name, r) in [
            ("max_token_ratio", c.max_token_ratio),
            ("max_step_ratio", c.max_step_ratio),
        ] {
            if let Some(r) = r
                && r <= 0.0
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
    }
}
