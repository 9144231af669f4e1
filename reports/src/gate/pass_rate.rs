//! The pass-rate rules: a significant paired drop (on by default) and a plain point drop
//! (off by default: it ignores uncertainty).

use super::config::SignificanceTest;
use super::{GateConfig, RuleOutcome, RuleResult, pts};
use crate::compare::{Comparison, PASS_RATE_RANGE};
use crate::stats;

pub(super) const SIG_ID: &str = "pass_rate_significant_drop";
const SIG_TITLE: &str = "Pass rate did not drop significantly";

/// Fails when the exact sign-flip test over per-task differences (every trial counts, an
/// error as not passed) gives a one-sided p of a drop of at most α/2: equivalently, its
/// (1 − α) interval lies entirely below 0. Skipped below `min_shared_tasks`, and while the
/// `replay_miss` rule fails (a stale cassette, not the agent).
pub(super) fn significant_drop(cmp: &Comparison, config: &GateConfig) -> RuleResult {
    if let Some(skipped) = super::stale_cassette(cmp, config, SIG_ID, SIG_TITLE) {
        return skipped;
    }
    let diffs: Vec<f64> = cmp.tasks.iter().filter_map(|t| t.delta).collect();
    let m = diffs.len();
    if m < config.min_shared_tasks {
        return RuleResult::new(
            SIG_ID,
            SIG_TITLE,
            RuleOutcome::Skipped,
            format!(
                "not enough tasks: {m} in both runs, the paired test needs at least {} (min_shared_tasks)",
                config.min_shared_tasks
            ),
            Vec::new(),
        );
    }
    let level = 1.0 - config.alpha;
    let SignificanceTest::SignFlip = config.significance_test;
    let Some(t) = stats::sign_flip(&diffs, level, PASS_RATE_RANGE, config.draws()) else {
        return RuleResult::new(
            SIG_ID,
            SIG_TITLE,
            RuleOutcome::Skipped,
            "no task in both runs".into(),
            Vec::new(),
        );
    };
    let detail = format!(
        "mean {}, {:.0}% interval [{:+.1}, {:+.1}] pts over {} tasks (exact sign-flip test, one-sided p of a drop = {:.4}, α/2 = {})",
        pts(t.mean),
        level * 100.0,
        t.interval.low * 100.0,
        t.interval.high * 100.0,
        t.n,
        t.p_lower,
        config.alpha / 2.0
    );
    if t.p_lower <= config.alpha / 2.0 + 1e-12 {
        RuleResult::new(
            SIG_ID,
            SIG_TITLE,
            RuleOutcome::Fail,
            format!(
                "the pass rate dropped significantly: {detail}; the interval lies entirely below 0"
            ),
            Vec::new(),
        )
    } else {
        RuleResult::new(SIG_ID, SIG_TITLE, RuleOutcome::Pass, detail, Vec::new())
    }
}

pub(super) const ABS_ID: &str = "pass_rate_absolute_drop";
const ABS_TITLE: &str = "Pass rate dropped no more than allowed";

/// Fails when the paired point estimate drops by more than `max_pass_rate_drop`.
pub(super) fn absolute_drop(cmp: &Comparison, config: &GateConfig) -> RuleResult {
    if config.max_pass_rate_drop.is_some()
        && let Some(skipped) = super::stale_cassette(cmp, config, ABS_ID, ABS_TITLE)
    {
        return skipped;
    }
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
            "no task in both runs".into(),
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
