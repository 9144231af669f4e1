//! JUnit XML, written with quick-junit: one test case per task (and one per rule), so any
//! CI system lists failures.

use super::{GateOutcome, RuleOutcome};
use crate::compare::TaskSide;
use quick_junit::{NonSuccessKind, Report, TestCase, TestCaseStatus, TestSuite};
use std::collections::BTreeMap;

fn failure(message: &str, description: Option<String>) -> TestCaseStatus {
    let mut status = TestCaseStatus::non_success(NonSuccessKind::Failure);
    status.set_message(message);
    if let Some(d) = description {
        status.set_description(d);
    }
    status
}

fn skipped(message: &str) -> TestCaseStatus {
    let mut status = TestCaseStatus::skipped();
    status.set_message(message);
    status
}

/// One case per task: failing when a failing rule names it, skipped when the candidate did
/// not run it or ran it only into infrastructure errors (it still counts as not passed in
/// the rules).
fn task_suite(g: &GateOutcome) -> TestSuite {
    // Per task: the failing rules that name it.
    let mut task_failures: BTreeMap<&str, Vec<String>> = BTreeMap::new();
    for r in g.failing() {
        for t in &r.tasks {
            task_failures
                .entry(t.as_str())
                .or_default()
                .push(format!("{}: {}", r.id, r.detail));
        }
    }
    let mut suite = TestSuite::new("nab.tasks");
    for t in &g.comparison.tasks {
        let frac = |x: &Option<TaskSide>| {
            x.as_ref()
                .map(|x| {
                    format!(
                        "{}/{} passed, {} error(s) (counted as not passed)",
                        x.passed,
                        x.trials(),
                        x.errors
                    )
                })
                .unwrap_or_else(|| "absent".into())
        };
        let out = format!(
            "baseline {}; candidate {}; {}",
            frac(&t.baseline),
            frac(&t.candidate),
            t.change
        );
        let status = match task_failures.get(t.task_id.as_str()) {
            Some(f) => failure(&f[0], Some(f.join("\n"))),
            None if t.candidate.as_ref().is_none_or(|c| c.scored == 0) => skipped(
                "no verdict in the candidate (absent, or infrastructure errors only: counted as not passed)",
            ),
            None => TestCaseStatus::success(),
        };
        let mut case = TestCase::new(t.task_id.as_str(), status);
        case.set_classname(format!("nab.tasks.{}", t.category));
        case.set_system_out(out);
        suite.add_test_case(case);
    }
    suite
}

/// One case per gate rule.
fn rule_suite(g: &GateOutcome) -> TestSuite {
    let mut suite = TestSuite::new("nab.gate");
    for r in &g.rules {
        let status = match r.outcome {
            RuleOutcome::Fail => failure(&r.detail, None),
            RuleOutcome::Skipped => skipped(&r.detail),
            RuleOutcome::Pass => TestCaseStatus::success(),
        };
        let mut case = TestCase::new(r.id, status);
        case.set_classname("nab.gate");
        if r.outcome == RuleOutcome::Pass {
            case.set_system_out(r.detail.as_str());
        }
        suite.add_test_case(case);
    }
    suite
}

/// The gate's outcome as a JUnit XML document.
pub fn render(g: &GateOutcome) -> Result<String, quick_junit::SerializeError> {
    let mut report = Report::new("nab gate");
    report.add_test_suites([task_suite(g), rule_suite(g)]);
    report.to_string()
}
