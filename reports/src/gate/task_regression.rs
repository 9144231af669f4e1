//! The per-task rule: a task whose own trials show a significant drop.
//!
//! Every trial counts, an infrastructure error as not passed: a task whose candidate
//! trials error where the baseline's passed has regressed like one whose trials fail.
//!
//! One trial per side is one coin toss, so "passed every baseline trial, fails every
//! candidate trial" is no evidence by itself. Each task gets a one-sided Fisher exact test
//! on its trial counts, and the 28 tests are corrected together (Tarone's modified
//! Bonferroni, family-wise level α/2: a drop is one side of the two-sided α, as for the
//! paired t-rule). Tasks whose margins cannot reach significance do not count. When no task
//! has enough trials for even its most extreme outcome (all baseline trials pass, all
//! candidate trials fail) to reach α/2, the rule says "not enough trials" and is skipped.

use super::{GateConfig, RuleOutcome, RuleResult};
use crate::compare::{Comparison, TaskSide};
use crate::stats::{fisher::fisher_drop, tarone::tarone};

pub(super) const ID: &str = "task_regressed";
const TITLE: &str = "No task regressed significantly (exact test per task)";

pub(super) fn rule(cmp: &Comparison, config: &GateConfig) -> RuleResult {
    if !config.fail_on_task_regression {
        return skipped("off (fail_on_task_regression: false)".into());
    }
    if let Some(skipped) = super::stale_cassette(cmp, config, ID, TITLE) {
        return skipped;
    }
    let (ids, tests) = fisher_tests(cmp);
    let family_alpha = config.alpha / 2.0;
    let enough_trials = ids.iter().any(|(_, b, c)| {
        fisher_drop(b.trials(), b.trials(), c.trials(), 0).is_some_and(|f| f.p <= family_alpha)
    });
    if !enough_trials {
        return skipped(format!(
            "not enough trials: no task has enough trials on both sides for its exact test to reach {family_alpha} even if every baseline trial passed and every candidate trial failed (4 + 4 trials reach 0.014, 5 + 5 reach 0.004)"
        ));
    }
    let (threshold, k, flags) = tarone(&tests, family_alpha);
    let testable = tests
        .iter()
        .filter(|(_, p_min)| *p_min <= threshold)
        .count();
    let regressed: Vec<(String, String)> = ids
        .iter()
        .zip(&tests)
        .zip(&flags)
        .filter(|(_, f)| **f)
        .map(|(((id, b, c), (p, _)), _)| ((*id).to_owned(), regression_text(id, b, c, *p)))
        .collect();
    let basis = format!(
        "one-sided Fisher exact per task, Tarone-corrected: {testable} of {} tasks can reach significance given their verdicts, threshold (α/2)/{k} = {threshold:.2e}",
        tests.len()
    );
    if regressed.is_empty() {
        RuleResult::new(
            ID,
            TITLE,
            RuleOutcome::Pass,
            format!("no task regressed significantly ({basis})"),
            Vec::new(),
        )
    } else {
        RuleResult::new(
            ID,
            TITLE,
            RuleOutcome::Fail,
            format!(
                "{} task(s) regressed significantly: {} ({basis})",
                regressed.len(),
                regressed
                    .iter()
                    .map(|(_, d)| d.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            regressed.into_iter().map(|(id, _)| id).collect(),
        )
    }
}

/// The rule, skipped, with why.
fn skipped(detail: String) -> RuleResult {
    RuleResult::new(ID, TITLE, RuleOutcome::Skipped, detail, Vec::new())
}

/// A task both runs have, with its two sides.
type Sides<'a> = (&'a str, &'a TaskSide, &'a TaskSide);

/// The tasks whose Fisher test is defined, beside each test's (p, smallest p its margins
/// allow).
fn fisher_tests(cmp: &Comparison) -> (Vec<Sides<'_>>, Vec<(f64, f64)>) {
    let mut ids = Vec::new();
    let mut tests = Vec::new();
    for t in &cmp.tasks {
        if let (Some(b), Some(c)) = (&t.baseline, &t.candidate)
            && let Some(f) = fisher_drop(b.trials(), b.passed, c.trials(), c.passed)
        {
            ids.push((t.task_id.as_str(), b, c));
            tests.push((f.p, f.p_min));
        }
    }
    (ids, tests)
}

/// `task-03 (4/4 → 0/4 with 1 error trial(s), p = 1.43e-2)`.
fn regression_text(id: &str, b: &TaskSide, c: &TaskSide, p: f64) -> String {
    format!(
        "{id} ({}/{} → {}/{}{}, p = {p:.2e})",
        b.passed,
        b.trials(),
        c.passed,
        c.trials(),
        if c.errors > 0 {
            format!(" with {} error trial(s)", c.errors)
        } else {
            String::new()
        }
    )
}
