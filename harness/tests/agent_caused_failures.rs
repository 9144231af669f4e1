//! Everything an agent (or the code it leaves behind) can bring about is its own `failed`
//! with a `failure_reason`, never an infrastructure `error` — against real Docker, one
//! hostile `command:` agent per attack:
//! - `keeper`: the code under test kills every process it can, PID 1 included; the
//!   verifier's keeper runs as another user, so the next step still runs (as uid 1000);
//! - `lurker`: a "build" step leaves a process behind that waits for the check and then
//!   writes the right answer; processes of the sandbox user are killed between steps;
//! - `slow`: a verify step that never ends is `verify_timeout`;
//! - `huge`: a sparse file makes the workspace archive larger than the copy-out limit;
//! - `symlinked-events` / `garbage-events`: events.jsonl is a symlink, or holds lines that
//!   are not events.

mod common;

use common::{write, write_exec};
use nab_protocol::trial::{FailureReason, TrialRecord, TrialStatus};
use std::collections::HashMap;
use std::process::Command;

/// A shell task whose verify steps are `steps` (YAML list items, already indented).
fn task_yaml(id: &str, steps: &str) -> String {
    format!(
        r#"id: {id}
category: terminal
language: shell
difficulty: easy
timeouts: {{agent_s: 60, verify_s: 60}}
limits: {{cpus: 1.0, memory_mb: 256, pids: 64}}
verify:
{steps}
solution: ["true"]
"#
    )
}

/// The answer the agent is asked for is 42; every hostile agent leaves 41 and cheats.
const CHECK: &str = r#"echo "check runs as uid=$(id -u), step 0 ran as uid=$(cat /nab/verify/uid 2>/dev/null)"
sleep 3
answer=$(cat /workspace/answer)
echo "answer: $answer"
[ "$answer" = 42 ]
"#;

const AGENT: &str = r#"#!/bin/bash
task=$(cat)
cd /workspace
echo 41 > answer
case "$task" in
keeper)
  # Runs in the verifier: kill everything this user may signal, and try PID 1 too.
  printf '%s\n' 'id -u > /nab/verify/uid' 'kill -KILL 1 2>/dev/null' 'kill -KILL -1' 'exit 0' > run.sh
  ;;
lurker)
  # A "build" that leaves a process behind: it waits for the check to start, then
  # writes the right answer under the check's nose.
  cat > run.sh <<'SH'
nohup bash -c 'until pgrep -f "/nab/tests/[c]heck.sh" >/dev/null; do sleep 0.05; done; echo 42 > /workspace/answer' >/dev/null 2>&1 &
exit 0
SH
  ;;
slow)
  echo 'sleep 600' > run.sh
  ;;
huge)
  truncate -s 1100M big.bin
  ;;
symlinked-events)
  ln -s /etc/passwd /nab/out/events.jsonl
  ;;
garbage-events)
  printf 'not an event\n{"also": "not one"}\n' > /nab/out/events.jsonl
  ;;
esac
exit 0
"#;

#[tokio::test(flavor = "multi_thread")]
async fn agent_caused_faults_are_failures_with_a_reason_never_errors() {
    common::base_image().await;
    let root = tempfile::tempdir().unwrap();
    std::fs::set_permissions(
        root.path(),
        std::os::unix::fs::PermissionsExt::from_mode(0o755),
    )
    .unwrap();
    let two_steps = r#"  - argv: ["bash", "/workspace/run.sh"]
    timeout_s: 20
  - argv: ["bash", "/nab/tests/check.sh"]
    timeout_s: 20"#;
    let slow_step = r#"  - argv: ["bash", "/workspace/run.sh"]
    timeout_s: 3"#;
    let check_only = r#"  - argv: ["bash", "/nab/tests/check.sh"]
    timeout_s: 20"#;
    let tasks = [
        ("keeper", two_steps),
        ("lurker", two_steps),
        ("slow", slow_step),
        ("huge", check_only),
        ("symlinked-events", check_only),
        ("garbage-events", check_only),
    ];
    for (id, steps) in tasks {
        let d = root.path().join("suite").join(id);
        write(&d.join("task.yaml"), &task_yaml(id, steps));
        write(&d.join("instruction.md"), id);
        write(&d.join("workspace/answer"), "0\n");
        write(&d.join("tests/check.sh"), CHECK);
        std::fs::create_dir_all(d.join("solution")).unwrap();
    }
    let agent = root.path().join("agent.sh");
    write_exec(&agent, AGENT);

    let run_id = common::unique("agent-caused");
    let _sweep = common::SweepOnDrop(run_id.clone());
    let out = root.path().join("out");
    // A model is configured only so the agents get /nab/out; none of them calls it.
    let o = Command::new(env!("CARGO_BIN_EXE_nab"))
        .args(["run", "--run-id", &run_id, "--attempts", "1", "-j", "2"])
        .arg("--tasks")
        .arg(root.path().join("suite"))
        .arg(format!("--agent=command:{}", agent.display()))
        .args(["--model", "openai:never-called@http://127.0.0.1:9/v1"])
        .arg("--out")
        .arg(&out)
        .env("NAB_API_KEY", "unused")
        .output()
        .unwrap();
    let records: HashMap<String, TrialRecord> =
        nab_protocol::read_jsonl::<TrialRecord>(&out.join("results.jsonl"))
            .unwrap_or_else(|e| panic!("{e}\n{}", String::from_utf8_lossy(&o.stderr)))
            .records
            .into_iter()
            .map(|r| (r.task_id.clone(), r))
            .collect();
    assert_eq!(
        records.len(),
        tasks.len(),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let logs = |id: &str| {
        let dir = out.join("trials").join(id).join("0");
        format!(
            "--- agent.log\n{}\n--- verify.log\n{}",
            std::fs::read_to_string(dir.join("agent.log")).unwrap_or_default(),
            std::fs::read_to_string(dir.join("verify.log")).unwrap_or_default()
        )
    };
    for (id, want) in [
        ("keeper", FailureReason::TestsFailed),
        ("lurker", FailureReason::TestsFailed),
        ("slow", FailureReason::VerifyTimeout),
        ("huge", FailureReason::WorkspaceTooLarge),
        ("symlinked-events", FailureReason::BadAgentOutput),
        ("garbage-events", FailureReason::BadAgentOutput),
    ] {
        let r = &records[id];
        assert_eq!(r.status, TrialStatus::Failed, "{id}: {r:?}\n{}", logs(id));
        assert_eq!(r.failure_reason, Some(want), "{id}: {r:?}\n{}", logs(id));
        assert!(r.error.is_none() && r.error_kind.is_none(), "{id}: {r:?}");
    }
    // The keeper survived the attack: the check ran after it, and both ran as uid 1000.
    let keeper = logs("keeper");
    assert!(
        keeper.contains("check runs as uid=1000, step 0 ran as uid=1000"),
        "{keeper}"
    );
    assert!(keeper.contains("answer: 41"), "{keeper}");
    // The lurker was killed before the check started: the answer it would write never came.
    let lurker = logs("lurker");
    assert!(lurker.contains("answer: 41"), "{lurker}");
    assert!(logs("huge").contains("the workspace is larger than"));
    assert!(logs("symlinked-events").contains("a symlink, not a file"));
    assert!(logs("garbage-events").contains("events.jsonl: ignored a line"));
    assert_eq!(
        common::labelled(&format!("nab.run={run_id}")),
        (vec![], vec![])
    );
}
