//! A real Docker trial records where its time went (`phase_ms`): every phase of a trial
//! that reached its verifier, adding up to the trial's time — no less than its agent and
//! verifier phases, no more than the run around it.

use crate::common;

use common::write;
use nab_harness::run::{Job, run_jobs};
use nab_harness::task::load_suite;
use nab_harness::trial::AgentKind;
use nab_protocol::{TrialPhase, TrialStatus};
use std::sync::Arc;
use std::time::Instant;
use tokio_util::sync::CancellationToken;

#[tokio::test(flavor = "multi_thread")]
async fn a_trial_records_each_phase_and_they_add_up_to_its_time() {
    let image = common::base_image().await;
    let root = common::agent_root();
    let d = root.path().join("suite/noop");
    write(
        &d.join("task.yaml"),
        &common::task_yaml("noop", "terminal", r#"["true"]"#, ""),
    );
    write(&d.join("instruction.md"), "Do nothing.");
    write(&d.join("workspace/file.txt"), "hello\n");
    write(&d.join("tests/README"), "no tests: the step is `true`\n");
    write(
        &d.join("solution/solve.sh"),
        "echo solved >> /workspace/file.txt\n",
    );
    let tasks = load_suite(&root.path().join("suite"), &[]).unwrap_or_else(|e| panic!("{e}"));
    let jobs = tasks
        .into_iter()
        .map(|t| Job {
            task: Arc::new(t),
            agent: AgentKind::Oracle,
            trial: 0,
            dir_name: "0".into(),
            stop_at_first_failure: false,
        })
        .collect();
    let (run_id, _sweep, out) = common::run_slot(root.path(), "phases");
    let docker = nab_harness::env::sandbox::connect().await.unwrap();
    let cfg = common::quiet_run_config(docker, image, out.clone(), &run_id);
    let started = Instant::now();
    let report = run_jobs(cfg, jobs, CancellationToken::new()).await.unwrap();
    let wall_ms = started.elapsed().as_millis() as u64;
    let r = &report.records[0];
    assert_eq!(r.outcome.status, TrialStatus::Passed, "{r:?}");

    let phases = r.outcome.phase_ms;
    // Every phase of a trial that ran its verifier (an oracle has no gateway, but the
    // metrics phase still checks the task's requirements).
    for p in TrialPhase::ALL {
        assert!(
            phases.get(p).is_some(),
            "{} missing: {phases:?}",
            p.as_str()
        );
    }
    // The agent's phase is `agent_s`, rounded down to the millisecond.
    let agent_ms = (r.outcome.agent_s * 1000.0) as u64;
    let agent = phases.get(TrialPhase::Agent).unwrap();
    assert!(agent.abs_diff(agent_ms) <= 2, "{agent} vs {agent_ms}");
    // The verifier's phases hold `verify_s` (its container and its steps).
    let verifier: u64 = [
        TrialPhase::VerifierStart,
        TrialPhase::TestsIn,
        TrialPhase::Tests,
    ]
    .iter()
    .map(|p| phases.get(*p).unwrap())
    .sum();
    let verify_ms = (r.outcome.verify_s * 1000.0) as u64;
    assert!(
        verifier + 3 >= verify_ms,
        "{verifier} vs {verify_ms}: {phases:?}"
    );
    let total = phases.total();
    assert!(
        total >= agent_ms + verify_ms && total <= wall_ms,
        "phases {total} ms: agent {agent_ms} + verify {verify_ms}, run {wall_ms}: {phases:?}"
    );
    // The line in results.jsonl carries them, one key per phase.
    let line = std::fs::read_to_string(out.join(nab_protocol::RESULTS_FILE)).unwrap();
    let v: serde_json::Value = serde_json::from_str(line.lines().next().unwrap()).unwrap();
    let keys = v["phase_ms"]
        .as_object()
        .expect("phase_ms in the record")
        .len();
    assert_eq!(keys, TrialPhase::ALL.len(), "{line}");
}

/// The verifier is made while the agent runs and the workspace is closed from the host
/// after it: an agent that opens /workspace to everyone (and leaves a process behind)
/// still has it closed to the verifier user when the tests run, and the trial's
/// containers, volumes and quotas are all gone by the end of the run.
#[tokio::test(flavor = "multi_thread")]
async fn a_workspace_the_agent_opened_is_closed_before_the_tests() {
    let image = common::base_image().await;
    let root = common::agent_root();
    let d = root.path().join("suite/opened");
    // As the verifier user: /workspace must not list.
    write(
        &d.join("task.yaml"),
        &common::task_yaml(
            "opened",
            "terminal",
            r#"["sh", "-c", "if ls /workspace; then echo OPEN; exit 1; fi; echo CLOSED"]"#,
            "",
        ),
    );
    write(&d.join("instruction.md"), "Open the workspace.");
    write(&d.join("workspace/file.txt"), "hello\n");
    write(&d.join("tests/README"), "the step checks /workspace\n");
    write(&d.join("solution/solve.sh"), "true\n");
    let agent = root.path().join("agent.sh");
    common::write_exec(
        &agent,
        "#!/bin/sh\nchmod 0777 /workspace\nchmod 0666 /workspace/file.txt\nnohup sleep 600 >/dev/null 2>&1 &\necho opened\n",
    );
    let tasks = load_suite(&root.path().join("suite"), &[]).unwrap_or_else(|e| panic!("{e}"));
    let jobs = tasks
        .into_iter()
        .map(|t| Job {
            task: Arc::new(t),
            agent: AgentKind::Command(agent.clone()),
            trial: 0,
            dir_name: "0".into(),
            stop_at_first_failure: false,
        })
        .collect();
    let (run_id, _sweep, out) = common::run_slot(root.path(), "opened");
    let docker = nab_harness::env::sandbox::connect().await.unwrap();
    let cfg = common::quiet_run_config(docker, image, out.clone(), &run_id);
    let report = run_jobs(cfg, jobs, CancellationToken::new()).await.unwrap();
    let r = &report.records[0];
    let log = std::fs::read_to_string(out.join("trials/opened/0/verify.log")).unwrap();
    assert_eq!(r.outcome.status, TrialStatus::Passed, "{r:?}\n{log}");
    assert!(log.contains("CLOSED") && !log.contains("OPEN\n"), "{log}");
    // The removals handed to the background are done before the run's sweep.
    assert_eq!(report.leftovers, 0);
    assert_eq!(
        common::labelled(&format!("nab.run={run_id}")),
        (vec![], vec![])
    );
}
