//! Agreement between two raters: percent agreement, Cohen's kappa (nominal labels: vetoes,
//! pairwise winners), quadratic-weighted kappa (ordinal 1–5 scores), and a seeded
//! percentile-bootstrap 95% interval.
//!
//! Kappa is `1 − Σ wᵢⱼ·Oᵢⱼ / Σ wᵢⱼ·Eᵢⱼ` with O the observed joint proportions and E the
//! product of the marginals. It is undefined (None) when the expected disagreement is zero:
//! both raters used one and the same label throughout. When only one rater is constant,
//! O equals E and kappa is exactly 0 (agreement no better than chance).

use crate::seeded::Seeded;
use serde::Serialize;

/// Share of pairs with identical labels; None for no pairs.
pub fn percent_agreement<T: PartialEq>(pairs: &[(T, T)]) -> Option<f64> {
    if pairs.is_empty() {
        return None;
    }
    Some(pairs.iter().filter(|(a, b)| a == b).count() as f64 / pairs.len() as f64)
}

/// Kappa over category indices `0..k` with disagreement weights `w(i, j)`.
fn weighted_kappa(
    pairs: &[(usize, usize)],
    k: usize,
    w: impl Fn(usize, usize) -> f64,
) -> Option<f64> {
    if pairs.is_empty() || k == 0 {
        return None;
    }
    let n = pairs.len() as f64;
    let mut observed = vec![0.0; k * k];
    let mut row = vec![0.0; k];
    let mut col = vec![0.0; k];
    for &(a, b) in pairs {
        observed[a * k + b] += 1.0 / n;
        row[a] += 1.0 / n;
        col[b] += 1.0 / n;
    }
    let (mut disagree_obs, mut disagree_exp) = (0.0, 0.0);
    for i in 0..k {
        for j in 0..k {
            disagree_obs += w(i, j) * observed[i * k + j];
            disagree_exp += w(i, j) * row[i] * col[j];
        }
    }
    if disagree_exp.abs() < 1e-12 {
        return None;
    }
    Some(1.0 - disagree_obs / disagree_exp)
}

/// Cohen's (unweighted) kappa for nominal labels.
pub fn cohen_kappa<T: Ord + Clone>(pairs: &[(T, T)]) -> Option<f64> {
    let mut labels: Vec<T> = pairs
        .iter()
        .flat_map(|(a, b)| [a.clone(), b.clone()])
        .collect();
    labels.sort();
    labels.dedup();
    let idx = |x: &T| labels.binary_search(x).unwrap_or(0);
    let indexed: Vec<(usize, usize)> = pairs.iter().map(|(a, b)| (idx(a), idx(b))).collect();
    weighted_kappa(
        &indexed,
        labels.len(),
        |i, j| if i == j { 0.0 } else { 1.0 },
    )
}

/// Quadratic-weighted kappa for ordinal scores on `min..=max` (weights (i−j)²/(k−1)²).
/// Scores outside the range are clamped to it.
pub fn quadratic_weighted_kappa(pairs: &[(u8, u8)], min: u8, max: u8) -> Option<f64> {
    if max <= min {
        return None;
    }
    let k = usize::from(max - min) + 1;
    let idx = |s: u8| usize::from(s.clamp(min, max) - min);
    let indexed: Vec<(usize, usize)> = pairs.iter().map(|&(a, b)| (idx(a), idx(b))).collect();
    let denom = ((k - 1) * (k - 1)) as f64;
    weighted_kappa(&indexed, k, |i, j| ((i as f64 - j as f64).powi(2)) / denom)
}

/// A percentile bootstrap interval.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Interval {
    pub lo: f64,
    pub hi: f64,
    /// Resamples on which the statistic was defined (degenerate resamples are dropped).
    pub resamples_used: usize,
}

/// 95% percentile-bootstrap interval of `stat` over `items`, resampled `resamples` times
/// with the given seed. None when too few resamples gave a defined value.
pub fn bootstrap_95<T: Clone>(
    items: &[T],
    stat: impl Fn(&[T]) -> Option<f64>,
    resamples: usize,
    seed: u64,
) -> Option<Interval> {
    if items.is_empty() || resamples == 0 {
        return None;
    }
    let mut rng = Seeded::new(seed);
    let mut values = Vec::with_capacity(resamples);
    let mut sample = Vec::with_capacity(items.len());
    for _ in 0..resamples {
        sample.clear();
        sample.extend((0..items.len()).map(|_| items[rng.index(items.len())].clone()));
        if let Some(v) = stat(&sample) {
            values.push(v);
        }
    }
    // Fewer than 40 defined values cannot place a 2.5% tail.
    if values.len() < 40 {
        return None;
    }
    values.sort_by(f64::total_cmp);
    let at =
        |q: f64| values[((q * (values.len() - 1) as f64).round() as usize).min(values.len() - 1)];
    Some(Interval {
        lo: at(0.025),
        hi: at(0.975),
        resamples_used: values.len(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-12
    }

    #[test]
    fn nominal_kappa_matches_the_hand_computed_two_by_two_table() {
        // 20 yes/yes, 5 yes/no, 10 no/yes, 15 no/no (N = 50):
        // p_o = 35/50 = 0.7; rater 1 says yes 25/50, rater 2 30/50;
        // p_e = 0.5·0.6 + 0.5·0.4 = 0.5; κ = (0.7 − 0.5)/(1 − 0.5) = 0.4.
        let mut pairs = Vec::new();
        pairs.extend(std::iter::repeat_n((true, true), 20));
        pairs.extend(std::iter::repeat_n((true, false), 5));
        pairs.extend(std::iter::repeat_n((false, true), 10));
        pairs.extend(std::iter::repeat_n((false, false), 15));
        assert!(close(cohen_kappa(&pairs).unwrap(), 0.4));
        assert!(close(percent_agreement(&pairs).unwrap(), 0.7));
    }

    #[test]
    fn weighted_kappa_matches_the_hand_computed_value() {
        // A = 1,2,3,4,5; B = 1,2,3,4,4. Weights (i−j)²/16.
        // Observed disagreement: one pair (5,4) → (1/16)·(1/5) = 1/80.
        // Expected: Σ_i (1/5)·E_B[(i−B)²] / 16 with E_B for i=1..5 = 23/5, 10/5, 7/5, 14/5, 31/5
        //   → (85/5)·(1/5)/16 = 3.4/16 = 0.2125.  κ_w = 1 − 0.0125/0.2125 = 16/17.
        let pairs = [(1, 1), (2, 2), (3, 3), (4, 4), (5, 4)];
        assert!(close(
            quadratic_weighted_kappa(&pairs, 1, 5).unwrap(),
            16.0 / 17.0
        ));
        // Unweighted on the same data: p_o = 0.8, p_e = 3·0.04 + 0.2·0.4 = 0.2 → 0.75.
        assert!(close(cohen_kappa(&pairs).unwrap(), 0.75));
        // Perfect agreement is 1.
        assert!(close(
            quadratic_weighted_kappa(&[(1, 1), (3, 3), (5, 5)], 1, 5).unwrap(),
            1.0
        ));
    }

    #[test]
    fn degenerate_constant_raters() {
        // One rater always says 3: observed equals expected, κ = 0 exactly (both kinds).
        let one_constant = [(3, 1), (3, 3), (3, 5), (3, 4)];
        assert!(close(
            quadratic_weighted_kappa(&one_constant, 1, 5).unwrap(),
            0.0
        ));
        assert!(close(cohen_kappa(&one_constant).unwrap(), 0.0));
        // Both constant and equal: no expected disagreement, κ undefined (not 1, not NaN).
        let both = [(4, 4), (4, 4), (4, 4)];
        assert_eq!(quadratic_weighted_kappa(&both, 1, 5), None);
        assert_eq!(cohen_kappa(&both), None);
        assert_eq!(percent_agreement(&both), Some(1.0));
        assert_eq!(cohen_kappa::<u8>(&[]), None);
    }

    #[test]
    fn bootstrap_is_seeded_and_brackets_the_estimate() {
        let pairs: Vec<(u8, u8)> = (0..60u8)
            .map(|i| {
                (
                    i % 5 + 1,
                    if i % 7 == 0 {
                        (i + 1) % 5 + 1
                    } else {
                        i % 5 + 1
                    },
                )
            })
            .collect();
        let stat = |s: &[(u8, u8)]| quadratic_weighted_kappa(s, 1, 5);
        let a = bootstrap_95(&pairs, stat, 1000, 7).unwrap();
        let b = bootstrap_95(&pairs, stat, 1000, 7).unwrap();
        let c = bootstrap_95(&pairs, stat, 1000, 8).unwrap();
        assert_eq!(a, b);
        assert_ne!(a, c);
        let k = stat(&pairs).unwrap();
        assert!(a.lo <= k && k <= a.hi && a.lo < a.hi, "{a:?} vs {k}");
        // Constant identical raters: every resample is undefined → no interval.
        assert_eq!(bootstrap_95(&[(2u8, 2u8); 10], stat, 200, 1), None);
    }
}
