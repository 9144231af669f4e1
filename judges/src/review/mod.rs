//! Human review of judge verdicts.
//!
//! [`export`] writes a reproducible, blind, task-stratified sample of judged trials:
//! `blind/items.jsonl` and `blind/form.html` (offline) for reviewers, and `review-key.json`
//! (which item is which trial) kept by whoever runs the review. [`import`] reads the
//! verdicts the form downloads and measures agreement with each judge ([`agreement`]).
//! Both exports write their folder with one writer (`blind`); [`pairwise`] depends on
//! [`agreement`], [`import`] on both, and nothing depends back on [`import`].

pub mod agreement;
mod blind;
pub mod export;
pub mod import;
pub mod pairwise;

pub use agreement::AgreementRow;
pub use export::{DEFAULT_MIN_ITEMS, ExportSummary, Sample, export};
pub use import::{ReviewReport, import};

use serde::{Deserialize, Serialize};
use std::path::PathBuf;

pub const KEY_FILE: &str = "review-key.json";
pub const BLIND_DIR: &str = "blind";
pub const ITEMS_FILE: &str = "items.jsonl";
pub const FORM_FILE: &str = "form.html";

/// The private mapping from blind item ids back to trials.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ReviewKey {
    pub run_dir: PathBuf,
    pub rubric_id: String,
    pub rubric_hash: String,
    pub fraction: f64,
    pub seed: u64,
    pub items: Vec<KeyEntry>,
    /// Pairwise exports: the baseline run, the compare output, and which side is which.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pairwise: Option<PairwiseKey>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PairwiseKey {
    pub baseline_dir: PathBuf,
    pub pairwise_file: PathBuf,
    /// Item ids whose side A is the candidate (the rest show the baseline as A).
    pub candidate_is_a: Vec<String>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct KeyEntry {
    pub item: String,
    pub task_id: String,
    pub trial: u32,
}
