//! Forged reports and patched runners, against real Docker, on shipped tasks left with
//! their bug. Each attack was a `passed` trial before the verifier boundary (issue 34):
//! - pytest: code under test writes an all-passing JUnit report and exits 0
//!   (py-pagination-offbyone);
//! - pytest: code under test patches pytest's test call into a no-op (loc-py-cache-key);
//! - JUnit: a workspace class installs a JVM shutdown hook that strips every failure from
//!   the report and halts with status 0 (java-interval-boundaries);
//! - C: a workspace destructor rewrites the report after the runner wrote it and exits 0
//!   (c-int-overflow);
//! - Rust: the crate under test lists its own test binary's tests, prints an `ok` line for
//!   each where libtest's output goes and exits 0 before any real result (rs-kvstore-ttl);
//! - pinned set: the oracle's honest report against a tests.lock that pins other ids.
//!
//! A task whose tests run across the boundary (the default) runs its runner as the
//! verifier user: the forgery runs in a probe as uid 1000 and never reaches the runner or
//! its report, so the real failures stand (`tests_failed`). A task still marked
//! `verifier: shared` falls back on the canaries: a forged report either loses them (an
//! incomplete report, `tests_failed`) or shows one passing (`tampered`).

use crate::common;

use common::{copy_dir, repo_tasks};
use nab_protocol::{FailureReason, TrialRecord, TrialStatus};
use std::collections::HashMap;
use std::path::Path;

/// One hostile agent for every task: it leaves the bug and plants the forgery that fits
/// the workspace it finds. The forgeries are the selftest corpus's (harness/selftest/agents),
/// aimed at these tasks' files.
fn forger() -> String {
    let fake_report = include_str!("../../selftest/agents/pytest-fake-report.sh");
    // loc-py-cache-key's package is `reports`.
    let noop_runtest = include_str!("../../selftest/agents/pytest-noop-runtest.sh")
        .replace("pager/__init__.py", "reports/__init__.py");
    // Aimed at java-interval-boundaries' `Interval` already.
    let shutdown_hook = include_str!("../../selftest/agents/java-shutdown-hook.sh");
    let report_rewrite = include_str!("../../selftest/agents/c-report-rewrite.sh");
    let rust_results = RUST_RESULTS;
    format!(
        r#"#!/bin/bash
set -e
fake_report() {{
{fake_report}
}}
noop_runtest() {{
{noop_runtest}
}}
shutdown_hook() {{
{shutdown_hook}
}}
report_rewrite() {{
{report_rewrite}
}}
rust_results() {{
{rust_results}
}}
cd /workspace
if [ -d pager ]; then
  fake_report
elif [ -d reports ]; then
  # Names the right function, so the host-side answer check (the first verify step) passes
  # and only the patched runner stands between the unfixed bug and a pass.
  printf 'reports/cache/keys.py::call_key\n' > ANSWER.txt
  noop_runtest
elif [ -d src/main/java ]; then
  shutdown_hook
elif [ -f src/image.c ]; then
  report_rewrite
elif [ -f src/persist/aof.rs ]; then
  rust_results
fi
"#
    )
}

/// rs-kvstore-ttl: on the first engine the code under test makes, an `ok` line for every
/// test of its own test binary, where libtest's output goes, then exit 0.
const RUST_RESULTS: &str = r#"cd /workspace
python3 - <<'PY'
p = "src/engine.rs"
s = open(p).read()
forger = r'''
fn forge_results() {
    use std::io::Write;
    let exe = match std::env::current_exe() {
        Ok(exe) => exe,
        Err(_) => return,
    };
    let listed = match std::process::Command::new(exe).arg("--list").output() {
        Ok(out) => String::from_utf8_lossy(&out.stdout).into_owned(),
        Err(_) => return,
    };
    let mut out = std::io::stdout();
    let _ = writeln!(out);
    for line in listed.lines() {
        if let Some(name) = line.strip_suffix(": test") {
            let _ = writeln!(out, "test {} ... ok", name);
        }
    }
    let _ = out.flush();
    std::process::exit(0);
}
'''
anchor = "    pub fn with_config<C: Clock + 'static>(clock: C, config: Config) -> Engine {\n"
assert anchor in s
s = s.replace(anchor, anchor + "        forge_results();\n") + forger
open(p, "w").write(s)
PY"#;

const TASKS: [&str; 5] = [
    "py-pagination-offbyone",
    "loc-py-cache-key",
    "java-interval-boundaries",
    "c-int-overflow",
    "rs-kvstore-ttl",
];

/// Runs `agent` on `tasks` of `suite`; the records by task and each trial's verify.log.
fn run(
    root: &Path,
    name: &str,
    suite: &Path,
    agent: &str,
    tasks: &[&str],
) -> HashMap<String, (TrialRecord, String)> {
    let run_id = common::unique(name);
    let _sweep = common::SweepOnDrop(run_id.clone());
    let out = root.join(format!("out-{name}"));
    let o = common::nab_run(&run_id, 1)
        .args(["-j", "2", "--tasks"])
        .arg(suite)
        .arg(format!("--agent={agent}"))
        .arg("--out")
        .arg(&out)
        .args(tasks)
        .output()
        .unwrap();
    let records = nab_protocol::read_jsonl::<TrialRecord>(&out.join(nab_protocol::RESULTS_FILE))
        .unwrap_or_else(|e| panic!("{e}\n{}", String::from_utf8_lossy(&o.stderr)))
        .records;
    assert_eq!(
        records.len(),
        tasks.len(),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    records
        .into_iter()
        .map(|r| {
            let log =
                std::fs::read_to_string(out.join("trials").join(&r.task_id).join("0/verify.log"))
                    .unwrap_or_default();
            (r.task_id.clone(), (r, log))
        })
        .collect()
}

#[tokio::test(flavor = "multi_thread")]
async fn forged_reports_and_patched_runners_are_caught_by_the_canary() {
    common::base_image().await;
    let root = common::agent_root();
    let suite = root.path().join("suite");
    for t in TASKS {
        copy_dir(&repo_tasks().join(t), &suite.join(t));
    }
    let agent = root.path().join("forger.sh");
    common::write_exec(&agent, &forger());
    let got = run(
        root.path(),
        "forgery",
        &suite,
        &format!("command:{}", agent.display()),
        &TASKS,
    );
    for task in TASKS {
        let (r, log) = &got[task];
        assert_eq!(
            r.outcome.status,
            TrialStatus::Failed,
            "{task}: {r:?}\n{log}"
        );
        assert!(r.outcome.error.is_none(), "{task}: {r:?}");
        let yaml = std::fs::read_to_string(suite.join(task).join("task.yaml")).unwrap();
        if yaml.contains("\nverifier: shared") {
            assert!(
                matches!(
                    r.outcome.failure_reason,
                    Some(FailureReason::Tampered | FailureReason::TestsFailed)
                ),
                "{task}: {r:?}\n{log}"
            );
        } else {
            // The runner was out of the forgery's reach: its report shows the bug.
            assert_eq!(
                r.outcome.failure_reason,
                Some(FailureReason::TestsFailed),
                "{task}: {r:?}\n{log}"
            );
            assert!(!log.contains("TAMPERED"), "{task}: {log}");
        }
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn a_report_that_is_not_the_pinned_test_set_fails_the_oracle() {
    common::base_image().await;
    let root = common::agent_root();
    let suite = root.path().join("suite");
    let task = "py-pagination-offbyone";
    copy_dir(&repo_tasks().join(task), &suite.join(task));
    // The real lock's entry with one test swapped for another: the oracle's honest
    // report lacks the invented one and lists one the lock does not know.
    let real = nab_harness::task::pinned::TestLock::read(&repo_tasks()).unwrap();
    let mut entry = real.tasks[task].clone();
    let dropped = entry.ids.pop_first().unwrap();
    entry
        .ids
        .insert("test_pagination::test_that_does_not_exist".into());
    let mut lock = nab_harness::task::pinned::TestLock::default();
    lock.tasks.insert(task.into(), entry);
    lock.write(&suite).unwrap();
    let got = run(root.path(), "pinned", &suite, "oracle", &[task]);
    let (r, log) = &got[task];
    assert_eq!(r.outcome.status, TrialStatus::Failed, "{r:?}\n{log}");
    assert_eq!(
        r.outcome.failure_reason,
        Some(FailureReason::TestSetMismatch),
        "{r:?}\n{log}"
    );
    assert!(
        log.contains(&format!("1 unknown ({dropped:?})"))
            && log.contains("1 missing (\"test_pagination::test_that_does_not_exist\")"),
        "{log}"
    );

    // With the real entry the same oracle passes: the lock pins exactly its tests.
    real.write(&suite).unwrap();
    let got = run(root.path(), "pinned-real", &suite, "oracle", &[task]);
    let (r, log) = &got[task];
    assert_eq!(r.outcome.status, TrialStatus::Passed, "{r:?}\n{log}");
}
