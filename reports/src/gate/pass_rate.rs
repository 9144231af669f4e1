//! The pass-rate rules: a significant paired drop (on by default) and a plain point drop
//! (off by default: it ignores uncertainty).

use super::config::SignificanceTest;
use super::{GateConfig, RuleOutcome, RuleResult, pts};
use crate::compare::Comparison;
use crate::stats;

const SIG_ID: &str = "pass_rate_significant_drop";
const SIG_TITLE: &str = "Pass rate did not drop significantly";

/// Fails when the paired two-sided (1 − α) t-interval over tasks lies entirely below 0 (a
/// one-sided test at α/2). Skipped below `min_shared_tasks`.
pub(super) fn significant_drop(cmp: &Comparison, config: &GateConfig) -> RuleResult {
    let diffs: Vec<f64> = cmp.tasks.iter().filter_map(|t| t.delta).collect();
    let m = diffs.len();
    if m < config.min_shared_tasks {
        return RuleResult::new(
            SIG_ID,
            SIG_TITLE,
            RuleOutcome::Skipped,
            format!(
                "not enough tasks: {m} with a verdict in both runs, the paired test needs at least {} (min_shared_tasks)",
                config.min_shared_tasks
            ),
            Vec::new(),
        );
    }
    let level = 1.0 - config.alpha;
    let SignificanceTest::T = config.significance_test;
    let Some(t) = stats::paired_t_interval(&diffs, level) else {
        return RuleResult::new(
            SIG_ID,
            SIG_TITLE,
            RuleOutcome::Skipped,
            "fewer than two tasks with a verdict in both runs".into(),
            Vec::new(),
        );
    };
    let detail = format!(
        "mean {}, {:.0}% paired t-interval [{:+.1}, {:+.1}] pts over {} tasks",
        pts(t.mean),
        level * 100.0,
        t.interval.low * 100.0,
        t.interval.high * 100.0,
        t.n
    );
    if t.interval.high < 0.0 {
        RuleResult::new(
            SIG_ID,
            SIG_TITLE,
            RuleOutcome::Fail,
            format!("the pass rate dropped significantly: {detail}, entirely below 0"),
            Vec::new(),
        )
    } else {
        RuleResult::new(SIG_ID, SIG_TITLE, RuleOutcome::Pass, detail, Vec::new())
    }
}

const ABS_ID: &str = "pass_rate_absolute_drop";
const ABS_TITLE: &str = "Pass rate dropped no more than allowed";

/// Fails when the paired point estimate drops by more than `max_pass_rate_drop`.
pub(super) fn absolute_drop(cmp: &Comparison, config: &GateConfig) -> RuleResult {
    let Some(max) = config.max_pass_rate_drop else {
        return RuleResult::new(
            ABS_ID,
            ABS_TITLE,
            RuleOutcome::Skipped,
            "off (max_pass_rate_drop: null, the default): a point estimate alone false-fails identical agents".into(),
            Vec::new(),
        );
    };
    let Some(d) = cmp.paired.mean_diff else {
        return RuleResult::new(
            ABS_ID,
            ABS_TITLE,
            RuleOutcome::Skipped,
            "no task has a verdict in both runs".into(),
            Vec::new(),
        );
    };
    RuleResult::new(
        ABS_ID,
        ABS_TITLE,
        if -d > max + 1e-12 {
            RuleOutcome::Fail
        } else {
            RuleOutcome::Pass
        },
        format!(
            "paired pass rate changed by {} (limit −{:.1} pts; a point estimate, no uncertainty)",
            pts(d),
            max * 100.0
        ),
        Vec::new(),
    )
}
