//! `nab view` on folders written to disk: every run and sweep listed with its figures and
//! links, trial anchors that are the report's, hostile strings kept as text, unreadable
//! folders left out with a note, a missing folder refused. The page in a browser is
//! `view_browser.rs`.

use crate::common;
use nab_protocol::{IndexRun, RESULTS_FILE, SWEEP_INDEX_VERSION, SweepIndex};
use nab_reports::leaderboard::{self, Options};
use nab_reports::view::{self, INDEX_FILE, href};
use nab_reports::{synth_records, write_leaderboard, write_run_outputs};
use serde_json::Value;
use std::path::{Path, PathBuf};

pub const EVIL_MODEL: &str = "</script><img src=x onerror=alert(1)>";
pub const EVIL_TASK: &str = "task-\"><script>window.__pwned=3</script>";

/// A sweep.json listing `dirs` (as `nab sweep` writes it).
pub fn sweep_json(dir: &Path, dirs: &[&str]) {
    SweepIndex {
        v: SWEEP_INDEX_VERSION,
        sweep_file: "ci/sweep.example.yaml".into(),
        sweep_hash: "sha256:a".into(),
        started_at: "2026-12-01T03:00:00.000Z".into(),
        finished_at: Some("2026-12-01T04:00:00.000Z".into()),
        runs: dirs
            .iter()
            .map(|d| IndexRun {
                dir: (*d).to_owned(),
                agent: "nab-agent".into(),
                model: None,
                provider: None,
            })
            .collect(),
        providers: Vec::new(),
        shard: None,
        group: None,
        merged_from: Vec::new(),
    }
    .write(dir)
    .unwrap();
}

/// A synthetic run at `root/rel` with this model and seed (report.html written when
/// `report`), and its records.
pub fn run_at(root: &Path, rel: &str, model: &str, seed: u64, report: bool) -> PathBuf {
    let mut spec = common::spec(rel, 12, 3, report);
    spec.model = model.into();
    spec.seed = seed;
    spec.judged = false;
    spec.turns = 3;
    spec.long_output_chars = 2_000;
    // Unlike rates: one run with infrastructure errors (not passed), one on fewer tasks.
    if model == "model-small" {
        spec.error_rate = 0.15;
    }
    if model == "model-mid" {
        spec.tasks = 7;
    }
    let mut recs = synth_records(&spec);
    if model == "model-large" {
        // Priced (`nab run --prices`): the cost column shows the sum.
        for r in &mut recs {
            r.usage.cost_usd = Some(0.01);
        }
    }
    let dir = common::write(root, rel, &spec, &recs);
    if model == EVIL_MODEL {
        // No trial folder can be named after this id: its record only.
        let mut extra = recs[0].clone();
        extra.task_id = EVIL_TASK.into();
        recs.push(extra);
        nab_protocol::write_jsonl_atomic(&dir.join(RESULTS_FILE), &recs).unwrap();
    }
    if report {
        write_run_outputs(&dir).unwrap();
    }
    dir
}

/// runs/: a finished sweep of two runs with its leaderboard, a run on its own with a
/// hostile model name, and one without report.html.
pub fn runs_folder(root: &Path) -> PathBuf {
    let runs = root.join("runs");
    let a = run_at(&runs, "sweep-1/model-large", "model-large", 1, true);
    let b = run_at(&runs, "sweep-1/model-small", "model-small", 2, true);
    sweep_json(&runs.join("sweep-1"), &["model-large", "model-small"]);
    let board = leaderboard::build(&[runs.join("sweep-1")], &Options::default()).unwrap();
    write_leaderboard(&board, &runs.join("sweep-1")).unwrap();
    assert!(a.join("report.html").is_file() && b.join("report.html").is_file());
    run_at(&runs, "solo", EVIL_MODEL, 3, true);
    run_at(&runs, "unreported", "model-mid", 4, false);
    runs
}

/// The JSON the page embeds, parsed back.
pub fn embedded(html: &str) -> Value {
    let start = html.find("id=\"view-data\">").unwrap() + "id=\"view-data\">".len();
    let end = start + html[start..].find("</script>").unwrap();
    serde_json::from_str(&html[start..end]).unwrap()
}

#[test]
fn every_run_is_listed_with_its_figures_its_sweep_and_its_pages() {
    let tmp = tempfile::tempdir().unwrap();
    let runs = runs_folder(tmp.path());
    let out = view::write_index(&runs).unwrap();
    assert_eq!(out.html, runs.join(INDEX_FILE));
    let x = &out.index;
    let paths: Vec<&str> = x.runs.iter().map(|r| r.path.as_str()).collect();
    assert_eq!(
        paths,
        [
            "solo",
            "sweep-1/model-large",
            "sweep-1/model-small",
            "unreported"
        ]
    );
    assert!(x.notes.is_empty(), "{:?}", x.notes);
    assert_eq!(x.sweeps.len(), 1);
    let s = &x.sweeps[0];
    assert_eq!(s.path, "sweep-1");
    assert_eq!(s.runs, 2);
    assert_eq!(s.leaderboard.as_deref(), Some("sweep-1/leaderboard.html"));
    assert_eq!(s.sweep_file.as_deref(), Some("ci/sweep.example.yaml"));
    for r in &x.runs {
        // The figures are the report's own (summary.json, written beside it).
        let summary = r.path.as_str() != "unreported";
        if summary {
            let want: Value = serde_json::from_slice(
                &std::fs::read(runs.join(&r.path).join("summary.json")).unwrap(),
            )
            .unwrap();
            assert_eq!(r.pass_rate, want["pass_rate"].as_f64(), "{}", r.path);
            assert_eq!(r.trials as u64, want["trials"].as_u64().unwrap());
            assert_eq!(r.model.as_deref(), want["model"].as_str());
            assert_eq!(
                r.report.as_deref(),
                Some(format!("{}/report.html", r.path).as_str())
            );
        }
        assert_eq!(r.date.as_deref(), Some("2026-11-30 04:00"));
        let priced = r.path == "sweep-1/model-large";
        assert_eq!(r.cost_usd.is_some(), priced, "{}", r.path);
        assert_eq!(r.cost_known_trials, if priced { r.trials } else { 0 });
        assert_eq!(r.agent.as_deref(), Some("nab-agent"));
        assert_eq!(r.sweep.is_some(), r.path.starts_with("sweep-1/"));
    }
    let unreported = &x.runs[3];
    assert_eq!(unreported.report, None);
    assert_eq!(
        unreported.report_command,
        format!("nab report --run {}", runs.join("unreported").display())
    );
    // The page says how to make the missing report, and links the sweep's leaderboard.
    let html = std::fs::read_to_string(&out.html).unwrap();
    assert!(
        html.contains("no report.html: <code>nab report --run"),
        "{html}"
    );
    assert!(html.contains("href=\"sweep-1&#x2f;leaderboard.html\""));
    assert_eq!(embedded(&html)["runs"].as_array().unwrap().len(), 4);
}

#[test]
fn each_trial_links_to_the_index_its_report_opens_it_by() {
    let tmp = tempfile::tempdir().unwrap();
    let mut spec = common::spec("dup", 6, 2, true);
    spec.judged = false;
    spec.turns = 2;
    let mut recs = synth_records(&spec);
    // Lines out of order, and a trial recorded twice (a resumed run retried it): the report
    // keeps the last and sorts, so a line number is not the anchor.
    recs.reverse();
    let mut again = recs[4].clone();
    again.outcome.status = nab_protocol::TrialStatus::Error;
    recs.push(again);
    let dir = common::write(tmp.path(), "dup", &spec, &recs);
    write_run_outputs(&dir).unwrap();
    let report = std::fs::read_to_string(dir.join("report.html")).unwrap();
    let x = view::build(tmp.path()).unwrap();
    let run = &x.runs[0];
    assert_eq!(run.trials, 12);
    let mut seen = 0;
    for t in &run.per_task {
        for tr in &t.runs {
            let blob = format!(
                "id=\"blob-{}\" data-task=\"{}\" data-trial=\"{}\" data-title=\"{} · trial {}\"",
                tr.idx, t.id, tr.trial, t.id, tr.trial
            );
            assert!(report.contains(&blob), "no {blob} in the report");
            seen += 1;
        }
    }
    assert_eq!(seen, 12);
    let redone = recs.last().unwrap();
    let task = run
        .per_task
        .iter()
        .find(|t| t.id == redone.task_id)
        .unwrap();
    assert!(
        task.runs
            .iter()
            .any(|tr| tr.trial == redone.trial && tr.status == "error"),
        "the last record of the trial counts"
    );
}

#[test]
fn hostile_names_stay_text_and_inside_their_links() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().join("runs");
    run_at(&root, "solo", EVIL_MODEL, 3, true);
    // A folder name that would be a scheme, a fragment and a query if it were not encoded.
    run_at(&root, "javascript:alert(1)#x?y", "m", 5, true);
    let out = view::write_index(&root).unwrap();
    let html = std::fs::read_to_string(&out.html).unwrap();
    assert!(!html.contains(EVIL_MODEL), "the model name is escaped");
    assert!(!html.contains("<script>window.__pwned"));
    assert!(!html.contains("<img"));
    assert!(html.contains("&lt;&#x2f;script&gt;&lt;img src=x onerror=alert(1)&gt;"));
    // Two script elements: the data and the page's own code.
    assert_eq!(html.matches("<script").count(), 2);
    let data = embedded(&html);
    let solo = data["runs"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["path"] == "solo")
        .unwrap();
    assert_eq!(solo["model"], EVIL_MODEL);
    assert!(
        solo["per_task"]
            .as_array()
            .unwrap()
            .iter()
            .any(|t| t["id"] == EVIL_TASK)
    );
    assert!(html.contains("href=\"javascript%3Aalert%281%29%23x%3Fy&#x2f;report.html\""));
    assert!(!html.contains("href=\"javascript:"));
}

#[test]
fn a_folder_that_cannot_be_read_is_left_out_with_a_note() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path();
    run_at(root, "good", "m", 1, false);
    std::fs::create_dir_all(root.join("zero")).unwrap();
    std::os::unix::fs::symlink("/dev/zero", root.join("zero").join(RESULTS_FILE)).unwrap();
    std::fs::create_dir_all(root.join("garbled")).unwrap();
    std::fs::write(
        root.join("garbled").join(RESULTS_FILE),
        "{not json\n{\"v\":1}\n",
    )
    .unwrap();
    let x = view::build(root).unwrap();
    assert_eq!(x.runs.len(), 1);
    assert_eq!(x.runs[0].path, "good");
    assert_eq!(x.notes.len(), 2, "{:?}", x.notes);
    assert!(
        x.notes[0].contains("garbled") && x.notes[0].contains("left out of the index"),
        "{:?}",
        x.notes
    );
    assert!(
        x.notes[1].contains("zero") && x.notes[1].contains("not a regular file"),
        "{:?}",
        x.notes
    );
}

#[test]
fn a_missing_folder_is_refused_with_its_path() {
    let tmp = tempfile::tempdir().unwrap();
    let missing = tmp.path().join("runs");
    let e = view::write_index(&missing).unwrap_err().to_string();
    assert!(
        e.contains(&missing.display().to_string()) && e.contains("no such folder"),
        "{e}"
    );
    std::fs::write(&missing, "a file").unwrap();
    let e = view::build(&missing).unwrap_err().to_string();
    assert!(e.contains("not a folder"), "{e}");
}

#[test]
fn a_compare_page_written_where_the_viewer_proposes_is_linked() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path();
    let a = run_at(root, "sweep-1/a", "model-a", 1, false);
    let b = run_at(root, "sweep-1/b", "model-b", 2, false);
    let out = b.join(href::compare_file("sweep-1/a"));
    nab_reports::cli::compare::run(
        &nab_reports::CompareArgs {
            baseline: a,
            candidate: b,
            out: Some(out.clone()),
            seed: 1,
        },
        Vec::new(),
    )
    .unwrap();
    let x = view::build(root).unwrap();
    assert!(x.runs[0].compares.is_empty());
    assert_eq!(x.runs[1].compares.len(), 1);
    assert_eq!(x.runs[1].compares[0].baseline, 0);
    assert_eq!(
        x.runs[1].compares[0].href,
        "sweep-1/b/compare-sweep-1%2Ba.html"
    );
    assert_eq!(x.runs[0].compare_name, "compare-sweep-1+a.html");
}
