//! Minimum detectable effect: what a benchmark of this size can and cannot show.

use super::dist::{normal_quantile, t_quantile};

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

/// Planning MDE for the pass rate of a run of m tasks against another run of the same size
/// with unpaired verdicts (the pessimistic case), at pass rate p:
///
/// ```text
/// MDE = (z_{1−α/2} + z_{power}) · √( 2·p(1−p) / m )
/// ```
///
/// When p is 0 or 1 the observed variance is 0, which would claim a perfect instrument, so
/// the worst case p(1−p) = ¼ is used instead. `None` when m = 0.
pub fn mde_one_sample(p: f64, m: usize, alpha: f64, power: f64) -> Option<f64> {
    if m == 0 {
        return None;
    }
    let mut var = p * (1.0 - p);
    if var <= 0.0 {
        var = 0.25;
    }
    let z = normal_quantile(1.0 - alpha / 2.0) + normal_quantile(power);
    Some(z * (2.0 * var / m as f64).sqrt())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matches_hand_computed_values_for_28_tasks() {
        // (1.959964 + 0.841621)·√(2·0.25/28) = 0.374377572358 (mpmath, 30 digits)
        assert!((mde_one_sample(0.5, 28, 0.05, 0.8).unwrap() - 0.374_377_572_358).abs() < 1e-9);
        assert_eq!(
            mde_one_sample(1.0, 28, 0.05, 0.8),
            mde_one_sample(0.5, 28, 0.05, 0.8)
        );
        // (t(.975,27) = 2.051830516 + t(.8,27) = 0.855137231)·0.3/√28 = 0.164809579892
        // (mpmath, 30 digits)
        assert!((mde_paired(0.3, 28, 0.05, 0.8).unwrap() - 0.164_809_579_892).abs() < 1e-9);
        assert!(mde_paired(0.3, 1, 0.05, 0.8).is_none());
    }
}
