//! Code under test runs inside the hidden test runner's process, so it can forge the
//! runner's report or the runner itself. Against real Docker, on shipped tasks left with
//! their bug, each blanket forgery is caught by the planted canary (`tampered`), and a
//! report that lists other tests than the pinned set fails (`test_set_mismatch`):
//! - pytest: code under test writes an all-passing JUnit report and exits 0
//!   (py-pagination-offbyone);
//! - pytest: code under test patches pytest's test call into a no-op (loc-py-cache-key);
//! - JUnit: a workspace class installs a JVM shutdown hook that strips every failure from
//!   the report and halts with status 0 (java-interval-boundaries);
//! - C: a workspace destructor rewrites the report after the runner wrote it and exits 0
//!   (c-int-overflow);
//! - Rust: the crate under test lists its own test binary's tests, prints an `ok` line for
//!   each where libtest's output goes and exits 0 before any real result (rs-kvstore-ttl):
//!   the Rust runner builds the canary into that same binary, so it is forged too;
//! - pinned set: the oracle's honest report against a tests.lock that pins other ids.
//!
//! Each attack was a `passed` trial before the canary: every report it leaves shows all
//! the task's tests passing, and the step exits 0.

use crate::common;

use common::{copy_dir, repo_tasks};
use nab_protocol::trial::{FailureReason, TrialRecord, TrialStatus};
use std::collections::HashMap;
use std::path::Path;
use std::process::Command;

/// One hostile agent for every task: it leaves the bug and plants the forgery that fits
/// the workspace it finds.
const AGENT: &str = r#"#!/bin/bash
set -e
cd /workspace
if [ -d pager ]; then
  # Writes a report in which every test passed, then ends pytest with status 0.
  cat > /tmp/head.py <<'PY'
import os
with open("/nab/verify/junit.xml", "w") as f:
    f.write('<?xml version="1.0" encoding="utf-8"?><testsuites><testsuite name="pytest" '
            'errors="0" failures="0" skipped="0" tests="2">'
            '<testcase classname="test_pagination" name="test_first_page"/>'
            '<testcase classname="test_pagination" name="test_last_page"/>'
            '</testsuite></testsuites>')
os._exit(0)
PY
  cat /tmp/head.py pager/__init__.py > /tmp/init.py && cp /tmp/init.py pager/__init__.py
elif [ -d reports ]; then
  # Names the right function, so the host-side answer check (the first verify step) passes
  # and only the patched runner stands between the unfixed bug and a pass.
  printf 'reports/cache/keys.py::call_key\n' > ANSWER.txt
  # Turns every test call into a no-op: every collected test "passes".
  cat > /tmp/head.py <<'PY'
import _pytest.python
_pytest.python.Function.runtest = lambda self: None
PY
  cat /tmp/head.py reports/__init__.py > /tmp/init.py && cp /tmp/init.py reports/__init__.py
elif [ -d src/main/java ]; then
  # A shutdown hook that strips every failure from the runner's report and exits 0.
  python3 - <<'PY'
p = "src/main/java/intervals/Interval.java"
s = open(p).read()
hook = r'''
    static {
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            try {
                java.nio.file.Path p = java.nio.file.Paths.get("/nab/verify/junit.xml");
                String x = new String(java.nio.file.Files.readAllBytes(p), "UTF-8");
                x = x.replaceAll("(?s)<failure[^>]*/>|<failure.*?</failure>", "").replaceAll("failures=\"\\d+\"", "failures=\"0\"");
                java.nio.file.Files.write(p, x.getBytes("UTF-8"));
            } catch (Exception e) {
            }
            Runtime.getRuntime().halt(0);
        }));
    }
'''
i = s.index("{", s.index("public final class Interval")) + 1
open(p, "w").write(s[:i] + hook + s[i:])
PY
elif [ -f src/persist/aof.rs ]; then
  # On the first engine: an `ok` line for every test of its own test binary, then exit 0.
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
PY
elif [ -f src/image.c ]; then
  # A destructor that rewrites the report once the runner has written it, and exits 0.
  cat >> src/image.c <<'C'

#include <stdio.h>
#include <unistd.h>
__attribute__((destructor)) static void rewrite_report(void) {
    FILE *f = fopen("/nab/verify/junit.xml", "w");
    if (f) {
        fputs("<?xml version=\"1.0\"?>\n<testsuite name=\"sizecheck\" tests=\"2\" failures=\"0\">\n"
              "<testcase classname=\"sizecheck\" name=\"init_rejects_32bit_wraparound\"/>\n"
              "<testcase classname=\"sizecheck\" name=\"init_rejects_64bit_wraparound\"/>\n"
              "</testsuite>\n", f);
        fclose(f);
    }
    _exit(0);
}
C
fi
"#;

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
    let o = Command::new(env!("CARGO_BIN_EXE_nab"))
        .args([
            "run",
            "--run-id",
            &run_id,
            "--attempts",
            "1",
            "-j",
            "2",
            "--tasks",
        ])
        .arg(suite)
        .arg(format!("--agent={agent}"))
        .arg("--out")
        .arg(&out)
        .args(tasks)
        .output()
        .unwrap();
    let records = nab_protocol::read_jsonl::<TrialRecord>(&out.join("results.jsonl"))
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

fn root() -> tempfile::TempDir {
    let root = tempfile::tempdir().unwrap();
    std::fs::set_permissions(
        root.path(),
        std::os::unix::fs::PermissionsExt::from_mode(0o755),
    )
    .unwrap();
    root
}

#[tokio::test(flavor = "multi_thread")]
async fn forged_reports_and_patched_runners_are_caught_by_the_canary() {
    common::base_image().await;
    let root = root();
    let suite = root.path().join("suite");
    for t in TASKS {
        copy_dir(&repo_tasks().join(t), &suite.join(t));
    }
    let agent = root.path().join("forger.sh");
    common::write_exec(&agent, AGENT);
    let got = run(
        root.path(),
        "forgery",
        &suite,
        &format!("command:{}", agent.display()),
        &TASKS,
    );
    for (task, why) in [
        // The fake report has no canary in it.
        ("py-pagination-offbyone", "canary test is missing"),
        // The no-op test call makes the canary pass too.
        ("loc-py-cache-key", "is reported as passed"),
        // Stripping every failure strips the canary's.
        ("java-interval-boundaries", "is reported as passed"),
        // The rewritten report lists only tests the forger knew of.
        ("c-int-overflow", "canary test is missing"),
        // The canary is a test of the forged binary, so it got an `ok` line too.
        ("rs-kvstore-ttl", "is reported as passed"),
    ] {
        let (r, log) = &got[task];
        assert_eq!(r.status, TrialStatus::Failed, "{task}: {r:?}\n{log}");
        assert_eq!(
            r.failure_reason,
            Some(FailureReason::Tampered),
            "{task}: {r:?}\n{log}"
        );
        assert!(r.error.is_none(), "{task}: {r:?}");
        assert!(
            log.contains("TAMPERED") && log.contains(why),
            "{task}: {log}"
        );
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn a_report_that_is_not_the_pinned_test_set_fails_the_oracle() {
    common::base_image().await;
    let root = root();
    let suite = root.path().join("suite");
    let task = "py-pagination-offbyone";
    copy_dir(&repo_tasks().join(task), &suite.join(task));
    // The real lock's entry with one test swapped for another: the oracle's honest
    // report lacks the invented one and lists one the lock does not know.
    let real = nab_harness::pinned::TestLock::read(&repo_tasks()).unwrap();
    let mut entry = real.tasks[task].clone();
    let dropped = entry.ids.pop_first().unwrap();
    entry
        .ids
        .insert("test_pagination::test_that_does_not_exist".into());
    let mut lock = nab_harness::pinned::TestLock::default();
    lock.tasks.insert(task.into(), entry);
    lock.write(&suite).unwrap();
    let got = run(root.path(), "pinned", &suite, "oracle", &[task]);
    let (r, log) = &got[task];
    assert_eq!(r.status, TrialStatus::Failed, "{r:?}\n{log}");
    assert_eq!(
        r.failure_reason,
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
    assert_eq!(r.status, TrialStatus::Passed, "{r:?}\n{log}");
}
