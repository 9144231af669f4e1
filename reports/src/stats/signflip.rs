//! The paired sign-flip (randomization) test over per-task differences, and the interval
//! that inverts it. This is the one paired test of the gate, `nab compare` and the
//! leaderboard's matrix.
//!
//! Why not the paired t-test: per-task differences of pass rates are sparse and discrete
//! (at one trial per task each is −1, 0 or +1), so the t-distribution's tails are wrong
//! exactly where a gate decides — four tasks all worse gave p = 0.03 against an exact
//! 0.0625, five differences of exactly 0.5 gave "p < 0.001" (zero variance), and the
//! interval could leave [−1, +1]. The sign-flip test assumes only that, were the two runs
//! the same agent, each task's difference would be as likely to have either sign.
//!
//! ```text
//! dₜ  per-task difference (candidate − baseline), t = 1..m
//! S  = Σ dₜ                         the observed sum
//! T_ε = Σ εₜ dₜ,  εₜ = ±1 each with probability ½, independently
//! p_lower = P(T_ε ≤ S)              evidence that the mean is below 0 (a drop)
//! p_upper = P(T_ε ≥ S)              evidence that it is above 0
//! p_two_sided = min(1, 2·min(p_lower, p_upper))
//! ```
//!
//! The distribution of T_ε is symmetric, so the two-sided p is P(|T_ε| ≥ |S|): at one
//! trial per task (dₜ ∈ {−1, 0, 1}) it is the exact McNemar test, and zeros carry no
//! weight. The interval for the mean difference δ inverts the same test of dₜ − δ: with F
//! the set of tasks whose sign is flipped, T_ε(δ) ≥ S(δ) exactly when δ ≥ mean_F(d), so
//!
//! ```text
//! low  = smallest subset mean v with P(F = ∅) + P(F ≠ ∅, mean_F(d) ≤ v) > α/2
//! high = largest  subset mean v with P(F = ∅) + P(F ≠ ∅, mean_F(d) ≥ v) > α/2
//! ```
//!
//! Every subset mean lies within [min d, max d], so the interval never leaves the range
//! of the data (for pass rates, [−1, +1]); where no subset is extreme enough (too few
//! tasks) an end is the natural bound the caller gives. The interval excludes 0 exactly
//! when the matching one-sided p is at most α/2.
//!
//! How the distribution is obtained, in order:
//! 1. **Exact on a grid.** Differences of pass rates are fractions with small
//!    denominators (c/n − c'/n'): scaled by their common denominator L they are
//!    integers aₜ, and the joint distribution of (|F|, Σ_F a) is counted by dynamic
//!    programming in O(m²·Σ|a|).
//! 2. **Exact by enumeration** of all 2^m subsets when m ≤ 16.
//! 3. **Monte Carlo** otherwise: `draws` random subsets from a fixed seed ([`Seeded`]),
//!    with the observed statistic counted once among them ((1 + #extreme)/(1 + B)), so the
//!    p-value is never 0.

use super::Interval;
use super::seeded::Seeded;
use serde::{Deserialize, Serialize};

/// The default number of Monte Carlo draws (when the exact distribution is too large).
pub const DRAWS: usize = 20_000;
/// The largest denominator looked for in one difference (pass rates over ≤ 1,000 trials).
const MAX_DENOMINATOR: u64 = 1_000;
/// The largest common denominator of all differences taken for the exact grid.
const MAX_SCALE: u64 = 1_000_000;
/// The most work the grid's dynamic programme may do (cells × tasks).
const MAX_GRID_WORK: u128 = 30_000_000;
/// The most tasks whose 2^m subsets are enumerated.
const MAX_ENUMERATED: usize = 16;

/// How the p-values and the interval were obtained.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Method {
    /// The exact distribution (a grid of fractions, or every subset enumerated).
    Exact,
    /// `draws` random sign flips from `seed`.
    MonteCarlo { draws: usize, seed: u64 },
}

/// The Monte Carlo fallback's draws and seed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Draws {
    pub draws: usize,
    pub seed: u64,
}

impl Default for Draws {
    fn default() -> Draws {
        Draws {
            draws: DRAWS,
            seed: super::bootstrap::DEFAULT_SEED,
        }
    }
}

/// The sign-flip test of per-task differences and its interval.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct SignFlip {
    /// Number of tasks (pairs), zeros included.
    pub n: usize,
    pub mean: f64,
    /// The `level` interval of the mean difference (see the module).
    pub interval: Interval,
    pub level: f64,
    /// P(T ≤ S): small when the mean is below 0.
    pub p_lower: f64,
    /// P(T ≥ S): small when the mean is above 0.
    pub p_upper: f64,
    pub p_two_sided: f64,
    pub method: Method,
}

/// The distribution of a random subset F of the tasks: weight of the empty set, and of each
/// distinct subset mean (ascending).
struct Subsets {
    empty: f64,
    /// (mean_F(d), probability), sorted by mean, equal means merged.
    means: Vec<(f64, f64)>,
}

/// The test and `level` interval of the mean of `diffs`. `range` is the natural range of
/// the mean (e.g. [−1, 1] for differences of pass rates): where the data cannot bound an
/// end of the interval, the end is the range's. `None` for no differences or a value that
/// is not finite.
pub fn sign_flip(diffs: &[f64], level: f64, range: Interval, draws: Draws) -> Option<SignFlip> {
    if diffs.is_empty() || diffs.iter().any(|d| !d.is_finite()) {
        return None;
    }
    let m = diffs.len();
    let mean = diffs.iter().sum::<f64>() / m as f64;
    let (subsets, method) = match grid(diffs) {
        Some((a, scale)) => (on_grid(&a, scale), Method::Exact),
        None if m <= MAX_ENUMERATED => (enumerated(diffs), Method::Exact),
        None => (
            sampled(diffs, draws),
            Method::MonteCarlo {
                draws: draws.draws,
                seed: draws.seed,
            },
        ),
    };
    let half = (1.0 - level) / 2.0;
    // Float sums of exact probabilities: a p of exactly α/2 must still reject.
    let tol = 1e-12;
    let p_upper = (subsets.empty
        + subsets
            .means
            .iter()
            .filter(|(v, _)| *v <= 0.0)
            .map(|(_, w)| w)
            .sum::<f64>())
    .min(1.0);
    let p_lower = (subsets.empty
        + subsets
            .means
            .iter()
            .filter(|(v, _)| *v >= 0.0)
            .map(|(_, w)| w)
            .sum::<f64>())
    .min(1.0);
    let end = |ascending: bool| -> Option<f64> {
        let mut running = subsets.empty;
        if running > half + tol {
            return None;
        }
        let mut walk: Box<dyn Iterator<Item = &(f64, f64)>> = if ascending {
            Box::new(subsets.means.iter())
        } else {
            Box::new(subsets.means.iter().rev())
        };
        walk.find(|(_, w)| {
            running += w;
            running > half + tol
        })
        .map(|(v, _)| *v)
    };
    let low = end(true).unwrap_or(range.low).max(range.low);
    let high = end(false).unwrap_or(range.high).min(range.high);
    Some(SignFlip {
        n: m,
        mean,
        interval: Interval { low, high },
        level,
        p_lower,
        p_upper,
        p_two_sided: (2.0 * p_lower.min(p_upper)).min(1.0),
        method,
    })
}

/// The smallest q ≤ [`MAX_DENOMINATOR`] with d·q an integer (to 1e-9), if any.
fn denominator(d: f64) -> Option<u64> {
    (1..=MAX_DENOMINATOR).find(|&q| {
        let x = d * q as f64;
        (x - x.round()).abs() <= 1e-9 * (1.0 + x.abs())
    })
}

fn gcd(a: u64, b: u64) -> u64 {
    if b == 0 { a } else { gcd(b, a % b) }
}

/// The differences as integers on a common grid, and the grid's scale L (dₜ = aₜ / L),
/// when the exact programme is small enough.
fn grid(diffs: &[f64]) -> Option<(Vec<i64>, u64)> {
    let mut scale = 1u64;
    for d in diffs {
        let q = denominator(*d)?;
        scale = scale / gcd(scale, q) * q;
        if scale > MAX_SCALE {
            return None;
        }
    }
    let a: Vec<i64> = diffs
        .iter()
        .map(|d| (d * scale as f64).round() as i64)
        .collect();
    let span: i64 = a.iter().map(|x| x.abs()).sum();
    let m = a.len() as u128;
    let work = (m + 1) * m * (span as u128 + 1);
    (work <= MAX_GRID_WORK).then_some((a, scale))
}

/// The exact distribution of (|F|, Σ_F a) by dynamic programming, as subset means.
fn on_grid(a: &[i64], scale: u64) -> Subsets {
    let m = a.len();
    let neg: i64 = a.iter().filter(|x| **x < 0).sum();
    let pos: i64 = a.iter().filter(|x| **x > 0).sum();
    let width = (pos - neg + 1) as usize;
    let offset = (-neg) as usize;
    // p[k][s + offset] = P(|F| = k, Σ_F a = s).
    let mut p = vec![0.0f64; (m + 1) * width];
    let mut next = vec![0.0f64; (m + 1) * width];
    p[offset] = 1.0;
    for (t, &x) in a.iter().enumerate() {
        next.iter_mut().for_each(|v| *v = 0.0);
        for k in 0..=t {
            for s in 0..width {
                let w = p[k * width + s];
                if w == 0.0 {
                    continue;
                }
                next[k * width + s] += 0.5 * w;
                // In range by construction: every partial sum lies within [neg, pos].
                let to = (s as i64 + x) as usize;
                next[(k + 1) * width + to] += 0.5 * w;
            }
        }
        std::mem::swap(&mut p, &mut next);
    }
    let mut means = Vec::new();
    for k in 1..=m {
        for s in 0..width {
            let w = p[k * width + s];
            if w > 0.0 {
                let sum = s as i64 - offset as i64;
                // Equal fractions divide to the same correctly rounded double.
                means.push((sum as f64 / (k as u64 * scale) as f64, w));
            }
        }
    }
    Subsets {
        empty: p[offset],
        means: merged(means),
    }
}

/// Every non-empty subset, each with probability 2^−m.
fn enumerated(d: &[f64]) -> Subsets {
    let m = d.len();
    let w = 0.5f64.powi(m as i32);
    let eps = tolerance(d);
    let means = (1u32..(1u32 << m))
        .map(|mask| {
            let (mut sum, mut k) = (0.0, 0u32);
            for (t, x) in d.iter().enumerate() {
                if mask & (1 << t) != 0 {
                    sum += x;
                    k += 1;
                }
            }
            (snap(sum, eps) / f64::from(k), w)
        })
        .collect();
    Subsets {
        empty: w,
        means: merged(means),
    }
}

/// `draws` random subsets; the observed statistic counts as one more draw (the empty set).
fn sampled(d: &[f64], draws: Draws) -> Subsets {
    let mut rng = Seeded::new(draws.seed);
    let w = 1.0 / (draws.draws as f64 + 1.0);
    let eps = tolerance(d);
    let mut empty = w;
    let mut means = Vec::with_capacity(draws.draws);
    for _ in 0..draws.draws {
        let (mut sum, mut k) = (0.0, 0usize);
        let mut bits = 0u64;
        for (t, x) in d.iter().enumerate() {
            if t % 64 == 0 {
                bits = rng.bits();
            }
            if bits & (1 << (t % 64)) != 0 {
                sum += x;
                k += 1;
            }
        }
        if k == 0 {
            empty += w;
        } else {
            means.push((snap(sum, eps) / k as f64, w));
        }
    }
    Subsets {
        empty,
        means: merged(means),
    }
}

/// Sums of floats within this of 0 are 0 (0.1 + 0.2 − 0.3 is a tie, not a difference).
fn tolerance(d: &[f64]) -> f64 {
    1e-9 * (1.0 + d.iter().map(|x| x.abs()).sum::<f64>())
}

fn snap(x: f64, eps: f64) -> f64 {
    if x.abs() <= eps { 0.0 } else { x }
}

fn merged(mut v: Vec<(f64, f64)>) -> Vec<(f64, f64)> {
    v.sort_by(|a, b| a.0.total_cmp(&b.0));
    let mut out: Vec<(f64, f64)> = Vec::with_capacity(v.len());
    for (x, w) in v {
        match out.last_mut() {
            Some((y, acc)) if *y == x => *acc += w,
            _ => out.push((x, w)),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stats::mcnemar_exact;

    const PASS: Interval = Interval {
        low: -1.0,
        high: 1.0,
    };

    fn test(d: &[f64]) -> SignFlip {
        sign_flip(d, 0.95, PASS, Draws::default()).unwrap()
    }

    #[test]
    fn four_tasks_all_worse_at_one_trial_is_one_in_sixteen() {
        // Each sign pattern has probability 1/16; only the observed one is as low.
        let r = test(&[-1.0, -1.0, -1.0, -1.0, 0.0, 0.0]);
        assert!((r.p_lower - 1.0 / 16.0).abs() < 1e-15, "{r:?}");
        assert!((r.p_two_sided - 0.125).abs() < 1e-15, "{r:?}");
        assert_eq!(r.method, Method::Exact);
        // Not significant: the interval holds 0 and stays within [−1, +1].
        assert!(r.interval.low < 0.0 && r.interval.high >= 0.0, "{r:?}");
        assert!(r.interval.low >= -1.0);
    }

    #[test]
    fn at_one_trial_per_task_it_is_the_exact_mcnemar_test() {
        for (b, c, zeros) in [
            (0, 5, 3),
            (6, 0, 10),
            (1, 6, 0),
            (2, 8, 5),
            (2, 2, 1),
            (3, 9, 16),
        ] {
            let mut d = vec![-1.0; b];
            d.extend(std::iter::repeat_n(1.0, c));
            d.extend(std::iter::repeat_n(0.0, zeros));
            let r = test(&d);
            let want = mcnemar_exact(b as u32, c as u32);
            assert!(
                (r.p_two_sided - want).abs() < 1e-12,
                "b={b} c={c}: {} vs McNemar {want}",
                r.p_two_sided
            );
        }
    }

    #[test]
    fn zero_variance_differences_get_an_honest_p() {
        // Five tasks, each exactly +0.5: one sign pattern of 32 is as high.
        let r = test(&[0.5; 5]);
        assert!((r.p_upper - 1.0 / 32.0).abs() < 1e-15, "{r:?}");
        assert!((r.p_two_sided - 1.0 / 16.0).abs() < 1e-15, "{r:?}");
        // Five tasks cannot reach 2.5% on either side: neither end is bounded by the data.
        assert_eq!(r.interval, PASS);
        // Six can: 1/64 < 2.5%, and every subset mean is 0.5.
        let r = test(&[0.5; 6]);
        assert_eq!(
            r.interval,
            Interval {
                low: 0.5,
                high: 0.5
            }
        );
        // All zeros: no evidence at all.
        let z = test(&[0.0; 12]);
        assert_eq!((z.p_lower, z.p_upper, z.p_two_sided), (1.0, 1.0, 1.0));
        assert_eq!(
            z.interval,
            Interval {
                low: 0.0,
                high: 0.0
            }
        );
    }

    #[test]
    fn hand_computed_three_task_distribution() {
        // d = [0.5, 0.25, −0.25]: S = 0.5. Eight sign patterns, sums: 0.5 (+,+,−), 1.0
        // (+,+,+), 0 (+,−,−), 0.5 (+,−,+), −0.5 (−,+,−), 0 (−,+,+), −1.0 (−,−,−),
        // −0.5 (−,−,+): P(T ≥ 0.5) = 3/8, P(T ≤ 0.5) = 7/8.
        let r = test(&[0.5, 0.25, -0.25]);
        assert!((r.p_upper - 3.0 / 8.0).abs() < 1e-15, "{r:?}");
        assert!((r.p_lower - 7.0 / 8.0).abs() < 1e-15, "{r:?}");
        assert!((r.p_two_sided - 0.75).abs() < 1e-15);
        assert!((r.mean - 0.5 / 3.0).abs() < 1e-15);
    }

    /// The grid, enumeration and Monte Carlo agree; the interval excludes 0 exactly when
    /// the one-sided p reaches α/2; the interval never leaves the data's range.
    #[test]
    fn the_three_methods_agree_and_the_interval_matches_the_test() {
        let mut rng = Seeded::new(9);
        for case in 0..200 {
            let m = 3 + case % 12;
            let trials = 1 + (case % 5) as u32;
            let shift = [0.0, -0.2, 0.3, -0.6][case % 4];
            let d: Vec<f64> = (0..m)
                .map(|_| {
                    let p = rng.uniform();
                    let draw = |p: f64, r: &mut Seeded| {
                        (0..trials)
                            .filter(|_| r.uniform() < p.clamp(0.0, 1.0))
                            .count() as f64
                            / f64::from(trials)
                    };
                    draw((p + shift).clamp(0.0, 1.0), &mut rng) - draw(p, &mut rng)
                })
                .collect();
            let exact = test(&d);
            assert_eq!(exact.method, Method::Exact);
            let by_enum = sign_flip_enumerated(&d);
            assert!((exact.p_lower - by_enum.p_lower).abs() < 1e-12, "{d:?}");
            assert!((exact.p_upper - by_enum.p_upper).abs() < 1e-12, "{d:?}");
            assert!(
                (exact.interval.low - by_enum.interval.low).abs() < 1e-12,
                "{d:?}"
            );
            assert!(
                (exact.interval.high - by_enum.interval.high).abs() < 1e-12,
                "{d:?}"
            );
            let below = exact.interval.high < 0.0;
            assert_eq!(below, exact.p_lower <= 0.025 + 1e-12, "{exact:?} {d:?}");
            let above = exact.interval.low > 0.0;
            assert_eq!(above, exact.p_upper <= 0.025 + 1e-12, "{exact:?} {d:?}");
            let lo = d.iter().copied().fold(f64::INFINITY, f64::min);
            let hi = d.iter().copied().fold(f64::NEG_INFINITY, f64::max);
            assert!(exact.interval.low >= lo.min(-1.0) && exact.interval.high <= hi.max(1.0));
            assert!(exact.interval.low <= exact.mean && exact.mean <= exact.interval.high);
            let mc = sampled(
                &d,
                Draws {
                    draws: 40_000,
                    seed: 3,
                },
            );
            let p_mc = mc.empty
                + mc.means
                    .iter()
                    .filter(|(v, _)| *v >= 0.0)
                    .map(|(_, w)| w)
                    .sum::<f64>();
            assert!(
                (p_mc - exact.p_lower).abs() < 0.02,
                "{p_mc} vs {}",
                exact.p_lower
            );
        }
    }

    fn sign_flip_enumerated(d: &[f64]) -> SignFlip {
        let s = enumerated(d);
        // The same summary as `sign_flip`, from the enumeration.
        let p_upper = s.empty
            + s.means
                .iter()
                .filter(|(v, _)| *v <= 0.0)
                .map(|(_, w)| w)
                .sum::<f64>();
        let p_lower = s.empty
            + s.means
                .iter()
                .filter(|(v, _)| *v >= 0.0)
                .map(|(_, w)| w)
                .sum::<f64>();
        let end = |asc: bool| {
            let mut run = s.empty;
            if run > 0.025 + 1e-12 {
                return None;
            }
            let it: Vec<&(f64, f64)> = if asc {
                s.means.iter().collect()
            } else {
                s.means.iter().rev().collect()
            };
            it.into_iter()
                .find(|(_, w)| {
                    run += w;
                    run > 0.025 + 1e-12
                })
                .map(|(v, _)| *v)
        };
        SignFlip {
            n: d.len(),
            mean: d.iter().sum::<f64>() / d.len() as f64,
            interval: Interval {
                low: end(true).unwrap_or(-1.0),
                high: end(false).unwrap_or(1.0),
            },
            level: 0.95,
            p_lower,
            p_upper,
            p_two_sided: (2.0 * p_lower.min(p_upper)).min(1.0),
            method: Method::Exact,
        }
    }

    #[test]
    fn many_irrational_differences_use_seeded_draws() {
        let d: Vec<f64> = (0..40)
            .map(|i| (f64::from(i) * 0.37).sin() * 0.1 - 0.05)
            .collect();
        let a = test(&d);
        assert_eq!(
            a.method,
            Method::MonteCarlo {
                draws: DRAWS,
                seed: crate::stats::bootstrap::DEFAULT_SEED
            }
        );
        assert_eq!(a, test(&d), "the seed fixes the draws");
        // Never 0: the observed statistic counts among the draws.
        assert!(a.p_lower >= 1.0 / (DRAWS as f64 + 1.0));
        let other = sign_flip(
            &d,
            0.95,
            PASS,
            Draws {
                draws: DRAWS,
                seed: 1,
            },
        )
        .unwrap();
        assert_ne!(a.p_lower, other.p_lower);
        assert!(sign_flip(&[], 0.95, PASS, Draws::default()).is_none());
        assert!(sign_flip(&[f64::NAN], 0.95, PASS, Draws::default()).is_none());
    }

    #[test]
    fn a_clear_drop_over_28_tasks_is_significant_and_bounded() {
        // 20 of 28 tasks drop by 0.6, the rest unchanged.
        let mut d = vec![-0.6; 20];
        d.extend([0.0; 8]);
        let r = test(&d);
        assert!(r.p_lower < 1e-5, "{r:?}");
        assert!(r.interval.high < 0.0 && r.interval.low >= -0.6, "{r:?}");
    }
}
