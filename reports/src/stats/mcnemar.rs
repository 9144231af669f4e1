//! Exact McNemar test on discordant tasks.

/// Two-sided exact McNemar p-value. `b` = tasks only the baseline passes, `c` = tasks only
/// the candidate passes. Under H₀ each discordant task is equally likely to go either way,
/// so min(b, c) ~ Binomial(b + c, ½):
///
/// ```text
/// p = min(1, 2 · Σ_{i=0}^{min(b,c)} C(b+c, i) · 2^{−(b+c)})
/// ```
///
/// With no discordant task the test has no evidence either way: p = 1.
pub fn mcnemar_exact(b: u32, c: u32) -> f64 {
    let n = b + c;
    if n == 0 {
        return 1.0;
    }
    let k = b.min(c);
    // Sum in log space so large n cannot underflow 2^{−n}.
    let ln_half_n = -(f64::from(n)) * std::f64::consts::LN_2;
    let mut ln_binom = 0.0; // ln C(n, 0)
    let mut tail = 0.0;
    for i in 0..=k {
        if i > 0 {
            ln_binom += (f64::from(n - i + 1)).ln() - f64::from(i).ln();
        }
        tail += (ln_binom + ln_half_n).exp();
    }
    (2.0 * tail).min(1.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matches_hand_computed_exact_values() {
        // b=0,c=5: 2·(1/32) = 0.0625
        assert!((mcnemar_exact(0, 5) - 0.0625).abs() < 1e-12);
        // b=0,c=6: 2/64 = 0.03125
        assert!((mcnemar_exact(6, 0) - 0.03125).abs() < 1e-12);
        // b=1,c=6: 2·(1+7)/128 = 0.125
        assert!((mcnemar_exact(1, 6) - 0.125).abs() < 1e-12);
        // b=2,c=8: 2·(1+10+45)/1024 = 0.109375
        assert!((mcnemar_exact(2, 8) - 0.109375).abs() < 1e-12);
        // b=2,c=2: 2·(1+4+6)/16 > 1 → 1
        assert_eq!(mcnemar_exact(2, 2), 1.0);
        assert_eq!(mcnemar_exact(0, 0), 1.0);
        assert_eq!(mcnemar_exact(0, 1), 1.0);
    }
}
