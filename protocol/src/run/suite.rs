//! The identity of the task suite a run used, so that a run folder copied elsewhere (a CI
//! artifact, say) can find its tasks again and prove they are the ones it ran.
//!
//! `run.json` records the tasks folder's path *and* a content hash over the folders of the
//! tasks the run used. Reading a run back, [`resolve_tasks_dir`] tries `--tasks`,
//! else the recorded path, else `./tasks`, and accepts a folder only when its hash matches.

use super::RunMeta;
use sha2::{Digest, Sha256};
use std::path::{Path, PathBuf};

/// A task suite that could not be read or found.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum SuiteError {
    /// A task file could not be read.
    #[error("cannot read {path}: {source}")]
    Read {
        /// The file.
        path: PathBuf,
        /// What the file system said.
        #[source]
        source: std::io::Error,
    },
    /// The tasks found are not the ones run.json records.
    #[error(
        "the tasks in {found} are not the suite run {run} used: run.json records {want} (tasks folder {recorded}) and {found} hashes to {found_hash}; pass --tasks with the suite the run used"
    )]
    Mismatch {
        /// The run folder.
        run: PathBuf,
        /// The tasks folder run.json records.
        recorded: String,
        /// The suite hash run.json records.
        want: String,
        /// The tasks folder that was found.
        found: PathBuf,
        /// That folder's suite hash.
        found_hash: String,
    },
    /// No tasks folder was found.
    #[error(
        "cannot find the tasks of run {run}: tried {tried}; pass --tasks with the suite the run used"
    )]
    NotFound {
        /// The run folder.
        run: PathBuf,
        /// The folders tried, in order.
        tried: String,
    },
}

type Result<T, E = SuiteError> = std::result::Result<T, E>;

/// The folder `nab` looks in when neither `--tasks` nor run.json's path finds the suite.
pub const DEFAULT_TASKS_DIR: &str = "tasks";

/// `sha256:<hex>` over every file under `<tasks_dir>/<id>/` for each id (sorted): its path
/// relative to the tasks folder, its length and its bytes. A symbolic link contributes its
/// target text, never what it points at; the suite is the repository's, not the agent's,
/// but a hash must not depend on where a link happens to lead on this machine.
pub fn suite_hash(tasks_dir: &Path, task_ids: &[String]) -> Result<String> {
    let mut ids: Vec<&String> = task_ids.iter().collect();
    ids.sort();
    ids.dedup();
    let mut hasher = Sha256::new();
    for id in ids {
        let root = tasks_dir.join(id);
        if !root.is_dir() {
            return Err(SuiteError::Read {
                path: root,
                source: std::io::Error::new(std::io::ErrorKind::NotFound, "no such task folder"),
            });
        }
        hash_tree(&mut hasher, &root, tasks_dir).map_err(|e| SuiteError::Read {
            path: e.path,
            source: e.source,
        })?;
    }
    Ok(format!("sha256:{:x}", hasher.finalize()))
}

/// `sha256:<hex>` of each task alone (the same walk as [`suite_hash`], one task at a time),
/// by id: runs of different subsets of one suite are compared on the tasks they share when
/// those tasks' hashes agree.
pub fn task_hashes(
    tasks_dir: &Path,
    task_ids: &[String],
) -> Result<std::collections::BTreeMap<String, String>> {
    task_ids
        .iter()
        .map(|id| Ok((id.clone(), suite_hash(tasks_dir, std::slice::from_ref(id))?)))
        .collect()
}

/// A file of a hashed tree that could not be read.
#[derive(Debug, thiserror::Error)]
#[error("cannot read {path}: {source}")]
pub struct TreeReadError {
    /// The file (or the folder being walked).
    pub path: PathBuf,
    /// What the file system said.
    #[source]
    pub source: std::io::Error,
}

/// Adds one file to a tree hash: its path, a NUL byte, its length (u64, little-endian) and
/// its bytes.
pub fn hash_entry(hasher: &mut Sha256, rel: &str, bytes: &[u8]) {
    hasher.update(rel.as_bytes());
    hasher.update([0]);
    hasher.update((bytes.len() as u64).to_le_bytes());
    hasher.update(bytes);
}

/// Adds every regular file and symbolic link under `root` to `hasher` ([`hash_entry`]), in
/// file-name order, each named by its path relative to `rel_to`. Links are never followed:
/// a link contributes its target text. Other kinds of files are passed over.
pub fn hash_tree(
    hasher: &mut Sha256,
    root: &Path,
    rel_to: &Path,
) -> std::result::Result<(), TreeReadError> {
    let walk = walkdir::WalkDir::new(root)
        .follow_links(false)
        .sort_by(|a, b| a.file_name().cmp(b.file_name()));
    for entry in walk {
        let entry = entry.map_err(|e| TreeReadError {
            path: e
                .path()
                .map(Path::to_owned)
                .unwrap_or_else(|| root.to_owned()),
            source: e.into(),
        })?;
        let rel = entry
            .path()
            .strip_prefix(rel_to)
            .unwrap_or(entry.path())
            .to_string_lossy()
            .into_owned();
        let kind = entry.file_type();
        let bytes = if kind.is_file() {
            std::fs::read(entry.path())
        } else if kind.is_symlink() {
            std::fs::read_link(entry.path()).map(|t| t.as_os_str().as_encoded_bytes().to_vec())
        } else {
            continue;
        }
        .map_err(|source| TreeReadError {
            path: entry.path().to_owned(),
            source,
        })?;
        hash_entry(hasher, &rel, &bytes);
    }
    Ok(())
}

/// The tasks folder of a run, checked against the suite hash its `run.json` records: the
/// one place the `--tasks` fallback lives (every command that reads a run's tasks calls it).
///
/// With `explicit` (the user's `--tasks`), only that folder is tried. Otherwise the
/// recorded path (relative to the run folder), then `./tasks`. A run without a recorded
/// hash (older runs) takes the first folder that exists, unchecked.
pub fn resolve_tasks_dir(
    meta: &RunMeta,
    run_dir: &Path,
    explicit: Option<&Path>,
) -> Result<PathBuf> {
    {
        let recorded = meta.tasks_dir_in(run_dir);
        let candidates: Vec<PathBuf> = match explicit {
            Some(p) => vec![p.to_owned()],
            None => recorded
                .iter()
                .cloned()
                .chain([PathBuf::from(DEFAULT_TASKS_DIR)])
                .collect(),
        };
        let mut mismatch = None;
        for dir in candidates.iter().filter(|d| d.is_dir()) {
            let Some(want) = &meta.tasks_hash else {
                return Ok(dir.clone());
            };
            let found = suite_hash(dir, &meta.task_ids).unwrap_or_else(|e| format!("({e})"));
            if &found == want {
                return Ok(dir.clone());
            }
            mismatch.get_or_insert((dir.clone(), found));
        }
        let recorded_text = recorded
            .map(|p| p.display().to_string())
            .unwrap_or_else(|| "none".into());
        Err(match mismatch {
            Some((found, found_hash)) => SuiteError::Mismatch {
                run: run_dir.to_owned(),
                recorded: recorded_text,
                want: meta.tasks_hash.clone().unwrap_or_default(),
                found,
                found_hash,
            },
            None => SuiteError::NotFound {
                run: run_dir.to_owned(),
                tried: candidates
                    .iter()
                    .map(|p| p.display().to_string())
                    .collect::<Vec<_>>()
                    .join(", "),
            },
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn suite(root: &Path, instruction: &str) -> PathBuf {
        let tasks = root.join("tasks");
        for id in ["a", "b"] {
            std::fs::create_dir_all(tasks.join(id).join("tests")).unwrap();
            std::fs::write(super::super::instruction_path(&tasks, id), instruction).unwrap();
            std::fs::write(tasks.join(id).join("tests/t.py"), "assert True\n").unwrap();
        }
        tasks
    }

    fn ids() -> Vec<String> {
        vec!["b".into(), "a".into()]
    }

    #[test]
    fn the_hash_follows_content_not_location_or_order() {
        let one = tempfile::tempdir().unwrap();
        let two = tempfile::tempdir().unwrap();
        let h1 = suite_hash(&suite(one.path(), "fix it"), &ids()).unwrap();
        let h2 = suite_hash(&suite(two.path(), "fix it"), &["a".into(), "b".into()]).unwrap();
        assert_eq!(h1, h2);
        assert!(h1.starts_with("sha256:") && h1.len() == 7 + 64);
        std::fs::write(two.path().join("tasks/b/tests/t.py"), "assert False\n").unwrap();
        assert_ne!(h1, suite_hash(&two.path().join("tasks"), &ids()).unwrap());
    }

    #[test]
    fn a_file_moved_between_folders_changes_the_hash() {
        let one = tempfile::tempdir().unwrap();
        let tasks = suite(one.path(), "x");
        let before = suite_hash(&tasks, &ids()).unwrap();
        std::fs::rename(tasks.join("a/tests/t.py"), tasks.join("a/t.py")).unwrap();
        assert_ne!(before, suite_hash(&tasks, &ids()).unwrap());
    }

    #[test]
    fn a_copied_run_falls_back_to_the_given_folder_and_checks_it() {
        let home = tempfile::tempdir().unwrap();
        let tasks = suite(home.path(), "fix it");
        let meta = RunMeta {
            tasks_dir: Some("../../gone/tasks".into()),
            tasks_hash: Some(suite_hash(&tasks, &ids()).unwrap()),
            task_ids: ids(),
            ..RunMeta::default()
        };
        let run = home.path().join("runs/r");
        std::fs::create_dir_all(&run).unwrap();
        assert_eq!(resolve_tasks_dir(&meta, &run, Some(&tasks)).unwrap(), tasks);

        let other = tempfile::tempdir().unwrap();
        let changed = suite(other.path(), "do something else");
        let err = resolve_tasks_dir(&meta, &run, Some(&changed))
            .unwrap_err()
            .to_string();
        assert!(err.contains(&changed.display().to_string()), "{err}");
        assert!(err.contains(meta.tasks_hash.as_deref().unwrap()), "{err}");
        assert!(
            err.contains("gone/tasks"),
            "names the recorded folder: {err}"
        );

        let err = resolve_tasks_dir(&meta, &run, Some(&home.path().join("nowhere")))
            .unwrap_err()
            .to_string();
        assert!(err.contains("nowhere") && err.contains("--tasks"), "{err}");
    }

    #[test]
    fn an_old_run_without_a_hash_takes_the_recorded_folder() {
        let home = tempfile::tempdir().unwrap();
        let tasks = suite(home.path(), "x");
        let run = home.path().join("runs/r");
        std::fs::create_dir_all(&run).unwrap();
        let meta = RunMeta {
            tasks_dir: Some("../../tasks".into()),
            ..RunMeta::default()
        };
        let got = resolve_tasks_dir(&meta, &run, None).unwrap();
        assert_eq!(got.canonicalize().unwrap(), tasks.canonicalize().unwrap());
    }
}
