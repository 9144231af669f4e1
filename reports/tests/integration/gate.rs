//! The CI gate on synthetic runs whose differences are known exactly.

use crate::common;
use nab_reports::gate;
use nab_reports::{GateOutcome, RuleResult};
use nab_reports::{SynthSpec, synth_records};

use nab_protocol::{ErrorKind, TrialRecord, TrialStatus};
use nab_reports::Comparison;
use nab_reports::GateArgs;
use nab_reports::Run;
use nab_reports::cli::gate as gate_cli;
use nab_reports::{GateConfig, RuleOutcome};

fn baseline() -> (SynthSpec, Vec<TrialRecord>) {
    let spec = common::spec("base", 28, 5, false);
    let recs = synth_records(&spec);
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

/// A candidate (run id `cand`) that fails every trial of two tasks the baseline `base`
/// always passed, and passes the rest as the baseline did: those tasks and its records.
fn losing_two(base: &[TrialRecord]) -> (Vec<String>, Vec<TrialRecord>) {
    let lost: Vec<String> = always_passing(base).into_iter().take(2).collect();
    let mut cand = base.to_vec();
    for r in cand.iter_mut() {
        r.run_id = "cand".into();
        if lost.contains(&r.task_id) {
            r.outcome.status = TrialStatus::Failed;
            r.outcome.reward = 0.0;
        }
    }
    (lost, cand)
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
fn a_candidate_losing_two_always_passing_tasks_at_5_trials_fails_by_the_exact_test_and_names_them()
{
    let tmp = tempfile::tempdir().unwrap();
    let (spec, base) = baseline();
    let (lost, cand) = losing_two(&base);
    assert_eq!(lost.len(), 2, "the fixture must have always-passing tasks");
    let b = common::write(tmp.path(), "base", &spec, &base);
    let c = common::write(tmp.path(), "cand", &spec, &cand);
    let outcome = gate_cli::run(&gate_args(tmp.path(), &b, &c)).unwrap();
    assert!(!outcome.passed());
    let regressed = rule(&outcome, "task_regressed");
    assert_eq!(regressed.outcome, RuleOutcome::Fail, "{}", regressed.detail);
    assert_eq!(regressed.tasks, lost);
    for t in &lost {
        // 5/5 → 0/5: p = 1/C(10,5) = 3.97e-3.
        assert!(
            regressed
                .detail
                .contains(&format!("{t} (5/5 → 0/5, p = 3.97e-3)")),
            "{}",
            regressed.detail
        );
    }
    assert!(regressed.detail.contains("Tarone"), "{}", regressed.detail);
    // The point-drop rule is off by default; 2 of 28 tasks (−7.1 points) is not a
    // significant drop of the pass rate over tasks.
    let abs = rule(&outcome, "pass_rate_absolute_drop");
    assert_eq!(abs.outcome, RuleOutcome::Skipped, "{}", abs.detail);
    assert_eq!(outcome.failing().count(), 1, "{:#?}", outcome.rules);

    let md = std::fs::read_to_string(tmp.path().join("summary.md")).unwrap();
    assert!(md.contains("❌ failed"), "{md}");
    for t in &lost {
        assert!(md.contains(&format!("`{t}`")), "markdown names {t}: {md}");
    }
    let junit = std::fs::read_to_string(tmp.path().join("junit.xml")).unwrap();
    let tasks = task_suite(&junit);
    assert_eq!(
        tasks
            .test_cases
            .iter()
            .filter(|c| c
                .classname
                .as_ref()
                .is_some_and(|n| n.as_str().starts_with("nab.tasks.")))
            .count(),
        28,
        "one case per task"
    );
    let failing_cases: Vec<&str> = tasks
        .test_cases
        .iter()
        .filter(|c| is_failure(&c.status))
        .map(|c| c.name.as_str())
        .collect();
    assert_eq!(failing_cases.len(), 2, "{junit}");
    for t in &lost {
        assert!(failing_cases.contains(&t.as_str()), "{junit}");
    }
    assert_eq!((tasks.tests, tasks.failures), (28, 2), "{junit}");
}

/// The `nab.tasks` suite of the gate's JUnit XML, read back with quick-junit.
fn task_suite(junit: &str) -> quick_junit::TestSuite {
    let report = quick_junit::Report::deserialize_from_str(junit).expect("well-formed JUnit XML");
    report
        .test_suites
        .into_iter()
        .find(|s| s.name.as_str() == "nab.tasks")
        .expect("a nab.tasks suite")
}

fn is_failure(status: &quick_junit::TestCaseStatus) -> bool {
    matches!(
        status,
        quick_junit::TestCaseStatus::NonSuccess {
            kind: quick_junit::NonSuccessKind::Failure,
            ..
        }
    )
}

#[test]
fn an_identical_candidate_passes_every_rule() {
    let tmp = tempfile::tempdir().unwrap();
    let (spec, mut base) = baseline();
    // Priced, so the cost rule is judged too (without a cost it is skipped).
    for r in base.iter_mut() {
        r.usage.cost_usd = Some(0.01);
    }
    let b = common::write(tmp.path(), "base", &spec, &base);
    let c = common::write(tmp.path(), "cand", &spec, &base);
    let outcome = gate_cli::run(&gate_args(tmp.path(), &b, &c)).unwrap();
    assert!(outcome.passed(), "{:#?}", outcome.rules);
    // Every rule judged and passed, except the point-drop rule, off by default.
    assert!(
        outcome
            .rules
            .iter()
            .all(|r| r.outcome == RuleOutcome::Pass || r.id == "pass_rate_absolute_drop"),
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
fn errors_where_they_cannot_move_a_pass_rate_do_not_fail_the_gate_but_are_reported() {
    let tmp = tempfile::tempdir().unwrap();
    let (spec, base) = baseline();
    let run = Run::from_records(
        std::path::Path::new("."),
        Default::default(),
        base.clone(),
        false,
    );
    // Errors only on tasks the baseline always failed (an error is not a pass, so nothing
    // moves): every trial of one of them (no verdict at all), two trials of three others.
    let never: Vec<String> = run
        .tasks
        .iter()
        .filter(|t| t.passed == 0)
        .map(|t| t.task_id.clone())
        .collect();
    let all_error = never[0].clone();
    let mut cand = base.clone();
    for r in cand.iter_mut() {
        if r.task_id == all_error || (never[1..4].contains(&r.task_id) && r.trial < 2) {
            r.outcome.status = TrialStatus::Error;
            r.outcome.reward = 0.0;
            r.outcome.error = Some("docker: engine unavailable".into());
        }
    }
    let errors = cand
        .iter()
        .filter(|r| r.outcome.status == TrialStatus::Error)
        .count();
    let b = common::write(tmp.path(), "base", &spec, &base);
    let c = common::write(tmp.path(), "cand", &spec, &cand);
    let outcome = gate_cli::run(&gate_args(tmp.path(), &b, &c)).unwrap();
    assert!(outcome.passed(), "{:#?}", outcome.rules);
    assert_eq!(outcome.comparison.paired.mean_diff, Some(0.0));
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
    let tasks = task_suite(&junit);
    let skipped = tasks
        .test_cases
        .iter()
        .find(|c| c.name.as_str() == all_error)
        .unwrap();
    assert!(
        matches!(skipped.status, quick_junit::TestCaseStatus::Skipped { .. }),
        "{junit}"
    );
}

/// The result of rule `id` (every rule is always in the outcome).
fn rule<'a>(o: &'a GateOutcome, id: &str) -> &'a RuleResult {
    o.rules
        .iter()
        .find(|r| r.id == id)
        .unwrap_or_else(|| panic!("no rule {id} in the outcome"))
}

/// A gate configuration from YAML text.
fn config(yaml: &str) -> GateConfig {
    GateConfig::from_yaml(yaml, std::path::Path::new("g.yaml")).unwrap()
}

fn evaluate(base: &[TrialRecord], cand: &[TrialRecord], config: &GateConfig) -> GateOutcome {
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
        r.usage.input_tokens = r.usage.input_tokens.map(|t| t * 2);
        r.usage.output_tokens = r.usage.output_tokens.map(|t| t * 2);
    }
    cand[3]
        .behaviour
        .violations
        .push("container left behind: nab-trial-3".into());
    let o = evaluate(&base, &cand, &GateConfig::default());
    let ids: Vec<&str> = o.failing().map(|r| r.id).collect();
    assert_eq!(ids, ["fatal_violations", "token_growth"]);
    let tok = rule(&o, "token_growth");
    assert!(
        tok.detail.contains("2.00×") && !tok.detail.contains('\n'),
        "{}",
        tok.detail
    );
    let v = rule(&o, "fatal_violations");
    assert_eq!(v.tasks, [cand[3].task_id.clone()]);
    // The config can turn both off.
    let cfg = config("fatal_violations: []\nmax_token_ratio: null\n");
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
            r.outcome.status = TrialStatus::Failed;
        }
    }
    let cfg = config("max_pass_rate_drop: 1.0\nfail_on_lost_tasks: false\n");
    let o = evaluate(&base, &cand, &cfg);
    let sig = rule(&o, "pass_rate_significant_drop");
    assert_eq!(sig.outcome, RuleOutcome::Fail, "{}", sig.detail);
    assert!(
        sig.detail.contains("exact sign-flip test"),
        "{}",
        sig.detail
    );
    assert_eq!(o.failing().count(), 1);
}

/// The exact test at one trial per task: four tasks all worse is 1 in 16 one-sided, not
/// significant (the paired t-test it replaced failed the gate here); six of them is 1 in
/// 64 = 1.6% ≤ 2.5%, and fails.
#[test]
fn at_one_trial_per_task_the_drop_rule_is_the_exact_binomial_test() {
    let spec = common::spec("base", 12, 1, false);
    let mut base = synth_records(&spec);
    for r in base.iter_mut() {
        r.outcome.status = TrialStatus::Passed;
    }
    let worse = |n: usize| {
        let mut c = base.clone();
        for r in c.iter_mut().take(n) {
            r.outcome.status = TrialStatus::Failed;
        }
        c
    };
    let o = evaluate(&base, &worse(4), &GateConfig::default());
    let sig = rule(&o, "pass_rate_significant_drop");
    assert_eq!(sig.outcome, RuleOutcome::Pass, "{}", sig.detail);
    assert!(
        sig.detail.contains("p of a drop = 0.0625"),
        "{}",
        sig.detail
    );
    let o = evaluate(&base, &worse(6), &GateConfig::default());
    let sig = rule(&o, "pass_rate_significant_drop");
    assert_eq!(sig.outcome, RuleOutcome::Fail, "{}", sig.detail);
    assert!(
        sig.detail.contains("p of a drop = 0.0156"),
        "{}",
        sig.detail
    );
    // The interval never leaves [−100, +100] points.
    let t = o.comparison.paired.test.unwrap();
    assert!(t.interval.low >= -1.0 && t.interval.high <= 0.0, "{t:?}");
}

/// The attack of issue 11: a candidate that turns every failure into `status: error` has a
/// perfect pass rate over its scored trials. Every trial counts, an error as not passed, so
/// its headline rate is exactly the baseline's; the error-rate rules say what happened.
#[test]
fn an_agent_cannot_hide_a_regression_by_abstaining() {
    let (_, base) = baseline();
    let mut cand = base.clone();
    for r in cand.iter_mut() {
        if r.outcome.status == TrialStatus::Failed {
            r.outcome.status = TrialStatus::Error;
            r.outcome.error = Some("agent crashed the verifier".into());
        }
    }
    let o = evaluate(&base, &cand, &GateConfig::default());
    let (b, c) = (&o.comparison.baseline, &o.comparison.candidate);
    assert_eq!(
        c.pass_rate, b.pass_rate,
        "relabelling never lifts the headline"
    );
    assert!(
        c.scored_pass_rate > b.scored_pass_rate,
        "only the rate over scored trials rises"
    );
    assert_eq!(o.comparison.paired.mean_diff, Some(0.0));
    let failing: Vec<&str> = o.failing().map(|r| r.id).collect();
    assert!(
        failing.contains(&"error_rate_increase") && failing.contains(&"error_rate_limit"),
        "{:#?}",
        o.rules
    );
    let inc = rule(&o, "error_rate_increase");
    assert!(
        inc.detail.contains("error rate 0.0% →") && inc.detail.contains("entirely above 0"),
        "{}",
        inc.detail
    );
    assert!(!inc.tasks.is_empty());
    // Turned off, the error rules are skipped; the attack gained nothing on the pass rate.
    let off = config("fail_on_error_rate_increase: false\nmax_error_rate: null\n");
    assert!(evaluate(&base, &cand, &off).passed());
}

/// Done-when of issue 35: a candidate that errors on tasks the baseline passed fails the
/// gate, exactly as if it had failed them (before, those tasks dropped out of the paired
/// statistics and a 7.1% error rate stayed under the 10% limit).
#[test]
fn a_candidate_erroring_where_the_baseline_passed_fails_the_gate() {
    let (_, base) = baseline();
    let (lost, failed) = losing_two(&base);
    let errored: Vec<TrialRecord> = failed
        .iter()
        .cloned()
        .map(|mut r| {
            if lost.contains(&r.task_id) {
                r.outcome.status = TrialStatus::Error;
                r.outcome.error_kind = Some(ErrorKind::Sandbox);
                r.outcome.error = Some("docker: container died".into());
            }
            r
        })
        .collect();
    let by_failing = evaluate(&base, &failed, &GateConfig::default());
    let by_erroring = evaluate(&base, &errored, &GateConfig::default());
    for o in [&by_failing, &by_erroring] {
        assert!(!o.passed(), "{:#?}", o.rules);
        let reg = rule(o, "task_regressed");
        assert_eq!(reg.outcome, RuleOutcome::Fail, "{}", reg.detail);
        assert_eq!(reg.tasks, lost);
    }
    assert!(
        rule(&by_erroring, "task_regressed")
            .detail
            .contains("0/5 with 5 error trial(s)"),
        "{}",
        rule(&by_erroring, "task_regressed").detail
    );
    // The same pass rates either way: erroring is not a way out.
    assert_eq!(
        by_failing.comparison.candidate.pass_rate,
        by_erroring.comparison.candidate.pass_rate
    );
    assert_eq!(by_erroring.comparison.paired.tasks, 28, "no task drops out");
}

#[test]
fn a_few_errors_in_one_task_stay_under_the_limit_but_a_rise_everywhere_fails_it() {
    let (_, base) = baseline();
    // One error per task (trial 0) everywhere: 28 of 140 = 20% > 10%, and every task's
    // error rate rose by the same 0.2, so the paired interval is [0.2, 0.2].
    let mut cand = base.clone();
    for r in cand.iter_mut().filter(|r| r.trial == 0) {
        r.outcome.status = TrialStatus::Error;
    }
    let o = evaluate(&base, &cand, &GateConfig::default());
    let lim = rule(&o, "error_rate_limit");
    assert_eq!(lim.outcome, RuleOutcome::Fail, "{}", lim.detail);
    assert!(
        lim.detail.contains("28 of 140") && lim.detail.contains("20.0%"),
        "{}",
        lim.detail
    );
    let inc = rule(&o, "error_rate_increase");
    assert_eq!(inc.outcome, RuleOutcome::Fail, "{}", inc.detail);
}

#[test]
fn zero_token_trials_fail_the_gate_and_are_named() {
    let (_, base) = baseline();
    let mut cand = base.clone();
    cand[7].usage.llm_calls = Some(4);
    cand[7].usage.input_tokens = Some(0);
    cand[7].usage.output_tokens = Some(0);
    let o = evaluate(&base, &cand, &GateConfig::default());
    let z = rule(&o, "zero_token_trials");
    assert_eq!(z.outcome, RuleOutcome::Fail, "{}", z.detail);
    assert_eq!(z.tasks, [cand[7].task_id.clone()]);
    // No model call, no tokens: not a provider fault.
    cand[7].usage.llm_calls = Some(0);
    let o = evaluate(&base, &cand, &GateConfig::default());
    let z = rule(&o, "zero_token_trials");
    assert_eq!(z.outcome, RuleOutcome::Pass, "{}", z.detail);
}

#[test]
fn too_few_tasks_or_trials_are_not_evidence_and_do_not_fail() {
    // 6 tasks × 1 trial; the candidate fails everything the baseline passed.
    let spec = common::spec("base", 6, 1, false);
    let base = synth_records(&spec);
    let mut cand = base.clone();
    for r in cand.iter_mut() {
        r.outcome.status = TrialStatus::Failed;
    }
    let o = evaluate(&base, &cand, &GateConfig::default());
    let sig = rule(&o, "pass_rate_significant_drop");
    assert_eq!(sig.outcome, RuleOutcome::Skipped, "{}", sig.detail);
    assert!(sig.detail.contains("not enough tasks: 6"), "{}", sig.detail);
    let task = rule(&o, "task_regressed");
    assert_eq!(task.outcome, RuleOutcome::Skipped, "{}", task.detail);
    assert!(task.detail.contains("not enough trials"), "{}", task.detail);
    assert!(o.passed(), "{:#?}", o.rules);
}

#[test]
fn a_changed_system_prompt_fails_only_the_rerecord_rule_not_the_error_rate_rules() {
    let tmp = tempfile::tempdir().unwrap();
    let (spec, base) = baseline();
    let mut cand = base.clone();
    for r in cand.iter_mut() {
        // One changed word in the system prompt: every request of every trial misses.
        r.run_id = "cand".into();
        r.outcome.status = TrialStatus::Error;
        r.outcome.error_kind = Some(ErrorKind::ReplayMiss);
        r.outcome.error = Some("replay miss: first difference at `messages[0].content`".into());
        r.outcome.reward = 0.0;
    }
    let b = common::write(tmp.path(), "base", &spec, &base);
    let c = common::write(tmp.path(), "cand", &spec, &cand);
    let outcome = gate_cli::run(&gate_args(tmp.path(), &b, &c)).unwrap();
    let failing: Vec<&str> = outcome.failing().map(|r| r.id).collect();
    assert_eq!(failing, ["replay_miss"], "{:#?}", outcome.rules);
    for id in ["error_rate_increase", "error_rate_limit"] {
        let rule = outcome.rules.iter().find(|r| r.id == id).unwrap();
        assert!(
            rule.detail.contains("until the cassette is re-recorded"),
            "{id}: {}",
            rule.detail
        );
    }

    // The same errors without a replay miss are abstention, and the error rules catch it.
    for r in cand.iter_mut() {
        r.outcome.error_kind = Some(ErrorKind::Sandbox);
        r.outcome.error = Some("docker: container died".into());
    }
    let c = common::write(tmp.path(), "cand2", &spec, &cand);
    let outcome = gate_cli::run(&gate_args(tmp.path(), &b, &c)).unwrap();
    let failing: Vec<&str> = outcome.failing().map(|r| r.id).collect();
    assert!(failing.contains(&"error_rate_limit"), "{failing:?}");
}

#[test]
fn replay_misses_fail_with_the_rerecord_rule_not_as_regressions_and_drift_is_reported() {
    let tmp = tempfile::tempdir().unwrap();
    let (spec, base) = baseline();
    let passing = always_passing(&base);
    let (missed, drifted) = (passing[0].clone(), passing[1].clone());
    let miss = "replay miss: the agent's requests changed: cassette ci/cassette has no recording of this request (key 0123456789ab, model \"scripted\", 1 messages).\nnearest recorded request: ci/cassette/x.json (0 leading messages equal)\nfirst difference at `messages[0].content`:\n--- recorded\n+++ requested\n-You are nab-agent.\n+You are the nab-agent.\n";
    let mut cand = base.clone();
    for r in cand.iter_mut() {
        r.run_id = "cand".into();
        if r.task_id == missed {
            // Every trial of an always-passing task: what a changed system prompt does.
            r.outcome.status = TrialStatus::Error;
            r.outcome.error_kind = Some(ErrorKind::ReplayMiss);
            r.outcome.error = Some(miss.into());
            r.outcome.reward = 0.0;
        }
        if r.task_id == drifted {
            r.behaviour.replay_drift = vec![
                "call 3: messages[7].content: `Ran 9 tests in 0.001s` → `Ran 9 tests in 0.000s`"
                    .into(),
            ];
        }
    }
    let b = common::write(tmp.path(), "base", &spec, &base);
    let c = common::write(tmp.path(), "cand", &spec, &cand);
    let outcome = gate_cli::run(&gate_args(tmp.path(), &b, &c)).unwrap();
    assert!(!outcome.passed());
    let failing: Vec<&str> = outcome.failing().map(|r| r.id).collect();
    assert_eq!(
        failing,
        ["replay_miss"],
        "its own rule, and only it: {:#?}",
        outcome.rules
    );
    let rule = rule(&outcome, "replay_miss");
    assert!(
        rule.detail
            .contains("the agent's requests changed: re-record the cassette (ci/rerecord.sh)")
            && rule
                .detail
                .contains("first difference at `messages[0].content`")
            && rule.detail.contains(&missed),
        "{}",
        rule.detail
    );
    assert_eq!(rule.tasks, vec![missed.clone()]);
    let md = std::fs::read_to_string(tmp.path().join("summary.md")).unwrap();
    assert!(md.contains("**replay_miss**"), "{md}");
    assert!(md.contains("### Replay misses"), "{md}");
    assert!(
        md.contains("+You are the nab-agent."),
        "the diff is shown: {md}"
    );
    assert!(md.contains("| replay misses (trials) | 0 | 5 |"), "{md}");
    let trials = cand.iter().filter(|r| r.task_id == drifted).count();
    assert!(
        md.contains(&format!(
            "| replay drift (calls answered after normalization) | 0 | {trials} |"
        )),
        "{md}"
    );
    assert!(
        md.contains("### Replay drift") && md.contains(&format!("| `{drifted}` | {trials} |")),
        "{md}"
    );
    let junit = std::fs::read_to_string(tmp.path().join("junit.xml")).unwrap();
    assert!(junit.contains("replay_miss"), "{junit}");

    // Drift alone passes.
    let cand: Vec<TrialRecord> = cand
        .into_iter()
        .map(|mut r| {
            if r.task_id == missed {
                r = base
                    .iter()
                    .find(|b| b.task_id == r.task_id && b.trial == r.trial)
                    .unwrap()
                    .clone();
            }
            r
        })
        .collect();
    let outcome = evaluate(&base, &cand, &GateConfig::default());
    assert!(outcome.passed(), "{:#?}", outcome.rules);
}

#[test]
fn quarantined_tasks_are_kept_out_of_scores_and_rules_and_shown_apart() {
    let tmp = tempfile::tempdir().unwrap();
    let (spec, base) = baseline();
    let (lost, cand) = losing_two(&base);
    let b = common::write(tmp.path(), "base", &spec, &base);
    let c = common::write(tmp.path(), "cand", &spec, &cand);
    // Quarantined in the candidate's suite only: left out of both runs all the same.
    std::fs::write(
        c.join("tasks/quarantine.yaml"),
        format!("- task: {}\n  reason: oracle flips under load\n", lost[0]),
    )
    .unwrap();
    let o = gate_cli::run(&gate_args(tmp.path(), &b, &c)).unwrap();
    let rule = rule(&o, "task_regressed");
    assert_eq!(rule.tasks, [lost[1].clone()], "{}", rule.detail);
    assert!(!rule.detail.contains(lost[0].as_str()), "{}", rule.detail);
    let notes = o.notes.join("\n");
    assert!(
        notes.contains(&format!("{} (oracle flips under load)", lost[0])),
        "{notes}"
    );
    assert_eq!(o.comparison.paired.tasks, 27, "left out of both sides");
    assert_eq!(o.comparison.baseline.tasks, 27);
    assert_eq!(o.comparison.candidate.quarantined[0].trials, 5);
    let md = std::fs::read_to_string(tmp.path().join("summary.md")).unwrap();
    assert!(md.contains("quarantined"), "{md}");

    // Both lost tasks quarantined: nothing is left to fail.
    std::fs::write(
        c.join("tasks/quarantine.yaml"),
        format!(
            "- task: {}\n  reason: flaky\n- task: {}\n  reason: flaky\n",
            lost[0], lost[1]
        ),
    )
    .unwrap();
    assert!(
        gate_cli::run(&gate_args(tmp.path(), &b, &c))
            .unwrap()
            .passed()
    );
    // The report lists them apart.
    let out = nab_reports::write_run_outputs(&c).unwrap();
    assert_eq!(out.summary.quarantined.len(), 2);
    let html = std::fs::read_to_string(out.report_html).unwrap();
    assert!(html.contains(&format!("data-quarantined=\"{}\"", lost[0])));
    // A malformed list is a clear error naming the file.
    std::fs::write(c.join("tasks/quarantine.yaml"), "- task: x\n").unwrap();
    let e = gate_cli::run(&gate_args(tmp.path(), &b, &c))
        .unwrap_err()
        .to_string();
    assert!(e.contains("quarantine.yaml") && e.contains("reason"), "{e}");
}

#[test]
fn cost_growth_fails_past_its_limit_passes_under_it_and_skips_without_costs() {
    let (_, mut base) = baseline();
    for r in base.iter_mut() {
        r.usage.cost_usd = Some(0.10);
    }
    let grown = |factor: f64| {
        let mut c = base.clone();
        for r in c.iter_mut() {
            r.usage.cost_usd = Some(0.10 * factor);
        }
        c
    };
    let rule = |o: &GateOutcome| {
        o.rules
            .iter()
            .find(|r| r.id == "cost_growth")
            .cloned()
            .unwrap()
    };
    // Double the cost, same tokens: only the cost rule fails.
    let o = evaluate(&base, &grown(2.0), &GateConfig::default());
    let ids: Vec<&str> = o.failing().map(|r| r.id).collect();
    assert_eq!(ids, ["cost_growth"]);
    let r = rule(&o);
    assert!(
        r.detail.contains("2.00×") && r.detail.contains("limit 1.50×"),
        "{}",
        r.detail
    );
    // 1.2× is under the default limit.
    let o = evaluate(&base, &grown(1.2), &GateConfig::default());
    assert_eq!(rule(&o).outcome, RuleOutcome::Pass);
    assert!(o.passed());
    // A tighter limit in gate.yaml catches it.
    let cfg = config("max_cost_ratio: 1.1\n");
    assert_eq!(
        rule(&evaluate(&base, &grown(1.2), &cfg)).outcome,
        RuleOutcome::Fail
    );
    // Off in the config, or no cost in one run: skipped, never failed.
    let off = config("max_cost_ratio: null\n");
    assert_eq!(
        rule(&evaluate(&base, &grown(2.0), &off)).outcome,
        RuleOutcome::Skipped
    );
    let (_, unpriced) = baseline();
    let r = rule(&evaluate(&unpriced, &grown(2.0), &GateConfig::default()));
    assert_eq!(r.outcome, RuleOutcome::Skipped);
    assert!(
        r.detail.contains("not recorded in both runs"),
        "{}",
        r.detail
    );
    // A ratio that is not a positive number is refused.
    for bad in [
        "max_cost_ratio: 0\n",
        "max_cost_ratio: -1\n",
        "max_cost_ratio: .nan\n",
    ] {
        let e = GateConfig::from_yaml(bad, std::path::Path::new("g.yaml")).unwrap_err();
        assert!(e.to_string().contains("max_cost_ratio"), "{e}");
    }
}
