//! `nab completions` and `nab man` end to end (no Docker): the scripts and pages come from the
//! clap definitions the binary parses, so they name its commands and flags.

use std::process::Command;

fn nab() -> Command {
    Command::new(env!("CARGO_BIN_EXE_nab"))
}

/// stdout of a `nab` call that must succeed.
fn stdout_of(args: &[&str]) -> String {
    let o = nab().args(args).output().unwrap();
    assert!(
        o.status.success(),
        "nab {args:?}: {:?}\n{}",
        o.status,
        String::from_utf8_lossy(&o.stderr)
    );
    String::from_utf8(o.stdout).unwrap()
}

/// A man page as plain words: roff writes `-` as `\-`.
fn roff_text(page: &str) -> String {
    page.replace("\\-", "-")
}

#[test]
fn completions_for_bash_name_the_subcommands_and_their_flags() {
    let script = stdout_of(&["completions", "bash"]);
    assert!(script.contains("complete -F _nab"), "{script}");
    for word in [
        "validate",
        "run",
        "gate",
        "sweep",
        "leaderboard",
        "completions",
        "man",
        "--agent",
        "--resume",
    ] {
        assert!(script.contains(word), "no `{word}` in the bash script");
    }
    // The hidden `nab docs` is for the repository, not for a shell.
    assert!(!script.contains("nab__docs"), "{script}");
}

#[test]
fn completions_refuse_an_unknown_shell() {
    let o = nab().args(["completions", "tcsh"]).output().unwrap();
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("possible values") && err.contains("bash"),
        "{err}"
    );
}

#[test]
fn man_out_writes_a_page_per_command_that_mention_their_flags() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("man1");
    let said = stdout_of(&["man", "--out", out.to_str().unwrap()]);
    assert!(said.starts_with("wrote "), "{said}");

    let read = |name: &str| {
        roff_text(
            &std::fs::read_to_string(out.join(name))
                .unwrap_or_else(|e| panic!("{name}: {e} (said: {said})")),
        )
    };
    let top = read("nab.1");
    assert!(top.contains("\n.TH nab 1 "), "{top}");
    for word in [
        "--help",
        "--version",
        "nab-run(1)",
        "nab-validate(1)",
        "Exit codes",
    ] {
        assert!(top.contains(word), "no `{word}` in nab.1:\n{top}");
    }
    let run = read("nab-run.1");
    assert!(run.contains("\n.TH nab-run 1 "), "{run}");
    for word in [
        "--agent",
        "--tasks",
        "--trials",
        "--resume",
        "--max-cost-usd",
    ] {
        assert!(run.contains(word), "no `{word}` in nab-run.1:\n{run}");
    }
    // Nested subcommands get pages of their own; the hidden `nab docs` gets none.
    read("nab-image-build.1");
    assert!(!out.join("nab-docs.1").exists());
}

#[test]
fn man_without_out_prints_the_top_page() {
    let page = roff_text(&stdout_of(&["man"]));
    assert!(page.contains("\n.TH nab 1 "), "{page}");
    assert!(page.contains("nab-gate(1)"), "{page}");
}
