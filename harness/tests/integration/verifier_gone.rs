//! A verifier container that is gone by the time a verify step runs (or that stops while
//! it runs) is the trial's `failed` with `failure_reason: verifier_crashed`, never an
//! infrastructure `error`, against real Docker. The sandbox user can no longer stop the
//! verifier itself (its keeper runs as another user, see agent_caused_failures.rs), so the
//! test stops it from outside, by label, as soon as it exists: the steps that follow find
//! no container to run in.

use crate::common;

use common::write;
use nab_protocol::{FailureReason, TrialRecord, TrialStatus};
use std::process::Command;
use std::time::{Duration, Instant};

const TASK: &str = r#"id: gone
category: terminal
language: shell
difficulty: easy
timeouts: {agent_s: 60, verify_s: 120}
limits: {cpus: 1.0, memory_mb: 256, pids: 64}
verify:
  - argv: ["bash", "-c", "sleep 20"]
    timeout_s: 60
  - argv: ["bash", "/nab/tests/check.sh"]
    timeout_s: 60
solution: ["true"]
"#;

#[tokio::test(flavor = "multi_thread")]
async fn a_verifier_that_is_gone_before_its_steps_is_a_failure_not_an_error() {
    common::base_image().await;
    let root = common::agent_root();
    let d = root.path().join("suite/gone");
    write(&d.join("task.yaml"), TASK);
    write(&d.join("instruction.md"), "gone");
    write(&d.join("workspace/answer"), "0\n");
    write(&d.join("tests/check.sh"), "true\n");
    std::fs::create_dir_all(d.join("solution")).unwrap();

    let (run_id, _sweep, out) = common::run_slot(root.path(), "verifier-gone");
    let mut child = common::nab_run(&run_id, 1)
        .args(["--agent", "null"])
        .arg("--tasks")
        .arg(root.path().join("suite"))
        .arg("--out")
        .arg(&out)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // Kill the verifier as soon as it exists (the only container with role verify).
    let started = Instant::now();
    let mut killed = false;
    while started.elapsed() < Duration::from_secs(120) {
        if child.try_wait().unwrap().is_some() {
            break;
        }
        let (containers, _) = common::labelled(&format!("nab.run={run_id}"));
        let verifier = containers.iter().find(|c| {
            let o = Command::new("docker")
                .args(["inspect", "-f", "{{index .Config.Labels \"nab.role\"}}", c])
                .output()
                .unwrap();
            String::from_utf8_lossy(&o.stdout).trim() == "verify"
        });
        if let Some(c) = verifier {
            let o = Command::new("docker").args(["kill", c]).output().unwrap();
            killed = o.status.success();
            if killed {
                break;
            }
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    let o = child.wait_with_output().unwrap();
    assert!(killed, "{}", String::from_utf8_lossy(&o.stderr));
    let records = nab_protocol::read_jsonl::<TrialRecord>(&out.join(nab_protocol::RESULTS_FILE))
        .unwrap()
        .records;
    let log = std::fs::read_to_string(out.join("trials/gone/0/verify.log")).unwrap_or_default();
    assert_eq!(records.len(), 1, "{}", String::from_utf8_lossy(&o.stderr));
    let r = &records[0];
    assert_eq!(r.outcome.status, TrialStatus::Failed, "{r:?}\n{log}");
    assert_eq!(
        r.outcome.failure_reason,
        Some(FailureReason::VerifierCrashed),
        "{r:?}\n{log}"
    );
    assert!(
        r.outcome.error.is_none() && r.outcome.error_kind.is_none(),
        "{r:?}"
    );
    // The verify log says the container stopped (before the hidden tests were in place, or
    // under the first step), and the check after it never ran.
    assert!(
        log.contains("[nab] step 0:") || log.contains("before the hidden tests were in place"),
        "{log}"
    );
    assert!(!log.contains("[nab] step 1:"), "{log}");
}
