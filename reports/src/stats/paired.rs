//! Paired per-task differences with a t-interval clustered by task.

use super::Interval;
use super::dist::{t_cdf, t_quantile};
use serde::{Deserialize, Serialize};

/// The paired t summary of per-task differences.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct PairedT {
    /// Number of tasks (pairs).
    pub n: usize,
    pub mean: f64,
    /// Sample standard deviation of the differences (n − 1 in the denominator).
    pub sd: f64,
    pub se: f64,
    pub interval: Interval,
}

/// A `level` (e.g. 0.95) t-interval for the mean of per-task differences
/// dₜ = p_candidate,t − p_baseline,t. Each task is one observation, so trials are
/// clustered within their task:
///
/// ```text
/// d̄ = Σ dₜ / m      s = √( Σ (dₜ − d̄)² / (m − 1) )
/// d̄ ± t_{(1+level)/2, m−1} · s/√m
/// ```
///
/// `None` with fewer than two tasks.
pub fn paired_t_interval(diffs: &[f64], level: f64) -> Option<PairedT> {
    let m = diffs.len();
    if m < 2 {
        return None;
    }
    let mean = diffs.iter().sum::<f64>() / m as f64;
    let var = diffs.iter().map(|d| (d - mean).powi(2)).sum::<f64>() / (m - 1) as f64;
    let sd = var.sqrt();
    let se = sd / (m as f64).sqrt();
    let t = t_quantile((1.0 + level) / 2.0, (m - 1) as f64)?;
    Some(PairedT {
        n: m,
        mean,
        sd,
        se,
        interval: Interval {
            low: mean - t * se,
            high: mean + t * se,
        },
    })
}

/// The two-sided p-value of the paired t-test of H₀: mean difference 0, the test whose
/// interval [`paired_t_interval`] is (p < 1 − level exactly when that interval excludes 0):
///
/// ```text
/// t = d̄ / (s/√m)      p = 2 · (1 − F_t(|t|; m − 1))
/// ```
///
/// Differences that are all equal (s = 0) give p = 1 when they are 0 and p = 0 otherwise
/// (the interval is the single point d̄). `None` with fewer than two tasks.
pub fn paired_t_p_value(diffs: &[f64]) -> Option<f64> {
    let r = paired_t_interval(diffs, 0.95)?;
    if r.se <= 1e-12 * r.mean.abs().max(1.0) {
        return Some(if r.mean.abs() <= 1e-12 { 1.0 } else { 0.0 });
    }
    let t = (r.mean / r.se).abs();
    Some((2.0 * (1.0 - t_cdf(t, (r.n - 1) as f64)?)).clamp(0.0, 1.0))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matches_a_hand_computed_interval() {
        // d = [0.2, −0.2, 0.4, 0, 0.6]: mean 0.2, Σ(d−d̄)² = 0+0.16+0.04+0.04+0.16 = 0.4,
        // s = √0.1, se = √0.02, t(0.975,4) = 2.776445105 → 0.2 ± 0.392648632296 (mpmath)
        let r = paired_t_interval(&[0.2, -0.2, 0.4, 0.0, 0.6], 0.95).unwrap();
        assert!((r.mean - 0.2).abs() < 1e-12);
        assert!(
            (r.interval.low - (0.2 - 0.392_648_632_296)).abs() < 1e-9,
            "{r:?}"
        );
        assert!(
            (r.interval.high - (0.2 + 0.392_648_632_296)).abs() < 1e-9,
            "{r:?}"
        );
        assert!(paired_t_interval(&[0.1], 0.95).is_none());
    }

    #[test]
    fn the_p_value_matches_the_closed_form_for_two_degrees_of_freedom() {
        // d = [1, 0, 0.5]: d̄ = 0.5, s = 0.5, se = 0.5/√3, t = √3, df 2.
        // F(t; 2) = ½ + t/(2√(2 + t²)) → p = 2(1 − F) = 1 − √3/√5 = 1 − √0.6.
        let p = paired_t_p_value(&[1.0, 0.0, 0.5]).unwrap();
        assert!((p - (1.0 - 0.6f64.sqrt())).abs() < 1e-12, "{p}");
        // The same p whichever way round the pair is taken.
        assert!((paired_t_p_value(&[-1.0, 0.0, -0.5]).unwrap() - p).abs() < 1e-12);
        // The interval of the earlier test excludes 0 exactly when p < 0.05.
        let d = [0.2, -0.2, 0.4, 0.0, 0.6];
        assert!(paired_t_p_value(&d).unwrap() > 0.05);
        assert!(paired_t_interval(&d, 0.95).unwrap().interval.low < 0.0);
        assert_eq!(paired_t_p_value(&[0.0; 5]), Some(1.0));
        assert_eq!(paired_t_p_value(&[0.5; 5]), Some(0.0));
        assert_eq!(paired_t_p_value(&[0.5]), None);
    }
}
