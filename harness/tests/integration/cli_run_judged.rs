//! `nab run --judge`: a real (Docker) oracle trial graded after verification by a scripted
//! judge played through the gateway's provider, and the end-of-run files (run.json,
//! results.parquet, summary.json, report.html).

use crate::common;

use common::repo_tasks;
use nab_protocol::{TrialRecord, TrialStatus};
use std::path::Path;
use std::process::Command;

#[tokio::test(flavor = "multi_thread")]
async fn run_grades_each_verified_trial_and_writes_the_report() {
    common::base_image().await;
    let root = tempfile::tempdir().unwrap();
    let out = root.path().join("out");
    let answers = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/judge_answers.yaml");
    let o = Command::new(env!("CARGO_BIN_EXE_nab"))
        .args(["run", "--agent", "oracle", "--trials", "1", "--tasks"])
        .arg(repo_tasks())
        .arg("--out")
        .arg(&out)
        .arg(format!("--judge=scripted:{}", answers.display()))
        .arg("term-log-report")
        .output()
        .unwrap();
    let (stdout, stderr) = (
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr),
    );
    assert_eq!(o.status.code(), Some(0), "{stdout}\n{stderr}");

    let text = std::fs::read_to_string(out.join(nab_protocol::RESULTS_FILE)).unwrap();
    let recs: Vec<TrialRecord> = text
        .lines()
        .map(|l| TrialRecord::parse_line(l).unwrap())
        .collect();
    assert_eq!(recs.len(), 1);
    assert_eq!(recs[0].outcome.status, TrialStatus::Passed);
    let j = &recs[0].judges;
    assert_eq!(j.len(), 1, "graded after verification");
    assert!(
        j[0].judge_model.starts_with("scripted:"),
        "{}",
        j[0].judge_model
    );
    assert!((j[0].weighted_score.unwrap() - 13.0 / 3.0).abs() < 1e-9);
    assert!(j[0].input_tokens > 0, "judge tokens on the verdict");
    assert_eq!(
        recs[0].usage.input_tokens, None,
        "the oracle used no model tokens"
    );

    let meta = nab_reports::RunMeta::read(&out).unwrap();
    assert_eq!(meta.agent.as_deref(), Some("oracle"));
    assert!(meta.finished_at.is_some());
    assert!(
        meta.tasks_dir_in(&out)
            .unwrap()
            .join("term-log-report/instruction.md")
            .is_file(),
        "run.json leads back to the tasks"
    );
    for f in [
        nab_protocol::PARQUET_FILE,
        nab_protocol::SUMMARY_FILE,
        nab_protocol::REPORT_FILE,
    ] {
        assert!(out.join(f).is_file(), "missing {f}: {stdout}");
    }
    let html = std::fs::read_to_string(out.join(nab_protocol::REPORT_FILE)).unwrap();
    assert!(html.contains("term-log-report"));
}
