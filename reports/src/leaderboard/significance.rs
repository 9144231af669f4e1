//! The pairwise significance matrix: every pair of rows compared on the page's common
//! tasks — the same tasks the ranks average, so a cell never contradicts the ranking — with
//! the exact sign-flip test `nab compare` and `nab gate` use, and Holm's correction over the
//! whole matrix so that a leaderboard of many rows does not find "significant" differences
//! by testing many pairs. The simultaneous rank intervals are read off this matrix.

use crate::compare::PASS_RATE_RANGE;
use crate::stats::{self, Draws, Interval, signflip::Method};
use serde::Serialize;

/// The family-wise error rate of the matrix (and the rank intervals read off it).
pub const ALPHA: f64 = 0.05;

/// Row `a` against row `b` (indexes into the ranked rows, a < b).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PairTest {
    pub a: usize,
    pub b: usize,
    /// The common tasks: the sample size.
    pub tasks: usize,
    /// Mean over those tasks of p_a − p_b: exactly the difference of the two rows' pass
    /// rates.
    pub mean_diff: Option<f64>,
    /// 95% interval of p_a − p_b from the sign-flip test (as in compare.html), without
    /// correction; within [−1, +1].
    pub interval: Option<Interval>,
    /// Two-sided p of the exact sign-flip test; absent without tasks.
    pub p_value: Option<f64>,
    /// Holm-adjusted over every tested pair of the matrix.
    pub p_holm: Option<f64>,
    /// p_holm ≤ alpha.
    pub significant: bool,
    /// Exact McNemar on "passed at least half its trials" (a secondary figure, as in
    /// compare.html): tasks only a passes, only b passes, two-sided p.
    pub mcnemar_a_only: u32,
    pub mcnemar_b_only: u32,
    pub mcnemar_p: f64,
    /// How the test's distribution was obtained.
    pub method: Option<Method>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Significance {
    pub alpha: f64,
    /// Pairs tested (the size of the Holm family).
    pub tested: usize,
    pub pairs: Vec<PairTest>,
}

impl Significance {
    /// The test of rows `i` and `j` either way round, with the difference's sign as i − j.
    pub fn between(&self, i: usize, j: usize) -> Option<(f64, &PairTest)> {
        self.pairs.iter().find_map(|p| {
            if (p.a, p.b) == (i, j) {
                Some((1.0, p))
            } else if (p.a, p.b) == (j, i) {
                Some((-1.0, p))
            } else {
                None
            }
        })
    }

    /// Whether row `i` is significantly better than row `j` (after Holm).
    pub fn better(&self, i: usize, j: usize) -> bool {
        self.between(i, j)
            .is_some_and(|(sign, p)| p.significant && p.mean_diff.is_some_and(|d| sign * d > 0.0))
    }
}

fn pair(a_idx: usize, b_idx: usize, a: &[f64], b: &[f64], draws: Draws) -> PairTest {
    let diffs: Vec<f64> = a.iter().zip(b).map(|(x, y)| x - y).collect();
    let (mut a_only, mut b_only) = (0u32, 0u32);
    for (pa, pb) in a.iter().zip(b) {
        match (
            *pa >= crate::compare::TASK_PASS_THRESHOLD,
            *pb >= crate::compare::TASK_PASS_THRESHOLD,
        ) {
            (true, false) => a_only += 1,
            (false, true) => b_only += 1,
            _ => {}
        }
    }
    let t = stats::sign_flip(&diffs, 0.95, PASS_RATE_RANGE, draws);
    PairTest {
        a: a_idx,
        b: b_idx,
        tasks: diffs.len(),
        mean_diff: t.map(|t| t.mean),
        interval: t.map(|t| t.interval),
        p_value: t.map(|t| t.p_two_sided),
        p_holm: None,
        significant: false,
        mcnemar_a_only: a_only,
        mcnemar_b_only: b_only,
        mcnemar_p: stats::mcnemar_exact(a_only, b_only),
        method: t.map(|t| t.method),
    }
}

/// Every pair of rows (`rates[r][t]`: row r's pass rate on common task t, rows in the
/// page's order), Holm-corrected at `alpha`.
pub fn matrix(rates: &[Vec<f64>], alpha: f64, draws: Draws) -> Significance {
    let mut pairs = Vec::new();
    for i in 0..rates.len() {
        for j in i + 1..rates.len() {
            pairs.push(pair(i, j, &rates[i], &rates[j], draws));
        }
    }
    let tested: Vec<usize> = (0..pairs.len())
        .filter(|&i| pairs[i].p_value.is_some())
        .collect();
    let ps: Vec<f64> = tested.iter().filter_map(|&i| pairs[i].p_value).collect();
    for (&i, adj) in tested.iter().zip(stats::holm(&ps)) {
        pairs[i].p_holm = Some(adj);
        pairs[i].significant = adj <= alpha;
    }
    Significance {
        alpha,
        tested: tested.len(),
        pairs,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ones(pass: &[bool]) -> Vec<f64> {
        pass.iter().map(|p| f64::from(u8::from(*p))).collect()
    }

    #[test]
    fn a_clear_difference_survives_holm_and_a_tie_does_not() {
        // Strong passes all 20, weak passes 2 and twin passes another 2: strong − weak has
        // d = 1 on 18 tasks and 0 on 2 (exact p = 2·2⁻¹⁸); weak − twin has d = ±1 on 4
        // tasks, mean 0, p = 1.
        let strong = ones(&[true; 20]);
        let weak = ones(&(0..20).map(|i| i < 2).collect::<Vec<_>>());
        let twin = ones(&(0..20).map(|i| (2..4).contains(&i)).collect::<Vec<_>>());
        let s = matrix(&[strong, weak, twin], ALPHA, Draws::default());
        assert_eq!(s.tested, 3);
        let (sign, sw) = s.between(0, 1).unwrap();
        assert_eq!(sign, 1.0);
        assert!((sw.mean_diff.unwrap() - 0.9).abs() < 1e-12);
        assert!(
            (sw.p_value.unwrap() - 2.0 * 0.5f64.powi(18)).abs() < 1e-15,
            "{sw:?}"
        );
        assert!(sw.significant && s.better(0, 1) && !s.better(1, 0));
        let (sign, wt) = s.between(2, 1).unwrap();
        assert_eq!(sign, -1.0);
        assert_eq!(wt.tasks, 20);
        assert!((wt.p_value.unwrap() - 1.0).abs() < 1e-12);
        assert!(!wt.significant);
        assert_eq!((wt.mcnemar_a_only, wt.mcnemar_b_only), (2, 2));
        // At one trial per task the test is the exact McNemar test.
        assert!((sw.p_value.unwrap() - sw.mcnemar_p).abs() < 1e-15);
        let ps: Vec<f64> = s.pairs.iter().map(|p| p.p_value.unwrap()).collect();
        for (p, a) in s.pairs.iter().zip(stats::holm(&ps)) {
            assert_eq!(p.p_holm, Some(a));
        }
    }

    #[test]
    fn one_common_task_is_tested_and_can_never_be_significant() {
        let s = matrix(&[vec![1.0], vec![0.0]], ALPHA, Draws::default());
        assert_eq!(s.tested, 1);
        assert_eq!(s.pairs[0].p_value, Some(1.0));
        assert!(!s.pairs[0].significant);
    }
}
