//! `run.json`: what a run was (agent, model, tasks folder). Written by the runner at the
//! start of `nab run`; every field is optional on read so older or foreign runs still load.

use super::error::RunFolderError;
use super::layout::RUN_META_FILE;
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// The `run.json` version this crate writes. Readers accept `1..=RUN_META_VERSION`.
pub const RUN_META_VERSION: u32 = 1;

/// `run.json`: what a run was. Every field but `v` may be absent.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct RunMeta {
    /// The format version.
    #[serde(default = "v1")]
    pub v: u32,
    /// The run's id (also in each trial record).
    #[serde(default)]
    pub run_id: Option<String>,
    /// The agent spec (`nab-agent`, `command:…`).
    #[serde(default)]
    pub agent: Option<String>,
    /// The model spec, secrets removed.
    #[serde(default)]
    pub model: Option<String>,
    /// The tasks folder of the run; the report reads `<tasks_dir>/<id>/instruction.md`.
    /// Relative paths are taken from the run directory.
    #[serde(default)]
    pub tasks_dir: Option<PathBuf>,
    /// The suite's identity ([`suite_hash`](super::suite_hash) over `task_ids`), so a copied run
    /// folder can check the tasks it is given (absent in runs before it was recorded).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tasks_hash: Option<String>,
    /// Each task's own hash ([`task_hashes`](super::task_hashes)), so runs of different
    /// subsets of one suite can be compared on the tasks they share (absent in older runs).
    #[serde(default, skip_serializing_if = "std::collections::BTreeMap::is_empty")]
    pub task_hashes: std::collections::BTreeMap<String, String>,
    /// A short name for the run on leaderboards and pages (a sweep file's `aliases:`);
    /// absent: `agent · model`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub label: Option<String>,
    /// The tasks the run used, in the order it ran them.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub task_ids: Vec<String>,
    /// Trials requested per task.
    #[serde(default)]
    pub trials: Option<u32>,
    /// When the run started (RFC 3339, UTC).
    #[serde(default)]
    pub started_at: Option<String>,
    /// When the run finished (RFC 3339, UTC); absent while it runs.
    #[serde(default)]
    pub finished_at: Option<String>,
    /// The `nab` version that ran it.
    #[serde(default)]
    pub nab_version: Option<String>,
    /// The command line, for the report's header.
    #[serde(default)]
    pub command: Option<String>,
    /// `nab run --shard K/N`: this run holds one share of a larger run's (task, trial)
    /// pairs; `nab merge` joins the shares.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shard: Option<ShardMeta>,
    /// `--group ID`: the id every shard of one sharded run carries, so `nab merge` can
    /// tell the shares of one run from another's. A merged run keeps it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub group: Option<String>,
    /// Set by `nab merge`: the shards this run was joined from, in shard order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub merged_from: Vec<MergedShard>,
    /// What the run was set up with beyond its specs: the agent's build, the images, the
    /// test set and the price, so a bundle of it can be checked (`nab bundle`, `nab regrade`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub provenance: Option<RunProvenance>,
}

/// The set-up of a run that its specs do not name.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct RunProvenance {
    /// The nab-agent binary mounted into the sandbox: its version and SHA-256.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub agent_build: Option<AgentBuild>,
    /// The base image's tag (it names its recipe's hash).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub base_image: Option<String>,
    /// Each task that has an image of its own: its tag (which names the recipe's hash).
    #[serde(default, skip_serializing_if = "std::collections::BTreeMap::is_empty")]
    pub task_images: std::collections::BTreeMap<String, String>,
    /// `sha256:<hex>` of the suite's `tests.lock` (the pinned hidden-test set), when it has one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tests_lock: Option<String>,
    /// USD per million tokens the run priced its model at (`--prices`): input, cached
    /// input, cache write, output.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub price_per_mtok: Option<[f64; 4]>,
}

/// Which nab-agent ran.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct AgentBuild {
    /// The version it reports (`nab-agent --version`'s number).
    pub version: String,
    /// `sha256:<hex>` of the binary.
    pub sha256: String,
}

/// Which share of a sharded run a run folder holds.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ShardMeta {
    /// 1-based: shard `index` of `count`.
    pub index: u32,
    /// How many shards the run was cut into.
    pub count: u32,
    /// What the pairs were balanced by: `timeouts`, or `run:<sha256>` (the durations of
    /// an earlier run, by content).
    pub balance: String,
    /// `sha256:<hex>` of the whole assignment of pairs to shards. Shards cut from the same
    /// suite, trials, count and balance have the same plan, so their shares are disjoint
    /// and together cover every pair.
    pub plan: String,
}

/// One shard that `nab merge` joined.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct MergedShard {
    /// The shard run's id.
    #[serde(default)]
    pub run_id: Option<String>,
    /// Which share it held.
    #[serde(default)]
    pub shard: Option<ShardMeta>,
    /// Trial records taken from it.
    pub trials: usize,
}

fn v1() -> u32 {
    RUN_META_VERSION
}

impl RunMeta {
    /// Reads `<run>/run.json`; a missing file is an empty `RunMeta`.
    pub fn read(run_dir: &Path) -> Result<RunMeta, RunFolderError> {
        let path = run_dir.join(RUN_META_FILE);
        let text = match std::fs::read_to_string(&path) {
            Ok(t) => t,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(RunMeta::default()),
            Err(source) => return Err(RunFolderError::Read { path, source }),
        };
        let meta: RunMeta = serde_json::from_str(&text).map_err(|e| RunFolderError::Meta {
            path: path.clone(),
            message: e.to_string(),
        })?;
        if meta.v > RUN_META_VERSION {
            return Err(RunFolderError::Meta {
                path,
                message: format!(
                    "version {} is not supported (this build reads 1..={RUN_META_VERSION}); upgrade nab",
                    meta.v
                ),
            });
        }
        Ok(meta)
    }

    /// Writes `<run>/run.json` (pretty, with a trailing newline), atomically.
    pub fn write(&self, run_dir: &Path) -> Result<(), RunFolderError> {
        Ok(crate::files::write_json_atomic(
            &run_dir.join(RUN_META_FILE),
            self,
        )?)
    }

    /// The tasks folder resolved against the run directory.
    pub fn tasks_dir_in(&self, run_dir: &Path) -> Option<PathBuf> {
        self.tasks_dir.as_ref().map(|t| {
            if t.is_absolute() {
                t.clone()
            } else {
                run_dir.join(t)
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn run_json_round_trips_and_a_newer_version_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        assert_eq!(RunMeta::read(dir.path()).unwrap(), RunMeta::default());
        let meta = RunMeta {
            run_id: Some("r1".into()),
            tasks_dir: Some("../tasks".into()),
            ..RunMeta::default()
        };
        meta.write(dir.path()).unwrap();
        assert_eq!(RunMeta::read(dir.path()).unwrap(), meta);
        assert_eq!(
            meta.tasks_dir_in(Path::new("/runs/r1")),
            Some(PathBuf::from("/runs/r1/../tasks"))
        );
        std::fs::write(dir.path().join(RUN_META_FILE), "{\"v\":7}").unwrap();
        let e = RunMeta::read(dir.path()).unwrap_err().to_string();
        assert!(
            e.contains("invalid run metadata") && e.contains("version 7"),
            "{e}"
        );
    }
}
