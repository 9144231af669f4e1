//! Minimum detectable effect: what a benchmark of this size can and cannot show.

use super::dist::t_quantile;

/// Paired MDE on m tasks with per-task differences of standard deviation `sd`, for a
/// two-sided test at `alpha` with the given `power`:
///
/// ```text
/// MDE = (t_{1−α/2, m−1} + t_{power, m−1}) · sd / √m
/// ```
///
/// `None` with fewer than two tasks.
pub fn mde_paired(sd: f64, m: usize, alpha: f64, power: f64) -> Option<f64> {
    if m < 2 {
        return None;
    }
    let df = (m - 1) as f64;
    Some((t_quantile(1.0 - alpha / 2.0, df)? + t_quantile(power, df)?) * sd / (m as f64).sqrt())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matches_hand_computed_values_for_28_tasks() {
        // (t(.975,27) = 2.051830516 + t(.8,27) = 0.855137231)·0.3/√28 = 0.164809579892
        // (mpmath, 30 digits)
        assert!((mde_paired(0.3, 28, 0.05, 0.8).unwrap() - 0.164_809_579_892).abs() < 1e-9);
        assert!(mde_paired(0.3, 1, 0.05, 0.8).is_none());
    }
}
