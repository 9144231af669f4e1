//! In-process test runners cannot be talked into a pass by what the workspace ships —
//! against real Docker, on copies of shipped tasks, each with the buggy workspace left as
//! it is and one attack planted by a hostile agent of the selftest corpus
//! (harness/selftest/agents/), run by `nab selftest`:
//! - `c-macro`: a workspace header redefines the C runner's RUN and CHECK macros so every
//!   test is an empty one;
//! - `c-shadow`: a workspace `unistd.h` stands in for the system's (once reachable through
//!   `-I/workspace/src`) and makes every child's exit status read as 0;
//! - `c-libc`: the workspace defines `waitpid`, replacing the C library's inside the runner;
//! - `java-classpath`: a workspace class named like the hidden runner writes a passing report;
//! - `java-processor`: an annotation processor registered under `META-INF/services` in the
//!   workspace would run inside `javac` during the compile-only step.
//!
//! c-int-overflow's hidden tests no longer run in-process (issue 34): pytest runs them as the
//! verifier user and reaches the library through a probe built as the sandbox user, so the
//! three C attacks reach only that probe and the buggy code's failures stand.

use crate::common;

#[tokio::test(flavor = "multi_thread")]
async fn shipped_runner_attacks_do_not_pass_a_task() {
    common::base_image().await;
    let cases = [
        ("c-int-overflow", "c-macro"),
        ("c-int-overflow", "c-shadow"),
        ("c-int-overflow", "c-libc"),
        ("java-interval-boundaries", "java-classpath"),
        ("java-interval-boundaries", "java-processor"),
    ];
    let ids: Vec<&str> = cases.iter().map(|(_, id)| *id).collect();
    let st = common::Selftest::run(&ids);
    st.assert_all_caught(&ids);
    let log = |id: &str| {
        let (task, _) = cases.iter().find(|(_, c)| *c == id).unwrap();
        format!(
            "--- agent.log\n{}\n--- verify.log\n{}",
            st.log(task, id, nab_protocol::AGENT_LOG_FILE),
            st.log(task, id, nab_protocol::VERIFY_LOG_FILE)
        )
    };
    // The real runner ran and counted the buggy code's failures.
    for id in ["c-macro", "c-shadow", "c-libc", "java-classpath"] {
        let r = st.record(id);
        assert!(
            r.outcome.tests_total.unwrap_or(0) > 1
                && r.outcome.tests_passed < r.outcome.tests_total,
            "{id}: {r:?}\n{}",
            log(id)
        );
    }
    let processor = log("java-processor");
    assert!(processor.contains("step 0: exit 0"), "{processor}");
    assert!(!processor.contains("FORGE-PROCESSOR-RAN"), "{processor}");
}
