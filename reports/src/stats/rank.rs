//! Ranks and simultaneous rank intervals (the leaderboard's "which ranks can the data
//! support, for every row at once").

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

/// Simultaneous rank intervals read off pairwise decisions: row i's interval is
///
/// ```text
/// low_i  = 1 + #{ j : j is significantly better than i }
/// high_i = R − #{ j : i is significantly better than j }
/// ```
///
/// When the decisions come from a family of tests that makes no false claim with
/// probability at least 1 − α (the leaderboard's Holm-corrected matrix), every row's true
/// rank lies in its interval **at once** with at least that probability: a row can be
/// placed above only the rows it beats and below only the rows that beat it. Rows no test
/// tells apart share overlapping intervals; with one common task nothing is significant and
/// every interval is [1, R] (not a point). The intervals never contradict the matrix: two
/// intervals are disjoint only where a cell is significant. `observed` gives each row's
/// observed rank.
pub fn from_pairwise(
    observed: &[usize],
    better: impl Fn(usize, usize) -> bool,
) -> Vec<RankInterval> {
    let rows = observed.len();
    (0..rows)
        .map(|i| RankInterval {
            rank: observed[i],
            low: 1 + (0..rows).filter(|&j| j != i && better(j, i)).count(),
            high: rows - (0..rows).filter(|&j| j != i && better(i, j)).count(),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn competition_ranks_share_the_better_rank_on_ties() {
        assert_eq!(competition_ranks(&[0.5, 0.9, 0.5, 0.1]), [2, 1, 2, 4]);
        assert_eq!(competition_ranks(&[0.3, 0.1 + 0.2]), [1, 1]);
    }

    #[test]
    fn intervals_follow_the_significant_pairs_only() {
        // Four rows; row 0 beats 2 and 3, row 1 beats 3; nothing else is told apart.
        let beats = [(0, 2), (0, 3), (1, 3)];
        let got = from_pairwise(&[1, 2, 3, 4], |i, j| beats.contains(&(i, j)));
        let ends: Vec<(usize, usize)> = got.iter().map(|r| (r.low, r.high)).collect();
        assert_eq!(ends, [(1, 2), (1, 3), (2, 4), (3, 4)]);
        // Nothing significant: every row could be anywhere.
        let none = from_pairwise(&[1, 1, 3], |_, _| false);
        assert!(none.iter().all(|r| (r.low, r.high) == (1, 3)));
    }
}
