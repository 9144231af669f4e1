//! Wilson score interval for a proportion.

use super::Interval;

/// Wilson score interval for `successes` out of `n`, at normal quantile `z`
/// (use [`super::Z95`] for 95%).
///
/// With p̂ = s/n:
///
/// ```text
///            p̂ + z²/(2n)  ±  z·√( p̂(1−p̂)/n + z²/(4n²) )
/// interval = ─────────────────────────────────────────────
///                          1 + z²/n
/// ```
///
/// `successes` may be fractional: a run with several trials per task passes the mean of the
/// per-task pass rates times the number of tasks, so the interval is computed with the
/// number of tasks as n — the honest sample size. Returns `None` when `n == 0`.
pub fn wilson(successes: f64, n: f64, z: f64) -> Option<Interval> {
    if n <= 0.0 || !(0.0..=n).contains(&successes) {
        return None;
    }
    let p = successes / n;
    let z2 = z * z;
    let denom = 1.0 + z2 / n;
    let centre = p + z2 / (2.0 * n);
    let half = z * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt();
    Some(Interval {
        low: ((centre - half) / denom).max(0.0),
        high: ((centre + half) / denom).min(1.0),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stats::Z95;

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 5e-5
    }

    // Hand-computed with z = 1.959964, z² = 3.841459, n = 28:
    //  denom = 1 + 3.841459/28 = 1.137195
    //  0/28:  centre = 3.841459/56 = 0.068597; half = z·√(3.841459/3136) = 1.959964·0.034999 = 0.068597
    //         → [0, 0.137195/1.137195] = [0, 0.120644]
    //  14/28: centre = 0.5 + 0.068597 = 0.568597; half = z·√(0.25/28 + 3.841459/3136)
    //         = 1.959964·√0.010153531 = 1.959964·0.100765 = 0.197496
    //         → [0.371101/1.137195, 0.766093/1.137195] = [0.326331, 0.673669]
    //  28/28: the mirror of 0/28 → [0.879356, 1]
    #[test]
    fn wilson_matches_hand_computed_values_for_28_tasks() {
        let none = wilson(0.0, 28.0, Z95).unwrap();
        assert!(
            close(none.low, 0.0) && close(none.high, 0.120644),
            "{none:?}"
        );
        let half = wilson(14.0, 28.0, Z95).unwrap();
        assert!(
            close(half.low, 0.326331) && close(half.high, 0.673669),
            "{half:?}"
        );
        let all = wilson(28.0, 28.0, Z95).unwrap();
        assert!(close(all.low, 0.879356) && close(all.high, 1.0), "{all:?}");
    }

    #[test]
    fn wilson_is_absent_without_observations_or_with_impossible_counts() {
        assert!(wilson(0.0, 0.0, Z95).is_none());
        assert!(wilson(29.0, 28.0, Z95).is_none());
    }
}
