//! Tampering is recorded, not hidden: workspace paths the verifier's runners read as
//! configuration or tests (a `conftest.py`, a `*.pth`, a `META-INF/services` entry, ...)
//! are protected, and a diff that touches one puts the path in the trial's `tamper_flags`.
//! So does compiled code the agent added or changed (byte code, class files, shared
//! objects, executables: [`compiled_kind`]): it runs while the diff shows no source change.
//! The globs are the task's ([`Protected`]); this module applies them to the trial's diff.
//! A flag is evidence for the report and the judge's `tests_tampered` veto; it does not
//! fail the trial by itself (a task may legitimately ask for such an edit).

use crate::env::workspace::{Node, Snapshot, compiled_kind};
use crate::task::Protected;

/// Protected paths touched between the two snapshots (see the globs' kinds above), and
/// compiled code added or changed, sorted. A directory's own entry never counts: only
/// what is in it.
pub(crate) fn touched(protected: &Protected, before: &Snapshot, after: &Snapshot) -> Vec<String> {
    use std::os::unix::ffi::OsStrExt;
    let mut keys: Vec<&Vec<u8>> = before.nodes.keys().chain(after.nodes.keys()).collect();
    keys.sort();
    keys.dedup();
    keys.into_iter()
        .filter(|p| {
            let (a, b) = (before.nodes.get(*p), after.nodes.get(*p));
            let is_entry = |n: Option<&Node>| !matches!(n, Some(Node::Dir) | None);
            if a == b || !(is_entry(a) || is_entry(b)) {
                return false;
            }
            if b.is_some_and(|n| compiled_kind(p, n).is_some()) {
                return true;
            }
            let path = std::path::Path::new(std::ffi::OsStr::from_bytes(p));
            protected.flags(path, is_entry(a))
        })
        // Names are raw bytes; a flag names them as the patch does (quoted if needed).
        .map(|p| crate::env::workspace::git_path("", p))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn file(text: &str) -> Node {
        let mut head = [0u8; 4];
        let n = text.len().min(4);
        head[..n].copy_from_slice(&text.as_bytes()[..n]);
        Node::File {
            digest: [text.len() as u8; 32],
            size: text.len() as u64,
            mode: 0o644,
            text: Some(text.into()),
            head,
        }
    }

    #[test]
    fn compiled_code_added_or_changed_is_flagged_by_name_or_magic_and_scripts_are_not() {
        let before = snap(&[("lib/old.so", file("x")), ("run.sh", file("#!/bin/sh"))]);
        let after = snap(&[
            ("lib/old.so", file("y")),
            ("pkg/__pycache__/m.cpython-311.pyc", file("\u{a7}\r\r\n")),
            ("Main.class", file("\u{ca}")),
            ("bin/tool", file("\x7fELF....")),
            ("libz.so.1", file("z")),
            ("run.sh", file("#!/bin/bash")),
            ("notes.txt", file("plain text")),
        ]);
        let p = Protected::new(&[]).unwrap();
        assert_eq!(
            touched(&p, &before, &after),
            [
                "Main.class",
                "bin/tool",
                "lib/old.so",
                "libz.so.1",
                "pkg/__pycache__/m.cpython-311.pyc",
            ]
        );
        // Removed compiled code is no risk: nothing of it runs.
        assert_eq!(touched(&p, &after, &snap(&[])).len(), 0);
    }

    fn snap(entries: &[(&str, Node)]) -> Snapshot {
        Snapshot {
            nodes: entries
                .iter()
                .map(|(p, n)| (p.as_bytes().to_vec(), n.clone()))
                .collect(),
        }
    }

    #[test]
    fn defaults_and_task_globs_flag_added_changed_and_removed_protected_paths() {
        let before = snap(&[
            ("app.py", file("a")),
            ("tests/test_app.py", file("t")),
            ("Makefile", file("m")),
            ("src", Node::Dir),
        ]);
        let after = snap(&[
            ("app.py", file("ab")),
            ("conftest.py", file("x")),
            ("pkg/evil.pth", file("y")),
            (
                "META-INF/services/javax.annotation.processing.Processor",
                file("z"),
            ),
            ("Makefile", file("mm")),
            ("src", Node::Dir),
            ("src/sitecustomize.py", Node::Symlink("/etc/passwd".into())),
        ]);
        let p = Protected::new(&["Makefile".into()]).unwrap();
        assert_eq!(
            touched(&p, &before, &after),
            [
                "META-INF/services/javax.annotation.processing.Processor",
                "Makefile",
                "conftest.py",
                "pkg/evil.pth",
                "src/sitecustomize.py",
                "tests/test_app.py",
            ]
        );
        // Untouched protected files and unprotected edits are not flagged.
        let p = Protected::new(&[]).unwrap();
        assert_eq!(touched(&p, &before, &before), Vec::<String>::new());
        assert!(!touched(&p, &before, &after).contains(&"Makefile".to_string()));
        assert!(!touched(&p, &before, &after).contains(&"app.py".to_string()));
    }

    #[test]
    fn added_tests_are_honest_work_and_exempted_paths_are_never_flagged() {
        let before = snap(&[
            ("billing/tests/test_csv.py", file("old")),
            ("relay/queue_test.go", file("q")),
        ]);
        let after = snap(&[
            ("billing/tests/test_csv.py", file("merged")),
            ("relay/queue_test.go", file("q")),
            ("relay/ordering_test.go", file("new")),
            ("tests/conftest.py", file("c")),
            ("billing/tests/__pycache__/x.pyc", file("b")),
        ]);
        let p = Protected::new(&[]).unwrap();
        assert_eq!(
            touched(&p, &before, &after),
            [
                "billing/tests/__pycache__/x.pyc",
                "billing/tests/test_csv.py",
                "tests/conftest.py",
            ]
        );
        // Removing an existing test counts too.
        assert_eq!(
            touched(
                &p,
                &before,
                &snap(&[("billing/tests/test_csv.py", file("old"))])
            ),
            ["relay/queue_test.go"]
        );
        // A merge task exempts the tests it asks to resolve; compiled code stays flagged.
        let p = Protected::new(&["!billing/tests/**".into()]).unwrap();
        assert_eq!(
            touched(&p, &before, &after),
            ["billing/tests/__pycache__/x.pyc", "tests/conftest.py"]
        );
    }
}
