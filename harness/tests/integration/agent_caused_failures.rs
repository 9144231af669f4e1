//! Everything an agent (or the code it leaves behind) can bring about is its own `failed`
//! with a `failure_reason`, never an infrastructure `error` — against real Docker, with the
//! hostile agents of the selftest corpus (harness/selftest/, class agent-failure, and the
//! lurker), run by `nab selftest`:
//! - `kill-keeper`: the code under test kills every process it can, PID 1 included; the
//!   verifier's keeper runs as another user, so the next step still runs (the hidden check,
//!   as the verifier's uid 2000);
//! - `lurker`: a "build" step leaves a process behind that waits for the check and then
//!   writes the right answer; processes of the sandbox user are killed between steps;
//! - `verify-timeout`: a verify step that never ends is `verify_timeout`;
//! - `sparse-workspace`: a sparse file makes the workspace archive larger than the limit;
//! - `events-symlink` / `events-malformed`: events.jsonl is a symlink, or holds lines that
//!   are not events.

use crate::common;

use nab_protocol::{FailureReason, TrialStatus};

#[tokio::test(flavor = "multi_thread")]
async fn agent_caused_faults_are_failures_with_a_reason_never_errors() {
    common::base_image().await;
    let cases = [
        ("kill-keeper", FailureReason::TestsFailed),
        ("lurker", FailureReason::TestsFailed),
        ("verify-timeout", FailureReason::VerifyTimeout),
        ("sparse-workspace", FailureReason::WorkspaceTooLarge),
        ("events-symlink", FailureReason::BadAgentOutput),
        ("events-malformed", FailureReason::BadAgentOutput),
    ];
    let ids: Vec<&str> = cases.iter().map(|(id, _)| *id).collect();
    let st = common::Selftest::run(&ids);
    st.assert_all_caught(&ids);
    let logs = |id: &str| {
        format!(
            "--- agent.log\n{}\n--- verify.log\n{}",
            st.log("answer", id, nab_protocol::AGENT_LOG_FILE),
            st.log("answer", id, nab_protocol::VERIFY_LOG_FILE)
        )
    };
    for (id, want) in cases {
        let r = st.record(id);
        assert_eq!(
            r.outcome.status,
            TrialStatus::Failed,
            "{id}: {r:?}\n{}",
            logs(id)
        );
        assert_eq!(
            r.outcome.failure_reason,
            Some(want),
            "{id}: {r:?}\n{}",
            logs(id)
        );
        assert!(
            r.outcome.error.is_none() && r.outcome.error_kind.is_none(),
            "{id}: {r:?}"
        );
    }
    // The keeper survived the attack: the check ran after it, the build as the sandbox user
    // and the check as the verifier's own user.
    let keeper = logs("kill-keeper");
    assert!(keeper.contains("build runs as uid=1000"), "{keeper}");
    assert!(keeper.contains("check runs as uid=2000"), "{keeper}");
    assert!(keeper.contains("answer: 41"), "{keeper}");
    // The lurker was killed before the check started: the answer it would write never came.
    let lurker = logs("lurker");
    assert!(lurker.contains("answer: 41"), "{lurker}");
    assert!(logs("sparse-workspace").contains("the workspace is larger than"));
    assert!(logs("events-symlink").contains("a symlink, not a file"));
    assert!(logs("events-malformed").contains("events.jsonl: ignored a line"));
}
