//! The run folder: its layout, its files' types, and how it is read and written. Every
//! crate reaches a run folder through this module; no other crate spells a file name.
//!
//! ```text
//! <run>/run.json                                  RunMeta: what the run was
//! <run>/results.jsonl                             one TrialRecord per line (appended)
//! <run>/summary.json, report.html, results.parquet   written by nab-reports
//! <run>/compare.html, pairwise.jsonl              written by `nab compare` (candidate run)
//! <run>/review/                                   `nab review export`
//! <run>/trials/<task>/<folder>/                   one trial's artifacts, see TrialDir
//!     diff.patch  events.jsonl  transcript.jsonl  agent.log  verify.log  judge_attempts.jsonl
//! <tasks>/<task>/instruction.md                   what the agent was told
//! ```
//!
//! `<folder>` is the trial index, unless the record names another folder
//! ([`TrialRecord::trial_dir`](crate::trial::TrialRecord::trial_dir); `nab validate` names
//! folders by agent). Readers always go through [`RunPaths::trial_of`], which checks it.

mod error;
mod folder;
mod layout;
mod meta;
mod pairwise;
mod suite;

pub use error::RunFolderError;
pub use folder::RunFolder;
pub use layout::{
    AGENT_LOG_FILE, ATIF_DIR, COMPARE_FILE, DIFF_FILE, EVENTS_FILE, INSTRUCTION_FILE,
    JUDGE_ATTEMPTS_FILE, LayoutError, MCP_CALLS_FILE, MCP_LOG_FILE, PAIRWISE_FILE, PARQUET_FILE,
    REPORT_FILE, RESULTS_FILE, REVIEW_DIR, RUN_META_FILE, RunPaths, SUMMARY_FILE, TEST_IDS_FILE,
    TRANSCRIPT_FILE, TRIALS_DIR, TrialDir, VERIFY_LOG_FILE, instruction_path,
};
pub use meta::{AgentBuild, MergedShard, RUN_META_VERSION, RunMeta, RunProvenance, ShardMeta};
pub use pairwise::{BadWinner, PairwiseVerdict, Winner};
pub use suite::{
    DEFAULT_TASKS_DIR, SuiteError, TreeReadError, hash_entry, hash_tree, resolve_tasks_dir,
    suite_hash, task_hashes,
};
