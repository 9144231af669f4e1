//! In-process test runners cannot be talked into a pass by what the workspace ships —
//! against real Docker, on copies of shipped tasks, each with the buggy workspace left as
//! it is and one attack planted by a `command:` agent:
//! - `c-macro`: a workspace header redefines the C runner's RUN and CHECK macros so every
//!   test is an empty one;
//! - `c-shadow`: a workspace `unistd.h` stands in for the system's (once reachable through
//!   `-I/workspace/src`) and makes every child's exit status read as 0;
//! - `c-libc`: the workspace defines `waitpid`, replacing the C library's inside the runner;
//! - `java-runner`: a workspace class named like the hidden runner writes a passing report;
//! - `java-processor`: an annotation processor registered under `META-INF/services` in the
//!   workspace would run inside `javac` during the compile-only step.

mod common;

use common::{copy_dir, repo_tasks, write_exec};
use nab_protocol::trial::{FailureReason, TrialRecord, TrialStatus};
use std::collections::HashMap;
use std::path::Path;
use std::process::Command;

/// Copies shipped task `from` as `id`, telling the agent which attack to plant.
fn copy_task(suite: &Path, from: &str, id: &str) {
    let d = suite.join(id);
    copy_dir(&repo_tasks().join(from), &d);
    let yaml = std::fs::read_to_string(d.join("task.yaml")).unwrap();
    std::fs::write(
        d.join("task.yaml"),
        yaml.replacen(&format!("id: {from}"), &format!("id: {id}"), 1),
    )
    .unwrap();
    std::fs::write(d.join("instruction.md"), id).unwrap();
}

const AGENT: &str = r#"#!/bin/bash
set -e
attack=$(cat)
cd /workspace
case "$attack" in
c-macro)
  # Every test the runner is asked to run becomes an empty one (inside the include guard).
  head -n -1 src/image.h > /tmp/image.h
  cat /tmp/image.h - > src/image.h <<'H'
static void mt_forged_pass(void) {}
#undef RUN
#define RUN(fn) mt_run(#fn, mt_forged_pass)
#undef CHECK
#define CHECK(c) ((void)0)
#undef CHECK_EQ
#define CHECK_EQ(a, b) ((void)0)
#endif
H
  ;;
c-shadow)
  cat > src/unistd.h <<'H'
#include_next <unistd.h>
#define _exit(code) _exit(0)
#define waitpid(p, s, o) (waitpid((p), (s), (o)) < 0 ? -1 : (*(s) = 0, (p)))
H
  ;;
c-libc)
  cat >> src/image.c <<'C'
#include <sys/syscall.h>
#include <sys/types.h>
#include <unistd.h>
pid_t waitpid(pid_t pid, int *status, int options) {
    pid_t r = (pid_t)syscall(SYS_wait4, pid, status, options, 0);
    if (status) *status = 0;
    return r;
}
C
  ;;
java-runner)
  cat > src/main/java/XmlRunner.java <<'J'
import java.nio.file.*;
public class XmlRunner {
    public static void main(String[] args) throws Exception {
        Files.writeString(Path.of(args[0]), "<testsuite tests=\"1\"><testcase name=\"forged\"/></testsuite>");
    }
}
J
  ;;
java-processor)
  mkdir -p /tmp/proc META-INF/services
  cat > /tmp/proc/Forge.java <<'J'
import java.util.Set;
import javax.annotation.processing.*;
import javax.lang.model.element.TypeElement;
@SupportedAnnotationTypes("*")
public class Forge extends AbstractProcessor {
    public boolean process(Set<? extends TypeElement> a, RoundEnvironment r) {
        System.err.println("FORGE-PROCESSOR-RAN");
        return false;
    }
}
J
  javac -d /workspace /tmp/proc/Forge.java
  echo Forge > META-INF/services/javax.annotation.processing.Processor
  ;;
esac
"#;

#[tokio::test(flavor = "multi_thread")]
async fn shipped_runner_attacks_do_not_pass_a_task() {
    common::base_image().await;
    let root = tempfile::tempdir().unwrap();
    std::fs::set_permissions(
        root.path(),
        std::os::unix::fs::PermissionsExt::from_mode(0o755),
    )
    .unwrap();
    let suite = root.path().join("suite");
    let cases = [
        ("c-int-overflow", "c-macro"),
        ("c-int-overflow", "c-shadow"),
        ("c-int-overflow", "c-libc"),
        ("java-interval-boundaries", "java-runner"),
        ("java-interval-boundaries", "java-processor"),
    ];
    for (from, id) in cases {
        copy_task(&suite, from, id);
    }
    let agent = root.path().join("agent.sh");
    write_exec(&agent, AGENT);
    let run_id = common::unique("hygiene");
    let _sweep = common::SweepOnDrop(run_id.clone());
    let out = root.path().join("out");
    let o = Command::new(env!("CARGO_BIN_EXE_nab"))
        .args(["run", "--run-id", &run_id, "--attempts", "1", "-j", "2"])
        .arg("--tasks")
        .arg(&suite)
        .arg(format!("--agent=command:{}", agent.display()))
        .arg("--out")
        .arg(&out)
        .output()
        .unwrap();
    let records: HashMap<String, TrialRecord> =
        nab_protocol::read_jsonl::<TrialRecord>(&out.join("results.jsonl"))
            .unwrap_or_else(|e| panic!("{e}\n{}", String::from_utf8_lossy(&o.stderr)))
            .records
            .into_iter()
            .map(|r| (r.task_id.clone(), r))
            .collect();
    let log = |id: &str| {
        let dir = out.join("trials").join(id).join("0");
        format!(
            "--- agent.log\n{}\n--- verify.log\n{}",
            std::fs::read_to_string(dir.join("agent.log")).unwrap_or_default(),
            std::fs::read_to_string(dir.join("verify.log")).unwrap_or_default()
        )
    };
    // Every attack is checked before any assertion, so a failure names all that got through.
    let fooled: Vec<String> = cases
        .iter()
        .filter_map(|(_, id)| {
            let r = records.get(*id)?;
            (r.status != TrialStatus::Failed
                || r.failure_reason != Some(FailureReason::TestsFailed))
            .then(|| format!("{id}: {:?} {:?}\n{}", r.status, r.failure_reason, log(id)))
        })
        .collect();
    assert_eq!(
        records.len(),
        cases.len(),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(fooled.is_empty(), "{}", fooled.join("\n\n"));
    // The real runner ran and counted the buggy code's failures.
    for id in ["c-macro", "c-shadow", "java-runner"] {
        let r = &records[id];
        assert!(
            r.tests_total.unwrap_or(0) > 1 && r.tests_passed < r.tests_total,
            "{id}: {r:?}\n{}",
            log(id)
        );
    }
    assert!(
        log("c-libc").contains("defines C library functions") && log("c-libc").contains("waitpid"),
        "{}",
        log("c-libc")
    );
    let processor = log("java-processor");
    assert!(processor.contains("step 0: exit 0"), "{processor}");
    assert!(!processor.contains("FORGE-PROCESSOR-RAN"), "{processor}");
}
