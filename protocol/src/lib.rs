//! The types that cross a process boundary in Native AgentBench.
//!
//! Each file format here carries a version field (`v`). Writers always write the
//! current version; readers accept every version they know and reject the others
//! with a message that names the file's version and the supported one, so an old
//! results folder either keeps loading or fails clearly.
//!
//! - [`run`]: the run folder: its layout (every file name), `run.json`, the pairwise
//!   verdict, and the loader every reader of a run uses.
//! - `jsonl` ([`read_jsonl`] and its kin, re-exported here), [`files`]: the one JSON Lines
//!   reader and the one atomic writer/appender.
//! - [`to_sorted_string`]: JSON with sorted keys (the gateway's request hash, the agent's stagnation check).
//! - [`events`]: what `nab-agent` writes to `events.jsonl` (read by the harness).
//! - [`trial`]: one line of `results.jsonl` (written by the harness, read by reports).
//! - [`transcript`]: one line of the gateway's `transcript.jsonl`.
//! - [`scripted`]: the assistant turns a scripted model plays (`trajectory.yaml`).
//! - [`Usage`]: token usage as providers report it.
//! - [`logging`]: the tracing set-up both binaries share (one feature set for the whole
//!   workspace, so no crate is built twice).
//! - [`upstream`]: the retry table for failed model calls, shared by nab-agent and the gateway.

#![warn(missing_docs)]

pub mod events;
pub mod files;
mod json;
mod jsonl;
pub mod logging;
pub mod run;
pub mod scripted;
pub mod transcript;
pub mod trial;
pub mod upstream;
mod usage;
mod versioned;

pub use json::to_sorted_string;
pub use jsonl::{
    JsonlError, JsonlRead, LenientRead, LineError, LineStats, for_each_line, for_each_line_in,
    parse_jsonl, read_jsonl, read_jsonl_lenient, read_jsonl_with,
};
pub use usage::Usage;
pub use versioned::{VersionedError, parse_versioned_line};

/// Seconds since the epoch are easy to diff; RFC 3339 is easy to read. Files use RFC 3339 UTC.
pub fn now_rfc3339() -> String {
    chrono::Utc::now().to_rfc3339_opts(chrono::SecondsFormat::Millis, true)
}
