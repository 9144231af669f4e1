//! Paired per-task differences with a t-interval clustered by task.

use super::Interval;
use super::dist::t_quantile;
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
}
