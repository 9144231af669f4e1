//! One-sided Fisher exact test for a single task: did its pass rate drop?

/// ln C(n, k) by summing logs (trial counts are small, so this is exact to rounding).
fn ln_choose(n: u32, k: u32) -> f64 {
    if k > n {
        return f64::NEG_INFINITY;
    }
    let k = k.min(n - k);
    (0..k)
        .map(|i| (f64::from(n - i)).ln() - (f64::from(i + 1)).ln())
        .sum()
}

/// The one-sided test of one task's trials. Conditional on the total passes s = c_b + c_c,
/// the candidate's passes X follow the hypergeometric distribution: N = n_b + n_c trials,
/// s of them passes, n_c drawn for the candidate. The evidence that the candidate is worse is
///
/// ```text
/// p = P(X ≤ c_c) = Σ_{x=x₀}^{c_c} C(s, x)·C(N−s, n_c−x) / C(N, n_c),   x₀ = max(0, s − n_b)
/// ```
///
/// and `p_min` = P(X = x₀) is the smallest p these margins can give (used by Tarone's
/// correction: a task whose p_min is above the threshold cannot be significant, so it does
/// not count as a test). `None` when either side has no scored trial.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct FisherDrop {
    pub p: f64,
    pub p_min: f64,
}

/// See [`FisherDrop`]: baseline `c_b` of `n_b` passed, candidate `c_c` of `n_c`.
pub fn fisher_drop(n_b: u32, c_b: u32, n_c: u32, c_c: u32) -> Option<FisherDrop> {
    if n_b == 0 || n_c == 0 || c_b > n_b || c_c > n_c {
        return None;
    }
    let n = n_b + n_c;
    let s = c_b + c_c;
    let denom = ln_choose(n, n_c);
    let pmf = |x: u32| (ln_choose(s, x) + ln_choose(n - s, n_c - x) - denom).exp();
    let x0 = s.saturating_sub(n_b);
    let p: f64 = (x0..=c_c).map(pmf).sum();
    Some(FisherDrop {
        p: p.min(1.0),
        p_min: pmf(x0).min(1.0),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matches_hand_computed_hypergeometric_tails() {
        // 5/5 → 0/5: only one table this extreme: 1/C(10,5) = 1/252.
        let r = fisher_drop(5, 5, 5, 0).unwrap();
        assert!((r.p - 1.0 / 252.0).abs() < 1e-12, "{r:?}");
        assert!((r.p_min - 1.0 / 252.0).abs() < 1e-12);
        // 3/3 → 0/3: 1/C(6,3) = 1/20.
        assert!((fisher_drop(3, 3, 3, 0).unwrap().p - 0.05).abs() < 1e-12);
        // 1/1 → 0/1: 1/2.
        assert!((fisher_drop(1, 1, 1, 0).unwrap().p - 0.5).abs() < 1e-12);
        // 4/5 → 1/5: s = 5, x ∈ {0, 1}: (C(5,0)C(5,5) + C(5,1)C(5,4))/252 = 26/252;
        // p_min = 1/252.
        let r = fisher_drop(5, 4, 5, 1).unwrap();
        assert!((r.p - 26.0 / 252.0).abs() < 1e-12, "{r:?}");
        assert!((r.p_min - 1.0 / 252.0).abs() < 1e-12);
        // No drop at all: the candidate's count is the largest possible, p = 1.
        assert!((fisher_drop(5, 5, 5, 5).unwrap().p - 1.0).abs() < 1e-12);
        // Unequal sides, 8/8 → 0/4: 1/C(12,4) = 1/495.
        assert!((fisher_drop(8, 8, 4, 0).unwrap().p - 1.0 / 495.0).abs() < 1e-12);
        assert_eq!(fisher_drop(0, 0, 5, 0), None);
    }
}
