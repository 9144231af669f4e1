//! A full trial with a hostile-ish command agent: it plants a background process, a
//! symlink to a host file and a note saying whether it could see the hidden tests. The
//! verifier (a fresh container) checks the process is gone; the harness must not follow
//! the symlink when copying the workspace out; a slow agent is killed as a timeout; and
//! nothing labelled with the run is left.

use crate::common;

use common::{write, write_exec};
use nab_harness::run::{Job, run_jobs};
use nab_harness::task::load_suite;
use nab_harness::trial::AgentKind;
use nab_protocol::{SandboxExit, TrialStatus};
use std::sync::Arc;
use tokio_util::sync::CancellationToken;

fn task_yaml(id: &str, agent_s: u32) -> String {
    format!(
        r#"id: {id}
category: terminal
language: shell
difficulty: easy
timeouts: {{agent_s: {agent_s}, verify_s: 60}}
limits: {{cpus: 1.0, memory_mb: 256, pids: 64}}
verify:
  - argv: ["bash", "/nab/tests/check.sh"]
    timeout_s: 30
solution: ["true"]
"#
    )
}

const CHECK: &str = r#"set -u
echo "processes in the verifier:"; ps -eo pid,args
if pgrep -f 'sleep 31337' >/dev/null; then echo "FAIL: the agent's background process is alive"; exit 1; fi
[ "$(python3 -m nabverify cat /workspace/tests_seen)" = absent ] || { echo "FAIL: agent saw /nab/tests"; exit 1; }
[ -d /nab/tests ] || { echo "FAIL: no tests in the verifier"; exit 1; }
touch /nab/verify/scratch || { echo "FAIL: /nab/verify not writable"; exit 1; }
echo VERIFIER-OK
"#;

#[tokio::test(flavor = "multi_thread")]
async fn background_processes_symlinks_timeouts_and_cleanup() {
    let image = common::base_image().await;
    let root = common::agent_root();
    let secret_dir = tempfile::tempdir().unwrap();
    let secret = secret_dir.path().join("host-secret.txt");
    std::fs::write(&secret, "TOP-SECRET-HOST-CONTENT\n").unwrap();
    std::fs::set_permissions(
        secret_dir.path(),
        std::os::unix::fs::PermissionsExt::from_mode(0o755),
    )
    .unwrap();

    for (id, agent_s, instruction) in [
        ("planter", 60, "plant things"),
        ("sleeper", 3, "sleep forever"),
    ] {
        let d = root.path().join("suite").join(id);
        write(&d.join("task.yaml"), &task_yaml(id, agent_s));
        write(&d.join("instruction.md"), instruction);
        write(&d.join("workspace/notes.txt"), "original\n");
        write(&d.join("tests/check.sh"), CHECK);
        std::fs::create_dir_all(d.join("solution")).unwrap();
    }
    let agent = root.path().join("agent.sh");
    write_exec(
        &agent,
        &format!(
            r#"#!/bin/bash
instruction=$(cat)
echo "got instruction: $instruction"
if [ "$instruction" = "sleep forever" ]; then exec sleep 300; fi
if [ -e /nab/tests ]; then echo present > /workspace/tests_seen; else echo absent > /workspace/tests_seen; fi
nohup sleep 31337 >/dev/null 2>&1 &
echo "edited by agent" >> /workspace/notes.txt
ln -s {secret} /workspace/leak
ln -s /etc/passwd /workspace/passwd-link
echo done
"#,
            secret = secret.display()
        ),
    );

    let tasks = load_suite(&root.path().join("suite"), &[]).unwrap_or_else(|e| panic!("{e}"));
    let kind = AgentKind::Command(agent.clone());
    let jobs = tasks
        .into_iter()
        .map(|t| Job {
            task: Arc::new(t),
            agent: kind.clone(),
            trial: 0,
            dir_name: "0".into(),
            stop_at_first_failure: false,
        })
        .collect();
    let (run_id, _sweep, out) = common::run_slot(root.path(), "isolation");
    let docker = nab_harness::env::sandbox::connect().await.unwrap();
    let cfg = common::quiet_run_config(docker, image, out.clone(), &run_id);
    let report = run_jobs(cfg, jobs, CancellationToken::new()).await.unwrap();
    assert_eq!(report.records.len(), 2);
    assert_eq!(
        report.leftovers, 0,
        "per-trial cleanup left something for the sweep"
    );

    let planter = report
        .records
        .iter()
        .find(|r| r.task_id == "planter")
        .unwrap();
    let trial_dir = out.join("trials/planter/0");
    let verify_log =
        std::fs::read_to_string(trial_dir.join(nab_protocol::VERIFY_LOG_FILE)).unwrap();
    assert_eq!(
        planter.outcome.status,
        TrialStatus::Passed,
        "{planter:?}\n{verify_log}"
    );
    assert!(verify_log.contains("VERIFIER-OK"), "{verify_log}");
    assert_eq!(planter.outcome.exit_reason, Some(SandboxExit::Exited));
    assert_eq!(planter.outcome.agent_exit_code, Some(0));
    let agent_log = std::fs::read_to_string(trial_dir.join(nab_protocol::AGENT_LOG_FILE)).unwrap();
    assert!(
        agent_log.contains("got instruction: plant things"),
        "{agent_log}"
    );

    let diff = std::fs::read_to_string(trial_dir.join(nab_protocol::DIFF_FILE)).unwrap();
    assert!(diff.contains("+edited by agent"), "{diff}");
    assert!(
        diff.contains(&format!("+symlink -> {}", secret.display())),
        "{diff}"
    );
    assert!(diff.contains("+symlink -> /etc/passwd"), "{diff}");
    assert!(
        !diff.contains("TOP-SECRET-HOST-CONTENT"),
        "the host file behind a symlink was read:\n{diff}"
    );
    assert!(
        !diff.contains("root:x:0:0"),
        "a symlink was followed:\n{diff}"
    );

    let sleeper = report
        .records
        .iter()
        .find(|r| r.task_id == "sleeper")
        .unwrap();
    assert_eq!(
        sleeper.outcome.exit_reason,
        Some(SandboxExit::Timeout),
        "{sleeper:?}"
    );
    assert_eq!(
        sleeper.outcome.status,
        TrialStatus::Failed,
        "a timeout is a task failure, not an error"
    );
    assert!(sleeper.outcome.error.is_none());
    assert!(
        sleeper.outcome.agent_s >= 3.0 && sleeper.outcome.agent_s < 60.0,
        "{}",
        sleeper.outcome.agent_s
    );
    let sleeper_log = std::fs::read_to_string(out.join("trials/sleeper/0/agent.log")).unwrap();
    assert!(
        sleeper_log.contains("killed at its 3 s deadline"),
        "{sleeper_log}"
    );

    assert_eq!(
        common::labelled(&format!("nab.run={run_id}")),
        (vec![], vec![])
    );
    let lines = std::fs::read_to_string(out.join(nab_protocol::RESULTS_FILE)).unwrap();
    assert_eq!(lines.lines().count(), 2);
}
