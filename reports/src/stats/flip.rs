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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_only_tasks_with_mixed_verdicts() {
        // stable pass, stable fail, flaky, single trial (ignored)
        assert_eq!(
            flip_rate(&[(5, 5), (5, 0), (5, 2), (1, 1)]),
            Some(1.0 / 3.0)
        );
        assert_eq!(flip_rate(&[(1, 0)]), None);
    }
}
