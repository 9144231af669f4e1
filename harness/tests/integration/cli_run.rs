//! The `nab` binary end to end against real Docker: validate (including a broken
//! known-wrong solution), run + resume after a torn results line, nab-agent's default
//! model, and SIGINT cleanup.

use crate::common;

use common::{copy_dir, repo_tasks, write};
use nab_protocol::{TrialRecord, TrialStatus};
use std::io::Write as _;
use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

fn nab() -> Command {
    Command::new(env!("CARGO_BIN_EXE_nab"))
}

/// `nab run --agent nab-agent --model scripted:task --tasks <tasks> --out <out> <extra>`:
/// its exit code and stderr.
fn scripted_run(tasks: &Path, out: &Path, extra: &[&str]) -> (Option<i32>, String) {
    let o = nab()
        .args(["run", "--agent", "nab-agent", "--model", "scripted:task"])
        .arg("--tasks")
        .arg(tasks)
        .arg("--out")
        .arg(out)
        .args(extra)
        .output()
        .unwrap();
    (
        o.status.code(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

fn records(out: &Path) -> Vec<TrialRecord> {
    nab_protocol::read_jsonl::<TrialRecord>(&out.join(nab_protocol::RESULTS_FILE))
        .unwrap()
        .records
}

#[tokio::test(flavor = "multi_thread")]
async fn validate_flags_a_known_wrong_solution_that_passes() {
    common::base_image().await;
    let root = tempfile::tempdir().unwrap();
    let suite = root.path().join("suite");
    copy_dir(
        &repo_tasks().join("term-log-report"),
        &suite.join("term-log-report"),
    );
    // A copy whose "wrong" solution is really the oracle: validate must call it out.
    let bad = suite.join("term-bad-wrong");
    copy_dir(&repo_tasks().join("term-log-report"), &bad);
    let yaml = std::fs::read_to_string(bad.join("task.yaml"))
        .unwrap()
        .replace("id: term-log-report", "id: term-bad-wrong");
    write(&bad.join("task.yaml"), &yaml);
    std::fs::remove_dir_all(bad.join("wrong")).unwrap();
    copy_dir(&bad.join("solution"), &bad.join("wrong/actually-right"));
    // The same in a pytest task, whose checks that must fail stop at their first failing
    // test: a "wrong" solution that passes every test still runs them all and is caught.
    let py = suite.join("py-bad-wrong");
    copy_dir(&repo_tasks().join("py-pagination-offbyone"), &py);
    let yaml = std::fs::read_to_string(py.join("task.yaml"))
        .unwrap()
        .replace("id: py-pagination-offbyone", "id: py-bad-wrong");
    write(&py.join("task.yaml"), &yaml);
    std::fs::remove_dir_all(py.join("wrong")).unwrap();
    copy_dir(&py.join("solution"), &py.join("wrong/actually-right"));
    // Its tests' file sorts before the planted canaries' (`test_<random>.py`), and a second
    // wrong solution fails exactly one test, the fourth (it clamps a page past the end to
    // the last page): the canaries still run first, so its check stops at that failure,
    // not at the canaries after every other test.
    std::fs::rename(
        py.join("tests/test_pagination.py"),
        py.join("tests/test_aaa_pagination.py"),
    )
    .unwrap();
    let clamps = py.join("wrong/clamps-past-the-end");
    copy_dir(&py.join("solution"), &clamps);
    let paginate = std::fs::read_to_string(clamps.join("paginate.py")).unwrap();
    let clamped = paginate.replace(
        "    start, end = page_bounds(page, per_page)\n",
        "    page = min(page, max(total_pages(len(items), per_page), 1))\n    start, end = page_bounds(page, per_page)\n",
    );
    assert_ne!(paginate, clamped);
    write(&clamps.join("paginate.py"), &clamped);

    let run_id = common::unique("validate");
    let _sweep = common::SweepOnDrop(run_id.clone());
    let out = nab()
        .args(["validate", "-j", "2", "--run-id", &run_id, "--tasks"])
        .arg(&suite)
        .arg("--out")
        .arg(root.path().join("out"))
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(
        out.status.code(),
        Some(1),
        "{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let good_row = stdout
        .lines()
        .find(|l| l.starts_with("term-log-report "))
        .unwrap();
    assert!(
        good_row.contains("pass") && good_row.ends_with(" ok"),
        "{stdout}"
    );
    let bad_row = stdout
        .lines()
        .find(|l| l.starts_with("term-bad-wrong "))
        .unwrap();
    assert!(
        bad_row.contains("PROBLEM: wrong/actually-right pass (must fail)"),
        "{stdout}"
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("the checks that must fail stop at their first failing test"),
        "{stderr}"
    );
    let py_row = stdout
        .lines()
        .find(|l| l.starts_with("py-bad-wrong "))
        .unwrap();
    assert!(
        py_row.contains("PROBLEM: wrong/actually-right pass (must fail)"),
        "{stdout}"
    );
    // Test counts: each of the task's three host-side checks counts as one test.
    let recs = records(&root.path().join("out"));
    let oracle = recs
        .iter()
        .find(|r| r.task_id == "term-log-report" && r.agent == "oracle")
        .unwrap();
    assert_eq!(
        (oracle.outcome.tests_passed, oracle.outcome.tests_total),
        (Some(3), Some(3))
    );
    let null = recs
        .iter()
        .find(|r| r.task_id == "term-log-report" && r.agent == "null")
        .unwrap();
    assert_eq!(null.outcome.tests_passed, Some(0));
    // The pytest task's null agent stopped at its first failures; its oracle and the
    // passing "wrong" solution ran every test.
    let py = |agent: &str| {
        recs.iter()
            .find(|r| r.task_id == "py-bad-wrong" && r.agent == agent)
            .unwrap()
    };
    let all = py("oracle").outcome.tests_total.unwrap();
    assert!(all > 100, "{all}");
    assert_eq!(py("wrong:actually-right").outcome.tests_total, Some(all));
    let null = &py("null").outcome;
    assert_eq!(null.status, TrialStatus::Failed);
    assert!(null.tests_total.unwrap() < all / 10, "{null:?}");
    let clamps = &py("wrong:clamps-past-the-end").outcome;
    assert_eq!(clamps.status, TrialStatus::Failed);
    assert_eq!(
        (clamps.tests_passed, clamps.tests_total),
        (Some(3), Some(4))
    );
    let log = std::fs::read_to_string(
        root.path()
            .join("out/trials/py-bad-wrong/null")
            .join(nab_protocol::VERIFY_LOG_FILE),
    )
    .unwrap();
    assert!(log.contains("stopped at its first failing test"), "{log}");
    assert_eq!(
        common::labelled(&format!("nab.run={run_id}")),
        (vec![], vec![])
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn run_writes_records_and_resume_skips_completed_trials_after_a_torn_line() {
    common::base_image().await;
    let root = tempfile::tempdir().unwrap();
    let out = root.path().join("out");
    let run = |extra: &[&str]| {
        let o = nab()
            .args([
                "run", "--agent", "oracle", "--trials", "2", "-j", "2", "--tasks",
            ])
            .arg(repo_tasks())
            .arg("--out")
            .arg(&out)
            .args(extra)
            .arg("term-log-report")
            .output()
            .unwrap();
        assert_eq!(
            o.status.code(),
            Some(0),
            "{}\n{}",
            String::from_utf8_lossy(&o.stdout),
            String::from_utf8_lossy(&o.stderr)
        );
        String::from_utf8_lossy(&o.stdout).into_owned()
    };
    let summary = run(&[]);
    assert!(summary.contains("pass rate 2/2"), "{summary}");
    let first = records(&out);
    assert_eq!(first.len(), 2);
    assert!(
        first
            .iter()
            .all(|r| r.outcome.status == TrialStatus::Passed && r.outcome.reward == 1.0)
    );
    for t in 0..2 {
        for f in [
            nab_protocol::AGENT_LOG_FILE,
            nab_protocol::VERIFY_LOG_FILE,
            nab_protocol::DIFF_FILE,
        ] {
            assert!(
                out.join(format!("trials/term-log-report/{t}/{f}"))
                    .is_file(),
                "missing {f}"
            );
        }
    }
    let diff = std::fs::read_to_string(out.join("trials/term-log-report/0/diff.patch")).unwrap();
    assert!(
        diff.contains("+++ b/report/summary.csv") && diff.contains("+/api/users,114,10,2778"),
        "{diff}"
    );

    // Tear the last record as a crash mid-write would, then resume: only that trial reruns.
    let path = out.join(nab_protocol::RESULTS_FILE);
    let text = std::fs::read_to_string(&path).unwrap();
    let mut lines: Vec<&str> = text.lines().collect();
    let last = lines.pop().unwrap();
    let torn = format!("{}\n{}", lines.join("\n"), &last[..last.len() / 2]);
    std::fs::write(&path, torn).unwrap();
    let summary = run(&["--resume"]);
    assert!(summary.contains("1 trial(s) kept from before"), "{summary}");
    let after = records(&out);
    assert_eq!(after.len(), 2, "the torn line is replaced, not duplicated");
    assert_eq!(after[0], first[0], "the completed trial is not rerun");
    assert_eq!(
        after[1].run_id, first[0].run_id,
        "a resumed run keeps its id"
    );
    let mut trials: Vec<u32> = after.iter().map(|r| r.trial).collect();
    trials.sort();
    assert_eq!(trials, vec![0, 1]);
}

/// The README's first command: nab-agent with no --model plays the task's scripted
/// trajectory through the gateway, and the run ends with the report's path.
#[tokio::test(flavor = "multi_thread")]
async fn nab_agent_without_a_model_plays_the_scripted_trajectory_and_ends_with_the_report() {
    common::base_image().await;
    let root = tempfile::tempdir().unwrap();
    let out = root.path().join("out");
    let o = nab()
        .args(["run", "--agent", "nab-agent", "--tasks"])
        .arg(repo_tasks())
        .arg("--out")
        .arg(&out)
        .arg("term-log-report")
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&o.stdout);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{stdout}\n{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let recs = records(&out);
    assert_eq!(recs.len(), 1);
    assert_eq!(recs[0].outcome.status, TrialStatus::Passed, "{:?}", recs[0]);
    assert!(
        recs[0].usage.llm_calls.unwrap_or(0) > 0,
        "the agent talked to the scripted model through the gateway: {:?}",
        recs[0]
    );
    let meta: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(out.join(nab_protocol::RUN_META_FILE)).unwrap(),
    )
    .unwrap();
    assert_eq!(meta["model"], "scripted:task", "{meta}");
    let last = stdout.lines().last().unwrap_or_default();
    assert_eq!(
        last,
        format!("report {}", out.join(nab_protocol::REPORT_FILE).display()),
        "{stdout}"
    );
    assert!(out.join(nab_protocol::REPORT_FILE).is_file());
}

/// A second Ctrl-C does not wait for the cleanup the first one started: nab ends at once
/// with the interrupted exit code and says how to remove what is left (the library returns
/// the outcome; only `main` exits).
#[tokio::test(flavor = "multi_thread")]
async fn a_second_sigint_ends_nab_at_once_with_the_interrupted_code() {
    common::base_image().await;
    let root = common::agent_root();
    let suite = root.path().join("suite");
    copy_dir(
        &repo_tasks().join("term-log-report"),
        &suite.join("term-log-report"),
    );
    let agent = root.path().join("slow-agent.sh");
    common::write_exec(&agent, "#!/bin/sh\nsleep 500 &\nexec sleep 400\n");
    // The guard removes what the abandoned cleanup leaves.
    let (run_id, _sweep, out) = common::run_slot(root.path(), "sigint2");
    let mut child = nab()
        .args(["run", "-j", "1", "--run-id", &run_id, "--tasks"])
        .arg(&suite)
        .arg(format!("--agent=command:{}", agent.display()))
        .arg("--out")
        .arg(&out)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let started = Instant::now();
    while common::labelled(&format!("nab.run={run_id}")).0.is_empty() {
        assert!(
            started.elapsed() < Duration::from_secs(120),
            "the container never appeared"
        );
        std::thread::sleep(Duration::from_millis(300));
    }
    std::thread::sleep(Duration::from_secs(1));
    // stderr is read as it comes: the second SIGINT goes only once nab has said it took the
    // first (two signals sent close together may reach it as one).
    let said = Arc::new(Mutex::new(String::new()));
    let reader = {
        let said = said.clone();
        let mut err = child.stderr.take().unwrap();
        std::thread::spawn(move || {
            let mut buf = [0u8; 4096];
            while let Ok(n) = std::io::Read::read(&mut err, &mut buf) {
                if n == 0 {
                    break;
                }
                said.lock()
                    .unwrap()
                    .push_str(&String::from_utf8_lossy(&buf[..n]));
            }
        })
    };
    let pid = nix::unistd::Pid::from_raw(child.id() as i32);
    nix::sys::signal::kill(pid, nix::sys::signal::Signal::SIGINT).unwrap();
    let first = Instant::now();
    while !said.lock().unwrap().contains("interrupted:") {
        assert!(
            first.elapsed() < Duration::from_secs(30),
            "nab never said it was interrupted: {}",
            said.lock().unwrap()
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    nix::sys::signal::kill(pid, nix::sys::signal::Signal::SIGINT).unwrap();
    let waited = Instant::now();
    let status = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break s;
        }
        if waited.elapsed() > Duration::from_secs(10) {
            let _ = child.kill();
            panic!("nab did not end within 10 s of a second SIGINT");
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    reader.join().unwrap();
    let stderr = said.lock().unwrap().clone();
    assert_eq!(status.code(), Some(130), "{stderr}");
    assert!(
        stderr.contains(&format!(
            "interrupted again: exiting now; `nab clean --run {run_id}` removes what is left"
        )),
        "{stderr}"
    );
    assert!(!stderr.contains("error:"), "{stderr}");
    assert!(records(&out).is_empty());
}

#[tokio::test(flavor = "multi_thread")]
async fn sigint_stops_the_run_and_leaves_nothing_labelled() {
    stops_the_run_and_leaves_nothing_labelled(nix::sys::signal::Signal::SIGINT, 2).await;
}

/// SIGTERM (`kill`, `docker stop`, a CI runner's cancel, Slurm at a job's time limit) stops
/// a run as Ctrl-C does: it used to end nab where it stood, its containers left running.
#[tokio::test(flavor = "multi_thread")]
async fn sigterm_stops_the_run_and_leaves_nothing_labelled() {
    stops_the_run_and_leaves_nothing_labelled(nix::sys::signal::Signal::SIGTERM, 1).await;
}

/// Starts `trials` trials of an agent that sleeps, sends `signal` once they all run, and
/// checks that nab stops, removes every container and volume, and records nothing.
async fn stops_the_run_and_leaves_nothing_labelled(
    signal: nix::sys::signal::Signal,
    trials: usize,
) {
    common::base_image().await;
    let root = common::agent_root();
    let suite = root.path().join("suite");
    copy_dir(
        &repo_tasks().join("term-log-report"),
        &suite.join("term-log-report"),
    );
    let agent = root.path().join("slow-agent.sh");
    common::write_exec(&agent, "#!/bin/sh\nsleep 500 &\nexec sleep 400\n");
    let (run_id, _sweep, out) = common::run_slot(root.path(), &signal.as_str().to_lowercase());
    let n = trials.to_string();
    let mut child = nab()
        .args([
            "run", "--trials", &n, "-j", &n, "--run-id", &run_id, "--tasks",
        ])
        .arg(&suite)
        .arg(format!("--agent=command:{}", agent.display()))
        .arg("--out")
        .arg(&out)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Wait until every agent is running in its container.
    let started = Instant::now();
    loop {
        let (containers, _) = common::labelled(&format!("nab.run={run_id}"));
        if containers.len() >= trials {
            break;
        }
        assert!(
            started.elapsed() < Duration::from_secs(120),
            "containers never appeared"
        );
        std::thread::sleep(Duration::from_millis(300));
    }
    std::thread::sleep(Duration::from_secs(1));
    nix::sys::signal::kill(nix::unistd::Pid::from_raw(child.id() as i32), signal).unwrap();
    let waited = Instant::now();
    let status = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break s;
        }
        if waited.elapsed() > Duration::from_secs(90) {
            let _ = child.kill();
            panic!("nab did not stop after {signal}");
        }
        std::thread::sleep(Duration::from_millis(200));
    };
    let mut stderr = String::new();
    std::io::Read::read_to_string(child.stderr.as_mut().unwrap(), &mut stderr).unwrap();
    assert_eq!(status.code(), Some(130), "{stderr}");
    assert!(stderr.contains("interrupted"), "{stderr}");
    assert_eq!(
        common::labelled(&format!("nab.run={run_id}")),
        (vec![], vec![]),
        "leftovers after {signal}"
    );
    // Interrupted trials are not recorded, so --resume runs them again.
    assert!(records(&out).is_empty());
    let _ = std::io::stderr().flush();
}

#[tokio::test(flavor = "multi_thread")]
async fn clean_removes_what_a_crashed_run_left_behind() {
    use nab_harness::env::sandbox::{
        ContainerSpec, DockerBackend, Labels, Lockdown, QuotaMount, SandboxBackend,
    };
    let image = common::base_image().await;
    let state = tempfile::tempdir().unwrap();
    let backend = DockerBackend::new(nab_harness::env::sandbox::connect().await.unwrap());
    let run_id = common::unique("clean");
    let _sweep = common::SweepOnDrop(run_id.clone());
    let labels = Labels {
        run: run_id.clone(),
        task: "t".into(),
        trial: "0".into(),
        role: "agent".into(),
    };
    // What a killed `nab` would leave: a running container, its workspace volume, and the
    // disk quota behind it, with a read-only folder the agent made.
    let quota = QuotaMount::create(&state.path().join("quota"), &labels, 32, 1000).unwrap();
    let locked = quota.path().join("locked");
    std::fs::create_dir_all(locked.join("deep")).unwrap();
    std::fs::write(locked.join("deep/f"), "x").unwrap();
    for d in [locked.join("deep"), locked.clone()] {
        std::fs::set_permissions(&d, std::os::unix::fs::PermissionsExt::from_mode(0o555)).unwrap();
    }
    let volume = backend
        .create_volume(&labels, Some(&quota.path()))
        .await
        .unwrap();
    let spec = ContainerSpec {
        image,
        labels,
        limits: Lockdown {
            cpus: 0.5,
            memory_mb: 128,
            pids: 32,
            tmp_mb: 8,
        },
        workspace: Some(volume),
        binds: vec![],
        scratch_volumes: vec![],
        tmpfs: vec![],
        env: vec![],
    };
    backend.create(&spec).await.unwrap();
    let label = format!("nab.run={run_id}");
    assert_eq!(common::labelled(&label).0.len(), 1);
    let out = nab()
        .args(["clean", "--run", &run_id])
        .env("NAB_STATE_DIR", state.path())
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}");
    assert!(
        stdout.contains("removed 1 container(s), 1 volume(s) and 1 disk quota(s)"),
        "{stdout}"
    );
    assert_eq!(common::labelled(&label), (vec![], vec![]));
    assert!(!quota.dir().exists(), "{:?}", quota.dir());
    let mounts = std::fs::read_to_string("/proc/self/mountinfo").unwrap();
    assert!(
        !mounts.contains(&state.path().display().to_string()),
        "{mounts}"
    );
}

/// A dollar budget without a price for the model is refused before anything runs (no
/// Docker, no run folder), naming the task and the model; a bad prices file likewise names
/// the file, the entry and the field; `budgets.usd` must be positive.
#[test]
fn a_usd_budget_without_a_price_and_a_bad_prices_file_stop_the_run_before_it_starts() {
    let root = tempfile::tempdir().unwrap();
    let (suite, yaml) = common::usd_suite(root.path(), "0.5");
    let task = suite.join("py-usd");
    let out = root.path().join("out");
    let run = |extra: &[&str]| scripted_run(&suite, &out, extra);
    let (code, err) = run(&[]);
    assert_ne!(code, Some(0), "{err}");
    assert!(
        err.contains("task py-usd has budgets.usd, but model `scripted` has no price"),
        "{err}"
    );
    // A prices file that names other models only: still no price, and it says which file.
    let prices = common::prices(
        root.path(),
        "prices:\n  - {model: 'example-*', input: 1, cached_input: 1, output: 1}\n",
    );
    let (code, err) = run(&["--prices", prices.to_str().unwrap()]);
    assert_ne!(code, Some(0), "{err}");
    assert!(err.contains("no entry matches model `scripted`"), "{err}");
    assert!(
        err.contains(&format!("has no price in {}", prices.display())),
        "{err}"
    );
    // A bad entry: file, entry and field.
    write(
        &prices,
        "prices:\n  - {model: scripted, input: 1, cached_input: -2, output: 1}\n",
    );
    let (code, err) = run(&["--prices", prices.to_str().unwrap()]);
    assert_ne!(code, Some(0), "{err}");
    assert!(
        err.contains(&prices.display().to_string())
            && err.contains("entry 1 (model `scripted`), field `cached_input`"),
        "{err}"
    );
    assert!(
        !out.join(nab_protocol::RESULTS_FILE).exists(),
        "nothing ran"
    );
    // budgets.usd must be a positive number of dollars.
    write(
        &task.join("task.yaml"),
        &format!("{yaml}budgets: {{usd: -1}}\n"),
    );
    let (code, err) = run(&[]);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("budgets.usd"), "{err}");
}

/// `--max-cost-usd` is refused before anything runs (no Docker, no run folder) when the
/// model has no price, naming the model and the prices file, and when it is not a
/// positive, finite number of dollars; all with exit code 2 (bad input).
#[test]
fn a_max_cost_without_a_price_or_with_a_bad_value_stops_the_run_before_it_starts() {
    let root = tempfile::tempdir().unwrap();
    let out = root.path().join("out");
    let run =
        |extra: &[&str]| scripted_run(&repo_tasks(), &out, &[extra, &["term-log-report"]].concat());
    let (code, err) = run(&["--max-cost-usd", "1.5"]);
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.contains("--max-cost-usd 1.5: model `scripted` has no price (no --prices given)"),
        "{err}"
    );
    let prices = common::prices(
        root.path(),
        "prices:\n  - {model: 'example-*', input: 1, cached_input: 1, output: 1}\n",
    );
    let (code, err) = run(&[
        "--max-cost-usd",
        "1.5",
        "--prices",
        prices.to_str().unwrap(),
    ]);
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.contains(&format!(
            "model `scripted` has no price in {}",
            prices.display()
        )),
        "{err}"
    );
    for bad in ["0", "-2", "nan", "inf", "ten"] {
        let (code, err) = run(&[&format!("--max-cost-usd={bad}")]);
        assert_eq!(code, Some(2), "{bad}: {err}");
        assert!(err.contains("US dollars"), "{bad}: {err}");
    }
    assert!(!out.exists(), "nothing ran");
}
