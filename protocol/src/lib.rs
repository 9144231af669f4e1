//! The types that cross a process boundary in Native AgentBench.
//!
//! Each file format here carries a version field (`v`). Writers always write the
//! current version; readers accept every version they know and reject the others
//! with a message that names the file's version and the supported one, so an old
//! results folder either keeps loading or fails clearly.
//!
//! - `run`: the run folder: its layout (every file name), `run.json`, the pairwise
//!   verdict, and the loader every reader of a run uses.
//! - `jsonl` ([`read_jsonl`] and its kin, re-exported here), `files`: the one JSON Lines
//!   reader and the one atomic writer/appender.
//! - [`to_sorted_string`]: JSON with sorted keys (the gateway's request hash, the agent's stagnation check).
//! - `events`: what `nab-agent` writes to `events.jsonl` (read by the harness, the judges
//!   and the report, each matching every kind; a newer kind reads as `Unknown`).
//! - `trial`: one line of `results.jsonl` (written by the harness, read by reports).
//! - `mcp`: one line of `mcp_calls.jsonl`, a tool call a task's MCP server answered.
//! - `sweep`: `sweep.json`, a sweep folder's index of its runs (written by the harness,
//!   read by the harness and reports).
//! - `bundle`: a results bundle's manifest and what `nab regrade` concluded about it.
//! - `transcript`: one line of the gateway's `transcript.jsonl`.
//! - `scripted`: the assistant turns a scripted model plays (`trajectory.yaml`).
//! - [`Usage`]: token usage as providers report it; [`Role`]: who wrote a chat message.
//! - `logging`: the tracing set-up both binaries share (one feature set for the whole
//!   workspace, so no crate is built twice).
//! - `relay`: the frames `nab-relay` and the harness exchange to carry a container's
//!   Unix-socket connections to the harness's machine (remote engines).
//! - `upstream`: the retry table for failed model calls, shared by nab-agent and the gateway.
//!
//! The modules are private: every item is re-exported at the crate root, one by one.

#![warn(missing_docs)]

mod bundle;
mod events;
mod files;
mod json;
mod jsonl;
pub mod logging;
mod mcp;
mod phases;
mod relay;
mod role;
mod run;
mod scripted;
mod sweep;
mod transcript;
mod trial;
mod upstream;
mod usage;
mod versioned;

pub use bundle::{
    BUNDLE_KIND, BUNDLE_MANIFEST_FILE, BUNDLE_VERSION, BundleManifest, BundledRun, BundledTrial,
    FileDigest, RegradeOutcome, RegradedRun,
};
pub use events::{CompactionTier, Event, EventKind, ExitReason, ToolStatus};
pub use files::{JsonlAppender, WriteError, write_atomic, write_json_atomic, write_jsonl_atomic};
pub use mcp::{MAX_RESULT_TEXT, MCP_CALL_VERSION, McpCall};
pub use phases::{PhaseTimes, TrialPhase};
pub use relay::{
    FrameBuffer, FrameError, FrameHeader, FrameKind, MAX_PAYLOAD, RELAY_HEADER, data_frames,
    decode_header, encode_frame,
};
// The run folder: every file name, the typed run.json and pairwise verdict, the loader.
pub use run::{
    AGENT_LOG_FILE, ATIF_DIR, AgentBuild, BadWinner, COMPARE_FILE, DEFAULT_TASKS_DIR, DIFF_FILE,
    EVENTS_FILE, INSTRUCTION_FILE, JUDGE_ATTEMPTS_FILE, LayoutError, MCP_CALLS_FILE, MCP_LOG_FILE,
    MergedShard, PAIRWISE_FILE, PARQUET_FILE, PairwiseVerdict, REPORT_FILE, RESULTS_FILE,
    REVIEW_DIR, RUN_META_FILE, RUN_META_VERSION, RunFolder, RunFolderError, RunMeta, RunPaths,
    RunProvenance, SUMMARY_FILE, ShardMeta, SuiteError, TEST_IDS_FILE, TRANSCRIPT_FILE, TRIALS_DIR,
    TreeReadError, TrialDir, VERIFY_LOG_FILE, Winner, hash_entry, hash_tree, instruction_path,
    resolve_tasks_dir, suite_hash, task_hashes,
};
pub use scripted::{
    ChunkOptions, SUMMARY_REQUEST_MARKER, ScriptedToolCall, ScriptedTurn, Trajectory,
    is_summary_request,
};
pub use sweep::{
    IndexProvider, IndexRun, MAX_SWEEP_INDEX_BYTES, SWEEP_INDEX_FILE, SWEEP_INDEX_VERSION,
    SweepIndex, SweepIndexError,
};
pub use transcript::{
    OMITTED_KEY, Omitted, READ_LINE_LIMIT, TRANSCRIPT_VERSION, TranscriptLine,
    answered_summary_requests, parse_without_request, read_without_requests,
};
pub use trial::{
    AgentBehaviour, CompactionCheck, DimensionScore, ErrorKind, FailureReason, JudgeRecord,
    ModelUsage, SandboxExit, TRIAL_VERSION, TrialOutcome, TrialRecord, TrialStatus, VetoVerdict,
};
pub use upstream::{
    HttpVerdict, cap_text, classify_status, is_context_overflow, is_validation_error,
    upstream_error_message,
};

pub use json::to_sorted_string;
pub use jsonl::{
    JsonlError, JsonlRead, LenientRead, LineError, LineStats, for_each_line, for_each_line_in,
    parse_jsonl, read_jsonl, read_jsonl_lenient, read_jsonl_with,
};
pub use role::Role;
pub use usage::Usage;
pub use versioned::{VersionedError, parse_versioned_line};

/// Seconds since the epoch are easy to diff; RFC 3339 is easy to read. Files use RFC 3339 UTC.
pub fn now_rfc3339() -> String {
    chrono::Utc::now().to_rfc3339_opts(chrono::SecondsFormat::Millis, true)
}
