//! Which folders under DIR are runs and sweeps. The tree may hold anything (a copied or
//! downloaded folder of runs), so the walk is bounded in depth, in folders read and in runs
//! found, never follows a symbolic link, and passes over what it cannot read with a note
//! rather than failing the whole index.

use nab_protocol::{RESULTS_FILE, SWEEP_INDEX_FILE};
use std::path::{Path, PathBuf};

/// Folder levels below DIR searched (`runs/<group>/<sweep>/<run>` is 3).
pub const MAX_DEPTH: usize = 4;
/// Runs indexed; a folder with more is cut with a note (the page must stay usable).
pub const MAX_RUNS: usize = 1000;
/// Folders read in all, so a huge unrelated tree cannot stall the walk.
pub const MAX_FOLDERS: usize = 20_000;

/// A run folder found, relative to DIR (empty when DIR is the run itself).
#[derive(Debug, Clone, PartialEq)]
pub struct FoundRun {
    pub rel: PathBuf,
    /// Index into [`Found::sweeps`] of the innermost sweep folder holding it.
    pub sweep: Option<usize>,
}

/// What the walk found, in name order, and what it passed over.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Found {
    pub runs: Vec<FoundRun>,
    /// Sweep folders (holding sweep.json), relative to DIR.
    pub sweeps: Vec<PathBuf>,
    pub notes: Vec<String>,
    folders_read: usize,
    /// [`MAX_RUNS`] was reached (and said in a note).
    full: bool,
}

/// Walks `root` (which must be a folder) for run and sweep folders.
pub fn walk(root: &Path) -> Found {
    let mut found = Found::default();
    visit(root, Path::new(""), 0, None, &mut found);
    found
}

fn holds(dir: &Path, name: &str) -> bool {
    std::fs::symlink_metadata(dir.join(name)).is_ok()
}

fn visit(root: &Path, rel: &Path, depth: usize, sweep: Option<usize>, found: &mut Found) {
    let dir = root.join(rel);
    // A run folder holds no runs: its trials/ tree is not searched.
    if holds(&dir, RESULTS_FILE) {
        if found.runs.len() < MAX_RUNS {
            found.runs.push(FoundRun {
                rel: rel.to_owned(),
                sweep,
            });
        } else if !found.full {
            found.full = true;
            found.notes.push(format!(
                "more than {MAX_RUNS} runs: the index lists the first {MAX_RUNS} in name order; run `nab view` on a subfolder for the others"
            ));
        }
        return;
    }
    let sweep = if holds(&dir, SWEEP_INDEX_FILE) {
        found.sweeps.push(rel.to_owned());
        Some(found.sweeps.len() - 1)
    } else {
        sweep
    };
    if depth >= MAX_DEPTH {
        return;
    }
    for name in subfolders(&dir, found) {
        if found.full {
            return;
        }
        visit(root, &rel.join(name), depth + 1, sweep, found);
    }
}

/// The subfolders of `dir` that may hold runs: real folders (not links), not hidden, with
/// a UTF-8 name (it goes into links and commands), in name order.
fn subfolders(dir: &Path, found: &mut Found) -> Vec<String> {
    if found.folders_read >= MAX_FOLDERS {
        if found.folders_read == MAX_FOLDERS {
            found.notes.push(format!(
                "more than {MAX_FOLDERS} folders under the index's folder: the rest were not searched"
            ));
            // Past the bound: the note is written once.
            found.folders_read += 1;
        }
        return Vec::new();
    }
    found.folders_read += 1;
    let entries = match std::fs::read_dir(dir) {
        Ok(e) => e,
        Err(e) => {
            found
                .notes
                .push(format!("{}: cannot be read ({e}), left out", dir.display()));
            return Vec::new();
        }
    };
    let mut names = Vec::new();
    for entry in entries.flatten() {
        // DirEntry::file_type does not follow a link: a linked folder is not a folder here.
        if !entry.file_type().map(|t| t.is_dir()).unwrap_or(false) {
            continue;
        }
        match entry.file_name().into_string() {
            Ok(name) if name.starts_with('.') => {}
            Ok(name) => names.push(name),
            Err(raw) => found.notes.push(format!(
                "{}: a folder name that is not UTF-8, left out",
                dir.join(raw).display()
            )),
        }
    }
    names.sort();
    names
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(dir: &Path) {
        std::fs::create_dir_all(dir).unwrap();
        std::fs::write(dir.join(RESULTS_FILE), "").unwrap();
    }

    #[test]
    fn runs_and_sweeps_are_found_in_name_order_with_their_sweep() {
        let t = tempfile::tempdir().unwrap();
        let r = t.path();
        run(&r.join("b-run"));
        run(&r.join("a-sweep/m2"));
        run(&r.join("a-sweep/m1"));
        std::fs::write(r.join("a-sweep").join(SWEEP_INDEX_FILE), "{}").unwrap();
        // A run's own trials folder is not searched, nor a hidden folder.
        run(&r.join("b-run/trials/t/0"));
        run(&r.join(".cache/x"));
        let f = walk(r);
        let rels: Vec<_> = f.runs.iter().map(|x| x.rel.clone()).collect();
        assert_eq!(
            rels,
            [
                PathBuf::from("a-sweep/m1"),
                "a-sweep/m2".into(),
                "b-run".into()
            ]
        );
        assert_eq!(f.sweeps, [PathBuf::from("a-sweep")]);
        assert_eq!(f.runs[0].sweep, Some(0));
        assert_eq!(f.runs[2].sweep, None);
        assert!(f.notes.is_empty(), "{:?}", f.notes);
    }

    #[test]
    fn links_and_folders_deeper_than_the_bound_are_not_followed() {
        let t = tempfile::tempdir().unwrap();
        let elsewhere = t.path().join("elsewhere");
        run(&elsewhere);
        let r = t.path().join("root");
        run(&r.join("real"));
        std::os::unix::fs::symlink(&elsewhere, r.join("linked")).unwrap();
        let deep: PathBuf = (0..MAX_DEPTH + 1).map(|i| format!("d{i}")).collect();
        run(&r.join(deep));
        let f = walk(&r);
        let rels: Vec<_> = f.runs.iter().map(|x| x.rel.clone()).collect();
        assert_eq!(rels, [PathBuf::from("real")]);
    }

    #[test]
    fn the_root_itself_can_be_a_run() {
        let t = tempfile::tempdir().unwrap();
        run(t.path());
        let f = walk(t.path());
        assert_eq!(f.runs.len(), 1);
        assert_eq!(f.runs[0].rel, PathBuf::new());
    }
}
