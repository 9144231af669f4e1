//! Which run folders a leaderboard reads. Each DIR is a run folder (it holds
//! `results.jsonl`) or a sweep folder, expanded into its runs: those `sweep.json` lists (read
//! as nab-protocol's [`SweepIndex`], each run by its `dir`), or, without a `sweep.json` (or
//! with one that lists no runs), its subfolders that hold a `run.json` or `results.jsonl`.
//! A `sweep.json` that is not one nab wrote is an error naming the file and what is wrong.
//!
//! A run folder may come from anywhere, so its files are checked before they are read: a
//! `results.jsonl` or `run.json` must be a regular file of bounded size (a link to
//! `/dev/zero`, a FIFO or a 10 GiB file is refused with its path), and a sweep's subfolders
//! are never reached through a symbolic link.

use crate::error::{ReportError, Result};
use nab_protocol::{RESULTS_FILE, RUN_META_FILE, SWEEP_INDEX_FILE, SweepIndex};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// The largest results.jsonl read (a 28-task × 5-trial run is well under 1 MiB).
pub const MAX_RESULTS_BYTES: u64 = 256 << 20;
/// The largest run.json read.
pub const MAX_META_BYTES: u64 = 4 << 20;

/// The run folders to rank, in the order given, and what was skipped on the way.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Inputs {
    pub runs: Vec<PathBuf>,
    /// Folders passed over (a sweep's run that has no results yet), one sentence each.
    pub notes: Vec<String>,
}

fn bad(path: &Path, message: impl Into<String>) -> ReportError {
    ReportError::LeaderboardInput {
        path: path.to_owned(),
        message: message.into(),
    }
}

/// Expands every DIR into run folders (see the module doc). A path given twice, directly
/// or through its sweep, is read once.
pub fn expand(dirs: &[PathBuf]) -> Result<Inputs> {
    let mut out = Inputs::default();
    let mut seen = BTreeSet::new();
    for dir in dirs {
        if !dir.is_dir() {
            return Err(bad(dir, "not a folder: pass run folders or sweep folders"));
        }
        let runs = if is_run(dir) {
            vec![dir.clone()]
        } else {
            sweep_runs(dir, &mut out.notes)?
        };
        for run in runs {
            check_run_files(&run)?;
            let key = run.canonicalize().unwrap_or_else(|_| run.clone());
            if seen.insert(key) {
                out.runs.push(run);
            }
        }
    }
    Ok(out)
}

fn is_run(dir: &Path) -> bool {
    std::fs::symlink_metadata(dir.join(RESULTS_FILE)).is_ok()
}

/// A run's results.jsonl (and run.json, when present) must be regular files of bounded size.
pub fn check_run_files(run: &Path) -> Result<()> {
    for (name, cap, required) in [
        (RESULTS_FILE, MAX_RESULTS_BYTES, true),
        (RUN_META_FILE, MAX_META_BYTES, false),
    ] {
        let path = run.join(name);
        match std::fs::metadata(&path) {
            Ok(m) if !m.is_file() => {
                return Err(bad(&path, "not a regular file: refusing to read it"));
            }
            Ok(m) if m.len() > cap => {
                return Err(bad(
                    &path,
                    format!(
                        "{} bytes, over the limit of {cap} bytes for a {name}: not a run nab wrote",
                        m.len()
                    ),
                ));
            }
            Ok(_) => {}
            Err(e) if e.kind() == std::io::ErrorKind::NotFound && !required => {}
            Err(source) => return Err(ReportError::Read { path, source }),
        }
    }
    Ok(())
}

/// The runs of a sweep folder: those `sweep.json` lists, else its run subfolders.
fn sweep_runs(dir: &Path, notes: &mut Vec<String>) -> Result<Vec<PathBuf>> {
    let listed = listed_in_sweep_json(dir)?;
    let candidates = match listed {
        Some(list) => list,
        None => subfolders(dir)?,
    };
    let mut runs = Vec::new();
    for c in candidates {
        if is_run(&c) {
            runs.push(c);
        } else {
            notes.push(format!(
                "{}: a run of the sweep without results yet, left out",
                c.display()
            ));
        }
    }
    if runs.is_empty() {
        return Err(bad(
            dir,
            format!(
                "neither a run folder (no {RESULTS_FILE}) nor a sweep folder with results (no {SWEEP_INDEX_FILE} listing runs, no subfolder holding {RESULTS_FILE})"
            ),
        ));
    }
    Ok(runs)
}

/// The run folders `sweep.json` lists, each its `dir` relative to the sweep folder. `None`
/// when there is no sweep.json or it lists no runs (the subfolders are used).
fn listed_in_sweep_json(dir: &Path) -> Result<Option<Vec<PathBuf>>> {
    let index = SweepIndex::read(dir).map_err(|e| match e {
        nab_protocol::SweepIndexError::Read { path, message } => bad(&path, message),
        other => bad(&SweepIndex::path(dir), other.to_string()),
    })?;
    Ok(index
        .filter(|i| !i.runs.is_empty())
        .map(|i| i.runs.iter().map(|r| dir.join(&r.dir)).collect()))
}

/// Subfolders (not links) that hold a run.json or a results.jsonl, in name order.
fn subfolders(dir: &Path) -> Result<Vec<PathBuf>> {
    let read = std::fs::read_dir(dir).map_err(|source| ReportError::Read {
        path: dir.to_owned(),
        source,
    })?;
    let mut out = Vec::new();
    for entry in read {
        let entry = entry.map_err(|source| ReportError::Read {
            path: dir.to_owned(),
            source,
        })?;
        let is_dir = entry.file_type().map(|t| t.is_dir()).unwrap_or(false);
        let p = entry.path();
        if is_dir
            && (std::fs::symlink_metadata(p.join(RUN_META_FILE)).is_ok()
                || std::fs::symlink_metadata(p.join(RESULTS_FILE)).is_ok())
        {
            out.push(p);
        }
    }
    out.sort();
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(dir: &Path) {
        std::fs::create_dir_all(dir).unwrap();
        std::fs::write(dir.join(RESULTS_FILE), "").unwrap();
    }

    #[test]
    fn a_sweep_without_sweep_json_expands_to_its_run_subfolders() {
        let t = tempfile::tempdir().unwrap();
        let s = t.path().join("sweep");
        run(&s.join("b-model"));
        run(&s.join("a-model"));
        std::fs::create_dir_all(s.join("c-model")).unwrap();
        std::fs::write(s.join("c-model").join(RUN_META_FILE), "{}").unwrap();
        std::fs::create_dir_all(s.join("logs")).unwrap();
        let got = expand(std::slice::from_ref(&s)).unwrap();
        assert_eq!(got.runs, [s.join("a-model"), s.join("b-model")]);
        assert_eq!(got.notes.len(), 1);
        assert!(got.notes[0].contains("c-model"), "{:?}", got.notes);
        // The sweep and one of its runs again: each run once.
        let got = expand(&[s.clone(), s.join("a-model")]).unwrap();
        assert_eq!(got.runs.len(), 2);
    }

    fn index(dirs: &[&str]) -> SweepIndex {
        SweepIndex {
            v: nab_protocol::SWEEP_INDEX_VERSION,
            sweep_file: "s.yaml".into(),
            sweep_hash: "sha256:a".into(),
            started_at: "2026-12-01T03:00:00.000Z".into(),
            finished_at: None,
            runs: dirs
                .iter()
                .map(|d| nab_protocol::IndexRun {
                    dir: (*d).to_owned(),
                    agent: "a".into(),
                    model: None,
                    provider: None,
                })
                .collect(),
            providers: Vec::new(),
            shard: None,
            group: None,
            merged_from: Vec::new(),
        }
    }

    #[test]
    fn sweep_json_lists_the_runs_by_dir_and_a_bad_one_is_named() {
        let t = tempfile::tempdir().unwrap();
        let s = t.path();
        run(&s.join("runs/one"));
        run(&s.join("runs/two"));
        run(&s.join("stray"));
        index(&["runs/one", "runs/two"]).write(s).unwrap();
        let got = expand(&[s.to_owned()]).unwrap();
        assert_eq!(got.runs, [s.join("runs/one"), s.join("runs/two")]);
        // A run without its folder field: the file and the field are named, no key is
        // guessed.
        let mut v = serde_json::to_value(index(&["runs/one"])).unwrap();
        let r = v["runs"][0].as_object_mut().unwrap();
        r.remove("dir");
        r.insert("path".into(), "runs/one".into());
        std::fs::write(s.join(SWEEP_INDEX_FILE), v.to_string()).unwrap();
        let e = expand(&[s.to_owned()]).unwrap_err().to_string();
        assert!(
            e.contains(&s.join(SWEEP_INDEX_FILE).display().to_string())
                && e.contains("missing field `dir`"),
            "{e}"
        );
        std::fs::write(s.join(SWEEP_INDEX_FILE), "{\"runs\": [").unwrap();
        let e = expand(&[s.to_owned()]).unwrap_err().to_string();
        assert!(
            e.contains("sweep.json") && e.contains("not a sweep index"),
            "{e}"
        );
        // A sweep.json that lists no runs yet: the subfolders are read.
        index(&[]).write(s).unwrap();
        let got = expand(&[s.to_owned()]).unwrap();
        assert_eq!(got.runs, [s.join("stray")]);
    }

    #[test]
    fn a_folder_that_is_neither_is_refused_with_its_path() {
        let t = tempfile::tempdir().unwrap();
        let e = expand(&[t.path().to_owned()]).unwrap_err().to_string();
        assert!(e.contains(&t.path().display().to_string()), "{e}");
        assert!(e.contains("neither a run folder"), "{e}");
        let e = expand(&[t.path().join("nope")]).unwrap_err().to_string();
        assert!(e.contains("not a folder"), "{e}");
    }

    #[test]
    fn oversized_or_special_files_are_refused_before_reading() {
        let t = tempfile::tempdir().unwrap();
        let r = t.path().join("r");
        run(&r);
        // A sparse file: a huge length costs no disk.
        std::fs::File::create(r.join(RESULTS_FILE))
            .unwrap()
            .set_len(MAX_RESULTS_BYTES + 1)
            .unwrap();
        let e = expand(std::slice::from_ref(&r)).unwrap_err().to_string();
        assert!(
            e.contains(nab_protocol::RESULTS_FILE) && e.contains("over the limit"),
            "{e}"
        );
        std::fs::remove_file(r.join(RESULTS_FILE)).unwrap();
        std::os::unix::fs::symlink("/dev/zero", r.join(RESULTS_FILE)).unwrap();
        let e = expand(std::slice::from_ref(&r)).unwrap_err().to_string();
        assert!(e.contains("not a regular file"), "{e}");
    }

    #[test]
    fn a_sweep_never_follows_a_linked_subfolder() {
        let t = tempfile::tempdir().unwrap();
        let elsewhere = t.path().join("elsewhere");
        run(&elsewhere);
        let s = t.path().join("sweep");
        run(&s.join("real"));
        std::os::unix::fs::symlink(&elsewhere, s.join("linked")).unwrap();
        assert_eq!(
            expand(std::slice::from_ref(&s)).unwrap().runs,
            [s.join("real")]
        );
    }
}
