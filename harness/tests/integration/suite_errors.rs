//! Bad task input: each gives a clear error naming file, field, what is wrong and what is
//! allowed — and no container is started (the CLI never even reaches Docker).

use crate::common;

use common::{copy_dir, repo_tasks, write};
use nab_harness::task::load_suite;
use std::path::Path;

/// A fresh copy of the terminal task in `<root>/<id>/` with task.yaml replaced.
fn task_with_yaml(root: &Path, id: &str, yaml: &str) {
    copy_dir(&repo_tasks().join("term-log-report"), &root.join(id));
    write(&root.join(id).join("task.yaml"), yaml);
}

const GOOD: &str = r#"id: ID
category: terminal
language: shell
difficulty: easy
timeouts: {agent_s: 60, verify_s: 60}
limits: {cpus: 1.0, memory_mb: 512, pids: 128}
verify:
  - argv: ["true"]
    timeout_s: 10
solution: ["bash", "/nab/solution/solve.sh"]
"#;

fn errors_for(id: &str, yaml: &str, tweak: impl FnOnce(&Path)) -> String {
    let dir = tempfile::tempdir().unwrap();
    task_with_yaml(dir.path(), id, &yaml.replace("ID", id));
    tweak(&dir.path().join(id));
    match load_suite(dir.path(), &[]) {
        Ok(_) => panic!("{id}: expected an error"),
        Err(e) => e.to_string(),
    }
}

#[test]
fn each_kind_of_bad_input_is_named_with_file_field_and_what_is_allowed() {
    // (case, yaml, tweak, every fragment the message must contain)
    type Tweak = fn(&Path);
    let none: Tweak = |_| {};
    let cases: Vec<(&str, String, Tweak, Vec<&str>)> = vec![
        (
            "unknown-field",
            GOOD.replace("language: shell", "language: shell\nlangauge: bash"),
            none,
            vec![
                "unknown-field/task.yaml:",
                "unknown field `langauge`",
                "expected one of",
                "`language`",
            ],
        ),
        (
            "unknown-nested-field",
            GOOD.replace("pids: 128}", "pids: 128, gpus: 1}"),
            none,
            vec![
                "task.yaml:",
                "limits",
                "unknown field `gpus`",
                "`memory_mb`",
            ],
        ),
        (
            "no-instruction",
            GOOD.into(),
            |d| std::fs::remove_file(d.join("instruction.md")).unwrap(),
            vec!["no-instruction/instruction.md", "missing"],
        ),
        (
            "wall-cap-below-agent-s",
            GOOD.replace(
                "timeouts: {agent_s: 60, verify_s: 60}",
                "timeouts: {agent_s: 60, verify_s: 60, agent_wall_s: 30}",
            ),
            none,
            vec![
                "task.yaml",
                "timeouts.agent_wall_s",
                "is 30",
                "at least timeouts.agent_s (60)",
            ],
        ),
        (
            "id-mismatch",
            GOOD.replace("id: ID", "id: something-else"),
            none,
            vec![
                "id-mismatch/task.yaml",
                "field `id`",
                "does not match the folder name `id-mismatch`",
            ],
        ),
        (
            "empty-argv",
            GOOD.replace(r#"argv: ["true"]"#, "argv: []"),
            none,
            vec![
                "task.yaml",
                "field `verify[0].argv`",
                "is empty",
                "as a list",
            ],
        ),
        (
            "zero-timeout",
            GOOD.replace("agent_s: 60", "agent_s: 0"),
            none,
            vec!["field `timeouts.agent_s`", "is 0", "greater than 0"],
        ),
        (
            "negative-timeout",
            GOOD.replace("timeout_s: 10", "timeout_s: -5"),
            none,
            vec!["field `verify[0].timeout_s`", "is -5", "greater than 0"],
        ),
        (
            "unknown-category",
            GOOD.replace("category: terminal", "category: games"),
            none,
            vec![
                "task.yaml:2:",
                "field `category`",
                "unknown variant `games`",
                "bug-fix",
                "long-context",
            ],
        ),
        (
            "bad-gateway-limits",
            format!(
                "{GOOD}gateway: {{max_request_mb: 0, max_connections: 1000, read_timeout_s: -1, transcript_file_mb: 0, max_answer_mb: 4096}}\n"
            ),
            none,
            vec![
                "field `gateway.transcript_file_mb`",
                "field `gateway.max_answer_mb`",
                "is 4096; allowed: from 0.0625 (64 KiB) to 1024 (MiB)",
                "field `gateway.max_request_mb`",
                "is 0; allowed: from 0.0625",
                "field `gateway.max_connections`",
                "is 1000; allowed: from 1 to 256",
                "field `gateway.read_timeout_s`",
            ],
        ),
        (
            "small-disk-quota",
            GOOD.replace("pids: 128}", "pids: 128, disk_mb: 8}"),
            none,
            vec![
                "field `limits.disk_mb`",
                "is 8; allowed: at least 16 and at most 1048576 (MiB)",
            ],
        ),
        (
            "unknown-gateway-field",
            format!("{GOOD}gateway: {{max_body_mb: 4}}\n"),
            none,
            vec!["unknown field `max_body_mb`", "`max_request_mb`"],
        ),
        (
            "compaction-without-window",
            format!("{GOOD}agent: {{max_steps: 20, requires_compaction: summarize}}\n"),
            none,
            vec![
                "compaction-without-window/task.yaml",
                "field `agent.requires_compaction`",
                "is `summarize` but `agent.context_window` is not set",
            ],
        ),
        (
            "unknown-compaction-tier",
            format!("{GOOD}agent: {{context_window: 16000, requires_compaction: true}}\n"),
            none,
            vec!["requires_compaction", "expected one of", "`summarize`"],
        ),
        (
            "broken-yaml",
            GOOD.replace("language: shell", "language: \"shell"),
            none,
            vec!["broken-yaml/task.yaml:", "YAML syntax error"],
        ),
    ];
    for (id, yaml, tweak, fragments) in cases {
        let msg = errors_for(id, &yaml, tweak);
        for f in fragments {
            assert!(msg.contains(f), "case {id}: `{f}` not in:\n{msg}");
        }
    }
}

#[test]
fn broken_yaml_reports_line_and_column() {
    let msg = errors_for(
        "yaml-pos",
        &GOOD.replace("difficulty: easy", "difficulty: easy\n- oops"),
        |_| {},
    );
    let re = regex::Regex::new(r"yaml-pos/task\.yaml:(\d+):(\d+): ").unwrap();
    let caps = re
        .captures(&msg)
        .unwrap_or_else(|| panic!("no line:column in {msg}"));
    assert_eq!(&caps[1], "5", "{msg}");
}

#[test]
fn every_problem_in_the_suite_is_reported_at_once() {
    let dir = tempfile::tempdir().unwrap();
    task_with_yaml(
        dir.path(),
        "a-bad",
        &GOOD
            .replace("ID", "a-bad")
            .replace("agent_s: 60", "agent_s: -1"),
    );
    task_with_yaml(dir.path(), "b-bad", &GOOD.replace("ID", "wrong-id"));
    std::fs::remove_dir_all(dir.path().join("b-bad").join("tests")).unwrap();
    task_with_yaml(dir.path(), "c-good", &GOOD.replace("ID", "c-good"));
    let err = load_suite(dir.path(), &[]).unwrap_err();
    assert_eq!(err.issues.len(), 3, "{err}");
    let msg = err.to_string();
    assert!(
        msg.contains("a-bad/task.yaml: field `timeouts.agent_s`"),
        "{msg}"
    );
    assert!(msg.contains("b-bad/task.yaml: field `id`"), "{msg}");
    assert!(
        msg.contains("b-bad/tests: missing folder `tests/`"),
        "{msg}"
    );
    // The good task alone loads.
    assert_eq!(load_suite(dir.path(), &["c-good".into()]).unwrap().len(), 1);
}

#[test]
fn the_cli_reports_bad_input_without_reaching_docker() {
    let dir = tempfile::tempdir().unwrap();
    task_with_yaml(
        dir.path(),
        "bad",
        &GOOD
            .replace("ID", "bad")
            .replace("category: terminal", "category: nope"),
    );
    // An unreachable engine: if the CLI tried Docker before checking the suite, the
    // message would be about Docker, and no container could start either way.
    for sub in [&["validate"][..], &["run", "--agent", "oracle"][..]] {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_nab"))
            .args(sub)
            .arg("--tasks")
            .arg(dir.path())
            .env("DOCKER_HOST", "unix:///nonexistent/docker.sock")
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{sub:?}: {stderr}");
        assert!(
            stderr.contains("bad/task.yaml:2:") && stderr.contains("unknown variant `nope`"),
            "{stderr}"
        );
        assert!(stderr.contains("nothing was run"), "{stderr}");
        assert!(!stderr.to_lowercase().contains("docker"), "{stderr}");
    }
}

#[test]
fn the_shipped_tasks_pass_every_static_check() {
    let ids: Vec<String> = [
        "py-pagination-offbyone",
        "java-interval-boundaries",
        "term-log-report",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    let tasks = load_suite(&repo_tasks(), &ids).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(tasks.len(), 3);
    for t in &tasks {
        assert!(
            !t.wrong.is_empty(),
            "{} has no known-wrong solution",
            t.id()
        );
        assert!(
            t.spec.description.is_some(),
            "{} has no description",
            t.id()
        );
    }
}

/// Every shipped task's verdict is out of the code under test's reach (issue 34): none runs
/// its tests beside the code (`verifier: shared`), and the loader has checked that each has
/// a step whose word counts and no report written by the sandbox user.
#[test]
fn every_shipped_task_runs_its_tests_across_the_verifier_boundary() {
    let tasks = load_suite(&repo_tasks(), &[]).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(tasks.len(), 28);
    let shared: Vec<&str> = tasks
        .iter()
        .filter(|t| t.spec.verifier == nab_harness::task::VerifierMode::Shared)
        .map(|t| t.id())
        .collect();
    assert!(
        shared.is_empty(),
        "tasks still `verifier: shared`: {shared:?}"
    );
}

/// A task whose only commands run as the sandbox user (their exit status is the code's own
/// word), or whose JUnit report that user writes, is refused with the field and the fix.
#[test]
fn a_verdict_the_code_under_test_could_decide_is_refused() {
    let only_sandbox = GOOD.replace(
        "  - argv: [\"true\"]\n    timeout_s: 10\n",
        "  - argv: [\"true\"]\n    timeout_s: 10\n    user: sandbox\n",
    );
    let e = errors_for("sandbox-only", &only_sandbox, |_| {});
    assert!(
        e.contains("verify") && e.contains("only `user: sandbox` commands"),
        "{e}"
    );
    let sandbox_report = GOOD.replace(
        "  - argv: [\"true\"]\n    timeout_s: 10\n",
        "  - argv: [\"true\"]\n    timeout_s: 10\n    user: sandbox\n    junit: /nab/verify/j.xml\n  - argv: [\"true\"]\n    timeout_s: 10\n",
    );
    let e = errors_for("sandbox-report", &sandbox_report, |_| {});
    assert!(
        e.contains("verify[0].user") && e.contains("within reach of the code under test"),
        "{e}"
    );
    // The same steps in a task that says its tests run beside the code: allowed (and each
    // trial's record says the verdict was within reach).
    let dir = tempfile::tempdir().unwrap();
    let shared = format!("{only_sandbox}verifier: shared\n");
    task_with_yaml(dir.path(), "shared-ok", &shared.replace("ID", "shared-ok"));
    load_suite(dir.path(), &[]).unwrap_or_else(|e| panic!("{e}"));
}

/// `expect_file` / `expect_stdout` (host-side checks, issue 11 §2): each mistake is named
/// with file, line (for shape errors) and field; the expected file must be a regular file
/// under `expected/`, the only task folder that never enters a container.
#[test]
fn host_checks_are_checked_with_file_line_and_field() {
    // The good task with two host-side checks after its step.
    let checks = GOOD.replace(
        "solution:",
        "  - expect_file: {path: report/summary.csv, equals: expected/summary.csv}\n  - expect_stdout: {argv: [\"cat\", \"x\"], equals: expected/summary.csv, timeout_s: 5, compare: trimmed}\nsolution:",
    );
    let checks = checks.as_str();
    let with_expected = |d: &Path| write(&d.join("expected/summary.csv"), "path\n");
    // The good form loads, and each kind is what it says.
    let dir = tempfile::tempdir().unwrap();
    task_with_yaml(dir.path(), "good", &checks.replace("ID", "good"));
    with_expected(&dir.path().join("good"));
    let tasks = load_suite(dir.path(), &[]).unwrap_or_else(|e| panic!("{e}"));
    use nab_harness::task::{Compare, VerifyStep};
    match &tasks[0].spec.verify[..] {
        [
            VerifyStep::Command(_),
            VerifyStep::ExpectFile(f),
            VerifyStep::ExpectStdout(s),
        ] => {
            assert_eq!(
                (f.path.as_str(), f.equals.as_str(), f.compare),
                ("report/summary.csv", "expected/summary.csv", Compare::Exact)
            );
            assert_eq!(s.compare, Compare::Trimmed);
        }
        other => panic!("{other:?}"),
    }

    type Tweak = fn(&Path);
    let cases: Vec<(&str, String, Tweak, Vec<&str>)> = vec![
        (
            "mixed-step",
            checks.replace(
                "- expect_file: {path",
                "- timeout_s: 3\n    expect_file: {path",
            ),
            |d| write(&d.join("expected/summary.csv"), "x\n"),
            vec![
                "mixed-step/task.yaml:10:",
                "field `verify[1]`",
                "has `expect_file` and also `timeout_s`",
            ],
        ),
        (
            "unknown-check-field",
            checks.replace(
                "equals: expected/summary.csv}",
                "equal: expected/summary.csv}",
            ),
            |_| {},
            vec![
                "task.yaml:10:",
                "verify[1].expect_file",
                "unknown field `equal`",
                "`equals`",
            ],
        ),
        (
            "unknown-compare",
            checks.replace("compare: trimmed", "compare: fuzzy"),
            |_| {},
            vec![
                "task.yaml:11:",
                "unknown variant `fuzzy`",
                "`exact`",
                "`trimmed`",
            ],
        ),
        (
            "no-kind",
            checks.replace(
                "  - expect_file: {path",
                "  - junit: /nab/verify/x.xml\n  - expect_file: {path",
            ),
            |_| {},
            vec![
                "task.yaml:10:",
                "needs `argv` and `timeout_s`",
                "`expect_file:`",
            ],
        ),
        (
            "escaping-path",
            checks.replace("path: report/summary.csv", "path: ../etc/passwd"),
            |d| write(&d.join("expected/summary.csv"), "x\n"),
            vec![
                "field `verify[1].expect_file.path`",
                "`../etc/passwd` has an empty, `.` or `..` part",
            ],
        ),
        (
            "absolute-path",
            checks.replace(
                "path: report/summary.csv",
                "path: /workspace/report/summary.csv",
            ),
            |d| write(&d.join("expected/summary.csv"), "x\n"),
            vec!["field `verify[1].expect_file.path`", "is absolute"],
        ),
        (
            "expected-in-tests",
            checks.replace(
                "equals: expected/summary.csv}",
                "equals: tests/test_report.py}",
            ),
            |d| write(&d.join("expected/summary.csv"), "x\n"),
            vec![
                "field `verify[1].expect_file.equals`",
                "is not under `expected/`",
                "never enters a container",
            ],
        ),
        (
            "expected-missing",
            checks.into(),
            |d| std::fs::remove_dir_all(d.join("expected")).unwrap_or(()),
            vec![
                "field `verify[1].expect_file.equals`",
                "field `verify[2].expect_stdout.equals`",
                "`expected/summary.csv` cannot be read",
            ],
        ),
        (
            "expected-symlink",
            checks.into(),
            |d| {
                std::fs::create_dir_all(d.join("expected")).unwrap();
                let _ = std::fs::remove_file(d.join("expected/summary.csv"));
                std::os::unix::fs::symlink("/etc/passwd", d.join("expected/summary.csv")).unwrap();
            },
            vec!["field `verify[1].expect_file.equals`", "symbolic link"],
        ),
        (
            "expected-too-large",
            checks.into(),
            |d| {
                std::fs::create_dir_all(d.join("expected")).unwrap();
                let f = std::fs::File::create(d.join("expected/summary.csv")).unwrap();
                f.set_len(9 * 1024 * 1024).unwrap();
            },
            vec![
                "`expected/summary.csv` is 9437184 bytes",
                "largest expected file",
            ],
        ),
        (
            "bad-stdout-step",
            checks
                .replace(r#"argv: ["cat", "x"]"#, "argv: []")
                .replace("timeout_s: 5", "timeout_s: 99"),
            |d| write(&d.join("expected/summary.csv"), "x\n"),
            vec![
                "field `verify[2].expect_stdout.argv`",
                "is empty",
                "field `verify[2].expect_stdout.timeout_s`",
                "may not outlast the whole verification",
            ],
        ),
    ];
    for (id, yaml, tweak, fragments) in cases {
        let msg = errors_for(id, &yaml, tweak);
        for f in fragments {
            assert!(msg.contains(f), "case {id}: `{f}` not in:\n{msg}");
        }
    }
}

#[test]
fn bad_mcp_servers_and_required_calls_say_what_and_where() {
    let dir = tempfile::tempdir().unwrap();
    let yaml = format!(
        "{}mcp_servers:\n  bad__name: {{argv: []}}\n  ok: {{argv: [python3, /nab/mcp/s.py], env: [NOEQUALS]}}\nagent: {{mcp_config: mcp.json}}\nrequired_tool_calls:\n  - {{tool: mcp__ok__get, at_least: 0}}\n  - mcp__other__get\n  - Bash\n",
        GOOD.replace("ID", "m")
    );
    task_with_yaml(dir.path(), "m", &yaml);
    let msg = load_suite(dir.path(), &[]).unwrap_err().to_string();
    for want in [
        "field `agent.mcp_config`: is given with mcp_servers",
        "field `mcp_servers`: needs the folder `mcp/`",
        "field `mcp_servers.bad__name`: the name must be 1-32 characters",
        "field `mcp_servers.bad__name.argv`: is empty",
        "field `mcp_servers.ok.env[0]`: `NOEQUALS` must be NAME=value",
        "field `required_tool_calls[0].at_least`: is 0",
        // A requirement is judged from the servers' own record: a tool no server of the
        // task serves could never be met (or would be met by the agent's word alone).
        "field `required_tool_calls[1]`: `mcp__other__get` is not a tool of this task's MCP servers",
        "field `required_tool_calls[2]`: `Bash` is not a tool of this task's MCP servers",
    ] {
        assert!(msg.contains(want), "missing `{want}` in:\n{msg}");
    }
}
