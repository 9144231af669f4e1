//! `nab bundle`: a run or sweep folder as one zstd-compressed tar with `manifest.json`
//! (see `nab_protocol::BundleManifest`), ready to publish; `open` reads one back.
//!
//! Every file of the folder goes in (records, reports, logs, diffs, events, and each
//! trial's `transcript.jsonl`, which is that trial's model answers: `nab regrade` plays it
//! back as the trial's cassette). Secret-looking text is redacted first, and the manifest
//! hashes what is actually written.

pub mod open;
pub mod redact;
pub mod regradable;

use nab_protocol::{
    BUNDLE_KIND, BUNDLE_MANIFEST_FILE, BUNDLE_VERSION, BundleManifest, BundledRun, BundledTrial,
    FileDigest, RunFolder, SweepIndex,
};
use redact::Redactor;
use sha2::{Digest, Sha256};
use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};

/// What `nab bundle` was asked.
#[derive(Debug, Default)]
pub struct BundleOptions {
    /// The suite, to hash each task (default: the folder run.json records, else ./tasks).
    pub tasks: Option<PathBuf>,
    /// More variables whose values are keys (beside `NAB_API_KEY` and its kin).
    pub key_variables: Vec<String>,
}

/// What was written.
#[derive(Debug)]
pub struct Written {
    pub manifest: BundleManifest,
    /// The bundle's size on disk.
    pub bytes: u64,
    /// The files' size before compression.
    pub raw_bytes: u64,
}

/// Writes the bundle of `source` (a run folder or a sweep folder) to `out`.
pub fn write(source: &Path, out: &Path, opts: &BundleOptions) -> anyhow::Result<Written> {
    let sweep = SweepIndex::read(source)?;
    let run_dirs: Vec<String> = match &sweep {
        Some(index) => index.runs.iter().map(|r| r.dir.clone()).collect(),
        None => vec![String::new()],
    };
    let redactor = Redactor::from_env(&opts.key_variables);
    let files = collect_files(source, out)?;
    // Written beside `out` and renamed: a reader never sees half a bundle.
    let parent = out.parent().filter(|p| !p.as_os_str().is_empty());
    let staging = tempfile::NamedTempFile::new_in(parent.unwrap_or(Path::new(".")))?;
    let mut tar =
        tar::Builder::new(zstd::stream::Encoder::new(staging.reopen()?, 9)?.auto_finish());
    let mut digests = BTreeMap::new();
    let mut redactions = BTreeMap::new();
    let mut raw_bytes = 0u64;
    for rel in &files {
        let bytes = std::fs::read(source.join(rel))?;
        let bytes = match String::from_utf8(bytes) {
            Ok(text) => {
                let (clean, n) = redactor.apply(&text);
                if n > 0 {
                    redactions.insert(rel.clone(), n);
                }
                clean.into_bytes()
            }
            Err(e) => e.into_bytes(),
        };
        raw_bytes += bytes.len() as u64;
        digests.insert(rel.clone(), digest(&bytes));
        append(&mut tar, rel, &bytes)?;
    }
    let mut runs = Vec::new();
    for dir in &run_dirs {
        runs.push(bundled_run(source, dir, &redactions, opts)?);
    }
    let manifest = BundleManifest {
        v: BUNDLE_VERSION,
        kind: BUNDLE_KIND.to_owned(),
        created_at: nab_protocol::now_rfc3339(),
        nab_version: env!("CARGO_PKG_VERSION").to_owned(),
        sweep: sweep.is_some(),
        runs,
        files: digests,
        redactions,
    };
    let text = serde_json::to_vec_pretty(&manifest)?;
    append(&mut tar, BUNDLE_MANIFEST_FILE, &text)?;
    tar.into_inner()?.flush()?;
    // A bundle is made to be published: readable by everyone (a temporary file is 0600).
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(staging.path(), std::fs::Permissions::from_mode(0o644))?;
    }
    staging
        .persist(out)
        .map_err(|e| anyhow::anyhow!("cannot write {}: {}", out.display(), e.error))?;
    Ok(Written {
        manifest,
        bytes: std::fs::metadata(out)?.len(),
        raw_bytes,
    })
}

/// `sha256:<hex>` and size of `bytes`.
pub fn digest(bytes: &[u8]) -> FileDigest {
    FileDigest {
        bytes: bytes.len() as u64,
        sha256: format!("sha256:{}", hex::encode(Sha256::digest(bytes))),
    }
}

fn append<W: Write>(tar: &mut tar::Builder<W>, path: &str, bytes: &[u8]) -> std::io::Result<()> {
    let mut header = tar::Header::new_gnu();
    header.set_size(bytes.len() as u64);
    header.set_mode(0o644);
    header.set_mtime(0);
    header.set_entry_type(tar::EntryType::Regular);
    tar.append_data(&mut header, path, bytes)
}

/// Every regular file under `source`, as `/`-separated relative paths in a stable order.
/// Links are not followed or taken; `out` itself, a manifest already there and earlier
/// regrade outcomes are left out.
fn collect_files(source: &Path, out: &Path) -> anyhow::Result<Vec<String>> {
    let out = out.canonicalize().ok();
    let mut files = Vec::new();
    for entry in walkdir::WalkDir::new(source)
        .follow_links(false)
        .sort_by_file_name()
    {
        let entry = entry?;
        if !entry.file_type().is_file() {
            continue;
        }
        if out.is_some() && entry.path().canonicalize().ok() == out {
            continue;
        }
        let rel = entry.path().strip_prefix(source)?;
        let Some(rel) = rel.to_str() else {
            anyhow::bail!(
                "{}: a file name that is not UTF-8 cannot go into a bundle",
                entry.path().display()
            );
        };
        if rel == BUNDLE_MANIFEST_FILE || rel.ends_with(".regrade.json") {
            continue;
        }
        files.push(rel.to_owned());
    }
    Ok(files)
}

/// The manifest's entry for the run in `<source>/<dir>`.
fn bundled_run(
    source: &Path,
    dir: &str,
    redactions: &BTreeMap<String, u64>,
    opts: &BundleOptions,
) -> anyhow::Result<BundledRun> {
    let root = source.join(dir);
    let folder = RunFolder::open(&root)?;
    let mut trials = Vec::new();
    for record in &folder.records {
        let trial_dir = folder.trial_dir(record)?;
        let rel = trial_dir
            .transcript()
            .strip_prefix(source)
            .map(|p| p.to_string_lossy().into_owned())
            .unwrap_or_default();
        let redacted = redactions.contains_key(&rel);
        trials.push(BundledTrial {
            task: record.task_id.clone(),
            trial: record.trial,
            status: record.outcome.status,
            not_regradable: regradable::why_not(record, trial_dir.path(), redacted),
        });
    }
    Ok(BundledRun {
        dir: dir.to_owned(),
        run_id: folder.meta.run_id.clone(),
        agent: folder.meta.agent.clone(),
        model: folder.meta.model.clone(),
        tasks_hash: folder.meta.tasks_hash.clone(),
        task_hashes: task_hashes(&folder, &root, opts.tasks.as_deref()),
        provenance: folder.meta.provenance.clone(),
        trials,
    })
}

/// Each task's own hash, when the run's suite is found here; empty otherwise (the bundle
/// is still whole: the suite's hash is in run.json).
fn task_hashes(folder: &RunFolder, root: &Path, tasks: Option<&Path>) -> BTreeMap<String, String> {
    let Ok(dir) = nab_protocol::resolve_tasks_dir(&folder.meta, root, tasks) else {
        return BTreeMap::new();
    };
    folder
        .meta
        .task_ids
        .iter()
        .filter_map(|id| {
            let h = nab_protocol::suite_hash(&dir, std::slice::from_ref(id)).ok()?;
            Some((id.clone(), h))
        })
        .collect()
}
