//! Per-task environments with real Docker: a task image is built once per distinct
//! environment and shared, is cached by its recipe hash, carries the task's packages and
//! set-up, and runs agent and verifier containers under exactly the base image's lockdown
//! (checked from inside both). A failed build names the task and the failing command.

use crate::common;

use common::write;
use nab_harness::env::image::{
    TaskImageError, TaskRecipe, ensure_suite_images, ensure_task_image, remove_image, suite_images,
};
use nab_harness::run::{Job, run_jobs};
use nab_harness::task::{Environment, load_suite};
use nab_harness::trial::AgentKind;
use nab_protocol::TrialStatus;
use std::sync::Arc;
use tokio_util::sync::CancellationToken;

/// Run in the agent's container (by the oracle) and again in the verifier: what each sees.
const PROBE: &str = r#"
echo "net=$(ls /sys/class/net | sort | tr '\n' ' ' | sed 's/ $//')"
touch /usr/nab-probe 2>/dev/null && echo usr=writable || echo usr=readonly
touch /opt/nab-env-marker 2>/dev/null && echo marker_write=writable || echo marker_write=readonly
awk '$2 == "/" {print "rootmount=" substr($4, 1, 2)}' /proc/mounts
echo "uid=$(id -u)"
grep -E '^(CapEff|NoNewPrivs):' /proc/self/status | tr -d '\t '
command -v jq >/dev/null && echo "jq=$(echo '{"a":[1,2]}' | jq -c '.a|add')" || echo jq=missing
[ -r /opt/nab-env-marker ] && echo "marker=$(cat /opt/nab-env-marker)" || echo marker=missing
"#;

/// The verifier's check: the agent-side probe, the same probe run in the verifier as the
/// sandbox user (through the broker) and as the verifier's own user must all show the
/// lockdown, and the environment must be there exactly when the task declares one.
const CHECK: &str = r#"set -u
want_env="$1"
mine=$(bash /nab/probes/probe.sh)
sandbox=$(python3 -m nabverify run -- bash /nab/probes/probe.sh) || { echo "FAIL: the broker"; exit 1; }
agent=$(python3 -m nabverify cat /workspace/agent-probe.txt) || exit 1
echo "agent side:"; echo "$agent"
echo "verifier, sandbox user:"; echo "$sandbox"
echo "verifier, its own user:"; echo "$mine"
check() {
  side="$1"; uid="$2"
  for kv in net=lo usr=readonly marker_write=readonly rootmount=ro "uid=$uid" CapEff:0000000000000000 NoNewPrivs:1; do
    echo "$side" | grep -qxF "$kv" || { echo "FAIL: missing $kv"; exit 1; }
  done
  if [ "$want_env" = yes ]; then
    echo "$side" | grep -qxF jq=3 || { echo "FAIL: jq absent in the task image"; exit 1; }
    echo "$side" | grep -qxF marker=built-as-root || { echo "FAIL: set-up did not run"; exit 1; }
  else
    echo "$side" | grep -qxF jq=missing || { echo "FAIL: the base image has jq?"; exit 1; }
  fi
}
check "$agent" 1000; check "$sandbox" 1000; check "$mine" 2000
echo CHECK-OK
"#;

fn task_yaml(id: &str, env: &str, want_env: &str) -> String {
    common::task_yaml(
        id,
        "terminal",
        &format!(r#"["bash", "/nab/tests/check.sh", "{want_env}"]"#),
        env,
    )
}

fn make_task(root: &std::path::Path, id: &str, env: &str, want_env: &str) {
    let d = root.join(id);
    write(&d.join("task.yaml"), &task_yaml(id, env, want_env));
    write(&d.join("instruction.md"), "probe the sandbox\n");
    write(&d.join("workspace/README"), "probe\n");
    write(&d.join("tests/check.sh"), CHECK);
    write(&d.join("tests/probes/probe.sh"), PROBE);
    write(
        &d.join("solution/solve.sh"),
        &format!(
            "cat > /tmp/probe.sh <<'EOF'\n{PROBE}\nEOF\nbash /tmp/probe.sh > /workspace/agent-probe.txt\n"
        ),
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn a_task_image_is_built_once_shared_cached_and_locked_down_like_the_base() {
    let base = common::base_image().await;
    let docker = nab_harness::env::sandbox::connect().await.unwrap();
    let root = common::agent_root();
    let suite = root.path().join("suite");
    // A token in the last set-up command makes this run's image new (so it is really
    // built), while Docker's layer cache keeps the apt layer between test runs.
    let token = common::unique("env");
    let env = |apt: &str| {
        format!(
            "environment:\n  apt: [{apt}]\n  setup:\n    - \"printf built-as-root > /opt/nab-env-marker && chmod 644 /opt/nab-env-marker\"\n    - \"echo {token} > /opt/nab-token\"\n"
        )
    };
    // The same environment written two ways: one image.
    make_task(&suite, "env-a", &env("jq, procps"), "yes");
    make_task(&suite, "env-b", &env("procps, jq, jq"), "yes");
    make_task(&suite, "plain", "", "no");
    for d in ["env-a", "env-b", "plain"] {
        std::fs::set_permissions(
            suite.join(d),
            std::os::unix::fs::PermissionsExt::from_mode(0o755),
        )
        .unwrap();
    }
    let mut tasks: Vec<Arc<_>> = load_suite(&suite, &[])
        .unwrap_or_else(|e| panic!("{e}"))
        .into_iter()
        .map(Arc::new)
        .collect();

    let groups = suite_images(&base, &tasks);
    assert_eq!(groups.len(), 1, "{groups:?}");
    assert_eq!(groups[0].tasks, ["env-a", "env-b"]);
    let tag = groups[0].recipe.tag();
    let _cleanup = RemoveImage(tag.clone());

    // Cold: built, and each task with the environment points at it.
    let pb = indicatif::ProgressBar::hidden();
    let mut started = Vec::new();
    let built = ensure_suite_images(&docker, &base, &mut tasks, false, &pb, |i, n, img| {
        started.push((i, n, img.tasks.clone()))
    })
    .await
    .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(
        started,
        [(1, 1, vec!["env-a".to_owned(), "env-b".to_owned()])]
    );
    assert!(built[0].1.built_in.is_some(), "the first ensure must build");
    let images: Vec<Option<String>> = tasks.iter().map(|t| t.image.clone()).collect();
    assert_eq!(images, [Some(tag.clone()), Some(tag.clone()), None]);
    // Cached: nothing is built the second time.
    let again = ensure_suite_images(&docker, &base, &mut tasks, false, &pb, |_, _, _| {
        panic!("an existing image was rebuilt")
    })
    .await
    .unwrap();
    assert!(again[0].1.built_in.is_none());
    // The image carries nab's labels, so `nab image ls` lists it under the base it used.
    let listed = nab_harness::env::image::list_images(&docker).await.unwrap();
    let mine = listed.iter().find(|i| i.tag == tag).expect("listed");
    assert_eq!(mine.kind, "task");
    assert_eq!(mine.base.as_deref(), Some(base.as_str()));

    // Oracle (probes in the agent's container) and the verifier's own probe, on both the
    // task images and the base image; the null agent must fail (the check is not vacuous).
    let run_id = common::unique("taskimg");
    let _sweep = common::SweepOnDrop(run_id.clone());
    let mut jobs: Vec<Job> = tasks
        .iter()
        .map(|t| Job {
            task: t.clone(),
            agent: AgentKind::Oracle,
            trial: 0,
            dir_name: "oracle".into(),
            stop_at_first_failure: false,
        })
        .collect();
    jobs.push(Job {
        task: tasks[0].clone(),
        agent: AgentKind::Null,
        trial: 0,
        dir_name: "null".into(),
        stop_at_first_failure: false,
    });
    let out = root.path().join("out");
    let report = run_jobs(
        common::quiet_run_config(docker.clone(), base.clone(), out.clone(), &run_id),
        jobs,
        CancellationToken::new(),
    )
    .await
    .unwrap();
    for r in &report.records {
        let log = std::fs::read_to_string(
            out.join("trials")
                .join(&r.task_id)
                .join(if r.agent == "null" { "null" } else { "oracle" })
                .join(nab_protocol::VERIFY_LOG_FILE),
        )
        .unwrap_or_default();
        let want = if r.agent == "null" {
            TrialStatus::Failed
        } else {
            TrialStatus::Passed
        };
        assert_eq!(
            r.outcome.status, want,
            "{} {}: {r:?}\n{log}",
            r.task_id, r.agent
        );
        if want == TrialStatus::Passed {
            assert!(log.contains("CHECK-OK"), "{log}");
        }
    }
    assert_eq!(report.records.len(), 4);
    assert_eq!(report.leftovers, 0);

    // A task whose image was never built is an infrastructure error, not the agent's failure.
    let mut unbuilt = (*tasks[0]).clone();
    unbuilt.image = None;
    let run2 = common::unique("taskimg-unbuilt");
    let _sweep2 = common::SweepOnDrop(run2.clone());
    let report = run_jobs(
        common::quiet_run_config(
            docker.clone(),
            base.clone(),
            root.path().join("out2"),
            &run2,
        ),
        vec![Job {
            task: Arc::new(unbuilt),
            agent: AgentKind::Oracle,
            trial: 0,
            dir_name: "0".into(),
            stop_at_first_failure: false,
        }],
        CancellationToken::new(),
    )
    .await
    .unwrap();
    assert_eq!(report.records[0].outcome.status, TrialStatus::Error);
    let err = report.records[0].outcome.error.clone().unwrap_or_default();
    assert!(err.contains("no image was built"), "{err}");
}

#[tokio::test(flavor = "multi_thread")]
async fn a_failed_build_names_the_task_and_the_failing_command() {
    let base = common::base_image().await;
    let docker = nab_harness::env::sandbox::connect().await.unwrap();
    let pb = indicatif::ProgressBar::hidden();
    let token = common::unique("fail");
    let recipe = TaskRecipe::new(
        &base,
        &Environment {
            apt: vec![],
            pip: vec![],
            setup: vec![
                format!("echo {token}"),
                "echo about to fail >&2; exit 3".into(),
                "echo never".into(),
            ],
        },
    );
    let _cleanup = RemoveImage(recipe.tag());
    let e = ensure_task_image(&docker, &recipe, &["broken-task".into()], false, &pb)
        .await
        .expect_err("the build must fail");
    let TaskImageError::Failed {
        tasks,
        command,
        message,
        tail,
        ..
    } = &e
    else {
        panic!("{e}")
    };
    assert_eq!(tasks, "broken-task");
    assert_eq!(command, "setup[1]: echo about to fail >&2; exit 3");
    assert!(message.contains("non-zero code: 3"), "{message}");
    assert!(tail.contains("about to fail"), "{tail}");
    let text = e.to_string();
    assert!(
        text.contains("broken-task") && text.contains("setup[1]"),
        "{text}"
    );

    // A package no mirror has: the failing step is the apt step, and it says which packages.
    let recipe = TaskRecipe::new(
        &base,
        &Environment {
            apt: vec!["nab-no-such-package-zz".into()],
            pip: vec![],
            setup: vec![format!("echo {token}")],
        },
    );
    let _cleanup2 = RemoveImage(recipe.tag());
    let e = ensure_task_image(&docker, &recipe, &["t1".into(), "t2".into()], false, &pb)
        .await
        .expect_err("an unknown package must fail the build");
    let text = e.to_string();
    assert!(
        text.contains("t1, t2") && text.contains("`apt-get install nab-no-such-package-zz`"),
        "{text}"
    );
    assert!(text.contains("Unable to locate package"), "{text}");
}

/// Removes an image this test built (by its unique tag) when dropped.
struct RemoveImage(String);

impl Drop for RemoveImage {
    fn drop(&mut self) {
        let _ = std::process::Command::new("docker")
            .args(["rmi", "-f", &self.0])
            .output();
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn nab_removes_only_images_it_built() {
    let docker = nab_harness::env::sandbox::connect().await.unwrap();
    let e = remove_image(&docker, "nab-no-such-image:0")
        .await
        .unwrap_err();
    assert!(e.to_string().contains("no image"), "{e}");
    // An image without nab's label (an empty file system imported here) is refused and kept.
    let tag = format!("{}:1", common::unique("foreign").to_lowercase());
    let _cleanup = RemoveImage(tag.clone());
    let ok = std::process::Command::new("sh")
        .args([
            "-c",
            &format!("tar cf - -T /dev/null | docker import - {tag}"),
        ])
        .output()
        .unwrap();
    assert!(ok.status.success(), "{ok:?}");
    let e = remove_image(&docker, &tag).await.unwrap_err();
    assert!(e.to_string().contains("not an image nab built"), "{e}");
    assert!(
        docker.inspect_image(&tag).await.is_ok(),
        "the foreign image was removed"
    );
    let listed = nab_harness::env::image::list_images(&docker).await.unwrap();
    assert!(listed.iter().all(|i| i.tag != tag));
}

/// `nab run` on a suite whose task images are missing: the task on the base image runs
/// while they build (its trial ends before the slow image is built), the task whose image
/// builds passes on it, and the task whose build fails is an image error naming the failing
/// command, without stopping the others.
#[tokio::test(flavor = "multi_thread")]
async fn trials_on_the_base_image_run_while_task_images_build_and_a_failed_build_errors_only_its_task()
 {
    let base = common::base_image().await;
    let root = common::agent_root();
    let suite = root.path().join("suite");
    let token = common::unique("bg");
    let env = |last: &str| {
        format!(
            "environment:\n  setup:\n    - \"printf built-as-root > /opt/nab-env-marker && chmod 644 /opt/nab-env-marker\"\n    - \"echo {token}\"\n    - \"{last}\"\n"
        )
    };
    make_task(&suite, "slow-env", &env("sleep 25"), "yes-no-jq");
    make_task(&suite, "broken-env", &env("exit 3"), "yes-no-jq");
    make_task(&suite, "plain", "", "no");
    // Without an apt package the image has no jq: check only the set-up's marker.
    for id in ["slow-env", "broken-env"] {
        let check = suite.join(id).join("tests/check.sh");
        let text = std::fs::read_to_string(&check).unwrap().replace(
            r#"echo "$side" | grep -qxF jq=3 || { echo "FAIL: jq absent in the task image"; exit 1; }"#,
            "",
        );
        write(
            &check,
            &text.replace(r#"[ "$want_env" = yes ]"#, r#"[ "$want_env" = yes-no-jq ]"#),
        );
    }
    for d in ["slow-env", "broken-env", "plain"] {
        std::fs::set_permissions(
            suite.join(d),
            std::os::unix::fs::PermissionsExt::from_mode(0o755),
        )
        .unwrap();
    }
    let tasks: Vec<Arc<_>> = load_suite(&suite, &[])
        .unwrap_or_else(|e| panic!("{e}"))
        .into_iter()
        .map(Arc::new)
        .collect();
    let _cleanup: Vec<RemoveImage> = suite_images(&base, &tasks)
        .iter()
        .map(|i| RemoveImage(i.recipe.tag()))
        .collect();

    let (run_id, _sweep, out) = common::run_slot(root.path(), "bg-images");
    let o = common::nab_run(&run_id, 1)
        .args(["--agent", "oracle", "-j", "1", "--tasks"])
        .arg(&suite)
        .arg("--out")
        .arg(&out)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{stderr}");
    let records = nab_protocol::read_jsonl::<nab_protocol::TrialRecord>(
        &out.join(nab_protocol::RESULTS_FILE),
    )
    .unwrap()
    .records;
    let status = |id: &str| {
        let r = records.iter().find(|r| r.task_id == id).unwrap();
        (
            r.outcome.status,
            r.outcome.error_kind,
            r.outcome.error.clone().unwrap_or_default(),
        )
    };
    assert_eq!(status("plain").0, TrialStatus::Passed, "{stderr}");
    assert_eq!(status("slow-env").0, TrialStatus::Passed, "{stderr}");
    let (st, kind, error) = status("broken-env");
    assert_eq!(st, TrialStatus::Error, "{stderr}");
    assert_eq!(kind, Some(nab_protocol::ErrorKind::Image));
    assert!(
        error.contains("broken-env") && error.contains("setup[2]: exit 3"),
        "{error}"
    );
    // The base image's trial ended before the slow image was built: it did not wait.
    let at = |needle: &str| {
        stderr
            .find(needle)
            .unwrap_or_else(|| panic!("no {needle:?} in:\n{stderr}"))
    };
    assert!(at("plain oracle Passed") < at("(slow-env) in"), "{stderr}");
    assert_eq!(
        records[0].task_id, "plain",
        "trials on the base image go first"
    );
}
