//! `nab run --engine unix:///run/podman/podman.sock`: real suite tasks on Podman, end to
//! end (agent container, workspace copied out, verifier container). The oracle passes
//! them and the null agent fails them, as on Docker; nothing is left behind on Podman.
//! Skipped with the reason where no Podman answers (see `common::podman`).

use crate::common;

use nab_protocol::{TrialRecord, TrialStatus};
use std::path::Path;

/// Tasks on the base image alone (no task image to build on Podman): a shell task and a
/// C task.
const TASKS: [&str; 2] = ["sh-csv-quoting", "c-int-overflow"];

fn run(agent: &str, out: &Path, run_id: &str) -> (Vec<TrialRecord>, String) {
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_nab"))
        .env("NAB_LOG", "error")
        .args(["run", "--engine", &common::podman::url(), "--agent", agent])
        .args(["--tasks", &common::repo_tasks().display().to_string()])
        .args(["-j", "2", "--run-id", run_id, "--out"])
        .arg(out)
        .args(TASKS)
        .output()
        .unwrap();
    let text = format!(
        "{}\n{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
    let records = std::fs::read_to_string(out.join(nab_protocol::RESULTS_FILE))
        .unwrap_or_default()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    (records, text)
}

#[tokio::test(flavor = "multi_thread")]
async fn on_podman_the_oracle_passes_and_the_null_agent_fails() {
    let Some(podman) = common::podman::engine().await else {
        return;
    };
    common::podman::base_image(&podman).await;
    let root = tempfile::tempdir().unwrap();
    for (agent, want) in [
        ("oracle", TrialStatus::Passed),
        ("null", TrialStatus::Failed),
    ] {
        let run_id = common::unique(&format!("podman-{agent}"));
        let _sweep = common::podman::SweepOnDrop(run_id.clone());
        let (records, text) = run(agent, &root.path().join(agent), &run_id);
        assert_eq!(records.len(), TASKS.len(), "{text}");
        for r in &records {
            assert_eq!(
                r.outcome.status, want,
                "{} with {agent}: {r:?}\n{text}",
                r.task_id
            );
        }
        assert_eq!(
            common::podman::labelled(&format!("nab.run={run_id}")),
            (vec![], vec![]),
            "the run left containers or volumes on Podman"
        );
    }
}
