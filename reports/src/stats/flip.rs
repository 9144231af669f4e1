//! Flip rate: how often a task's verdict is not stable across trials.

/// The share of tasks whose verdicts differ across trials:
///
/// ```text
/// flip rate = |{ t : 0 < cₜ < nₜ }| / |{ t : nₜ ≥ 2 }|
/// ```
///
/// where `(n, c)` are each task's scored trials and passes. Tasks with fewer than two scored
/// trials cannot flip and are left out of the denominator. `None` when no task has two.
pub fn flip_rate(tasks: &[(u32, u32)]) -> Option<f64> {
    let eligible: Vec<_> = tasks.iter().filter(|(n, _)| *n >= 2).collect();
    if eligible.is_empty() {
        return None;
    }
    let flipped = eligible.iter().filter(|(n, c)| *c > 0 && c < n).count();
    Some(flipped as f64 / eligible.len() as f64)
}

/// One task's flip rate: the probability that two of its scored trials, drawn without
/// replacement, disagree:
///
/// ```text
/// flip = 2·c·(n − c) / (n·(n − 1))
/// ```
///
/// 0 for a stable task. The most it can be is at c = n/2 (n even): n/(2(n−1)), or at
/// c = (n ± 1)/2 (n odd): (n + 1)/(2n) — 1 at two trials, ⅔ at three and four, falling
/// towards ½ as n grows. `None` when n < 2.
pub fn task_flip_rate(n: u32, c: u32) -> Option<f64> {
    if n < 2 || c > n {
        return None;
    }
    let (n, c) = (f64::from(n), f64::from(c));
    Some(2.0 * c * (n - c) / (n * (n - 1.0)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_largest_task_flip_rate_is_1_at_two_trials_and_falls_towards_a_half() {
        let max = |n: u32| {
            (0..=n)
                .filter_map(|c| task_flip_rate(n, c))
                .fold(0.0f64, f64::max)
        };
        assert_eq!(max(2), 1.0);
        assert!((max(3) - 2.0 / 3.0).abs() < 1e-15);
        assert!((max(4) - 2.0 / 3.0).abs() < 1e-15);
        assert!((max(5) - 0.6).abs() < 1e-15);
        assert!((max(10) - 10.0 / 18.0).abs() < 1e-15);
    }

    #[test]
    fn counts_only_tasks_with_mixed_verdicts() {
        // stable pass, stable fail, flaky, single trial (ignored)
        assert_eq!(
            flip_rate(&[(5, 5), (5, 0), (5, 2), (1, 1)]),
            Some(1.0 / 3.0)
        );
        assert_eq!(flip_rate(&[(1, 0)]), None);
    }

    #[test]
    fn a_task_flip_rate_is_the_chance_two_trials_disagree() {
        // 2 of 5: pairs that disagree 2·3 = 6 of C(5,2) = 10.
        assert!((task_flip_rate(5, 2).unwrap() - 0.6).abs() < 1e-12);
        assert_eq!(task_flip_rate(5, 5), Some(0.0));
        assert_eq!(task_flip_rate(1, 1), None);
    }
}
