//! `nab selftest` end to end against real Docker: a subset with one case of each class runs,
//! every row of the table says `caught` and the exit code is 0; a name that is no case is
//! refused before anything runs. (The whole corpus runs in `.ci/run`; the verdict logic that
//! turns a fooled attack into a red exit is unit-tested in `selftest::outcome`.)

mod common;

use std::process::Command;

/// One case per class, the cheap ones.
const SUBSET: &[&str] = &[
    "control-honest",
    "events-symlink",
    "lurker",
    "gateway-n",
    "sandbox-tests-hidden",
];

#[tokio::test(flavor = "multi_thread")]
async fn a_subset_of_the_selftest_is_all_caught() {
    common::base_image().await;
    let root = tempfile::tempdir().unwrap();
    let run_id = common::unique("selftest");
    let _sweep = common::SweepOnDrop(run_id.clone());
    let out = root.path().join("out");
    let o = Command::new(env!("CARGO_BIN_EXE_nab"))
        .args(["selftest", "-j", "2", "--run-id", &run_id, "--out"])
        .arg(&out)
        .args(SUBSET)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&o.stdout);
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "{stdout}\n{stderr}");
    let rows: Vec<&str> = stdout
        .lines()
        .skip(1)
        .take_while(|l| !l.is_empty())
        .collect();
    assert_eq!(rows.len(), SUBSET.len(), "{stdout}");
    for id in SUBSET {
        let row = rows
            .iter()
            .find(|r| r.split_whitespace().nth(1) == Some(id))
            .unwrap_or_else(|| panic!("no row for {id}:\n{stdout}"));
        assert!(row.ends_with("  caught"), "{row}\n{stdout}");
    }
    let gateway = rows.iter().find(|r| r.contains("gateway-n")).unwrap();
    assert!(
        gateway.contains("failed: tests_failed + refused `n`"),
        "{gateway}"
    );
    assert!(
        stdout.contains("every attack caught, every control passed"),
        "{stdout}"
    );
    // The corpus as run and each case's logs are in the run folder.
    assert!(out.join("corpus/agents/gateway-n.sh").is_file());
    let log = std::fs::read_to_string(out.join("trials/answer/lurker/verify.log")).unwrap();
    assert!(log.contains("answer: 41"), "{log}");
    assert_eq!(
        common::labelled(&format!("nab.run={run_id}")),
        (vec![], vec![])
    );
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
        "runner-forgery",
        "tampering",
        "gateway",
        "sandbox",
    ] {
        assert!(
            list.lines().any(|l| l.starts_with(class)),
            "{class}:\n{list}"
        );
    }
}
