//! Tampering is recorded, not hidden: workspace paths the verifier's runners read as
//! configuration or tests (a `conftest.py`, a `*.pth`, a `META-INF/services` entry, ...)
//! are protected, and a diff that touches one puts the path in the trial's `tamper_flags`.
//! So does compiled code the agent added or changed (byte code, class files, shared
//! objects, executables: [`compiled_kind`]): it runs while the diff shows no source change.
//! A flag is evidence for the report and the judge's `tests_tampered` veto; it does not
//! fail the trial by itself (a task may legitimately ask for such an edit).

use crate::workspace::{Node, Snapshot};
use globset::{Glob, GlobSet, GlobSetBuilder};

/// Files that configure a runner or an interpreter: flagged when added, changed or removed,
/// in every task, on top of the task's own `protected:` globs.
pub const DEFAULT_PROTECTED: &[&str] = &[
    // Python: loaded by pytest or by the interpreter before any test runs.
    "**/conftest.py",
    "**/sitecustomize.py",
    "**/usercustomize.py",
    "**/*.pth",
    "**/pytest.ini",
    // Java: service registrations (annotation processors, JUnit extensions).
    "**/META-INF/services/**",
];

/// The workspace's own tests (the hidden ones never enter it): flagged when an existing one
/// is changed or removed. Adding a test is honest work and is not flagged.
pub const DEFAULT_TESTS: &[&str] = &[
    "**/tests/**",
    "**/test/**",
    "**/test_*.py",
    "**/*_test.py",
    "**/*_test.go",
    "**/*.test.js",
    "**/*.test.ts",
    "**/*.spec.js",
    "**/*.spec.ts",
];

#[derive(Debug, thiserror::Error)]
#[error("protected[{index}]: `{glob}` is not a valid glob: {message}")]
pub struct GlobError {
    pub index: usize,
    pub glob: String,
    pub message: String,
}

/// The defaults plus a task's globs, compiled once per task. A task glob that starts with
/// `!` exempts what it matches (edits the instruction asks for, such as test files in a
/// merge to resolve).
#[derive(Debug, Clone)]
pub struct Protected {
    /// Any touch counts.
    config: GlobSet,
    /// Changing or removing an existing file counts.
    tests: GlobSet,
    /// Never flagged (compiled code aside).
    exempt: GlobSet,
}

fn build(globs: &[&str]) -> GlobSet {
    let mut b = GlobSetBuilder::new();
    for g in globs {
        #[expect(
            clippy::expect_used,
            reason = "the defaults are constants; the tests build a Protected from them"
        )]
        b.add(Glob::new(g).expect("the default globs are valid"));
    }
    #[expect(clippy::expect_used, reason = "valid globs make a valid set")]
    b.build().expect("the default globs build a set")
}

impl Protected {
    pub fn new(task_globs: &[String]) -> Result<Protected, GlobError> {
        let mut config = GlobSetBuilder::new();
        for g in DEFAULT_PROTECTED {
            #[expect(
                clippy::expect_used,
                reason = "the defaults are constants; the tests build a Protected from them"
            )]
            config.add(Glob::new(g).expect("the default globs are valid"));
        }
        let mut exempt = GlobSetBuilder::new();
        for (index, g) in task_globs.iter().enumerate() {
            let (pattern, set) = match g.strip_prefix('!') {
                Some(rest) => (rest, &mut exempt),
                None => (g.as_str(), &mut config),
            };
            let glob = globset::GlobBuilder::new(pattern)
                .literal_separator(true)
                .build()
                .map_err(|e| GlobError {
                    index,
                    glob: g.clone(),
                    message: e.kind().to_string(),
                })?;
            set.add(glob);
        }
        let err = |e: globset::Error| GlobError {
            index: 0,
            glob: String::new(),
            message: e.to_string(),
        };
        Ok(Protected {
            config: config.build().map_err(err)?,
            tests: build(DEFAULT_TESTS),
            exempt: exempt.build().map_err(err)?,
        })
    }

    /// Protected paths touched between the two snapshots (see the globs' kinds above), and
    /// compiled code added or changed, sorted. A directory's own entry never counts: only
    /// what is in it.
    pub fn touched(&self, before: &Snapshot, after: &Snapshot) -> Vec<String> {
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
                if self.exempt.is_match(path) {
                    return false;
                }
                self.config.is_match(path) || (is_entry(a) && self.tests.is_match(path))
            })
            // Names are raw bytes; a flag names them as the patch does (quoted if needed).
            .map(|p| crate::workspace::git_path("", p))
            .collect()
    }
}

/// What kind of compiled code a file is, by its name or its magic number: Python byte code,
/// JVM class files and archives, shared objects and native executables, object files,
/// WebAssembly. `None` for anything else (scripts, data, text).
pub fn compiled_kind(path: &[u8], node: &Node) -> Option<&'static str> {
    let Node::File { head, size, .. } = node else {
        return None;
    };
    let name = path.rsplit(|&b| b == b'/').next().unwrap_or(path);
    let ends = |suffix: &[u8]| name.ends_with(suffix);
    if ends(b".pyc") || ends(b".pyo") {
        return Some("Python byte code");
    }
    if ends(b".class") || ends(b".jar") || ends(b".war") {
        return Some("JVM byte code");
    }
    if ends(b".so") || name.windows(4).any(|w| w == b".so.") || ends(b".dylib") || ends(b".dll") {
        return Some("shared object");
    }
    if ends(b".o") || ends(b".a") || ends(b".node") || ends(b".wasm") {
        return Some("compiled object");
    }
    if *size < 4 {
        return None;
    }
    match head {
        [0x7f, b'E', b'L', b'F'] => Some("ELF executable or object"),
        [0xca, 0xfe, 0xba, 0xbe] => Some("JVM class or Mach-O binary"),
        [0xfe, 0xed, 0xfa, 0xce | 0xcf] | [0xce | 0xcf, 0xfa, 0xed, 0xfe] => Some("Mach-O binary"),
        [0x00, b'a', b's', b'm'] => Some("WebAssembly"),
        _ => None,
    }
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
            p.touched(&before, &after),
            [
                "Main.class",
                "bin/tool",
                "lib/old.so",
                "libz.so.1",
                "pkg/__pycache__/m.cpython-311.pyc",
            ]
        );
        // Removed compiled code is no risk: nothing of it runs.
        assert_eq!(p.touched(&after, &snap(&[])).len(), 0);
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
            p.touched(&before, &after),
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
        assert_eq!(p.touched(&before, &before), Vec::<String>::new());
        assert!(!p.touched(&before, &after).contains(&"Makefile".to_string()));
        assert!(!p.touched(&before, &after).contains(&"app.py".to_string()));
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
            p.touched(&before, &after),
            [
                "billing/tests/__pycache__/x.pyc",
                "billing/tests/test_csv.py",
                "tests/conftest.py",
            ]
        );
        // Removing an existing test counts too.
        assert_eq!(
            p.touched(
                &before,
                &snap(&[("billing/tests/test_csv.py", file("old"))])
            ),
            ["relay/queue_test.go"]
        );
        // A merge task exempts the tests it asks to resolve; compiled code stays flagged.
        let p = Protected::new(&["!billing/tests/**".into()]).unwrap();
        assert_eq!(
            p.touched(&before, &after),
            ["billing/tests/__pycache__/x.pyc", "tests/conftest.py"]
        );
    }

    #[test]
    fn a_bad_task_glob_is_named_with_its_index() {
        let e = Protected::new(&["ok/**".into(), "src/[".into()]).unwrap_err();
        assert_eq!(e.index, 1);
        assert!(e.to_string().starts_with("protected[1]: `src/[`"), "{e}");
    }
}
