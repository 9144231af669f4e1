//! `sweep.json`, at the top of a sweep folder: the sweep file it ran (path and hash), and
//! its runs — each an ordinary run folder, named relative to the sweep folder — with their
//! agent, model and provider pool; at the end, what each provider's pace did.
//!
//! `nab leaderboard <sweep folder>` reads the `runs` array; `nab sweep --resume` reads the
//! hash and refuses a sweep file that changed.

use nab_protocol::ShardMeta;
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

pub const SWEEP_INDEX_FILE: &str = "sweep.json";
pub const SWEEP_INDEX_VERSION: u32 = 1;
/// The largest sweep.json read back.
const MAX_INDEX_BYTES: u64 = 4 << 20;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SweepIndex {
    pub v: u32,
    /// The sweep file as given on the command line.
    pub sweep_file: PathBuf,
    /// `sha256:<hex>` of the sweep file's bytes when the sweep started.
    pub sweep_hash: String,
    pub started_at: String,
    #[serde(default)]
    pub finished_at: Option<String>,
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

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct IndexRun {
    /// The run folder, relative to the sweep folder.
    pub dir: String,
    pub agent: String,
    #[serde(default)]
    pub model: Option<String>,
    /// The provider pool (a `providers:` key, or the model itself).
    #[serde(default)]
    pub provider: Option<String>,
}

/// What a provider's pace did during the last invocation of the sweep.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct IndexProvider {
    pub name: String,
    /// Model requests sent.
    pub requests: u64,
    /// Answers that asked to slow down (429, 503, 529).
    pub slowed: u64,
    /// Time requests waited for their turn (rpm pacing and cool-downs), added up.
    pub waited_ms: u64,
}

#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum IndexError {
    #[error("{}: {message}", .path.display())]
    Read { path: PathBuf, message: String },
    #[error(transparent)]
    Write(#[from] nab_protocol::WriteError),
    #[error(
        "{} changed since the sweep in {} started ({then} then, {now} now); resume with the file it started with, or start a new sweep with another --out",
        .file.display(), .out.display()
    )]
    Changed {
        file: PathBuf,
        out: PathBuf,
        then: String,
        now: String,
    },
    #[error(
        "{} already holds a sweep ({SWEEP_INDEX_FILE}); continue it with --resume, or choose another --out",
        .0.display()
    )]
    Exists(PathBuf),
    #[error("{} holds no {SWEEP_INDEX_FILE}: nothing to resume; run without --resume", .0.display())]
    Missing(PathBuf),
    #[error(
        "{} is {then}; resume it with the same --shard, --group and --balance-from it started with (now: {now})",
        .out.display()
    )]
    OtherShard {
        out: PathBuf,
        then: String,
        now: String,
    },
}

/// How a sweep folder's sharding reads in messages.
fn sharding_text(shard: Option<&ShardMeta>, group: Option<&str>) -> String {
    match (shard, group) {
        (Some(s), g) => format!(
            "shard {}/{} of group {} (plan {})",
            s.index,
            s.count,
            g.unwrap_or("none"),
            s.plan
        ),
        (None, _) => "not a shard".into(),
    }
}

impl SweepIndex {
    pub fn path(out: &Path) -> PathBuf {
        out.join(SWEEP_INDEX_FILE)
    }

    /// Reads `<out>/sweep.json`; `Ok(None)` when there is none.
    pub fn read(out: &Path) -> Result<Option<SweepIndex>, IndexError> {
        let path = Self::path(out);
        let err = |message: String| IndexError::Read {
            path: path.clone(),
            message,
        };
        let meta = match std::fs::symlink_metadata(&path) {
            Ok(m) => m,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(e) => return Err(err(e.to_string())),
        };
        if !meta.is_file() || meta.len() > MAX_INDEX_BYTES {
            return Err(err(format!(
                "not a regular file of at most {MAX_INDEX_BYTES} bytes"
            )));
        }
        let text = std::fs::read_to_string(&path).map_err(|e| err(e.to_string()))?;
        let index: SweepIndex = serde_json::from_str(&text).map_err(|e| err(e.to_string()))?;
        if index.v != SWEEP_INDEX_VERSION {
            return Err(err(format!(
                "version {} (this nab reads {SWEEP_INDEX_VERSION})",
                index.v
            )));
        }
        Ok(Some(index))
    }

    /// Writes `<out>/sweep.json` atomically.
    pub fn write(&self, out: &Path) -> Result<(), IndexError> {
        let mut text = serde_json::to_string_pretty(self).map_err(|e| IndexError::Read {
            path: Self::path(out),
            message: e.to_string(),
        })?;
        text.push('\n');
        nab_protocol::write_atomic(&Self::path(out), text.as_bytes()).map_err(IndexError::from)
    }

    /// The index a sweep starts from: a new one (refused when `out` already holds a sweep),
    /// or on `--resume` the one in `out`, whose hash must be `hash` (the file is unchanged).
    pub fn begin(
        out: &Path,
        file: &Path,
        hash: &str,
        runs: Vec<IndexRun>,
        resume: bool,
    ) -> Result<SweepIndex, IndexError> {
        let before = Self::read(out)?;
        match (before, resume) {
            (Some(_), false) => Err(IndexError::Exists(out.to_owned())),
            (None, true) => Err(IndexError::Missing(out.to_owned())),
            (Some(b), true) if b.sweep_hash != hash => Err(IndexError::Changed {
                file: file.to_owned(),
                out: out.to_owned(),
                then: b.sweep_hash,
                now: hash.to_owned(),
            }),
            (Some(b), true) => Ok(SweepIndex {
                finished_at: None,
                runs,
                ..b
            }),
            (None, false) => Ok(SweepIndex {
                v: SWEEP_INDEX_VERSION,
                sweep_file: file.to_owned(),
                sweep_hash: hash.to_owned(),
                started_at: nab_protocol::now_rfc3339(),
                finished_at: None,
                runs,
                providers: Vec::new(),
                shard: None,
                group: None,
                merged_from: Vec::new(),
            }),
        }
    }

    /// Records `--shard`/`--group` in a new index; a resumed one must have started with
    /// the same (a shard resumed as another would mix two plans in one folder).
    pub fn check_sharding(
        &mut self,
        out: &Path,
        resume: bool,
        shard: Option<&ShardMeta>,
        group: Option<&str>,
    ) -> Result<(), IndexError> {
        if resume && (self.shard.as_ref() != shard || self.group.as_deref() != group) {
            return Err(IndexError::OtherShard {
                out: out.to_owned(),
                then: sharding_text(self.shard.as_ref(), self.group.as_deref()),
                now: sharding_text(shard, group),
            });
        }
        self.shard = shard.cloned();
        self.group = group.map(str::to_owned);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn runs() -> Vec<IndexRun> {
        vec![IndexRun {
            dir: "01-nab-agent--scripted-task".into(),
            agent: "nab-agent".into(),
            model: Some("scripted:task".into()),
            provider: Some("scripted:task".into()),
        }]
    }

    #[test]
    fn begin_refuses_a_second_start_a_missing_resume_and_a_changed_file() {
        let d = tempfile::tempdir().unwrap();
        let f = Path::new("s.yaml");
        let err = SweepIndex::begin(d.path(), f, "sha256:a", runs(), true).unwrap_err();
        assert!(matches!(err, IndexError::Missing(_)), "{err}");
        let i = SweepIndex::begin(d.path(), f, "sha256:a", runs(), false).unwrap();
        i.write(d.path()).unwrap();
        let err = SweepIndex::begin(d.path(), f, "sha256:a", runs(), false).unwrap_err();
        assert!(err.to_string().contains("--resume"), "{err}");
        let err = SweepIndex::begin(d.path(), f, "sha256:b", runs(), true).unwrap_err();
        let msg = err.to_string();
        assert!(
            msg.contains("s.yaml changed") && msg.contains("sha256:a then, sha256:b now"),
            "{msg}"
        );
        let again = SweepIndex::begin(d.path(), f, "sha256:a", runs(), true).unwrap();
        assert_eq!(again.started_at, i.started_at);
        // The leaderboard's reader finds the runs by their `dir`.
        let v: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(SweepIndex::path(d.path())).unwrap())
                .unwrap();
        assert_eq!(v["runs"][0]["dir"], "01-nab-agent--scripted-task");
    }

    #[test]
    fn a_linked_or_huge_index_is_refused() {
        let d = tempfile::tempdir().unwrap();
        std::os::unix::fs::symlink("/dev/zero", SweepIndex::path(d.path())).unwrap();
        let err = SweepIndex::read(d.path()).unwrap_err().to_string();
        assert!(err.contains("not a regular file"), "{err}");
    }
}
