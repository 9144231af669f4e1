//! pass@k (Chen et al. 2021) and pass^k (τ-bench) for one task.

/// Unbiased pass@k for one task with `n` trials of which `c` passed: the probability that
/// at least one of k trials drawn without replacement passes.
///
/// ```text
/// pass@k = 1 − C(n−c, k) / C(n, k)
///        = 1 − ∏_{i=n−c+1}^{n} (1 − k/i)        (stable form, no large binomials)
/// ```
///
/// It is 1 when n − c < k (every draw of k must contain a pass). `None` when n < k: the
/// estimator is undefined, and reporting 0 would be a lie.
pub fn pass_at_k(n: u32, c: u32, k: u32) -> Option<f64> {
    if k == 0 || n < k || c > n {
        return None;
    }
    if n - c < k {
        return Some(1.0);
    }
    let mut miss = 1.0;
    for i in (n - c + 1)..=n {
        miss *= 1.0 - f64::from(k) / f64::from(i);
    }
    Some(1.0 - miss)
}

/// pass^k as defined in τ-bench: the probability that k trials drawn without replacement
/// *all* pass.
///
/// ```text
/// pass^k = C(c, k) / C(n, k) = ∏_{i=0}^{k−1} (c − i)/(n − i)
/// ```
///
/// `None` when n < k (absent, never 0).
pub fn pass_hat_k(n: u32, c: u32, k: u32) -> Option<f64> {
    if k == 0 || n < k || c > n {
        return None;
    }
    if c < k {
        return Some(0.0);
    }
    let mut p = 1.0;
    for i in 0..k {
        p *= f64::from(c - i) / f64::from(n - i);
    }
    Some(p)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// C(n, k) by the direct multiplicative definition, in exact integers.
    fn binom(n: u64, k: u64) -> u64 {
        if k > n {
            return 0;
        }
        (0..k).fold(1u64, |acc, i| acc * (n - i) / (i + 1))
    }

    #[test]
    fn pass_at_k_equals_the_direct_binomial_formula_for_n5() {
        for c in 0..=5u32 {
            for k in 1..=5u32 {
                let direct = 1.0
                    - binom(5 - u64::from(c), u64::from(k)) as f64 / binom(5, u64::from(k)) as f64;
                let got = pass_at_k(5, c, k).unwrap();
                assert!(
                    (got - direct).abs() < 1e-12,
                    "n=5 c={c} k={k}: {got} vs {direct}"
                );
            }
        }
        // A few by hand: c=1,k=1 → 1/5; c=2,k=2 → 1 − C(3,2)/C(5,2) = 1 − 3/10.
        assert!((pass_at_k(5, 1, 1).unwrap() - 0.2).abs() < 1e-12);
        assert!((pass_at_k(5, 2, 2).unwrap() - 0.7).abs() < 1e-12);
    }

    #[test]
    fn pass_hat_k_equals_the_direct_binomial_formula_for_n5() {
        for c in 0..=5u32 {
            for k in 1..=5u32 {
                let direct =
                    binom(u64::from(c), u64::from(k)) as f64 / binom(5, u64::from(k)) as f64;
                let got = pass_hat_k(5, c, k).unwrap();
                assert!(
                    (got - direct).abs() < 1e-12,
                    "n=5 c={c} k={k}: {got} vs {direct}"
                );
            }
        }
        // c=3, k=2 → C(3,2)/C(5,2) = 3/10.
        assert!((pass_hat_k(5, 3, 2).unwrap() - 0.3).abs() < 1e-12);
    }

    #[test]
    fn both_are_absent_not_zero_when_n_is_below_k() {
        assert_eq!(pass_hat_k(3, 3, 5), None);
        assert_eq!(pass_hat_k(4, 0, 5), None);
        assert_eq!(pass_at_k(2, 1, 3), None);
        assert_eq!(pass_hat_k(3, 3, 3), Some(1.0));
    }
}
