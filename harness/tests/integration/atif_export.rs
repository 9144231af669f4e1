//! Issue 40's "done when": a scripted suite run (nab-agent, the scripted model, real
//! Docker) exported with `nab export atif RUN`, and every trial's trajectory accepted by
//! Harbor's published validator; the report rewritten after it links each one.

use crate::common;
use common::repo_tasks;
use nab_protocol::TrialRecord;
use std::path::{Path, PathBuf};
use std::process::Command;

fn nab() -> Command {
    Command::new(env!("CARGO_BIN_EXE_nab"))
}

/// The Python that holds Harbor's validator (installed once by ci/atif-validator.sh).
fn harbor_python() -> String {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("../ci/atif-validator.sh");
    let o = Command::new(&script).output().unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    String::from_utf8(o.stdout).unwrap().trim().to_owned()
}

#[tokio::test(flavor = "multi_thread")]
async fn every_trial_of_a_scripted_suite_run_exports_to_valid_atif_and_the_report_links_it() {
    common::nab_agent_ready().await;
    let root = tempfile::tempdir().unwrap();
    let out = root.path().join("run");
    let tasks = [
        "term-log-report",
        "py-pagination-offbyone",
        "sh-csv-quoting",
    ];
    let o = nab()
        .args([
            "run",
            "--agent",
            "nab-agent",
            "--model",
            "scripted:task",
            "-j",
            "2",
        ])
        .arg("--tasks")
        .arg(repo_tasks())
        .arg("--out")
        .arg(&out)
        .args(tasks)
        .output()
        .unwrap();
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let records = nab_protocol::read_jsonl::<TrialRecord>(&out.join(nab_protocol::RESULTS_FILE))
        .unwrap()
        .records;
    assert_eq!(records.len(), tasks.len());
    let e = nab().args(["export", "atif"]).arg(&out).output().unwrap();
    let stdout = String::from_utf8_lossy(&e.stdout).into_owned();
    assert_eq!(
        e.status.code(),
        Some(0),
        "{stdout}{}",
        String::from_utf8_lossy(&e.stderr)
    );
    let python = harbor_python();
    for r in &records {
        let file: PathBuf = nab_protocol::RunPaths::new(&out).atif_of(r).unwrap();
        assert!(
            stdout.contains(&format!("wrote {}", file.display())),
            "{stdout}"
        );
        let v = Command::new(&python)
            .args([
                "-m",
                "harbor.utils.trajectory_validator",
                "--no-validate-images",
            ])
            .arg(&file)
            .output()
            .unwrap();
        assert!(
            v.status.success(),
            "{}: {}{}",
            file.display(),
            String::from_utf8_lossy(&v.stdout),
            String::from_utf8_lossy(&v.stderr)
        );
        let t: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
        let agent_steps = t["steps"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|s| s["source"] == "agent")
            .count() as u64;
        assert_eq!(Some(agent_steps), r.usage.llm_calls, "{}", r.task_id);
        assert_eq!(
            t["final_metrics"]["total_prompt_tokens"],
            r.usage.input_tokens.unwrap()
        );
        assert_eq!(
            t["extra"]["nab"]["record"]["status"],
            r.outcome.status.as_str()
        );
    }
    // The report written at the run's end had nothing to link; rewritten, it links each.
    let rep = nab().args(["report", "--run"]).arg(&out).output().unwrap();
    assert!(
        rep.status.success(),
        "{}",
        String::from_utf8_lossy(&rep.stderr)
    );
    let html = std::fs::read_to_string(out.join(nab_protocol::REPORT_FILE)).unwrap();
    let views = nab_reports::trial_views(&html);
    assert_eq!(views.len(), records.len());
    for r in &records {
        let href = format!("href=\"atif&#x2f;{}&#x2f;{}.json\"", r.task_id, r.trial);
        assert!(
            views.iter().any(|(_, v)| v.contains(&href)),
            "no link {href}"
        );
    }
}
