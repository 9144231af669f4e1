//! An agent that games the verifier instead of fixing the bug still fails, against real
//! Docker: files that would force pytest to pass when planted in the workspace, and code
//! under test that ends the test process early with status 0.

mod common;

use common::{copy_dir, repo_tasks};
use nab_protocol::trial::{TrialRecord, TrialStatus};
use std::path::Path;
use std::process::Command;

/// Runs `py-pagination-offbyone` once with a `command:` agent whose script is `script`;
/// returns the trial record and its verify.log.
fn run_with_agent(root: &Path, name: &str, script: &str) -> (TrialRecord, String) {
    let suite = root.join(format!("suite-{name}"));
    copy_dir(
        &repo_tasks().join("py-pagination-offbyone"),
        &suite.join("py-pagination-offbyone"),
    );
    let agent = root.join(format!("{name}.sh"));
    common::write_exec(&agent, script);
    let run_id = common::unique(name);
    let _sweep = common::SweepOnDrop(run_id.clone());
    let out = root.join(format!("out-{name}"));
    let status = Command::new(env!("CARGO_BIN_EXE_nab"))
        .args(["run", "--run-id", &run_id, "--tasks"])
        .arg(&suite)
        .arg(format!("--agent=command:{}", agent.display()))
        .arg("--out")
        .arg(&out)
        .output()
        .unwrap();
    let records = nab_protocol::read_jsonl::<TrialRecord>(&out.join("results.jsonl"))
        .unwrap()
        .records;
    assert_eq!(records.len(), 1, "{status:?}");
    let log = std::fs::read_to_string(out.join("trials/py-pagination-offbyone/0/verify.log"))
        .unwrap_or_default();
    (records[0].clone(), log)
}

#[tokio::test(flavor = "multi_thread")]
async fn planted_pytest_hooks_and_an_early_exit_do_not_pass_a_python_task() {
    common::base_image().await;
    let root = tempfile::tempdir().unwrap();
    std::fs::set_permissions(
        root.path(),
        std::os::unix::fs::PermissionsExt::from_mode(0o755),
    )
    .unwrap();

    // A conftest.py that rewrites every report to "passed", a sitecustomize.py that exits 0
    // before anything runs, and a pytest.ini pointing pytest at the workspace's own tests.
    let planted = r#"#!/bin/bash
set -e
cat > conftest.py <<'PY'
import pytest
@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    outcome.get_result().outcome = "passed"
PY
cp conftest.py pager/conftest.py
printf 'import os\nos._exit(0)\n' > sitecustomize.py
cp sitecustomize.py pager/sitecustomize.py
printf '[pytest]\ntestpaths = tests\n' > pytest.ini
"#;
    let (record, log) = run_with_agent(root.path(), "planted", planted);
    assert_eq!(record.status, TrialStatus::Failed, "{log}");
    // The planted files are recorded as tampering, for the report and the judge.
    assert_eq!(
        record.tamper_flags,
        [
            "conftest.py",
            "pager/conftest.py",
            "pager/sitecustomize.py",
            "pytest.ini",
            "sitecustomize.py"
        ],
        "{record:?}"
    );
    assert!(
        record.tests_total.unwrap_or(0) > 0 && record.tests_passed < record.tests_total,
        "the hidden tests ran and some failed: {record:?}\n{log}"
    );

    // The code under test kills the test process with status 0 on import: the exit code
    // alone would say "pass", but the JUnit report the step declares was never written.
    let early_exit = "#!/bin/bash\nprintf 'import os\\nos._exit(0)\\n' > pager/__init__.py\n";
    let (record, log) = run_with_agent(root.path(), "early-exit", early_exit);
    assert_eq!(record.status, TrialStatus::Failed, "{log}");
    assert!(
        log.contains("no readable JUnit file"),
        "the verify log says why: {log}"
    );
}
