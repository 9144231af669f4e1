//! `nab selftest` end to end against real Docker: a subset with one case of each class runs,
//! every row of the table says `caught` and the exit code is 0; a name that is no case is
//! refused before anything runs. (The whole corpus runs in `.ci/run`; the verdict logic that
//! turns a fooled attack into a red exit is unit-tested in `selftest::outcome`.)

use crate::common;

use std::process::Command;

#[tokio::test(flavor = "multi_thread")]
async fn a_subset_of_the_selftest_is_all_caught() {
    common::base_image().await;
    // One case per class, the cheap ones.
    let subset = [
        "control-honest",
        "events-symlink",
        "expected-symlink",
        "lurker",
        "gateway-n",
        "sandbox-tests-hidden",
    ];
    let st = common::Selftest::run(&subset);
    st.assert_all_caught(&subset);
    let rows = st.stdout.lines().skip(1).take_while(|l| !l.is_empty());
    assert_eq!(rows.count(), subset.len(), "{}", st.stdout);
    assert!(
        st.row("gateway-n")
            .contains("failed: tests_failed + refused `n`"),
        "{}",
        st.stdout
    );
    assert!(
        st.stdout
            .contains("every attack caught, every control passed"),
        "{}",
        st.stdout
    );
    // The corpus as run and each case's logs are in the run folder.
    assert!(st.out.join("corpus/agents/gateway-n.sh").is_file());
    let log = st.log("answer", "lurker", nab_protocol::VERIFY_LOG_FILE);
    assert!(log.contains("answer: 41"), "{log}");
}

#[test]
fn an_unknown_case_is_refused_and_the_list_names_every_class() {
    let o = Command::new(env!("CARGO_BIN_EXE_nab"))
        .args(["selftest", "no-such-case"])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("`no-such-case`"), "{err}");

    let o = Command::new(env!("CARGO_BIN_EXE_nab"))
        .args(["selftest", "--list"])
        .output()
        .unwrap();
    assert!(o.status.success());
    let list = String::from_utf8_lossy(&o.stdout);
    for class in [
        "control",
        "agent-failure",
        "expected-data",
        "runner-forgery",
        "tampering",
        "requirements",
        "gateway",
        "sandbox",
    ] {
        assert!(
            list.lines().any(|l| l.starts_with(class)),
            "{class}:\n{list}"
        );
    }
}
