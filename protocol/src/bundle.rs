//! A results bundle (`nab bundle`): one zstd-compressed tar of a run or sweep folder with
//! `manifest.json` at its root, and what `nab regrade` concludes about it
//! (`<bundle>.regrade.json`, beside the bundle).
//!
//! The manifest says what the bundle claims (which runs, which trials, on which suite, test
//! set, images and agent build) and hashes every file it holds. The hashes catch a file
//! changed by accident or by hand; they prove nothing against someone who rewrites the
//! manifest too. What does is `nab regrade`: it plays every trial's recorded model answers
//! through the agent again and verifies the result with the local hidden tests.

use crate::trial::TrialStatus;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The version this crate writes; readers accept `1..=BUNDLE_VERSION`.
pub const BUNDLE_VERSION: u32 = 1;
/// The manifest's name at the root of a bundle.
pub const BUNDLE_MANIFEST_FILE: &str = "manifest.json";
/// What a manifest's `kind` says, so a stray JSON file is not taken for one.
pub const BUNDLE_KIND: &str = "nab-bundle";

/// `manifest.json`: what a bundle holds and on what it was run.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BundleManifest {
    /// The format version.
    pub v: u32,
    /// Always [`BUNDLE_KIND`].
    pub kind: String,
    /// When the bundle was written (RFC 3339, UTC).
    pub created_at: String,
    /// The `nab` that wrote it.
    pub nab_version: String,
    /// Whether the bundle holds a sweep folder (`sweep.json` at its root) or one run.
    pub sweep: bool,
    /// Every run it holds.
    pub runs: Vec<BundledRun>,
    /// Every file but the manifest, by its path in the bundle (`/`-separated).
    pub files: BTreeMap<String, FileDigest>,
    /// Secret-looking strings replaced by `[REDACTED]`, by file.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub redactions: BTreeMap<String, u64>,
}

/// One run in a bundle.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BundledRun {
    /// The run's folder in the bundle: `""` for a bundle of one run, else its folder in
    /// the sweep.
    pub dir: String,
    /// The run's id.
    pub run_id: Option<String>,
    /// The agent spec.
    pub agent: Option<String>,
    /// The model spec (secrets removed).
    pub model: Option<String>,
    /// The suite's hash from run.json (over the tasks the run used).
    pub tasks_hash: Option<String>,
    /// Each task's own hash (the same hash over that one task), when the suite was found
    /// when the bundle was written: lets `nab regrade` name the tasks that differ.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub task_hashes: BTreeMap<String, String>,
    /// What the run recorded of its set-up (run.json's `provenance`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub provenance: Option<crate::run::RunProvenance>,
    /// Every trial the run recorded.
    pub trials: Vec<BundledTrial>,
}

/// One trial in a bundle.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BundledTrial {
    /// The task.
    pub task: String,
    /// The trial's number (0-based).
    pub trial: u32,
    /// Its verdict as recorded.
    pub status: TrialStatus,
    /// Why it cannot be re-graded (absent: it can).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub not_regradable: Option<String>,
}

/// A file's size and SHA-256.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FileDigest {
    /// Its size in bytes.
    pub bytes: u64,
    /// `sha256:<hex>`.
    pub sha256: String,
}

/// `<bundle>.regrade.json`: what `nab regrade` found, written beside the bundle so a
/// leaderboard built from it can say the rows were re-graded here.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RegradeOutcome {
    /// The format version ([`BUNDLE_VERSION`]).
    pub v: u32,
    /// The bundle's own SHA-256 (`sha256:<hex>`): a mark for another file is ignored.
    pub bundle_sha256: String,
    /// When the regrade finished (RFC 3339, UTC).
    pub regraded_at: String,
    /// The `nab` that re-graded it.
    pub nab_version: String,
    /// `--shard K/N`, when only a share of the trials was re-graded.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shard: Option<String>,
    /// One entry per run of the bundle.
    pub runs: Vec<RegradedRun>,
}

/// What the regrade found for one run.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RegradedRun {
    /// The run's folder in the bundle ([`BundledRun::dir`]).
    pub dir: String,
    /// The run's id.
    pub run_id: Option<String>,
    /// Trials re-graded whose verdict, tests, steps and tokens all matched the record.
    pub identical: usize,
    /// Trials re-graded that did not match, each named.
    pub diverged: Vec<String>,
    /// Trials that could not be re-graded, each with the reason.
    pub not_regradable: Vec<String>,
    /// Of those, the ones recorded as passed: passes nobody could check, so the regrade
    /// does not confirm the run.
    #[serde(default)]
    pub unverified_passes: Vec<String>,
}

impl RegradeOutcome {
    /// Where the outcome of re-grading `bundle` is kept: `<bundle>.regrade.json`.
    pub fn path_for(bundle: &Path) -> PathBuf {
        let mut name = bundle.as_os_str().to_owned();
        name.push(".regrade.json");
        PathBuf::from(name)
    }

    /// Whether the regrade confirms the bundle: every trial was played (no shard), none
    /// diverged, and every recorded pass was re-graded.
    pub fn confirms(&self) -> bool {
        self.shard.is_none() && self.runs.iter().all(RegradedRun::confirms)
    }
}

impl RegradedRun {
    /// No trial diverged and every recorded pass was re-graded.
    pub fn confirms(&self) -> bool {
        self.diverged.is_empty() && self.unverified_passes.is_empty()
    }
}
