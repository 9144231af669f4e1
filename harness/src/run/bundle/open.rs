//! Reading a bundle someone else wrote: it is untrusted input. It is unpacked within
//! limits (entries, bytes), only as plain files and folders under the target (no links, no
//! absolute paths, no `..`), and then every file is checked against the manifest, and the
//! manifest against itself: each run's records, its listed trials and the plan in its
//! run.json must agree, so a trial edited, added or taken out is named.

use nab_protocol::{
    BUNDLE_KIND, BUNDLE_MANIFEST_FILE, BUNDLE_VERSION, BundleManifest, FileDigest, RunFolder,
    TrialStatus,
};
use std::collections::{BTreeMap, BTreeSet};
use std::io::Read;
use std::path::{Component, Path, PathBuf};

/// What a bundle may hold at most.
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    pub entries: usize,
    /// All files together, unpacked.
    pub bytes: u64,
    /// One file (a transcript is capped at 64 MiB by the gateway that writes it).
    pub file_bytes: u64,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            entries: 500_000,
            bytes: 32 << 30,
            file_bytes: 1 << 30,
        }
    }
}

/// Why a bundle was refused.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum BundleError {
    #[error("cannot read the bundle {path}: {source}")]
    Io {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("{path} is not a nab bundle: {why}")]
    NotABundle { path: PathBuf, why: String },
    #[error("bundle {path}: entry `{entry}` {why}; a bundle holds plain files only")]
    BadEntry {
        path: PathBuf,
        entry: String,
        why: String,
    },
    #[error("bundle {path} is over its limit of {what}")]
    TooLarge { path: PathBuf, what: String },
    #[error("bundle {path} does not match its manifest (edited after it was written?):\n{}", .problems.join("\n"))]
    Tampered {
        path: PathBuf,
        problems: Vec<String>,
    },
}

/// Unpacks `bundle` into `into` (which must not exist yet) and checks it; returns its
/// manifest.
pub fn unpack(bundle: &Path, into: &Path, limits: Limits) -> Result<BundleManifest, BundleError> {
    let io = |source| BundleError::Io {
        path: bundle.to_owned(),
        source,
    };
    let file = std::fs::File::open(bundle).map_err(io)?;
    let decoder = zstd::stream::Decoder::new(file).map_err(io)?;
    let mut archive = tar::Archive::new(decoder);
    std::fs::create_dir_all(into).map_err(io)?;
    let (mut count, mut total) = (0usize, 0u64);
    let mut seen = BTreeSet::new();
    let entries = archive.entries().map_err(|e| not_a_bundle(bundle, e))?;
    for entry in entries {
        let mut entry = entry.map_err(|e| not_a_bundle(bundle, e))?;
        let name = entry
            .path()
            .map(|p| p.to_string_lossy().into_owned())
            .map_err(|e| not_a_bundle(bundle, e))?;
        let bad = |why: &str| BundleError::BadEntry {
            path: bundle.to_owned(),
            entry: name.clone(),
            why: why.to_owned(),
        };
        count += 1;
        if count > limits.entries {
            return Err(too_large(bundle, format!("{} entries", limits.entries)));
        }
        let kind = entry.header().entry_type();
        if kind.is_dir() {
            continue;
        }
        if kind != tar::EntryType::Regular {
            return Err(bad("is not a plain file (a link or a device)"));
        }
        let rel = safe_relative(&name).ok_or_else(|| bad("has a path outside the bundle"))?;
        if !seen.insert(rel.clone()) {
            return Err(bad("appears twice"));
        }
        let size = entry.header().size().map_err(|e| not_a_bundle(bundle, e))?;
        if size > limits.file_bytes {
            let what = format!("{} bytes in one file ({name})", limits.file_bytes);
            return Err(too_large(bundle, what));
        }
        total += size;
        if total > limits.bytes {
            return Err(too_large(
                bundle,
                format!("{} bytes unpacked", limits.bytes),
            ));
        }
        let target = into.join(&rel);
        if let Some(parent) = target.parent() {
            std::fs::create_dir_all(parent).map_err(io)?;
        }
        let mut out = std::fs::File::create(&target).map_err(io)?;
        // `take` holds the copy to the size the header gave, whatever the stream says.
        std::io::copy(&mut (&mut entry).take(size), &mut out).map_err(io)?;
    }
    let manifest = read_manifest(bundle, into)?;
    verify(bundle, into, &manifest, &seen)?;
    Ok(manifest)
}

fn not_a_bundle(path: &Path, e: impl std::fmt::Display) -> BundleError {
    BundleError::NotABundle {
        path: path.to_owned(),
        why: format!("not a zstd-compressed tar ({e})"),
    }
}

fn too_large(path: &Path, what: String) -> BundleError {
    BundleError::TooLarge {
        path: path.to_owned(),
        what,
    }
}

/// `name` as a path of plain components, or `None` (absolute, `..`, empty).
fn safe_relative(name: &str) -> Option<PathBuf> {
    let p = Path::new(name);
    let mut out = PathBuf::new();
    for c in p.components() {
        match c {
            Component::Normal(part) => out.push(part),
            Component::CurDir => {}
            _ => return None,
        }
    }
    (!out.as_os_str().is_empty()).then_some(out)
}

fn read_manifest(bundle: &Path, dir: &Path) -> Result<BundleManifest, BundleError> {
    let refuse = |why: String| BundleError::NotABundle {
        path: bundle.to_owned(),
        why,
    };
    let text = std::fs::read_to_string(dir.join(BUNDLE_MANIFEST_FILE))
        .map_err(|e| refuse(format!("no readable {BUNDLE_MANIFEST_FILE} ({e})")))?;
    let manifest: BundleManifest =
        serde_json::from_str(&text).map_err(|e| refuse(format!("{BUNDLE_MANIFEST_FILE}: {e}")))?;
    if manifest.kind != BUNDLE_KIND {
        return Err(refuse(format!(
            "its manifest's kind is `{}`",
            manifest.kind
        )));
    }
    if !(1..=BUNDLE_VERSION).contains(&manifest.v) {
        return Err(refuse(format!(
            "bundle version {} (this nab reads 1 to {BUNDLE_VERSION}; upgrade nab)",
            manifest.v
        )));
    }
    Ok(manifest)
}

/// Every file against the manifest's hashes, then each run's records against its listed
/// trials and its run.json plan. All problems at once.
fn verify(
    bundle: &Path,
    dir: &Path,
    manifest: &BundleManifest,
    present: &BTreeSet<PathBuf>,
) -> Result<(), BundleError> {
    let mut problems = Vec::new();
    for (rel, want) in &manifest.files {
        let Some(path) = safe_relative(rel) else {
            problems.push(format!("{rel}: a path outside the bundle"));
            continue;
        };
        // Hashed as a stream: a file may be up to `Limits::file_bytes`.
        let file = dir.join(&path);
        let found = std::fs::metadata(&file).map(|m| m.len()).and_then(|bytes| {
            Ok(FileDigest {
                bytes,
                sha256: crate::run::provenance::file_sha256(&file)?,
            })
        });
        match found {
            Err(_) => problems.push(format!("{rel}: listed in the manifest but absent")),
            Ok(d) if d != *want => problems.push(format!(
                "{rel}: its content differs from the manifest's hash"
            )),
            Ok(_) => {}
        }
    }
    let listed: BTreeSet<PathBuf> = manifest
        .files
        .keys()
        .filter_map(|r| safe_relative(r))
        .collect();
    for p in present {
        if p != Path::new(BUNDLE_MANIFEST_FILE) && !listed.contains(p) {
            problems.push(format!("{}: not in the manifest", p.display()));
        }
    }
    for run in &manifest.runs {
        problems.extend(run_problems(dir, run));
    }
    if problems.is_empty() {
        Ok(())
    } else {
        Err(BundleError::Tampered {
            path: bundle.to_owned(),
            problems,
        })
    }
}

/// Where a run's records, its manifest entry and its run.json plan disagree.
fn run_problems(dir: &Path, run: &nab_protocol::BundledRun) -> Vec<String> {
    let name = if run.dir.is_empty() {
        "the run".to_owned()
    } else {
        format!("run {}", run.dir)
    };
    let Some(root) = safe_relative(&run.dir)
        .map(|r| dir.join(r))
        .or_else(|| run.dir.is_empty().then(|| dir.to_owned()))
    else {
        return vec![format!("{name}: a folder outside the bundle")];
    };
    let folder = match RunFolder::open(&root) {
        Ok(f) => f,
        Err(e) => return vec![format!("{name}: {e}")],
    };
    let mut problems = Vec::new();
    let recorded: BTreeMap<(String, u32), TrialStatus> = folder
        .records
        .iter()
        .map(|r| ((r.task_id.clone(), r.trial), r.outcome.status))
        .collect();
    if recorded.len() != folder.records.len() {
        problems.push(format!("{name}: results.jsonl records a trial twice"));
    }
    let listed: BTreeMap<(String, u32), TrialStatus> = run
        .trials
        .iter()
        .map(|t| ((t.task.clone(), t.trial), t.status))
        .collect();
    for (key, status) in &listed {
        match recorded.get(key) {
            None => problems.push(format!(
                "{name}: trial {}/{} is in the manifest but has no record",
                key.0, key.1
            )),
            Some(s) if s != status => problems.push(format!(
                "{name}: trial {}/{} is recorded {} but the manifest says {}",
                key.0,
                key.1,
                s.as_str(),
                status.as_str()
            )),
            Some(_) => {}
        }
    }
    for key in recorded.keys().filter(|k| !listed.contains_key(*k)) {
        problems.push(format!(
            "{name}: trial {}/{} has a record but is not in the manifest",
            key.0, key.1
        ));
    }
    // The plan run.json states: every task it names, every trial of it.
    if let Some(n) = folder.meta.trials.filter(|_| folder.meta.shard.is_none()) {
        for task in &folder.meta.task_ids {
            for trial in 0..n {
                if !recorded.contains_key(&(task.clone(), trial)) {
                    problems.push(format!(
                        "{name}: trial {task}/{trial} is in the run's plan (run.json: {} task(s) × {n} trial(s)) but has no record",
                        folder.meta.task_ids.len()
                    ));
                }
            }
        }
    }
    problems
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bundle_of(files: &[(&str, usize)]) -> tempfile::NamedTempFile {
        let file = tempfile::NamedTempFile::new().unwrap();
        let enc = zstd::stream::Encoder::new(file.reopen().unwrap(), 1).unwrap();
        let mut tar = tar::Builder::new(enc.auto_finish());
        for (name, size) in files {
            super::super::append(&mut tar, name, &vec![b'x'; *size]).unwrap();
        }
        drop(tar.into_inner().unwrap());
        file
    }

    #[test]
    fn a_bundle_over_its_limits_is_refused_before_it_is_written_out() {
        let limits = Limits {
            entries: 3,
            bytes: 10_000,
            file_bytes: 4_000,
        };
        let out = tempfile::tempdir().unwrap();
        let big = bundle_of(&[("a", 5_000)]);
        let e = unpack(big.path(), &out.path().join("1"), limits).unwrap_err();
        assert!(e.to_string().contains("bytes in one file (a)"), "{e}");
        assert!(!out.path().join("1/a").exists());
        let many = bundle_of(&[("a", 1), ("b", 1), ("c", 1), ("d", 1)]);
        let e = unpack(many.path(), &out.path().join("2"), limits).unwrap_err();
        assert!(e.to_string().contains("3 entries"), "{e}");
        let total = bundle_of(&[("a", 3_500), ("b", 3_500), ("c", 3_500)]);
        let e = unpack(total.path(), &out.path().join("3"), limits).unwrap_err();
        assert!(e.to_string().contains("10000 bytes unpacked"), "{e}");
    }

    #[test]
    fn only_plain_relative_paths_are_taken() {
        assert_eq!(safe_relative("a/b.txt"), Some(PathBuf::from("a/b.txt")));
        assert_eq!(safe_relative("./a"), Some(PathBuf::from("a")));
        assert_eq!(safe_relative("../etc/passwd"), None);
        assert_eq!(safe_relative("/etc/passwd"), None);
        assert_eq!(safe_relative("a/../../b"), None);
        assert_eq!(safe_relative(""), None);
    }
}
