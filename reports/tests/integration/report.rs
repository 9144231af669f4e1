//! report.html, summary.json and results.parquet for a synthetic run.

use crate::common;
use nab_reports::synth_records;

use nab_reports::{RunSummary, write_run_outputs};
use polars::prelude::*;

#[test]
fn writes_typed_parquet_summary_json_and_a_self_contained_report() {
    let tmp = tempfile::tempdir().unwrap();
    let mut spec = common::spec("r1", 28, 5, true);
    spec.error_rate = 0.05;
    spec.turns = 4;
    spec.long_output_chars = 50_000;
    let mut recs = synth_records(&spec);
    // Lists of every shape in the list column: two, one, none.
    recs[0].behaviour.violations = vec!["no_wrappers".into(), "protected_file".into()];
    recs[1].behaviour.violations = vec!["compaction".into()];
    let dir = common::write(tmp.path(), "run", &spec, &recs);
    let out = write_run_outputs(&dir).unwrap();

    // summary.json is what was computed, and its numbers are the task-level ones.
    let bytes = std::fs::read(&out.summary_json).unwrap();
    // Compared as JSON values: serde_json's default float parser may differ in the last ulp.
    let value: serde_json::Value = serde_json::from_slice(&bytes).unwrap();
    let expected: serde_json::Value =
        serde_json::from_str(&serde_json::to_string(&out.summary).unwrap()).unwrap();
    assert_eq!(value, expected);
    let json: RunSummary = serde_json::from_slice(&bytes).unwrap();
    assert_eq!(json.tasks, 28);
    assert_eq!(json.trials, 140);
    let errors = recs.iter().filter(|r| r.outcome.error.is_some()).count();
    assert!(errors > 0);
    assert_eq!(json.infra.error_trials, errors);
    assert_eq!(json.scored_trials, 140 - errors);
    let ci = json.pass_rate_ci.unwrap();
    assert!(ci.low < json.pass_rate.unwrap() && json.pass_rate.unwrap() < ci.high);
    assert!(
        (json.pass_at(1).unwrap() - json.pass_rate.unwrap()).abs() < 1e-12,
        "pass@1 is the mean task pass rate"
    );
    assert_eq!(json.categories.len(), 5);
    // Flaky tasks: exactly the tasks with mixed verdicts, with their flip rate.
    let run = nab_reports::Run::load(&dir).unwrap();
    let mixed: Vec<&str> = run
        .tasks
        .iter()
        .filter(|t| t.passed > 0 && t.passed < t.scored)
        .map(|t| t.task_id.as_str())
        .collect();
    assert!(!mixed.is_empty(), "the fixture has flaky tasks");
    let mut flagged: Vec<&str> = json
        .flaky_tasks
        .iter()
        .map(|f| f.task_id.as_str())
        .collect();
    flagged.sort_unstable();
    assert_eq!(flagged, mixed);
    for f in &json.flaky_tasks {
        let (n, c) = (f64::from(f.scored), f64::from(f.passed));
        assert!((f.flip_rate - 2.0 * c * (n - c) / (n * (n - 1.0))).abs() < 1e-12);
    }
    let html_text = std::fs::read_to_string(&out.report_html).unwrap();
    let first = &json.flaky_tasks[0];
    assert!(
        html_text.contains(&format!(
            "data-flaky=\"{}\">{:.1}%",
            first.task_id,
            first.flip_rate * 100.0
        )),
        "report.html lists the flaky tasks"
    );

    // results.parquet: one typed row per trial, nulls for absent metrics.
    let df = ParquetReader::new(std::fs::File::open(&out.parquet).unwrap())
        .finish()
        .unwrap();
    assert_eq!(df.height(), 140);
    let dtype = |c: &str| df.column(c).unwrap().dtype().clone();
    assert_eq!(dtype("trial"), DataType::UInt32);
    assert_eq!(dtype("input_tokens"), DataType::UInt64);
    assert_eq!(dtype("passed"), DataType::Boolean);
    assert_eq!(dtype("agent_s"), DataType::Float64);
    assert_eq!(
        dtype("violations"),
        DataType::List(Box::new(DataType::String))
    );
    assert_eq!(
        df.column("passed").unwrap().null_count(),
        errors,
        "errors have no verdict"
    );
    assert_eq!(
        df.column("input_tokens").unwrap().null_count(),
        errors,
        "absent is null, not 0"
    );
    // The values are the records', row for row.
    let lists = df.column("violations").unwrap().list().unwrap().clone();
    let row = |i: usize| -> Vec<String> {
        let items = lists.get_as_series(i).unwrap();
        let items = items.str().unwrap();
        (0..items.len())
            .map(|j| items.get(j).unwrap().to_owned())
            .collect()
    };
    assert_eq!(row(0), ["no_wrappers", "protected_file"]);
    assert_eq!(row(1), ["compaction"]);
    assert!(row(2).is_empty());
    let tokens = df.column("input_tokens").unwrap().u64().unwrap().clone();
    let trials = df.column("trial").unwrap().u32().unwrap().clone();
    let tasks = df.column("task_id").unwrap().str().unwrap().clone();
    for (i, r) in recs.iter().enumerate() {
        assert_eq!(tokens.get(i), r.usage.input_tokens, "row {i}");
        assert_eq!(trials.get(i), Some(r.trial), "row {i}");
        assert_eq!(tasks.get(i), Some(r.task_id.as_str()), "row {i}");
    }

    // The page: no external reference of any kind, and every trial view embedded.
    let html = std::fs::read_to_string(&out.report_html).unwrap();
    for bad in [
        "src=\"http",
        "href=\"http",
        "url(http",
        "@import",
        "<link rel=\"stylesheet",
    ] {
        assert!(!html.contains(bad), "report.html contains {bad}");
    }
    assert!(html.contains("Content-Security-Policy"));
    assert_eq!(
        html.matches("type=\"application/x-nab-trial\"").count(),
        140
    );
    assert!(html.contains("<svg class=\"chart\""));
}

#[test]
fn a_run_without_metadata_or_trial_folders_still_reports() {
    let tmp = tempfile::tempdir().unwrap();
    let spec = common::spec("bare", 3, 2, false);
    let recs = synth_records(&spec);
    std::fs::create_dir_all(tmp.path()).unwrap();
    let lines: String = recs
        .iter()
        .map(|r| serde_json::to_string(r).unwrap() + "\n")
        .collect();
    std::fs::write(tmp.path().join(nab_protocol::RESULTS_FILE), lines).unwrap();
    let out = write_run_outputs(tmp.path()).unwrap();
    let html = std::fs::read_to_string(&out.report_html).unwrap();
    assert_eq!(
        out.summary.agent.as_deref(),
        Some("nab-agent"),
        "taken from the records"
    );
    assert_eq!(html.matches("type=\"application/x-nab-trial\"").count(), 6);
}

#[test]
fn a_folder_without_results_is_a_clear_error() {
    let tmp = tempfile::tempdir().unwrap();
    let err = write_run_outputs(tmp.path()).unwrap_err().to_string();
    assert!(
        err.contains("no results.jsonl") && err.contains(&tmp.path().display().to_string()),
        "{err}"
    );
    std::fs::write(tmp.path().join(nab_protocol::RESULTS_FILE), "{\"v\":9}\n").unwrap();
    let err = write_run_outputs(tmp.path()).unwrap_err().to_string();
    assert!(
        err.contains("results.jsonl:1") && err.contains("version 9"),
        "{err}"
    );
}

#[test]
fn a_trial_page_shows_its_failure_reason_and_tamper_flags() {
    let tmp = tempfile::tempdir().unwrap();
    let spec = common::spec("r-tamper", 2, 1, true);
    let mut recs = synth_records(&spec);
    recs[0].outcome.status = nab_protocol::TrialStatus::Failed;
    recs[0].outcome.reward = 0.0;
    recs[0].outcome.error = None;
    recs[0].outcome.error_kind = None;
    recs[0].outcome.failure_reason = Some(nab_protocol::FailureReason::TestsFailed);
    recs[0].outcome.tamper_flags = vec!["conftest.py".into(), "pkg/<evil>.pth".into()];
    let dir = common::write(tmp.path(), "run", &spec, &recs);
    let out = write_run_outputs(&dir).unwrap();
    let report = std::fs::read_to_string(&out.report_html).unwrap();
    // Trial pages are embedded gzip+base64 blobs; blob-0 is the first record's.
    let blob = report
        .split("id=\"blob-0\"")
        .nth(1)
        .and_then(|s| s.split('>').nth(1))
        .and_then(|s| s.split('<').next())
        .expect("a blob for the first trial");
    use base64::Engine as _;
    use std::io::Read as _;
    let gz = base64::engine::general_purpose::STANDARD
        .decode(blob.trim())
        .unwrap();
    let mut html = String::new();
    flate2::read::GzDecoder::new(&gz[..])
        .read_to_string(&mut html)
        .unwrap();
    assert!(
        html.contains("failure reason: <code>tests_failed</code>"),
        "{html}"
    );
    assert!(html.contains("tamper flags (protected paths the diff touched)"));
    assert!(html.contains("<code>conftest.py</code>"));
    // The agent's file name is escaped, never markup.
    assert!(html.contains("&lt;evil&gt;.pth"), "{html}");
    assert!(!html.contains("<evil>"));
}

#[test]
fn zero_token_trials_are_flagged_in_summary_json_and_report_html() {
    let tmp = tempfile::tempdir().unwrap();
    let spec = common::spec("r-zero", 4, 2, true);
    let mut recs = synth_records(&spec);
    let clean = write_run_outputs(&common::write(tmp.path(), "clean", &spec, &recs)).unwrap();
    assert_eq!(clean.summary.zero_token_trials, 0);
    let html = std::fs::read_to_string(&clean.report_html).unwrap();
    assert!(!html.contains("data-summary=\"zero_token_trials\""));

    // Model calls answered with nothing: a provider fault dressed up as a result.
    let r = recs.iter_mut().find(|r| r.outcome.error.is_none()).unwrap();
    r.usage.llm_calls = Some(3);
    r.usage.input_tokens = Some(0);
    r.usage.output_tokens = Some(0);
    let out = write_run_outputs(&common::write(tmp.path(), "zero", &spec, &recs)).unwrap();
    assert_eq!(out.summary.zero_token_trials, 1);
    let json = std::fs::read_to_string(&out.summary_json).unwrap();
    assert!(json.contains("\"zero_token_trials\": 1"), "{json}");
    let html = std::fs::read_to_string(&out.report_html).unwrap();
    assert!(
        html.contains(
            "<b data-summary=\"zero_token_trials\">1</b> trial(s) made model calls with 0 tokens"
        ),
        "flagged on the page"
    );
}

#[test]
fn cost_shows_in_summary_json_and_report_html_per_task_and_in_total() {
    let tmp = tempfile::tempdir().unwrap();
    let spec = common::spec("r-cost", 3, 2, true);
    let mut recs = synth_records(&spec);
    // Unpriced: the page says how to get a cost, never $0.
    let plain = write_run_outputs(&common::write(tmp.path(), "plain", &spec, &recs)).unwrap();
    assert_eq!(plain.summary.usage.cost_usd, None);
    let html = std::fs::read_to_string(&plain.report_html).unwrap();
    assert!(html.contains("no trial has a cost (nab run --prices FILE)"));
    assert!(!html.contains("$0.0000"));

    // Every trial of task 0 costs $0.01, of task 1 $0.25, task 2's trials none.
    for r in recs.iter_mut() {
        r.usage.cost_usd = match &r.task_id[..7] {
            "task-00" => Some(0.01),
            "task-01" => Some(0.25),
            _ => None,
        };
    }
    let out = write_run_outputs(&common::write(tmp.path(), "priced", &spec, &recs)).unwrap();
    let priced = recs.iter().filter(|r| r.usage.cost_usd.is_some()).count();
    let total: f64 = recs.iter().filter_map(|r| r.usage.cost_usd).sum();
    assert_eq!(out.summary.usage.cost_known_trials, priced);
    assert!((out.summary.usage.cost_usd.unwrap() - total).abs() < 1e-12);
    let json = std::fs::read_to_string(&out.summary_json).unwrap();
    assert!(json.contains("\"cost_usd\""), "{json}");
    let html = std::fs::read_to_string(&out.report_html).unwrap();
    assert!(
        html.contains(&format!(
            "data-summary=\"cost_usd\">{}</div>",
            nab_reports::format::usd(Some(total))
        )),
        "total on the page"
    );
    assert!(html.contains(&format!(
        "<span data-summary=\"cost_known_trials\">{priced}</span> of {} trials priced",
        recs.len()
    )));
    // Per task: the mean per scored trial and the sum over all its trials.
    let row = |id: &str| {
        let start = html.find(&format!("<tr data-id=\"{id}")).unwrap();
        html[start..start + html[start..].find("</tr>").unwrap()].to_owned()
    };
    let r1 = row("task-01");
    assert!(r1.contains("data-cost=\"0.25\""), "{r1}");
    assert!(r1.contains("data-col=\"mean_cost\">$0.2500<"), "{r1}");
    let n1 = recs
        .iter()
        .filter(|r| r.task_id.starts_with("task-01"))
        .count() as f64;
    assert!(
        r1.contains(&format!("data-col=\"total_cost\">${:.4}<", 0.25 * n1)),
        "{r1}"
    );
    let r2 = row("task-02");
    assert!(r2.contains("data-col=\"mean_cost\">—<"), "{r2}");
}

#[test]
fn the_compaction_requirement_is_reported_apart_from_the_answers() {
    let tmp = tempfile::tempdir().unwrap();
    let spec = common::spec("r-compaction", 2, 2, true);
    let mut recs = synth_records(&spec);
    for r in recs.iter_mut() {
        r.outcome.error = None;
        r.outcome.error_kind = None;
    }
    // Task 0 requires a compaction: trial 0 answered right but never compacted, trial 1
    // compacted and answered right. Task 1 requires none.
    let (a, b) = recs.split_at_mut(1);
    let missed = &mut a[0];
    missed.outcome.status = nab_protocol::TrialStatus::Failed;
    missed.outcome.reward = 0.0;
    missed.outcome.failure_reason = Some(nab_protocol::FailureReason::MissingCompaction);
    missed.outcome.verifier_passed = Some(true);
    missed.outcome.compaction = Some(nab_protocol::CompactionCheck::Missed);
    let met = &mut b[0];
    assert_eq!(met.task_id, missed.task_id);
    met.outcome.status = nab_protocol::TrialStatus::Passed;
    met.outcome.reward = 1.0;
    met.outcome.failure_reason = None;
    met.outcome.verifier_passed = Some(true);
    met.outcome.compaction = Some(nab_protocol::CompactionCheck::Met);
    let task = missed.task_id.clone();
    let dir = common::write(tmp.path(), "run", &spec, &recs);
    let out = write_run_outputs(&dir).unwrap();

    let row = &out.summary.compaction;
    assert_eq!(row.len(), 1, "{row:?}");
    assert_eq!(row[0].task_id, task);
    assert_eq!(
        (
            row[0].trials,
            row[0].answers_passed,
            row[0].met,
            row[0].missed
        ),
        (2, 2, 1, 1)
    );
    let html = std::fs::read_to_string(&out.report_html).unwrap();
    assert!(
        html.contains(&format!(
            "<tr data-compaction=\"{task}\"><td><code>{task}</code></td><td class=\"n\">2 / 2</td><td class=\"n\">1</td><td class=\"n\">1</td><td class=\"n\">0</td></tr>"
        )),
        "the table on the page"
    );
    let df = ParquetReader::new(std::fs::File::open(&out.parquet).unwrap())
        .finish()
        .unwrap();
    let checks = df.column("compaction").unwrap().str().unwrap().clone();
    assert_eq!(
        (checks.get(0), checks.get(1)),
        (Some("missed"), Some("met"))
    );
    let answers = df
        .column("verifier_passed")
        .unwrap()
        .bool()
        .unwrap()
        .clone();
    assert_eq!((answers.get(0), answers.get(1)), (Some(true), Some(true)));
}
