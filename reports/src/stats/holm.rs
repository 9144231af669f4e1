//! Holm's step-down correction for a family of tests (the leaderboard's pairwise matrix).

/// Holm-adjusted p-values (Holm 1979), in the order given. With the m p-values sorted
/// ascending, p₍₁₎ ≤ … ≤ p₍ₘ₎:
///
/// ```text
/// p̃₍ᵢ₎ = min(1, max_{j ≤ i} (m − j + 1) · p₍ⱼ₎)
/// ```
///
/// Rejecting every test with p̃ ≤ α controls the family-wise error rate at α under any
/// dependence between the tests (the pairs of a leaderboard share rows, so they are
/// dependent), and it rejects everything Bonferroni rejects and sometimes more.
/// NaN p-values are treated as 1 (never significant).
pub fn holm(p: &[f64]) -> Vec<f64> {
    let m = p.len();
    let clean = |x: f64| if x.is_nan() { 1.0 } else { x.clamp(0.0, 1.0) };
    let mut order: Vec<usize> = (0..m).collect();
    order.sort_by(|&a, &b| clean(p[a]).total_cmp(&clean(p[b])).then(a.cmp(&b)));
    let mut adjusted = vec![1.0; m];
    let mut running: f64 = 0.0;
    for (rank, &i) in order.iter().enumerate() {
        running = running.max(((m - rank) as f64 * clean(p[i])).min(1.0));
        adjusted[i] = running;
    }
    adjusted
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: &[f64], b: &[f64]) -> bool {
        a.len() == b.len() && a.iter().zip(b).all(|(x, y)| (x - y).abs() < 1e-12)
    }

    #[test]
    fn matches_hand_computed_adjustments() {
        // Sorted 0.005, 0.01, 0.03, 0.04 × 4, 3, 2, 1 = 0.02, 0.03, 0.06, 0.04;
        // the running maximum makes the last 0.06. At α = 0.05 the first two are rejected,
        // where Bonferroni (× 4: 0.04, 0.02, 0.12, 0.16) would reject the same two and
        // uncorrected testing all four.
        let got = holm(&[0.01, 0.04, 0.03, 0.005]);
        assert!(close(&got, &[0.03, 0.06, 0.06, 0.02]), "{got:?}");
        let rejected: Vec<bool> = got.iter().map(|p| *p <= 0.05).collect();
        assert_eq!(rejected, [true, false, false, true]);
    }

    #[test]
    fn holm_rejects_what_bonferroni_misses() {
        // Three tests: 0.01, 0.02, 0.025. Bonferroni (× 3): 0.03, 0.06, 0.075 → one
        // rejection. Holm: 0.03, 0.04, 0.04 → all three at α = 0.05.
        let got = holm(&[0.025, 0.01, 0.02]);
        assert!(close(&got, &[0.04, 0.03, 0.04]), "{got:?}");
    }

    #[test]
    fn caps_at_one_and_handles_edges() {
        assert!(close(&holm(&[0.6, 0.5]), &[1.0, 1.0]));
        assert!(close(&holm(&[0.2]), &[0.2]));
        assert!(holm(&[]).is_empty());
        assert!(close(&holm(&[f64::NAN, 0.01]), &[1.0, 0.02]));
    }
}
