//! Tarone's correction for many discrete tests (here: one exact test per task).

/// Which tests are significant at family-wise level `alpha`, by Tarone's modified
/// Bonferroni (Tarone 1990). A discrete test whose smallest achievable p-value `p_min` is
/// above the per-test threshold can never reject, so it need not pay for the family:
///
/// ```text
/// K = min{ k ≥ 1 : |{ i : p_min,i ≤ α/k }| ≤ k }
/// reject i  ⇔  p_min,i ≤ α/K  and  p_i ≤ α/K
/// ```
///
/// This controls the family-wise error rate at α, like Bonferroni over all tests, but with
/// 28 tasks of which only a few can reach significance it is far less conservative.
/// Returns the threshold α/K, the number K of tests that count, and a flag per test.
pub fn tarone(tests: &[(f64, f64)], alpha: f64) -> (f64, usize, Vec<bool>) {
    let mut k = 1usize;
    loop {
        let threshold = alpha / k as f64;
        let testable = tests
            .iter()
            .filter(|(_, p_min)| *p_min <= threshold)
            .count();
        if testable <= k {
            let flags = tests
                .iter()
                .map(|(p, p_min)| *p_min <= threshold && *p <= threshold)
                .collect();
            return (threshold, k, flags);
        }
        k += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn untestable_tasks_do_not_dilute_the_threshold() {
        // Two tasks can reach 1/252; 26 cannot go below 0.05: K = 2, threshold 0.025.
        let mut t = vec![(1.0 / 252.0, 1.0 / 252.0), (0.3, 1.0 / 252.0)];
        t.extend(std::iter::repeat_n((0.5, 0.05), 26));
        let (thr, k, flags) = tarone(&t, 0.05);
        assert_eq!(k, 2);
        assert!((thr - 0.025).abs() < 1e-15);
        assert_eq!(flags.iter().filter(|f| **f).count(), 1);
        assert!(flags[0]);
    }

    #[test]
    fn with_every_task_testable_it_is_bonferroni() {
        let t = vec![(0.001, 0.0001); 28];
        let (thr, k, flags) = tarone(&t, 0.05);
        assert_eq!(k, 28);
        assert!((thr - 0.05 / 28.0).abs() < 1e-15);
        assert!(flags.iter().all(|f| *f));
        // 0.002 > 0.05/28 = 0.001786: nothing rejected.
        let (_, _, flags) = tarone(&vec![(0.002, 0.0001); 28], 0.05);
        assert!(flags.iter().all(|f| !*f));
        // No tests: K = 1, nothing flagged.
        assert_eq!(tarone(&[], 0.05).1, 1);
    }
}
