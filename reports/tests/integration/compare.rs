//! `nab compare`: compare.html, the terminal summary and pairwise judge input.

use crate::common;
use nab_reports::cli::compare;
use nab_reports::synth_records;

use nab_protocol::PairwiseVerdict;
use nab_protocol::TrialStatus;
use nab_reports::CompareArgs;
use nab_reports::Comparison;
use std::path::Path;

/// The reports' side of `nab compare`, shown the verdicts of a plain verdict file (in
/// `nab compare` the judges' side reads `--pairwise`; see nab-judges' pairwise tests).
fn run(args: &CompareArgs, pairwise: Option<&Path>) -> anyhow::Result<Comparison> {
    let verdicts = match pairwise {
        Some(p) => nab_protocol::read_jsonl::<PairwiseVerdict>(p)?.records,
        None => Vec::new(),
    };
    Ok(compare::run(args, verdicts)?.comparison)
}
use std::path::PathBuf;

/// `nab compare --baseline <baseline> --candidate <candidate> --out <out> --seed 1`.
fn args(baseline: PathBuf, candidate: PathBuf, out: PathBuf) -> CompareArgs {
    CompareArgs {
        baseline,
        candidate,
        out: Some(out),
        seed: 1,
    }
}

/// [`run`], which must succeed.
fn compared(args: CompareArgs, pairwise: Option<&Path>) -> Comparison {
    run(&args, pairwise).unwrap()
}

#[test]
fn writes_compare_html_and_reports_paired_statistics_and_pairwise_results() {
    let tmp = tempfile::tempdir().unwrap();
    let spec = common::spec("base", 28, 3, false);
    let base = synth_records(&spec);
    let mut cand = base.clone();
    // The candidate loses task 00 (always passing) and gains task 01 (always failing).
    for r in cand.iter_mut() {
        r.run_id = "cand".into();
        match &r.task_id[..7] {
            "task-00" => r.outcome.status = TrialStatus::Failed,
            "task-01" => r.outcome.status = TrialStatus::Passed,
            _ => {}
        }
    }
    let b = common::write(tmp.path(), "base", &spec, &base);
    let c = common::write(tmp.path(), "cand", &spec, &cand);
    let pairs = tmp.path().join("pairs.jsonl");
    std::fs::write(
        &pairs,
        "{\"task_id\":\"task-02-terminal\",\"winner\":\"candidate\",\"consistent\":true,\"judge_model\":\"j\"}\n\
         {\"task_id\":\"task-03-mcp\",\"winner\":\"tie\",\"consistent\":false}\n",
    )
    .unwrap();
    let out = tmp.path().join(nab_protocol::COMPARE_FILE);
    let cmp = compared(args(b.clone(), c.clone(), out.clone()), Some(&pairs));
    assert_eq!(cmp.paired.tasks, 28);
    assert_eq!(cmp.paired.mean_diff, Some(0.0), "one lost, one gained");
    assert_eq!((cmp.paired.mcnemar.b, cmp.paired.mcnemar.c), (1, 1));
    assert_eq!(cmp.paired.mcnemar.p_value, 1.0);
    let changed: Vec<(&str, &str)> = cmp
        .tasks
        .iter()
        .filter(|t| t.change != "same")
        .map(|t| (t.task_id.as_str(), t.change))
        .collect();
    assert_eq!(
        changed,
        [
            ("task-00-localization", "regressed"),
            ("task-01-bug-fix", "improved")
        ]
    );
    let pw = cmp.pairwise.as_ref().unwrap();
    assert_eq!((pw.candidate_wins, pw.ties, pw.baseline_wins), (1, 1, 0));
    assert_eq!(pw.inconsistency_rate, 0.5);

    let text = cmp.terminal_summary();
    assert!(
        text.contains("McNemar (secondary)  b=1 c=1 two-sided p=1.0000"),
        "{text}"
    );
    assert!(
        text.contains("task-00-localization") && text.contains("regressed"),
        "{text}"
    );
    assert!(text.contains("detectable effect"), "{text}");
    let html = std::fs::read_to_string(&out).unwrap();
    assert!(
        html.contains("candidate wins <b>1</b>"),
        "pairwise section rendered"
    );
    assert!(html.contains("data-status=\"regressed\""));
}

/// Escapes like minijinja's HTML auto-escaping.
fn html_escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
        .replace('\'', "&#x27;")
}

#[test]
fn the_mde_is_the_same_figure_and_sentence_on_every_page() {
    let tmp = tempfile::tempdir().unwrap();
    let spec = common::spec("base", 28, 5, false);
    let base = synth_records(&spec);
    let mut cand = base.clone();
    for r in cand.iter_mut().filter(|r| r.trial < 2) {
        r.run_id = "cand".into();
        r.outcome.status = TrialStatus::Failed;
    }
    let b = common::write(tmp.path(), "base", &spec, &base);
    let c = common::write(tmp.path(), "cand", &spec, &cand);
    nab_reports::write_run_outputs(&c).unwrap();
    let cmp = compared(
        args(
            b.clone(),
            c.clone(),
            tmp.path().join(nab_protocol::COMPARE_FILE),
        ),
        None,
    );
    let md_path = tmp.path().join("gate.md");
    let gate = nab_reports::cli::gate::run(&nab_reports::GateArgs {
        baseline: b,
        candidate: c.clone(),
        config: None,
        junit: Some(tmp.path().join("junit.xml")),
        markdown: Some(md_path.clone()),
    })
    .unwrap();
    let summary: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(c.join(nab_protocol::SUMMARY_FILE)).unwrap())
            .unwrap();
    let report = std::fs::read_to_string(c.join(nab_protocol::REPORT_FILE)).unwrap();
    let compare = std::fs::read_to_string(tmp.path().join(nab_protocol::COMPARE_FILE)).unwrap();
    let md = std::fs::read_to_string(md_path).unwrap();

    // The run's own MDE: summary.json, report.html, and quoted on compare.html and the gate.
    let own = &cmp.candidate.mde;
    assert_eq!(summary["mde"]["value"].as_f64(), own.value);
    assert_eq!(
        summary["mde"]["explanation"].as_str(),
        Some(own.explanation.as_str())
    );
    assert!(
        own.detectable && own.trials_for_10_points.is_some(),
        "{own:?}"
    );
    assert!(
        report.contains(&html_escape(&own.explanation)),
        "{}",
        nab_protocol::REPORT_FILE
    );
    assert!(report.contains(&format!(">{}<", own.shown())));
    assert!(compare.contains(&format!(
        "candidate <span data-side=\"candidate-mde\">{}</span>",
        own.shown()
    )));
    assert!(md.contains(&format!("candidate {}.", own.shown())), "{md}");
    // The comparison's paired MDE: the same figure and sentence on compare.html and the gate.
    let paired = &cmp.paired.mde;
    assert_eq!(paired.sd_source, "observed per-task differences");
    assert!(
        compare.contains(&html_escape(&paired.explanation)),
        "{}",
        nab_protocol::COMPARE_FILE
    );
    assert!(compare.contains(&format!("<b data-paired=\"mde\">{}</b>", paired.shown())));
    assert!(
        md.contains(&format!(
            "minimum detectable effect {}: {}",
            paired.shown(),
            paired.explanation
        )),
        "{md}"
    );
    assert_eq!(gate.comparison.paired.mde, *paired);
    assert!(paired.explanation.contains("α 0.05, power 0.8"));
    assert!(paired.explanation.contains("10-point difference"));
}

#[test]
fn pass_at_k_compares_the_same_tasks_at_every_k_and_shows_the_count() {
    let tmp = tempfile::tempdir().unwrap();
    let spec = common::spec("base", 10, 3, false);
    let base = synth_records(&spec);
    // The candidate never recorded trial 2 of tasks 00–03 (an interrupted run): they have
    // only 2 trials there, so at k = 3 both runs are averaged over the other 6 tasks only.
    // (An error trial would count: it is a trial that did not pass.)
    let cand: Vec<_> = base
        .iter()
        .filter(|r| r.task_id[5..7].parse::<usize>().unwrap() >= 4 || r.trial != 2)
        .cloned()
        .collect();
    let b = common::write(tmp.path(), "base", &spec, &base);
    let c = common::write(tmp.path(), "cand", &spec, &cand);
    let out = tmp.path().join(nab_protocol::COMPARE_FILE);
    let cmp = compared(args(b, c, out.clone()), None);
    let ks: Vec<(u32, usize)> = cmp
        .paired
        .pass_at_k
        .iter()
        .map(|k| (k.k, k.tasks))
        .collect();
    assert_eq!(ks, [(1, 10), (2, 10), (3, 6)]);
    // At k = 3 the baseline is averaged over the same 6 tasks, not its own 10.
    let run_b = nab_reports::Run::load(&tmp.path().join("base")).unwrap();
    let six: Vec<f64> = run_b
        .tasks
        .iter()
        .filter(|t| t.task_id[5..7].parse::<usize>().unwrap() >= 4)
        .map(|t| nab_reports::pass_at_k(t.scored, t.passed, 3).unwrap())
        .collect();
    let want = six.iter().sum::<f64>() / 6.0;
    assert!((cmp.paired.pass_at_k[2].baseline_pass_at.unwrap() - want).abs() < 1e-12);
    let html = std::fs::read_to_string(out).unwrap();
    assert!(
        html.contains("over the 6 tasks with ≥ 3 trials in both"),
        "{}",
        nab_protocol::COMPARE_FILE
    );
}

#[test]
fn pairwise_records_from_another_run_pair_are_refused() {
    let tmp = tempfile::tempdir().unwrap();
    let spec = common::spec("base", 4, 1, false);
    let base = synth_records(&spec);
    let b = common::write(tmp.path(), "base", &spec, &base);
    let c = common::write(tmp.path(), "cand", &spec, &base);
    let pairs = tmp.path().join("pairs.jsonl");
    std::fs::write(
        &pairs,
        "{\"task_id\":\"task-00-localization\",\"winner\":\"tie\",\"baseline_run\":\"old-a\",\"candidate_run\":\"old-b\"}\n",
    )
    .unwrap();
    let args = args(b, c, tmp.path().join(nab_protocol::COMPARE_FILE));
    let e = run(&args, Some(&pairs)).unwrap_err().to_string();
    assert!(
        e.contains("old-a vs old-b") && e.contains("base vs base") && e.contains("refusing"),
        "{e}"
    );
    // The same record judged on these runs is accepted and summarised by task.
    std::fs::write(
        &pairs,
        "{\"task_id\":\"task-00-localization\",\"winner\":\"tie\",\"baseline_run\":\"base\",\"candidate_run\":\"base\"}\n",
    )
    .unwrap();
    let cmp = run(&args, Some(&pairs)).unwrap();
    let pw = cmp.pairwise.unwrap();
    assert_eq!(pw.judges.len(), 1);
    assert_eq!(pw.judges[0].preference.mean, 0.5);
}

#[test]
fn compare_shows_both_runs_costs_the_delta_and_the_per_task_costs() {
    let tmp = tempfile::tempdir().unwrap();
    let spec = common::spec("base", 12, 2, false);
    let mut base = synth_records(&spec);
    for r in base.iter_mut() {
        r.usage.cost_usd = Some(0.02);
    }
    let mut cand = base.clone();
    for r in cand.iter_mut() {
        r.run_id = "cand".into();
        r.usage.cost_usd = Some(0.05);
    }
    let b = common::write(tmp.path(), "base", &spec, &base);
    let c = common::write(tmp.path(), "cand", &spec, &cand);
    let out = tmp.path().join(nab_protocol::COMPARE_FILE);
    let cmp = compared(args(b, c, out.clone()), None);
    let n = base.len() as f64;
    let (bt, ct) = (0.02 * n, 0.05 * n);
    assert!((cmp.baseline.usage.cost_usd.unwrap() - bt).abs() < 1e-9);
    assert!((cmp.paired.cost.unwrap().ratio - 2.5).abs() < 1e-9);
    assert!((cmp.paired.cost_delta_usd.unwrap() - (ct - bt)).abs() < 1e-9);
    let html = std::fs::read_to_string(&out).unwrap();
    let usd = nab_reports::format::usd;
    assert!(
        html.contains(&format!("data-side=\"baseline-cost\">{}", usd(Some(bt)))),
        "baseline total"
    );
    assert!(
        html.contains(&format!("data-side=\"candidate-cost\">{}", usd(Some(ct)))),
        "candidate total"
    );
    assert!(
        html.contains(&format!(
            "data-paired=\"cost_delta\">+{}",
            usd(Some(ct - bt))
        )),
        "the delta"
    );
    assert!(html.contains("data-paired=\"cost_ratio\">2.50× [2.50, 2.50]"));
    let task = &cmp.tasks[0].task_id;
    assert!(html.contains(&format!("data-task-cost=\"{task}\">$0.0200 → $0.0500")));
    let text = cmp.terminal_summary();
    assert!(
        text.contains("cost (USD)") && text.contains("cost per solved task"),
        "{text}"
    );
    // Every trial priced: cost per solved task is the total over the passes.
    let passes = cand
        .iter()
        .filter(|r| r.outcome.status == TrialStatus::Passed)
        .count() as f64;
    let per = cmp.candidate.cost_per_solved.unwrap();
    assert!((per.value.unwrap() - ct / passes).abs() < 1e-9, "{per:?}");
    assert!(
        html.contains("data-side=\"candidate-cost-per-solved\">$"),
        "shown with its interval"
    );

    // Runs without a price show no cost and no delta, never $0.
    let plain_b = common::write(tmp.path(), "pb", &spec, &synth_records(&spec));
    let out2 = tmp.path().join("plain.html");
    let cmp = compared(args(plain_b.clone(), plain_b, out2.clone()), None);
    assert!(cmp.paired.cost.is_none() && cmp.paired.cost_delta_usd.is_none());
    assert!(cmp.candidate.cost_per_solved.is_none());
    let html = std::fs::read_to_string(&out2).unwrap();
    assert!(html.contains("data-paired=\"cost_delta\">—"));
}
