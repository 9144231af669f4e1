//! The pairwise significance matrix: every pair of rows compared on the tasks both have a
//! verdict on, with the paired tests `nab compare` and `nab gate` use, and Holm's
//! correction over the whole matrix so that a leaderboard of many rows does not find
//! "significant" differences by testing many pairs.

use crate::compare::TASK_PASS_THRESHOLD;
use crate::run::Run;
use crate::stats::{self, Interval};
use serde::Serialize;

/// The family-wise error rate of the matrix.
pub const ALPHA: f64 = 0.05;

/// Row `a` against row `b` (indexes into the ranked rows, a < b).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PairTest {
    pub a: usize,
    pub b: usize,
    /// Tasks with a verdict in both rows: the sample size.
    pub tasks: usize,
    /// Mean over those tasks of p_a − p_b.
    pub mean_diff: Option<f64>,
    /// 95% paired t-interval of p_a − p_b (as in compare.html), without correction.
    pub interval: Option<Interval>,
    /// Two-sided paired t-test p-value; absent below two shared tasks (not tested).
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
}

fn pair(a_idx: usize, b_idx: usize, a: &Run, b: &Run) -> PairTest {
    let mut diffs = Vec::new();
    let (mut a_only, mut b_only) = (0u32, 0u32);
    for t in &a.tasks {
        let (Some(pa), Some(pb)) = (
            t.pass_rate(),
            b.task(&t.task_id).and_then(|u| u.pass_rate()),
        ) else {
            continue;
        };
        diffs.push(pa - pb);
        match (pa >= TASK_PASS_THRESHOLD, pb >= TASK_PASS_THRESHOLD) {
            (true, false) => a_only += 1,
            (false, true) => b_only += 1,
            _ => {}
        }
    }
    let t = stats::paired_t_interval(&diffs, 0.95);
    PairTest {
        a: a_idx,
        b: b_idx,
        tasks: diffs.len(),
        mean_diff: (!diffs.is_empty()).then(|| diffs.iter().sum::<f64>() / diffs.len() as f64),
        interval: t.map(|t| t.interval),
        p_value: stats::paired_t_p_value(&diffs),
        p_holm: None,
        significant: false,
        mcnemar_a_only: a_only,
        mcnemar_b_only: b_only,
        mcnemar_p: stats::mcnemar_exact(a_only, b_only),
    }
}

/// Every pair of `runs` (in the order given), Holm-corrected at `alpha`.
pub fn matrix(runs: &[&Run], alpha: f64) -> Significance {
    let mut pairs = Vec::new();
    for i in 0..runs.len() {
        for j in i + 1..runs.len() {
            pairs.push(pair(i, j, runs[i], runs[j]));
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
    use nab_protocol::RunMeta;
    use nab_protocol::{TrialRecord, TrialStatus};
    use std::path::Path;

    /// One trial per task, passing where `pass` says.
    fn run(pass: &[bool]) -> Run {
        let recs = pass
            .iter()
            .enumerate()
            .map(|(i, p)| {
                let mut r = TrialRecord::new("r", &format!("t{i:02}"), "c", 0, "a");
                r.status = if *p {
                    TrialStatus::Passed
                } else {
                    TrialStatus::Failed
                };
                r
            })
            .collect();
        Run::from_records(Path::new("r"), RunMeta::default(), recs, false)
    }

    #[test]
    fn a_clear_difference_survives_holm_and_a_tie_does_not() {
        // Strong passes all 20, weak passes 2 and twin passes another 2: strong − weak
        // has d = 1 on 18 tasks and 0 on 2 (d̄ = 0.9, s = √(0.09·20/19), t ≈ 13.1, p ≈ 1e-10);
        // weak − twin has d = ±1 on 4 tasks, d̄ = 0, p = 1.
        let strong = run(&[true; 20]);
        let weak = run(&(0..20).map(|i| i < 2).collect::<Vec<_>>());
        let twin = run(&(0..20).map(|i| (2..4).contains(&i)).collect::<Vec<_>>());
        let s = matrix(&[&strong, &weak, &twin], ALPHA);
        assert_eq!(s.tested, 3);
        let (sign, sw) = s.between(0, 1).unwrap();
        assert_eq!(sign, 1.0);
        assert!((sw.mean_diff.unwrap() - 0.9).abs() < 1e-12);
        assert!(sw.significant && sw.p_holm.unwrap() < 1e-6, "{sw:?}");
        // Holm multiplies the smallest p by 3 (three tests), the next by 2.
        let (sign, wt) = s.between(2, 1).unwrap();
        assert_eq!(sign, -1.0);
        assert_eq!(wt.tasks, 20);
        assert!((wt.p_value.unwrap() - 1.0).abs() < 1e-12);
        assert!(!wt.significant);
        assert_eq!((wt.mcnemar_a_only, wt.mcnemar_b_only), (2, 2));
        let ps: Vec<f64> = s.pairs.iter().map(|p| p.p_value.unwrap()).collect();
        let adj = stats::holm(&ps);
        for (p, a) in s.pairs.iter().zip(adj) {
            assert_eq!(p.p_holm, Some(a));
        }
    }

    #[test]
    fn a_pair_with_one_shared_task_is_not_tested_and_not_counted_in_the_family() {
        let a = run(&[true]);
        let b = run(&[false]);
        let s = matrix(&[&a, &b], ALPHA);
        assert_eq!(s.tested, 0);
        assert_eq!(s.pairs[0].p_value, None);
        assert!(!s.pairs[0].significant);
    }
}
