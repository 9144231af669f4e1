//! Paired bootstrap over tasks, seeded.

use super::Interval;
use super::quantile::quantile;
use super::seeded::Seeded;
use serde::{Deserialize, Serialize};

/// The default number of bootstrap resamples.
pub const RESAMPLES: usize = 10_000;
/// The default seed, so that two invocations on the same runs print the same interval.
pub const DEFAULT_SEED: u64 = 0x6e61_625f_626f_6f74; // "nab_boot"

#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Bootstrap {
    pub mean: f64,
    pub interval: Interval,
    pub resamples: usize,
    pub seed: u64,
}

/// Percentile bootstrap of the mean per-task difference. The pair (baseline, candidate) of
/// a task is resampled as a unit, so the within-task correlation is kept:
///
/// ```text
/// for b in 1..=B:  d̄*_b = (1/m) Σ_{j=1}^{m} d_{I_bj},   I_bj ~ Uniform{1..m} ([`Seeded`])
/// interval = [ Q_{(1−level)/2}(d̄*),  Q_{(1+level)/2}(d̄*) ]
/// ```
///
/// The draws depend on the seed alone (ChaCha8 and our own index), so the same seed gives the
/// same interval on every platform and every rand release. A secondary figure: over 28
/// tasks the percentile interval is narrower than the t-interval, which the gate uses.
/// `None` for an empty input or zero resamples.
pub fn paired_bootstrap(
    diffs: &[f64],
    resamples: usize,
    level: f64,
    seed: u64,
) -> Option<Bootstrap> {
    let m = diffs.len();
    if m == 0 || resamples == 0 {
        return None;
    }
    let mut rng = Seeded::new(seed);
    let mut means = Vec::with_capacity(resamples);
    for _ in 0..resamples {
        let mut sum = 0.0;
        for _ in 0..m {
            sum += diffs[rng.index(m)];
        }
        means.push(sum / m as f64);
    }
    Some(Bootstrap {
        mean: diffs.iter().sum::<f64>() / m as f64,
        interval: Interval {
            low: quantile(&means, (1.0 - level) / 2.0)?,
            high: quantile(&means, (1.0 + level) / 2.0)?,
        },
        resamples,
        seed,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn diffs() -> Vec<f64> {
        (0..28)
            .map(|i| [(0.0), (-0.2), (0.4), (-1.0), (0.2), (0.0), (0.6)][i % 7])
            .collect()
    }

    #[test]
    fn the_same_seed_gives_the_same_interval_and_another_seed_differs() {
        let a = paired_bootstrap(&diffs(), RESAMPLES, 0.95, 42).unwrap();
        let b = paired_bootstrap(&diffs(), RESAMPLES, 0.95, 42).unwrap();
        let c = paired_bootstrap(&diffs(), RESAMPLES, 0.95, 43).unwrap();
        assert_eq!(a, b);
        assert_ne!(a.interval, c.interval);
        // The interval brackets the observed mean and lies within the data's range.
        assert!(a.interval.low < a.mean && a.mean < a.interval.high, "{a:?}");
        assert!(a.interval.low >= -1.0 && a.interval.high <= 0.6);
    }

    #[test]
    fn a_known_interval_is_pinned() {
        let a = paired_bootstrap(&diffs(), RESAMPLES, 0.95, DEFAULT_SEED).unwrap();
        // Fixed by the seed and this crate alone (ChaCha8 + Seeded::index): if this moves,
        // every published interval moves with it.
        assert!((a.interval.low - -5.0 / 28.0).abs() < 1e-12, "{a:?}");
        assert!(
            (a.interval.high - 0.171_428_571_428_571_5).abs() < 1e-12,
            "{a:?}"
        );
    }

    #[test]
    fn constant_differences_give_a_degenerate_interval() {
        let r = paired_bootstrap(&[0.25; 10], 1000, 0.95, 1).unwrap();
        assert_eq!(r.interval.low, 0.25);
        assert_eq!(r.interval.high, 0.25);
        assert!(paired_bootstrap(&[], 1000, 0.95, 1).is_none());
    }
}
