//! A ratio of sums over tasks with a task-clustered bootstrap interval: cost per solved
//! task (Σ cost / Σ passes), the one figure where the denominator is itself random.

use super::seeded::Seeded;
use serde::{Deserialize, Serialize};

/// Σ num / Σ den over tasks, with a percentile bootstrap over tasks.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Ratio {
    /// Absent when Σ den is 0 (nothing solved: the ratio is unbounded).
    pub value: Option<f64>,
    /// The interval's ends; `high` is absent when more than (1 − level)/2 of the resamples
    /// drew no denominator at all (the data cannot bound it).
    pub low: Option<f64>,
    pub high: Option<f64>,
    pub level: f64,
    pub resamples: usize,
    pub seed: u64,
}

/// The ratio of sums and its `level` percentile interval from `resamples` resamples of
/// the tasks (pairs (num, den) resampled together, [`Seeded`]):
///
/// ```text
/// R = Σₜ numₜ / Σₜ denₜ
/// for b in 1..=B:  R*_b = Σⱼ num_{I_bj} / Σⱼ den_{I_bj}   (+∞ when Σ den = 0)
/// interval = [ Q_{(1−level)/2}(R*), Q_{(1+level)/2}(R*) ]   (type 1: resampled values)
/// ```
///
/// Tasks are the unit: a task's trials share everything but the model's sampling, so they
/// move together. `None` without tasks.
pub fn ratio_bootstrap(
    pairs: &[(f64, f64)],
    resamples: usize,
    level: f64,
    seed: u64,
) -> Option<Ratio> {
    let m = pairs.len();
    if m == 0 {
        return None;
    }
    let (num, den) = pairs
        .iter()
        .fold((0.0, 0.0), |(a, b), (x, y)| (a + x, b + y));
    let value = (den > 0.0).then(|| num / den);
    let mut draws = Vec::with_capacity(resamples);
    let mut rng = Seeded::new(seed);
    for _ in 0..resamples {
        let (mut a, mut b) = (0.0, 0.0);
        for _ in 0..m {
            let (x, y) = pairs[rng.index(m)];
            a += x;
            b += y;
        }
        draws.push(if b > 0.0 { a / b } else { f64::INFINITY });
    }
    draws.sort_by(f64::total_cmp);
    let at = |q: f64| -> Option<f64> {
        if draws.is_empty() {
            return None;
        }
        let i = ((q * draws.len() as f64).ceil() as usize).clamp(1, draws.len()) - 1;
        draws.get(i).copied().filter(|v| v.is_finite())
    };
    Some(Ratio {
        value,
        low: at((1.0 - level) / 2.0),
        high: at((1.0 + level) / 2.0),
        level,
        resamples,
        seed,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_ratio_is_of_sums_and_the_interval_brackets_it() {
        // Costs 1, 2, 3, 4 with 1, 0, 1, 2 passes: 10 / 4 = 2.5.
        let pairs = [(1.0, 1.0), (2.0, 0.0), (3.0, 1.0), (4.0, 2.0)];
        let r = ratio_bootstrap(&pairs, 4000, 0.95, 7).unwrap();
        assert_eq!(r.value, Some(2.5));
        assert!(r.low.unwrap() <= 2.5 && 2.5 <= r.high.unwrap(), "{r:?}");
        // Same seed, same interval.
        assert_eq!(r, ratio_bootstrap(&pairs, 4000, 0.95, 7).unwrap());
    }

    #[test]
    fn nothing_solved_has_no_ratio_and_a_rare_solve_no_upper_end() {
        let r = ratio_bootstrap(&[(1.0, 0.0), (2.0, 0.0)], 100, 0.95, 1).unwrap();
        assert_eq!((r.value, r.low, r.high), (None, None, None));
        // One pass in 20 tasks: a resample misses it (0.95^20 ≈ 36%) far more than 2.5%.
        let mut pairs = vec![(1.0, 0.0); 19];
        pairs.push((1.0, 1.0));
        let r = ratio_bootstrap(&pairs, 2000, 0.95, 3).unwrap();
        assert_eq!(r.value, Some(20.0));
        assert!(r.low.is_some() && r.high.is_none(), "{r:?}");
        assert!(ratio_bootstrap(&[], 10, 0.95, 1).is_none());
    }
}
