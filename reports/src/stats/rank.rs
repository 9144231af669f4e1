//! Rank intervals by a bootstrap over tasks (the leaderboard's "which ranks can the data
//! support").

use super::seeded::Seeded;
use serde::{Deserialize, Serialize};

/// A row's observed rank and the interval of ranks it takes over the bootstrap resamples.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct RankInterval {
    pub rank: usize,
    pub low: usize,
    pub high: usize,
}

/// Competition ranks ("1224") of `scores`, highest first: a row's rank is 1 + the number of
/// rows with a strictly higher score, so tied rows share the better rank. Scores closer than
/// 1e-12 are tied (a mean over the same tasks computed in another order).
pub fn competition_ranks(scores: &[f64]) -> Vec<usize> {
    scores
        .iter()
        .map(|s| 1 + scores.iter().filter(|o| **o > s + 1e-12).count())
        .collect()
}

/// Rank intervals of R rows over the same m tasks. `rates[r][t]` is row r's pass rate on
/// task t (every row has every task). Each resample draws m tasks with replacement
/// ([`Seeded`]), the same draw for every row, so the comparison stays paired:
///
/// ```text
/// for b in 1..=B:  s*_{r,b} = (1/m) Σ_{j=1}^{m} rates[r][I_bj],   I_bj ~ Uniform{1..m}
///                  rank*_{r,b} = competition rank of s*_{r,b} among s*_{·,b}
/// interval_r = [ Q₁((1−level)/2), Q₁((1+level)/2) ] of rank*_{r,·}
/// ```
///
/// Q₁ is the inverse of the empirical distribution function (Hyndman–Fan type 1: the
/// smallest rank whose cumulative share reaches q), so the ends are ranks that occurred.
/// Two rows whose difference the tasks cannot resolve swap places in many resamples and
/// get overlapping intervals. The draws depend on the seed alone. `None` without rows,
/// tasks or resamples, or when a row's task count differs from the first row's.
pub fn rank_intervals(
    rates: &[Vec<f64>],
    resamples: usize,
    level: f64,
    seed: u64,
) -> Option<Vec<RankInterval>> {
    let rows = rates.len();
    let m = rates.first()?.len();
    if m == 0 || resamples == 0 || rates.iter().any(|r| r.len() != m) {
        return None;
    }
    let observed: Vec<f64> = rates
        .iter()
        .map(|r| r.iter().sum::<f64>() / m as f64)
        .collect();
    let observed = competition_ranks(&observed);
    // counts[r][k] = resamples in which row r took rank k + 1.
    let mut counts = vec![vec![0usize; rows]; rows];
    let mut rng = Seeded::new(seed);
    let mut sums = vec![0.0; rows];
    for _ in 0..resamples {
        sums.iter_mut().for_each(|s| *s = 0.0);
        for _ in 0..m {
            let t = rng.index(m);
            for (s, r) in sums.iter_mut().zip(rates) {
                *s += r[t];
            }
        }
        let means: Vec<f64> = sums.iter().map(|s| s / m as f64).collect();
        for (r, rank) in competition_ranks(&means).into_iter().enumerate() {
            counts[r][rank - 1] += 1;
        }
    }
    let quantile = |c: &[usize], q: f64| {
        let need = (q * resamples as f64).max(1.0);
        let mut seen = 0usize;
        for (k, n) in c.iter().enumerate() {
            seen += n;
            // A small tolerance: 0.975 · 10⁴ is 9750 exactly, not 9750.000…1.
            if seen as f64 >= need - 1e-9 {
                return k + 1;
            }
        }
        c.len()
    };
    Some(
        counts
            .iter()
            .zip(observed)
            .map(|(c, rank)| RankInterval {
                rank,
                low: quantile(c, (1.0 - level) / 2.0),
                high: quantile(c, (1.0 + level) / 2.0),
            })
            .collect(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn competition_ranks_share_the_better_rank_on_ties() {
        assert_eq!(competition_ranks(&[0.5, 0.9, 0.5, 0.1]), [2, 1, 2, 4]);
        assert_eq!(competition_ranks(&[0.3, 0.1 + 0.2]), [1, 1]);
    }

    /// Rows A and B pass 10 of 20 tasks each, on disjoint halves; C passes none. In a
    /// resample, A beats B when it draws more of A's tasks than B's: about half the time,
    /// and a tie (both rank 1) now and then. So A and B each take rank 1 and rank 2 far more
    /// often than 2.5% of the time: both intervals are [1, 2] and overlap. C is last in
    /// every resample that draws any of A's or B's tasks (all but 2⁻²⁰ of them): [3, 3].
    #[test]
    fn indistinguishable_rows_get_overlapping_intervals() {
        let a: Vec<f64> = (0..20).map(|t| f64::from(u8::from(t < 10))).collect();
        let b: Vec<f64> = (0..20).map(|t| f64::from(u8::from(t >= 10))).collect();
        let c = vec![0.0; 20];
        let got = rank_intervals(&[a, b, c], 10_000, 0.95, 7).unwrap();
        assert_eq!(
            got[0],
            RankInterval {
                rank: 1,
                low: 1,
                high: 2
            }
        );
        assert_eq!(
            got[1],
            RankInterval {
                rank: 1,
                low: 1,
                high: 2
            }
        );
        assert_eq!(
            got[2],
            RankInterval {
                rank: 3,
                low: 3,
                high: 3
            }
        );
    }

    /// A row that is better on every task keeps rank 1 in every resample.
    #[test]
    fn a_dominant_row_has_a_point_interval_and_the_seed_fixes_the_draws() {
        let strong = vec![1.0; 12];
        let weak: Vec<f64> = (0..12)
            .map(|t| if t % 3 == 0 { 1.0 } else { 0.0 })
            .collect();
        let mid: Vec<f64> = (0..12)
            .map(|t| if t % 2 == 0 { 1.0 } else { 0.0 })
            .collect();
        let rates = [weak, strong, mid];
        let got = rank_intervals(&rates, 2_000, 0.95, 1).unwrap();
        assert_eq!(
            got[1],
            RankInterval {
                rank: 1,
                low: 1,
                high: 1
            }
        );
        assert_eq!((got[0].rank, got[2].rank), (3, 2));
        assert_eq!(got, rank_intervals(&rates, 2_000, 0.95, 1).unwrap());
        assert!(rank_intervals(&[], 10, 0.95, 1).is_none());
        assert!(rank_intervals(&[vec![1.0], vec![]], 10, 0.95, 1).is_none());
    }
}
