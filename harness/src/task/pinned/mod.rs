//! The pinned test set: `tasks/tests.lock`, the ids of the tests each task's oracle ran,
//! recorded by `nab validate` and committed with the suite.
//!
//! A verdict whose reports lack a pinned id, or list one the lock does not know, fails with
//! `test_set_mismatch`: a report written from scratch, or a runner made to skip or invent
//! tests, cannot pass for the real one. Each entry carries a hash of the task's `tests/`
//! and `task.yaml`; an entry whose hash no longer matches (the tests changed since) is
//! stale, and a stale or missing entry pins nothing (a warning says so) until `nab
//! validate` writes it again. The file lies outside every task folder, so it does not
//! change the suite hash. See tasks/README.md, "The pinned test set".

mod record;

pub use record::{Recorded, record};

use nab_protocol::{hash_entry, hash_tree};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The lock's file name inside the tasks folder.
pub const LOCK_FILE: &str = "tests.lock";
/// The format this build reads and writes.
pub const LOCK_VERSION: u32 = 1;
/// The largest lock file read.
const LOCK_CAP: u64 = 16 * 1024 * 1024;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TestLock {
    pub version: u32,
    /// By task id (sorted: a BTreeMap, so the file is the same for the same content).
    pub tasks: BTreeMap<String, Entry>,
}

/// An empty lock of the current version.
impl Default for TestLock {
    fn default() -> Self {
        TestLock {
            version: LOCK_VERSION,
            tasks: BTreeMap::new(),
        }
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Entry {
    /// [`tests_hash`] of the task when its ids were recorded.
    pub tests_hash: String,
    /// `classname::name` of every test in the oracle's reports, canary left out, sorted.
    pub ids: BTreeSet<String>,
}

#[derive(Debug, thiserror::Error)]
pub enum LockError {
    #[error("{path}: {source}")]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("{path}: not a valid tests.lock: {why}")]
    Malformed { path: PathBuf, why: String },
}

/// What the lock says about one task.
#[derive(Debug, Clone, PartialEq)]
pub enum Pin {
    /// The ids every verdict's reports must list, no more and no fewer.
    Fresh(BTreeSet<String>),
    /// No entry for the task.
    Missing,
    /// An entry recorded for other tests (its hash differs).
    Stale,
}

impl TestLock {
    pub fn path(tasks_dir: &Path) -> PathBuf {
        tasks_dir.join(LOCK_FILE)
    }

    /// The suite's lock; an empty one when the file does not exist.
    pub fn read(tasks_dir: &Path) -> Result<TestLock, LockError> {
        use std::io::Read;
        let path = Self::path(tasks_dir);
        let io = |source| LockError::Io {
            path: path.clone(),
            source,
        };
        let file = match std::fs::File::open(&path) {
            Ok(f) => f,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                return Ok(TestLock::default());
            }
            Err(e) => return Err(io(e)),
        };
        let mut text = String::new();
        file.take(LOCK_CAP + 1)
            .read_to_string(&mut text)
            .map_err(io)?;
        if text.len() as u64 > LOCK_CAP {
            return Err(LockError::Malformed {
                path,
                why: format!("larger than {LOCK_CAP} bytes"),
            });
        }
        let lock: TestLock = serde_json::from_str(&text).map_err(|e| LockError::Malformed {
            path: path.clone(),
            why: e.to_string(),
        })?;
        if lock.version != LOCK_VERSION {
            return Err(LockError::Malformed {
                path,
                why: format!(
                    "version {} (this nab reads version {LOCK_VERSION})",
                    lock.version
                ),
            });
        }
        Ok(lock)
    }

    /// Writes the lock (sorted, pretty-printed, one trailing newline) through a temporary
    /// file, so a reader never sees half of it.
    pub fn write(&self, tasks_dir: &Path) -> Result<(), LockError> {
        let path = Self::path(tasks_dir);
        let io = |source| LockError::Io {
            path: path.clone(),
            source,
        };
        let mut text = serde_json::to_string_pretty(self).map_err(|e| io(e.into()))?;
        text.push('\n');
        let tmp = tasks_dir.join(format!(".{LOCK_FILE}.tmp"));
        std::fs::write(&tmp, text).map_err(io)?;
        std::fs::rename(&tmp, &path).map_err(io)
    }

    /// The pin for the task in `task_dir`.
    pub fn pin(&self, id: &str, task_dir: &Path) -> Result<Pin, LockError> {
        let Some(entry) = self.tasks.get(id) else {
            return Ok(Pin::Missing);
        };
        if entry.tests_hash != tests_hash(task_dir)? {
            return Ok(Pin::Stale);
        }
        Ok(Pin::Fresh(entry.ids.clone()))
    }
}

/// Sets each task's `pinned_tests` from the suite's lock. Returns one warning per task the
/// lock does not pin (no entry, or a stale one): its verdicts are not checked against a
/// test set until `nab validate` records one.
pub fn pin_suite(
    tasks_dir: &Path,
    tasks: &mut [crate::task::Task],
) -> Result<Vec<String>, LockError> {
    let lock = TestLock::read(tasks_dir)?;
    let mut warnings = Vec::new();
    for t in tasks.iter_mut() {
        t.pinned_tests = match lock.pin(t.id(), &t.dir)? {
            Pin::Fresh(ids) => Some(ids),
            Pin::Missing => {
                warnings.push(format!(
                    "{}: no entry for {}: its test set is not pinned (`nab validate` records it)",
                    TestLock::path(tasks_dir).display(),
                    t.id()
                ));
                None
            }
            Pin::Stale => {
                warnings.push(format!(
                    "{}: the entry for {} is stale (its tests/ or task.yaml changed since): its test set is not pinned until `nab validate` records it again",
                    TestLock::path(tasks_dir).display(),
                    t.id()
                ));
                None
            }
        };
    }
    Ok(warnings)
}

/// `sha256:<hex>` over the task's `task.yaml` and every file under its `tests/` (path,
/// length and bytes, in sorted order; a link contributes its target text).
pub fn tests_hash(task_dir: &Path) -> Result<String, LockError> {
    let io = |path: &Path, source| LockError::Io {
        path: path.to_owned(),
        source,
    };
    let mut hasher = Sha256::new();
    let yaml = task_dir.join("task.yaml");
    hash_entry(
        &mut hasher,
        "task.yaml",
        &std::fs::read(&yaml).map_err(|e| io(&yaml, e))?,
    );
    hash_tree(&mut hasher, &task_dir.join("tests"), task_dir).map_err(|e| io(&e.path, e.source))?;
    Ok(format!("sha256:{}", hex::encode(hasher.finalize())))
}

/// Why a report's ids are not the pinned set, for verify.log; `None` when they are.
pub fn mismatch(pinned: &BTreeSet<String>, reported: &[String]) -> Option<String> {
    const SHOWN: usize = 10;
    let reported: BTreeSet<&String> = reported.iter().collect();
    let missing: Vec<&String> = pinned.iter().filter(|id| !reported.contains(id)).collect();
    let unknown: Vec<&&String> = reported
        .iter()
        .filter(|id| !pinned.contains(**id))
        .collect();
    if missing.is_empty() && unknown.is_empty() {
        return None;
    }
    let list = |ids: Vec<String>| {
        let more = ids.len().saturating_sub(SHOWN);
        let mut s = ids
            .into_iter()
            .take(SHOWN)
            .map(|id| format!("{id:?}"))
            .collect::<Vec<_>>()
            .join(", ");
        if more > 0 {
            s.push_str(&format!(" and {more} more"));
        }
        s
    };
    let mut why = String::from("the reports' test ids are not the pinned set in tests.lock:");
    if !missing.is_empty() {
        why.push_str(&format!(
            " {} missing ({})",
            missing.len(),
            list(missing.iter().map(|s| s.to_string()).collect())
        ));
    }
    if !unknown.is_empty() {
        why.push_str(&format!(
            " {} unknown ({})",
            unknown.len(),
            list(unknown.iter().map(|s| s.to_string()).collect())
        ));
    }
    Some(why)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn task(dir: &Path, test: &str) {
        std::fs::create_dir_all(dir.join("tests")).unwrap();
        std::fs::write(dir.join("task.yaml"), "id: t\n").unwrap();
        std::fs::write(dir.join("tests/test_a.py"), test).unwrap();
    }

    #[test]
    fn the_lock_round_trips_sorted_and_a_changed_test_makes_it_stale() {
        let suite = tempfile::tempdir().unwrap();
        let t = suite.path().join("t");
        task(&t, "def test_a(): pass\n");
        assert_eq!(TestLock::read(suite.path()).unwrap().tasks.len(), 0);
        assert_eq!(
            TestLock::read(suite.path()).unwrap().pin("t", &t).unwrap(),
            Pin::Missing
        );
        let mut lock = TestLock::read(suite.path()).unwrap();
        for id in ["zeta", "alpha"] {
            lock.tasks.insert(
                id.into(),
                Entry {
                    tests_hash: tests_hash(&t).unwrap(),
                    ids: ["m::b".to_string(), "m::a".to_string()].into(),
                },
            );
        }
        lock.tasks.insert(
            "t".into(),
            Entry {
                tests_hash: tests_hash(&t).unwrap(),
                ids: ["m::a".to_string()].into(),
            },
        );
        lock.write(suite.path()).unwrap();
        let text = std::fs::read_to_string(TestLock::path(suite.path())).unwrap();
        assert!(text.ends_with("}\n"));
        let (a, z) = (
            text.find("\"alpha\"").unwrap(),
            text.find("\"zeta\"").unwrap(),
        );
        assert!(a < z, "{text}");
        assert!(text.find("m::a").unwrap() < text.find("m::b").unwrap());
        let back = TestLock::read(suite.path()).unwrap();
        assert_eq!(back, lock);
        lock.write(suite.path()).unwrap();
        assert_eq!(
            std::fs::read_to_string(TestLock::path(suite.path())).unwrap(),
            text,
            "the same content writes the same bytes"
        );
        assert_eq!(
            back.pin("t", &t).unwrap(),
            Pin::Fresh(["m::a".to_string()].into())
        );
        std::fs::write(t.join("tests/test_a.py"), "def test_b(): pass\n").unwrap();
        assert_eq!(back.pin("t", &t).unwrap(), Pin::Stale);
    }

    #[test]
    fn a_malformed_lock_names_the_file() {
        let suite = tempfile::tempdir().unwrap();
        std::fs::write(
            TestLock::path(suite.path()),
            "{\"version\": 1, \"task\": {}}",
        )
        .unwrap();
        let e = TestLock::read(suite.path()).unwrap_err().to_string();
        assert!(
            e.contains("tests.lock") && e.contains("unknown field"),
            "{e}"
        );
    }

    #[test]
    fn missing_and_unknown_ids_are_named() {
        let pinned: BTreeSet<String> = ["m::a", "m::b"].map(String::from).into();
        assert_eq!(mismatch(&pinned, &["m::b".into(), "m::a".into()]), None);
        let why = mismatch(&pinned, &["m::a".into(), "m::x".into()]).unwrap();
        assert!(
            why.contains("1 missing (\"m::b\")") && why.contains("1 unknown (\"m::x\")"),
            "{why}"
        );
    }
}
