//! `nab run --shard K/N` and `nab merge` end to end against real Docker: the same tasks
//! run with the scripted model once unsharded and once as three concurrent shards, merged;
//! the merged run must give the same verdict for every (task, trial) and the same summary
//! counts. A merge missing one shard must fail and name that shard's trials.
//!
//! The test runs a representative subset (one or two tasks of each category, 2 trials);
//! `NAB_SHARD_TEST_TASKS=all` runs the whole suite.

use crate::common;

use nab_protocol::TrialRecord;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const SUBSET: [&str; 7] = [
    "c-int-overflow",
    "py-pagination-offbyone",
    "loc-py-cache-key",
    "term-cron-schedule",
    "mcp-ticket-triage",
    "lc-changelog-audit",
    "term-log-report",
];

fn nab() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_nab"));
    c.env("NAB_LOG", "error");
    c
}

fn ok(o: &Output, what: &str) {
    assert!(
        o.status.code().is_some_and(|c| c <= 1),
        "{what}: {:?}\nstdout:\n{}\nstderr:\n{}",
        o.status,
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
}

fn run_args(out: &Path, run_id: &str, ids: &[String], jobs: &str) -> Vec<String> {
    let mut a: Vec<String> = [
        "run",
        "--tasks",
        &common::repo_tasks().display().to_string(),
        "--agent",
        "nab-agent",
        "--model",
        "scripted:task",
        "--trials",
        "2",
        "--attempts",
        "1",
        "-j",
        jobs,
        "--run-id",
        run_id,
        "--out",
        &out.display().to_string(),
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    a.extend(ids.iter().cloned());
    a
}

/// (task, trial) → (status, failure reason, tests passed/total, exit reason).
type Verdicts = BTreeMap<(String, u32), String>;

fn verdicts(run: &Path) -> Verdicts {
    let recs = nab_protocol::read_jsonl::<TrialRecord>(&run.join(nab_protocol::RESULTS_FILE))
        .unwrap()
        .records;
    recs.iter()
        .map(|r| {
            (
                (r.task_id.clone(), r.trial),
                format!(
                    "{:?} {:?} {:?}/{:?} {:?}",
                    r.outcome.status,
                    r.outcome.failure_reason,
                    r.outcome.tests_passed,
                    r.outcome.tests_total,
                    r.outcome.exit_reason
                ),
            )
        })
        .collect()
}

/// summary.json's counts (times and ids aside).
fn counts(run: &Path) -> serde_json::Value {
    let s: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(run.join(nab_protocol::SUMMARY_FILE)).unwrap(),
    )
    .unwrap();
    let keep = [
        "tasks",
        "scored_tasks",
        "trials",
        "scored_trials",
        "passed_trials",
        "max_trials_per_task",
        "pass_rate",
        "pass_rate_ci",
        "pass_at_k",
        "pass_hat_k",
        "categories",
        "flip_rate",
        "flaky_tasks",
    ];
    serde_json::Value::Object(
        keep.iter()
            .map(|k| (k.to_string(), s[*k].clone()))
            .collect(),
    )
}

#[tokio::test(flavor = "multi_thread")]
async fn three_concurrent_shards_merged_give_the_unsharded_verdicts() {
    common::base_image().await;
    let ids: Vec<String> = match std::env::var("NAB_SHARD_TEST_TASKS").as_deref() {
        Ok("all") => Vec::new(),
        _ => SUBSET.iter().map(|s| s.to_string()).collect(),
    };
    let root = tempfile::tempdir().unwrap();
    let whole = root.path().join("whole");
    let id = common::unique("unsharded");
    let _sweep = common::SweepOnDrop(id.clone());
    let o = nab()
        .args(run_args(&whole, &id, &ids, "2"))
        .output()
        .unwrap();
    ok(&o, "unsharded run");

    let group = common::unique("group");
    let mut children = Vec::new();
    let mut shard_dirs: Vec<PathBuf> = Vec::new();
    let mut sweeps = Vec::new();
    for k in 1..=3 {
        let dir = root.path().join(format!("shard-{k}"));
        let run_id = format!("{group}-{k}");
        sweeps.push(common::SweepOnDrop(run_id.clone()));
        let mut args = run_args(&dir, &run_id, &ids, "1");
        args.extend([
            "--shard".into(),
            format!("{k}/3"),
            "--group".into(),
            group.clone(),
        ]);
        children.push(
            nab()
                .args(args)
                .stdout(std::process::Stdio::piped())
                .stderr(std::process::Stdio::piped())
                .spawn()
                .unwrap(),
        );
        shard_dirs.push(dir);
    }
    // Concurrently: every shard is started before any is waited for.
    for (k, c) in children.into_iter().enumerate() {
        let o = c.wait_with_output().unwrap();
        ok(&o, &format!("shard {}", k + 1));
    }
    let shard_pairs: Vec<Verdicts> = shard_dirs.iter().map(|d| verdicts(d)).collect();
    assert!(
        shard_pairs.iter().all(|p| !p.is_empty()),
        "every shard got work: {:?}",
        shard_pairs.iter().map(|p| p.len()).collect::<Vec<_>>()
    );
    for d in &shard_dirs {
        let meta = nab_protocol::RunMeta::read(d).unwrap();
        assert_eq!(meta.group.as_deref(), Some(group.as_str()));
        assert_eq!(meta.shard.as_ref().unwrap().count, 3);
        assert!(meta.tasks_hash.as_deref().unwrap().starts_with("sha256:"));
    }

    let merged = root.path().join("merged");
    let o = nab()
        .args(["merge", "--out"])
        .arg(&merged)
        .args(&shard_dirs)
        .output()
        .unwrap();
    assert!(
        o.status.success(),
        "{}\n{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
    let want = verdicts(&whole);
    assert_eq!(want.len(), if ids.is_empty() { 56 } else { 2 * ids.len() });
    assert_eq!(verdicts(&merged), want);
    assert_eq!(counts(&merged), counts(&whole));
    assert!(merged.join(nab_protocol::REPORT_FILE).is_file());
    // The trial folders came along: every trial's diff is there.
    for (task, trial) in want.keys() {
        assert!(
            merged
                .join("trials")
                .join(task)
                .join(trial.to_string())
                .join(nab_protocol::DIFF_FILE)
                .is_file(),
            "{task} {trial}"
        );
    }

    // Without shard 3, the merge fails and names shard 3's trials.
    let o = nab()
        .args(["merge", "--out"])
        .arg(root.path().join("partial"))
        .args(&shard_dirs[..2])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(
        err.contains(&format!(
            "{} of {} trial(s) are missing",
            shard_pairs[2].len(),
            want.len()
        )),
        "{err}"
    );
    for (task, trial) in shard_pairs[2].keys() {
        assert!(
            err.contains(&format!("{task} trial {trial}")),
            "{task} {trial}: {err}"
        );
    }
    assert!(err.contains("shards not given: 3/3"), "{err}");
    assert!(!root.path().join("partial").exists());
}
