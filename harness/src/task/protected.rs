//! A task's protected workspace paths (`protected:` in task.yaml) over the defaults every
//! task has: the globs, checked when the task loads and compiled once per trial. What a
//! diff that touches them sets is the trial's business ([`crate::trial::tamper`]).

use globset::{Glob, GlobSet, GlobSetBuilder};
use std::path::Path;

/// Files that configure a runner or an interpreter: flagged when added, changed or removed,
/// in every task, on top of the task's own `protected:` globs.
pub(super) const DEFAULT_PROTECTED: &[&str] = &[
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
pub(super) const DEFAULT_TESTS: &[&str] = &[
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

    /// Whether a change to `path` is flagged by the globs: any touch of a protected path,
    /// a change or removal of an existing test (`existed`), never an exempt path.
    pub fn flags(&self, path: &Path, existed: bool) -> bool {
        if self.exempt.is_match(path) {
            return false;
        }
        self.config.is_match(path) || (existed && self.tests.is_match(path))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bad_task_glob_is_named_with_its_index() {
        let e = Protected::new(&["ok/**".into(), "src/[".into()]).unwrap_err();
        assert_eq!(e.index, 1);
        assert!(e.to_string().starts_with("protected[1]: `src/[`"), "{e}");
    }
}
