//! Paired growth of a per-task quantity (tokens, steps, cost) with its uncertainty.
//!
//! A ratio of totals (Σ candidate / Σ baseline) is dominated by the few heaviest tasks
//! and says nothing about noise: with a live model's per-trial token noise (log-normal,
//! σ = 1) two identical agents differ by more than 1.5× a fifth of the time. The task is
//! the unit here as everywhere: per task the log ratio of the two runs' means, and a
//! t-interval over tasks of the mean log ratio, reported on the ratio scale (a geometric
//! mean of per-task ratios). Log ratios of multiplicative noise are close to normal (exactly
//! so for one log-normal trial per side), which is where the t-interval is exact.

use super::Interval;
use super::dist::t_quantile;
use serde::{Deserialize, Serialize};

/// The geometric-mean ratio candidate/baseline over tasks and its interval.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Growth {
    /// Tasks where both runs have a positive mean.
    pub tasks: usize,
    /// exp(mean over tasks of ln(candidate / baseline)).
    pub ratio: f64,
    /// The `level` t-interval of the mean log ratio, exponentiated; `None` with fewer than
    /// two tasks.
    pub interval: Option<Interval>,
    pub level: f64,
}

/// Growth over `pairs` of per-task means (baseline, candidate); tasks where either is not
/// a positive finite number are left out (a log ratio needs both):
///
/// ```text
/// rₜ = ln(cₜ / bₜ)      r̄ ± t_{(1+level)/2, m−1} · s_r/√m      → [e^low, e^high], ratio e^r̄
/// ```
///
/// `None` when no task has both.
pub fn growth(pairs: &[(f64, f64)], level: f64) -> Option<Growth> {
    let r: Vec<f64> = pairs
        .iter()
        .filter(|(b, c)| b.is_finite() && c.is_finite() && *b > 0.0 && *c > 0.0)
        .map(|(b, c)| (c / b).ln())
        .collect();
    let m = r.len();
    if m == 0 {
        return None;
    }
    let mean = r.iter().sum::<f64>() / m as f64;
    let interval = (m >= 2)
        .then(|| {
            let var = r.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (m - 1) as f64;
            let half = t_quantile((1.0 + level) / 2.0, (m - 1) as f64)? * (var / m as f64).sqrt();
            Some(Interval {
                low: (mean - half).exp(),
                high: (mean + half).exp(),
            })
        })
        .flatten();
    Some(Growth {
        tasks: m,
        ratio: mean.exp(),
        interval,
        level,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_constant_doubling_is_exactly_2_and_noise_widens_the_interval() {
        let pairs: Vec<(f64, f64)> = (1..=10)
            .map(|i| (f64::from(i), 2.0 * f64::from(i)))
            .collect();
        let g = growth(&pairs, 0.95).unwrap();
        assert!((g.ratio - 2.0).abs() < 1e-12);
        let i = g.interval.unwrap();
        assert!((i.low - 2.0).abs() < 1e-12 && (i.high - 2.0).abs() < 1e-12);
        // ln ratios ±ln 2 alternating around 0: ratio 1, interval around it.
        let noisy: Vec<(f64, f64)> = (0..10)
            .map(|i| if i % 2 == 0 { (1.0, 2.0) } else { (2.0, 1.0) })
            .collect();
        let g = growth(&noisy, 0.95).unwrap();
        assert!((g.ratio - 1.0).abs() < 1e-12);
        let i = g.interval.unwrap();
        // t(0.975, 9) = 2.262157; s = ln2·√(10/9); half = 2.262157·s/√10.
        let half = 2.262_157_162_8 * std::f64::consts::LN_2 * (10.0f64 / 9.0).sqrt() / 10f64.sqrt();
        assert!(
            (i.high.ln() - half).abs() < 1e-8 && (i.low.ln() + half).abs() < 1e-8,
            "{i:?}"
        );
    }

    #[test]
    fn tasks_without_both_means_are_left_out() {
        let g = growth(&[(0.0, 5.0), (2.0, 4.0), (f64::NAN, 1.0)], 0.95).unwrap();
        assert_eq!((g.tasks, g.interval), (1, None));
        assert!((g.ratio - 2.0).abs() < 1e-12);
        assert!(growth(&[(0.0, 1.0)], 0.95).is_none());
    }
}
