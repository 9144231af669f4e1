//! An agent that games the verifier instead of fixing the bug still fails, against real
//! Docker, with the hostile agents of the selftest corpus (harness/selftest/agents/) run by
//! `nab selftest` on a copy of py-pagination-offbyone:
//! - `pytest-hooks`: files that would force pytest to pass when planted in the workspace
//!   (they must also be flagged as tampering);
//! - `pytest-early-exit`: code under test that exits with status 0 when imported: it ends
//!   the probe it runs in, not the runner.

use crate::common;

use nab_protocol::TrialStatus;

const TASK: &str = "py-pagination-offbyone";

#[tokio::test(flavor = "multi_thread")]
async fn planted_pytest_hooks_and_an_early_exit_do_not_pass_a_python_task() {
    common::base_image().await;
    let st = common::Selftest::run(&["pytest-hooks", "pytest-early-exit"]);
    st.assert_all_caught(&["pytest-hooks", "pytest-early-exit"]);

    // A conftest.py that rewrites every report to "passed", a sitecustomize.py that exits 0
    // before anything runs, and a pytest.ini pointing pytest at the workspace's own tests.
    let record = st.record("pytest-hooks");
    let log = st.log(TASK, "pytest-hooks", nab_protocol::VERIFY_LOG_FILE);
    assert_eq!(record.outcome.status, TrialStatus::Failed, "{log}");
    // The planted files are recorded as tampering, for the report and the judge.
    assert_eq!(
        record.outcome.tamper_flags,
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
        record.outcome.tests_total.unwrap_or(0) > 0
            && record.outcome.tests_passed < record.outcome.tests_total,
        "the hidden tests ran and some failed: {record:?}\n{log}"
    );

    // The code under test exits with status 0 on import: that ends the probe it was
    // imported in (as uid 1000), never the runner, which reports the import as an error.
    let record = st.record("pytest-early-exit");
    let log = st.log(TASK, "pytest-early-exit", nab_protocol::VERIFY_LOG_FILE);
    assert_eq!(record.outcome.status, TrialStatus::Failed, "{log}");
    assert_eq!(
        record.outcome.failure_reason,
        Some(nab_protocol::FailureReason::TestsFailed),
        "{log}"
    );
    assert!(
        log.contains("ProbeDied: the probe python3 ended (exit 0"),
        "the verify log says why: {log}"
    );
}
