//! The exact binomial upper tail (the error-rate limit's test).

/// P(X ≥ k) for X ~ Binomial(n, p), summed in log space so large n cannot underflow:
///
/// ```text
/// P(X ≥ k) = Σ_{x=k}^{n} C(n, x) pˣ (1 − p)^{n−x}
/// ```
///
/// 1 for k = 0; 0 for k > n.
pub fn upper_tail(k: u64, n: u64, p: f64) -> f64 {
    if k == 0 {
        return 1.0;
    }
    if k > n {
        return 0.0;
    }
    if p <= 0.0 {
        return 0.0;
    }
    if p >= 1.0 {
        return 1.0;
    }
    let (lp, lq) = (p.ln(), (1.0 - p).ln());
    // ln C(n, x), built up from ln C(n, k).
    let mut ln_c: f64 = (0..k)
        .map(|i| ((n - i) as f64).ln() - ((i + 1) as f64).ln())
        .sum();
    let mut tail = 0.0;
    for x in k..=n {
        if x > k {
            ln_c += ((n - x + 1) as f64).ln() - (x as f64).ln();
        }
        tail += (ln_c + x as f64 * lp + (n - x) as f64 * lq).exp();
    }
    tail.min(1.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matches_hand_computed_tails() {
        // n = 4, p = ½: P(X ≥ 3) = (4 + 1)/16.
        assert!((upper_tail(3, 4, 0.5) - 5.0 / 16.0).abs() < 1e-15);
        // P(X ≥ 1) = 1 − 0.9²⁸ for n = 28, p = 0.1.
        assert!((upper_tail(1, 28, 0.1) - (1.0 - 0.9f64.powi(28))).abs() < 1e-12);
        assert_eq!(upper_tail(0, 5, 0.3), 1.0);
        assert_eq!(upper_tail(6, 5, 0.3), 0.0);
        // P(X ≥ 28), n = 140, p = 0.1: 2.878627393e-4 (exact sum of the terms in Python).
        let t = upper_tail(28, 140, 0.1);
        assert!((t - 2.878_627_393_411_72e-4).abs() < 1e-15, "{t}");
    }
}
