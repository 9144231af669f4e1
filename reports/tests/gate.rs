//! The CI gate on synthetic runs whose differences are known exactly.

mod common;

use nab_protocol::trial::{TrialRecord, TrialStatus};
use nab_reports::cli::gate::{GateArgs, run as run_gate};
use nab_reports::compare::Comparison;
use nab_reports::fixtures;
use nab_reports::gate::{self, GateConfig, RuleOutcome};
use nab_reports::run::Run;

fn baseline() -> (fixtures::SynthSpec, Vec<TrialRecord>) {
    let spec = common::spec("base", 28, 5, false);
    let recs = fixtures::records(&spec);
    (spec, recs)
}

/// Task ids whose every baseline trial passed.
fn always_passing(recs: &[TrialRecord]) -> Vec<String> {
    let run = Run::from_records(
        std::path::Path::new("."),
        Default::default(),
        recs.to_vec(),
        false,
    );
    run.tasks
        .iter()
        .filter(|t| t.scored > 0 && t.passed == t.scored)
        .map(|t| t.task_id.clone())
        .collect()
}

fn gate_args(dir: &std::path::Path, b: &std::path::Path, c: &std::path::Path) -> GateArgs {
    GateArgs {
        baseline: b.to_owned(),
        candidate: c.to_owned(),
        config: None,
        junit: Some(dir.join("junit.xml")),
        markdown: Some(dir.join("summary.md")),
    }
}

#[test]
fn a_candidate_losing_two_always_passing_tasks_fails_and_names_them() {
    let tmp = tempfile::tempdir().unwrap();
    let (spec, base) = baseline();
    let lost: Vec<String> = always_passing(&base).into_iter().take(2).collect();
    assert_eq!(lost.len(), 2, "the fixture must have always-passing tasks");
    let mut cand = base.clone();
    for r in cand.iter_mut() {
        r.run_id = "cand".into();
        if lost.contains(&r.task_id) {
            r.status = TrialStatus::Failed;
            r.reward = 0.0;
        }
    }
    let b = common::write(tmp.path(), "base", &spec, &base);
    let c = common::write(tmp.path(), "cand", &spec, &cand);
    let outcome = run_gate(&gate_args(tmp.path(), &b, &c)).unwrap();
    assert!(!outcome.passed());
    let rule = outcome
        .rules
        .iter()
        .find(|r| r.id == "always_passing_now_failing")
        .unwrap();
    assert_eq!(rule.outcome, RuleOutcome::Fail);
    assert_eq!(rule.tasks, lost);
    for t in &lost {
        assert!(rule.detail.contains(t.as_str()), "{}", rule.detail);
    }
    // 2 of 28 tasks lost = −7.1 points > the 5-point default.
    let abs = outcome
        .rules
        .iter()
        .find(|r| r.id == "pass_rate_absolute_drop")
        .unwrap();
    assert_eq!(abs.outcome, RuleOutcome::Fail, "{}", abs.detail);
    assert!(abs.detail.contains("-7.1 pts"), "{}", abs.detail);

    let md = std::fs::read_to_string(tmp.path().join("summary.md")).unwrap();
    assert!(md.contains("❌ failed"), "{md}");
    for t in &lost {
        assert!(md.contains(&format!("`{t}`")), "markdown names {t}: {md}");
    }
    let junit = std::fs::read_to_string(tmp.path().join("junit.xml")).unwrap();
    assert_eq!(
        junit.matches("<testcase classname=\"nab.tasks.").count(),
        28,
        "one case per task"
    );
    let failing_cases: Vec<&str> = junit
        .lines()
        .filter(|l| l.contains("nab.tasks.") && l.contains("<failure"))
        .collect();
    assert_eq!(failing_cases.len(), 2, "{junit}");
    for t in &lost {
        assert!(
            failing_cases
                .iter()
                .any(|l| l.contains(&format!("name=\"{t}\""))),
            "{junit}"
        );
    }
    assert!(
        junit.contains("<testsuite name=\"nab.tasks\" tests=\"28\" failures=\"2\""),
        "{junit}"
    );
}

#[test]
fn an_identical_candidate_passes_every_rule() {
    let tmp = tempfile::tempdir().unwrap();
    let (spec, base) = baseline();
    let b = common::write(tmp.path(), "base", &spec, &base);
    let c = common::write(tmp.path(), "cand", &spec, &base);
    let outcome = run_gate(&gate_args(tmp.path(), &b, &c)).unwrap();
    assert!(outcome.passed(), "{:#?}", outcome.rules);
    assert!(
        outcome.rules.iter().all(|r| r.outcome == RuleOutcome::Pass),
        "{:#?}",
        outcome.rules
    );
    assert_eq!(outcome.comparison.paired.mean_diff, Some(0.0));
    let junit = std::fs::read_to_string(tmp.path().join("junit.xml")).unwrap();
    assert!(!junit.contains("<failure"), "{junit}");
    let md = std::fs::read_to_string(tmp.path().join("summary.md")).unwrap();
    assert!(md.contains("✅ passed"), "{md}");
}

#[test]
fn infrastructure_errors_alone_do_not_fail_the_gate_but_are_reported() {
    let tmp = tempfile::tempdir().unwrap();
    let (spec, base) = baseline();
    let run = Run::from_records(
        std::path::Path::new("."),
        Default::default(),
        base.clone(),
        false,
    );
    // Errors only where they cannot move a pass rate: some trials of stable tasks, and
    // every trial of one task (which then has no verdict at all).
    let stable: Vec<String> = run
        .tasks
        .iter()
        .filter(|t| t.passed == 0 || t.passed == t.scored)
        .map(|t| t.task_id.clone())
        .collect();
    let all_error = stable[0].clone();
    let mut cand = base.clone();
    for r in cand.iter_mut() {
        if r.task_id == all_error || (stable[1..4].contains(&r.task_id) && r.trial < 2) {
            r.status = TrialStatus::Error;
            r.reward = 0.0;
            r.error = Some("docker: engine unavailable".into());
        }
    }
    let errors = cand
        .iter()
        .filter(|r| r.status == TrialStatus::Error)
        .count();
    let b = common::write(tmp.path(), "base", &spec, &base);
    let c = common::write(tmp.path(), "cand", &spec, &cand);
    let outcome = run_gate(&gate_args(tmp.path(), &b, &c)).unwrap();
    assert!(outcome.passed(), "{:#?}", outcome.rules);
    let notes = outcome.notes.join("\n");
    assert!(
        notes.contains(&format!("baseline 0 trial(s), candidate {errors} trial(s)")),
        "{notes}"
    );
    assert!(
        notes.contains(&all_error),
        "the task without a verdict is named: {notes}"
    );
    let md = std::fs::read_to_string(tmp.path().join("summary.md")).unwrap();
    assert!(
        md.contains("infrastructure errors") && md.contains("docker: engine unavailable"),
        "{md}"
    );
    let junit = std::fs::read_to_string(tmp.path().join("junit.xml")).unwrap();
    assert!(!junit.contains("<failure"), "{junit}");
    let skipped = junit
        .lines()
        .find(|l| l.contains(&format!("name=\"{all_error}\"")))
        .unwrap();
    assert!(skipped.contains("<skipped"), "{skipped}");
}

fn evaluate(base: &[TrialRecord], cand: &[TrialRecord], config: &GateConfig) -> gate::GateOutcome {
    let p = std::path::Path::new(".");
    let b = Run::from_records(p, Default::default(), base.to_vec(), false);
    let c = Run::from_records(p, Default::default(), cand.to_vec(), false);
    gate::evaluate(Comparison::compute(&b, &c, Vec::new(), 1).unwrap(), config)
}

#[test]
fn token_growth_and_fatal_violations_fail_with_one_line_each() {
    let (_, base) = baseline();
    let mut cand = base.clone();
    for r in cand.iter_mut() {
        r.input_tokens = r.input_tokens.map(|t| t * 2);
        r.output_tokens = r.output_tokens.map(|t| t * 2);
    }
    cand[3]
        .violations
        .push("container left behind: nab-trial-3".into());
    let o = evaluate(&base, &cand, &GateConfig::default());
    let ids: Vec<&str> = o.failing().map(|r| r.id).collect();
    assert_eq!(ids, ["fatal_violations", "token_growth"]);
    let tok = o.rules.iter().find(|r| r.id == "token_growth").unwrap();
    assert!(
        tok.detail.contains("2.00×") && !tok.detail.contains('\n'),
        "{}",
        tok.detail
    );
    let v = o.rules.iter().find(|r| r.id == "fatal_violations").unwrap();
    assert_eq!(v.tasks, [cand[3].task_id.clone()]);
    // The config can turn both off.
    let cfg = GateConfig::from_yaml(
        "fatal_violations: []\nmax_token_ratio: null\n",
        std::path::Path::new("g.yaml"),
    )
    .unwrap();
    assert!(evaluate(&base, &cand, &cfg).passed());
}

#[test]
fn a_significant_drop_fails_by_the_paired_test_even_under_a_loose_absolute_limit() {
    let (_, base) = baseline();
    let mut cand = base.clone();
    // Every trial of every other task fails: a large, consistent drop.
    for r in cand.iter_mut() {
        let i: usize = r.task_id[5..7].parse().unwrap();
        if i.is_multiple_of(2) {
            r.status = TrialStatus::Failed;
        }
    }
    let cfg = GateConfig::from_yaml(
        "max_pass_rate_drop: 1.0\nfail_on_lost_tasks: false\n",
        std::path::Path::new("g.yaml"),
    )
    .unwrap();
    let o = evaluate(&base, &cand, &cfg);
    let sig = o
        .rules
        .iter()
        .find(|r| r.id == "pass_rate_significant_drop")
        .unwrap();
    assert_eq!(sig.outcome, RuleOutcome::Fail, "{}", sig.detail);
    assert!(sig.detail.contains("bootstrap"), "{}", sig.detail);
    assert_eq!(o.failing().count(), 1);
}
