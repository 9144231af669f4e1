//! `sweep.json`, at the top of a sweep folder: the sweep file it ran (path and hash), and
//! its runs — each an ordinary run folder, named relative to the sweep folder by `dir` —
//! with their agent, model and provider pool; at the end, what each provider's pace did.
//!
//! Written by `nab sweep` and `nab merge`; read back by `nab sweep --resume` (the hash),
//! `nab merge` (the shards) and `nab leaderboard <sweep folder>` (the `runs` array). One
//! type, one file name, one reader for all of them.

use crate::run::ShardMeta;
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// The sweep folder's index file.
pub const SWEEP_INDEX_FILE: &str = "sweep.json";
/// The `sweep.json` version this crate writes and reads.
pub const SWEEP_INDEX_VERSION: u32 = 1;
/// The largest sweep.json read back.
pub const MAX_SWEEP_INDEX_BYTES: u64 = 4 << 20;

/// `sweep.json`: a sweep folder's runs and the sweep file they came from.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SweepIndex {
    /// The format version ([`SWEEP_INDEX_VERSION`]).
    pub v: u32,
    /// The sweep file as given on the command line.
    pub sweep_file: PathBuf,
    /// `sha256:<hex>` of the sweep file's bytes when the sweep started.
    pub sweep_hash: String,
    /// When the sweep started (RFC 3339).
    pub started_at: String,
    /// When it stopped, once it has.
    #[serde(default)]
    pub finished_at: Option<String>,
    /// The sweep's runs, in plan order.
    pub runs: Vec<IndexRun>,
    /// Filled in when the sweep stops: one entry per provider pool.
    #[serde(default)]
    pub providers: Vec<IndexProvider>,
    /// `--shard K/N`: which share of every run this sweep folder holds (each run folder's
    /// run.json records it too); `nab merge` joins the shards' folders.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shard: Option<ShardMeta>,
    /// `--group ID`, shared by the shards of one sweep.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub group: Option<String>,
    /// Set by `nab merge`: the shard sweep folders this one was merged from.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub merged_from: Vec<PathBuf>,
}

/// One run of a sweep.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct IndexRun {
    /// The run folder, relative to the sweep folder.
    pub dir: String,
    /// The agent spec.
    pub agent: String,
    /// The model spec, when the agent takes one.
    #[serde(default)]
    pub model: Option<String>,
    /// The provider pool (a `providers:` key, or the model itself).
    #[serde(default)]
    pub provider: Option<String>,
}

/// What a provider's pace did during the last invocation of the sweep.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct IndexProvider {
    /// The pool's name.
    pub name: String,
    /// Model requests sent.
    pub requests: u64,
    /// Answers that asked to slow down (429, 503, 529).
    pub slowed: u64,
    /// Time requests waited for their turn (rpm pacing and cool-downs), added up.
    pub waited_ms: u64,
}

/// Why a `sweep.json` could not be read or written.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum SweepIndexError {
    /// The file exists but is not a sweep.json this build reads: not a regular file, too
    /// large, not JSON, a field missing or of the wrong type (serde's message names the
    /// field), or another version.
    #[error("{}: {message}", .path.display())]
    Read {
        /// The sweep.json.
        path: PathBuf,
        /// What is wrong with it.
        message: String,
    },
    /// Writing it failed.
    #[error(transparent)]
    Write(#[from] crate::files::WriteError),
}

impl SweepIndex {
    /// `<dir>/sweep.json`.
    pub fn path(dir: &Path) -> PathBuf {
        dir.join(SWEEP_INDEX_FILE)
    }

    /// Reads `<dir>/sweep.json`; `Ok(None)` when there is none. A link, a special file or
    /// one over [`MAX_SWEEP_INDEX_BYTES`] is refused before reading.
    pub fn read(dir: &Path) -> Result<Option<SweepIndex>, SweepIndexError> {
        let path = Self::path(dir);
        let err = |message: String| SweepIndexError::Read {
            path: path.clone(),
            message,
        };
        let meta = match std::fs::symlink_metadata(&path) {
            Ok(m) => m,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(e) => return Err(err(e.to_string())),
        };
        if !meta.is_file() || meta.len() > MAX_SWEEP_INDEX_BYTES {
            return Err(err(format!(
                "not a regular file of at most {MAX_SWEEP_INDEX_BYTES} bytes"
            )));
        }
        let text = std::fs::read_to_string(&path).map_err(|e| err(e.to_string()))?;
        Self::parse(&text).map(Some).map_err(err)
    }

    /// Parses the text of a sweep.json; the error names the field serde found wrong.
    pub fn parse(text: &str) -> Result<SweepIndex, String> {
        let index: SweepIndex =
            serde_json::from_str(text).map_err(|e| format!("not a sweep index: {e}"))?;
        if index.v != SWEEP_INDEX_VERSION {
            return Err(format!(
                "version {} (this nab reads {SWEEP_INDEX_VERSION})",
                index.v
            ));
        }
        Ok(index)
    }

    /// Writes `<dir>/sweep.json` atomically (pretty, with a final newline).
    pub fn write(&self, dir: &Path) -> Result<(), SweepIndexError> {
        let mut text = serde_json::to_string_pretty(self).map_err(|e| SweepIndexError::Read {
            path: Self::path(dir),
            message: e.to_string(),
        })?;
        text.push('\n');
        crate::files::write_atomic(&Self::path(dir), text.as_bytes())?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn index() -> SweepIndex {
        SweepIndex {
            v: SWEEP_INDEX_VERSION,
            sweep_file: "s.yaml".into(),
            sweep_hash: "sha256:a".into(),
            started_at: "2026-12-01T03:00:00.000Z".into(),
            finished_at: None,
            runs: vec![IndexRun {
                dir: "01-nab-agent--scripted-task".into(),
                agent: "nab-agent".into(),
                model: Some("scripted:task".into()),
                provider: Some("scripted:task".into()),
            }],
            providers: Vec::new(),
            shard: None,
            group: None,
            merged_from: Vec::new(),
        }
    }

    #[test]
    fn it_round_trips_and_names_each_run_by_dir() {
        let d = tempfile::tempdir().unwrap();
        index().write(d.path()).unwrap();
        let text = std::fs::read_to_string(SweepIndex::path(d.path())).unwrap();
        assert!(
            text.contains(r#""dir": "01-nab-agent--scripted-task""#),
            "{text}"
        );
        assert_eq!(SweepIndex::read(d.path()).unwrap(), Some(index()));
        assert_eq!(SweepIndex::read(&d.path().join("none")).unwrap(), None);
    }

    #[test]
    fn a_run_without_its_folder_is_refused_naming_the_file_and_the_field() {
        let d = tempfile::tempdir().unwrap();
        let mut v = serde_json::to_value(index()).unwrap();
        v["runs"][0].as_object_mut().unwrap().remove("dir");
        std::fs::write(SweepIndex::path(d.path()), v.to_string()).unwrap();
        let err = SweepIndex::read(d.path()).unwrap_err().to_string();
        assert!(
            err.contains(SWEEP_INDEX_FILE) && err.contains("missing field `dir`"),
            "{err}"
        );
    }

    #[test]
    fn a_linked_or_other_version_index_is_refused() {
        let d = tempfile::tempdir().unwrap();
        let mut i = index();
        i.v = 2;
        i.write(d.path()).unwrap();
        let err = SweepIndex::read(d.path()).unwrap_err().to_string();
        assert!(err.contains("version 2"), "{err}");
        std::fs::remove_file(SweepIndex::path(d.path())).unwrap();
        std::os::unix::fs::symlink("/dev/zero", SweepIndex::path(d.path())).unwrap();
        let err = SweepIndex::read(d.path()).unwrap_err().to_string();
        assert!(err.contains("not a regular file"), "{err}");
    }
}
