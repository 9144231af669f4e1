//! Declared agents (`agents/<name>/agent.yaml`) with real Docker: the shipped mini-swe-agent
//! and aider each fix a suite task through the gateway with a scripted model (and fail it
//! with a wrong fix), counted from the gateway's transcript; a declared agent runs in its
//! own image on top of the task's, under the lockdown of every agent, while the verifier
//! keeps the task's image.

use crate::common;

use common::{copy_dir, repo_tasks, write};
use nab_protocol::{TrialRecord, TrialStatus};
use std::path::{Path, PathBuf};

const TASK: &str = "py-pagination-offbyone";

fn repo_agents() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../agents")
}

/// `nab run --agent <agent> --model scripted:<trajectory>` on `tasks`' task `TASK`: the
/// single trial's record (the run must end with one).
fn run_declared(
    root: &Path,
    agents: &Path,
    tasks: &Path,
    agent: &str,
    trajectory: &Path,
) -> TrialRecord {
    let (run_id, _sweep, out) = common::run_slot(root, agent);
    let o = common::nab_run(&run_id, 1)
        .args(["--agent", agent, "--agents"])
        .arg(agents)
        .arg("--tasks")
        .arg(tasks)
        .arg(format!("--model=scripted:{}", trajectory.display()))
        .arg("--out")
        .arg(&out)
        .arg(TASK)
        .output()
        .unwrap();
    let records = nab_protocol::read_jsonl::<TrialRecord>(&out.join(nab_protocol::RESULTS_FILE))
        .unwrap_or_else(|e| panic!("{e}\n{}", common::show(&o)))
        .records;
    assert_eq!(records.len(), 1, "{}", common::show(&o));
    let r = records.into_iter().next().unwrap();
    let log = |f: &str| {
        std::fs::read_to_string(out.join("trials").join(TASK).join("0").join(f)).unwrap_or_default()
    };
    if r.outcome.status == TrialStatus::Error {
        panic!(
            "{:?}\n{}\nagent.log:\n{}",
            r.outcome,
            common::show(&o),
            log("agent.log")
        );
    }
    r
}

/// Runs the shipped agent `name` on `TASK` with its right and its wrong trajectory (both
/// at once): the first passes from the hidden tests, the second fails; both have their
/// tokens and steps from the gateway's transcript.
async fn right_and_wrong(name: &str, steps: (u64, u64)) {
    common::base_image().await;
    let root = common::agent_root();
    let tasks = root.path().join("suite");
    copy_dir(&repo_tasks().join(TASK), &tasks.join(TASK));
    let traj = |f: &str| repo_agents().join(name).join("trajectories").join(f);
    let (good, bad) = std::thread::scope(|s| {
        let good = s.spawn(|| {
            let dir = root.path().join("good");
            std::fs::create_dir_all(&dir).unwrap();
            let t = traj(&format!("{TASK}.yaml"));
            run_declared(&dir, &repo_agents(), &tasks, name, &t)
        });
        let bad = s.spawn(|| {
            let dir = root.path().join("bad");
            std::fs::create_dir_all(&dir).unwrap();
            let t = traj(&format!("{TASK}-wrong.yaml"));
            run_declared(&dir, &repo_agents(), &tasks, &format!("agent:{name}"), &t)
        });
        (good.join().unwrap(), bad.join().unwrap())
    });
    for (r, want, n) in [
        (&good, TrialStatus::Passed, steps.0),
        (&bad, TrialStatus::Failed, steps.1),
    ] {
        assert_eq!(r.outcome.status, want, "{:?}", r.outcome);
        assert_eq!(r.agent, format!("agent:{name}"));
        let input = r.usage.input_tokens.unwrap_or(0);
        let output = r.usage.output_tokens.unwrap_or(0);
        assert!(input > 0 && output > 0, "{:?}", r.usage);
        assert_eq!(r.usage.llm_calls, Some(n), "{:?}", r.usage);
        assert_eq!(r.behaviour.steps, Some(n), "{:?}", r.behaviour);
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn mini_swe_agent_fixes_a_suite_task_through_the_gateway_and_a_wrong_fix_fails() {
    right_and_wrong("mini-swe-agent", (5, 3)).await;
}

#[tokio::test(flavor = "multi_thread")]
async fn aider_fixes_a_suite_task_through_the_gateway_and_a_wrong_fix_fails() {
    right_and_wrong("aider", (1, 1)).await;
}

/// The probe a declared agent runs (its command is bash reading this from stdin): what the
/// agent's container is, written to the workspace for the verifier to check.
const PROBE: &str = r#"{
echo "net=$(ls /sys/class/net | sort | tr '\n' ' ' | sed 's/ $//')"
touch /usr/nab-probe 2>/dev/null && echo usr=writable || echo usr=readonly
awk '$2 == "/" {print "rootmount=" substr($4, 1, 2)}' /proc/mounts
echo "uid=$(id -u)"
grep -E '^(CapEff|NoNewPrivs):' /proc/self/status | tr -d '\t '
[ -r /opt/probe-agent/marker ] && echo "marker=$(cat /opt/probe-agent/marker)" || echo marker=missing
echo "base_url=$PROBE_BASE_URL"
echo "key=$PROBE_KEY"
echo "setting=$PROBE_SETTING"
echo "home=$HOME"
} > /workspace/agent-probe.txt
"#;

/// The verifier: the agent's container was locked down and had the agent's image; the
/// verifier runs the task's image (no marker), never the agent's.
const CHECK: &str = r#"set -u
agent=$(python3 -m nabverify cat /workspace/agent-probe.txt) || exit 1
echo "$agent"
for kv in net=lo usr=readonly rootmount=ro uid=1000 CapEff:0000000000000000 NoNewPrivs:1 \
    marker=in-the-agent-image base_url=http://127.0.0.1:47611/v1 setting=scripted-x home=/tmp/probe-home; do
  echo "$agent" | grep -qxF "$kv" || { echo "FAIL: missing $kv"; exit 1; }
done
echo "$agent" | grep -q '^key=.' || { echo "FAIL: no placeholder key"; exit 1; }
[ -e /opt/probe-agent/marker ] && { echo "FAIL: the verifier runs the agent's image"; exit 1; }
echo CHECK-OK
"#;

/// A declared agent built from set-up commands only (no package: a build of seconds),
/// selected by name from a folder of its own, runs in its image on top of the task's with
/// every agent's lockdown and the variables it declared; the verifier never sees its image.
#[tokio::test(flavor = "multi_thread")]
async fn a_declared_agent_runs_locked_down_in_its_own_image_and_the_verifier_in_the_tasks() {
    common::base_image().await;
    let root = common::agent_root();
    let suite = root.path().join("suite");
    let d = suite.join("probe");
    write(
        &d.join("task.yaml"),
        &common::task_yaml(
            "probe",
            "terminal",
            r#"["bash", "/nab/tests/check.sh"]"#,
            "",
        ),
    );
    write(&d.join("instruction.md"), PROBE);
    write(&d.join("workspace/README"), "probe\n");
    write(&d.join("tests/check.sh"), CHECK);
    write(&d.join("solution/solve.sh"), "true\n");
    // A token makes the image new on every run of the test, so it is really built.
    let token = common::unique("agent");
    let agents = root.path().join("agents");
    write(
        &agents.join("prober/agent.yaml"),
        &format!(
            r#"description: runs its instruction with bash
environment:
  setup:
    - "mkdir -p /opt/probe-agent && printf in-the-agent-image > /opt/probe-agent/marker && chmod -R a+rX /opt/probe-agent"
    - "echo {token} > /opt/probe-agent/token"
command: [bash, -s]
instruction: stdin
api: openai-chat
base_url_env: [PROBE_BASE_URL]
api_key_env: [PROBE_KEY]
env:
  PROBE_SETTING: "{{model}}-x"
  HOME: /tmp/probe-home
"#
        ),
    );
    let trajectory = root.path().join("trajectory.yaml");
    write(&trajectory, "turns:\n  - content: unused\n");
    for dir in [&suite, &d, &agents, &agents.join("prober")] {
        std::fs::set_permissions(dir, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    }
    let (run_id, _sweep, out) = common::run_slot(root.path(), "prober");
    let unknown = common::nab_run(&run_id, 1)
        .args(["--agent", "nobody", "--agents"])
        .arg(&agents)
        .arg("--tasks")
        .arg(&suite)
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&unknown.stderr);
    assert_eq!(unknown.status.code(), Some(2), "{said}");
    assert!(said.contains("the declared agents are: prober"), "{said}");
    let o = common::nab_run(&run_id, 1)
        .args(["--agent", "prober", "--agents"])
        .arg(&agents)
        .arg("--tasks")
        .arg(&suite)
        .arg(format!("--model=scripted:{}", trajectory.display()))
        .arg("--out")
        .arg(&out)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert!(
        stderr.contains("built agent image nab-agent-image:prober-"),
        "{}",
        common::show(&o)
    );
    let records = nab_protocol::read_jsonl::<TrialRecord>(&out.join(nab_protocol::RESULTS_FILE))
        .unwrap_or_else(|e| panic!("{e}\n{}", common::show(&o)))
        .records;
    let verify_log =
        std::fs::read_to_string(out.join("trials/probe/0/verify.log")).unwrap_or_default();
    assert_eq!(
        records[0].outcome.status,
        TrialStatus::Passed,
        "{:?}\n{verify_log}\n{}",
        records[0].outcome,
        common::show(&o)
    );
    assert!(verify_log.contains("CHECK-OK"), "{verify_log}");
    let tag = stderr
        .split_whitespace()
        .find(|w| w.starts_with("nab-agent-image:prober-"))
        .unwrap()
        .to_owned();
    let docker = nab_harness::env::sandbox::connect().await.unwrap();
    nab_harness::env::image::remove_image(&docker, &tag)
        .await
        .unwrap();
}
