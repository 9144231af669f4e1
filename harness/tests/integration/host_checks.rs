//! Host-side checks (issue 11 §2) against real Docker: `expect_file` and `expect_stdout`
//! compare with expected data that stays on the host. One hostile `command:` agent per
//! attack, each on its own copy of one small task:
//! - the compared path is a symlink (to /etc/passwd, to the expected file's host path), a
//!   FIFO, a folder, a sparse 9 MiB file, or sits under a symlinked folder;
//! - the answer is wrong by one byte;
//! - a verify step rewrites the answer in the workspace (the check reads the workspace as
//!   the agent left it);
//! - the agent searches every readable file for the expected data, in its own phase and
//!   from code run in the verifier, and finds nothing; a control task with the data in
//!   `tests/` (the old layout) shows the same search finds it there.
//!
//! A correct answer passes. Every attack is `failed` with a `failure_reason`, never
//! `passed` or `error`.

use crate::common;

use common::{write, write_exec};
use nab_protocol::{FailureReason, TrialRecord, TrialStatus};
use std::collections::HashMap;
use std::process::Command;

const TASK: &str = r#"id: ID
category: terminal
language: shell
difficulty: easy
timeouts: {agent_s: 120, verify_s: 120}
limits: {cpus: 1.0, memory_mb: 256, pids: 64}
verify:
  - expect_stdout: {argv: ["bash", "/workspace/gen.sh"], equals: expected/stdout.txt, timeout_s: 90, user: sandbox}
  - expect_file: {path: out/answer.txt, equals: expected/answer.txt}
solution: ["true"]
"#;

/// The expected answer. No script below holds it in one piece, so a search for it finds
/// only the expected data itself.
const ANSWER: &str = "quasar-7781-answer\n";

/// Reads its case from the first line of the instruction, the expected file's host path
/// from the second.
const AGENT: &str = r#"#!/bin/bash
read -r case
read -r host_expected
cd /workspace
mkdir -p out
M="quasar-77""81-answer"
# The right listing for gen.sh, unless a case says otherwise.
printf '%s\n' '#!/bin/bash' 'echo "listing: ok"' > gen.sh
case "$case" in
correct)  echo "$M" > out/answer.txt ;;
wrong-file) echo "${M}X" > out/answer.txt ;;
symlink-passwd) ln -s /etc/passwd out/answer.txt ;;
symlink-expected) ln -s "$host_expected" out/answer.txt ;;
fifo) mkfifo out/answer.txt ;;
directory) mkdir out/answer.txt ;;
oversized) truncate -s 9M out/answer.txt ;;
symlinked-dir)
  rmdir out; mkdir -p /tmp/real; echo "$M" > /tmp/real/answer.txt; ln -s /tmp/real out ;;
rewrite-in-verifier)
  echo wrong > out/answer.txt
  printf '%s\n' '#!/bin/bash' 'M="quasar-77""81-answer"' 'echo "$M" > /workspace/out/answer.txt' 'echo "listing: ok"' > gen.sh ;;
snoop|snoop-control)
  # Search every file this user can read for the answer, here and again in the verifier.
  search='grep -rlsF "quasar-77""81-answer" / --exclude-dir=proc --exclude-dir=sys --exclude-dir=dev --exclude-dir=usr | sed "s/^/FOUND:/"'
  eval "$search"
  found=$(eval "$search" | head -1 | sed 's/^FOUND://')
  if [ -n "$found" ]; then cat "$found" > out/answer.txt; else echo nothing > out/answer.txt; fi
  printf '%s\n' '#!/bin/bash' "$search >&2" 'echo "listing: ok"' > gen.sh ;;
esac
exit 0
"#;

#[tokio::test(flavor = "multi_thread")]
async fn attacks_on_host_checks_fail_and_expected_data_never_enters_a_container() {
    common::base_image().await;
    let root = common::agent_root();
    let cases = [
        ("correct", None),
        ("wrong-file", Some(FailureReason::OutputMismatch)),
        ("symlink-passwd", Some(FailureReason::BadAgentOutput)),
        ("symlink-expected", Some(FailureReason::BadAgentOutput)),
        ("fifo", Some(FailureReason::BadAgentOutput)),
        ("directory", Some(FailureReason::BadAgentOutput)),
        ("oversized", Some(FailureReason::BadAgentOutput)),
        ("symlinked-dir", Some(FailureReason::OutputMismatch)),
        ("rewrite-in-verifier", Some(FailureReason::OutputMismatch)),
        ("snoop", Some(FailureReason::OutputMismatch)),
        ("snoop-control", Some(FailureReason::OutputMismatch)),
    ];
    for (id, _) in cases {
        let d = root.path().join("suite").join(id);
        write(&d.join("task.yaml"), &TASK.replace("ID", id));
        let expected = d.join("expected/answer.txt");
        write(
            &d.join("instruction.md"),
            &format!("{id}\n{}\n", expected.display()),
        );
        write(&expected, ANSWER);
        write(&d.join("expected/stdout.txt"), "listing: ok\n");
        write(&d.join("workspace/gen.sh"), "echo nothing\n");
        write(&d.join("tests/README"), "nothing secret here\n");
        std::fs::create_dir_all(d.join("solution")).unwrap();
    }
    // A mistake the control makes on purpose: the expected answer where the sandbox user
    // can read it in the verifier (a probe's folder, /nab/probes; /nab/tests is closed to
    // that user).
    write(
        &root
            .path()
            .join("suite/snoop-control/tests/probes/expected_answer.txt"),
        ANSWER,
    );
    let agent = root.path().join("agent.sh");
    write_exec(&agent, AGENT);

    let (run_id, _sweep, out) = common::run_slot(root.path(), "host-checks");
    let o = Command::new(env!("CARGO_BIN_EXE_nab"))
        .args(["run", "--run-id", &run_id, "--attempts", "1", "-j", "3"])
        .arg("--tasks")
        .arg(root.path().join("suite"))
        .arg(format!("--agent=command:{}", agent.display()))
        .arg("--out")
        .arg(&out)
        .output()
        .unwrap();
    let records: HashMap<String, TrialRecord> =
        nab_protocol::read_jsonl::<TrialRecord>(&out.join(nab_protocol::RESULTS_FILE))
            .unwrap_or_else(|e| panic!("{e}\n{}", String::from_utf8_lossy(&o.stderr)))
            .records
            .into_iter()
            .map(|r| (r.task_id.clone(), r))
            .collect();
    assert_eq!(
        records.len(),
        cases.len(),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let read = |id: &str, file: &str| {
        std::fs::read_to_string(out.join("trials").join(id).join("0").join(file))
            .unwrap_or_default()
    };
    let logs = |id: &str| {
        format!(
            "--- agent.log\n{}\n--- verify.log\n{}",
            read(id, nab_protocol::AGENT_LOG_FILE),
            read(id, nab_protocol::VERIFY_LOG_FILE)
        )
    };
    for (id, want) in cases {
        let r = &records[id];
        let status = if want.is_some() {
            TrialStatus::Failed
        } else {
            TrialStatus::Passed
        };
        assert_eq!(r.outcome.status, status, "{id}: {r:?}\n{}", logs(id));
        assert_eq!(r.outcome.failure_reason, want, "{id}: {r:?}\n{}", logs(id));
        assert!(
            r.outcome.error.is_none() && r.outcome.error_kind.is_none(),
            "{id}: {r:?}"
        );
    }
    // Each check counts as a test.
    assert_eq!(
        (
            records["correct"].outcome.tests_passed,
            records["correct"].outcome.tests_total
        ),
        (Some(2), Some(2))
    );
    // verify.log says what differed, briefly.
    let wrong = read("wrong-file", nab_protocol::VERIFY_LOG_FILE);
    assert!(
        wrong.contains("output_mismatch: `out/answer.txt` differs"),
        "{wrong}"
    );
    assert!(wrong.contains("first difference at line 1"), "{wrong}");
    assert!(
        wrong.contains(r#"got:      "quasar-7781-answerX\n""#),
        "{wrong}"
    );
    for (id, says) in [
        (
            "symlink-passwd",
            "is a symlink -> /etc/passwd, not a regular file",
        ),
        ("symlink-expected", "is a symlink -> /"),
        ("fifo", "not a regular file"),
        ("directory", "is a directory, not a regular file"),
        ("oversized", "is 9437184 bytes, more than the"),
        ("symlinked-dir", "is not a file in the final workspace"),
    ] {
        assert!(
            read(id, nab_protocol::VERIFY_LOG_FILE).contains(says),
            "{id}: {}",
            logs(id)
        );
    }
    // The verifier's rewrite came too late: the check read the workspace the agent left.
    assert!(
        read("rewrite-in-verifier", nab_protocol::VERIFY_LOG_FILE)
            .contains(r#"got:      "wrong\n""#),
        "{}",
        logs("rewrite-in-verifier")
    );
    // The search found nothing in the agent's phase nor in the verifier; the same search
    // finds the data where the old layout put it.
    let snoop = logs("snoop");
    assert!(!snoop.contains("FOUND:"), "{snoop}");
    assert!(
        read("snoop", nab_protocol::VERIFY_LOG_FILE).contains("listing: ok"),
        "{snoop}"
    );
    let control = read("snoop-control", nab_protocol::VERIFY_LOG_FILE);
    assert!(
        control.contains("FOUND:/nab/probes/expected_answer.txt"),
        "the search works: {control}"
    );
}
