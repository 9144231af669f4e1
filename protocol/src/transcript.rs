//! One line of the gateway's `transcript.jsonl`: one model call as the provider saw it.

use crate::usage::Usage;
use serde::{Deserialize, Serialize};

pub const TRANSCRIPT_VERSION: u32 = 1;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TranscriptLine {
    pub v: u32,
    pub ts: String,
    /// 0-based order of the call within the trial.
    pub seq: u64,
    /// The provider spec with secrets removed, e.g. `openai:deepseek-chat@https://…`.
    pub provider: String,
    pub stream: bool,
    /// The request body as the agent sent it (the gateway adds credentials only in headers).
    pub request: serde_json::Value,
    /// The full response; for a stream, the chunks reassembled into one
    /// `chat.completion` object. Absent when no response was obtained.
    #[serde(default)]
    pub response: Option<serde_json::Value>,
    #[serde(default)]
    pub usage: Option<Usage>,
    pub latency_ms: u64,
    /// The provider's final HTTP status (absent for a connection failure).
    #[serde(default)]
    pub status: Option<u16>,
    #[serde(default)]
    pub retries: u32,
    #[serde(default)]
    pub error: Option<String>,
    /// What kind of failure `error` is, for machines: the `error.code` the gateway gave the
    /// agent (`provider_http_error`, `provider_rejected`, `provider_unreachable`,
    /// `idle_timeout`, `stream_truncated`, `provider_stream_error`,
    /// `invalid_provider_response`, `replay_miss`, …) or `agent_disconnected` /
    /// `gateway_shutdown`. Absent on success and in transcripts written before it existed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error_code: Option<String>,
    /// Set when the gateway refused the call because a budget was spent:
    /// `llm_calls` or `tokens`.
    #[serde(default)]
    pub budget_exceeded: Option<String>,
    /// Set when a replayed answer matched only after the tool results were normalized:
    /// where the request first differs from the recording, e.g.
    /// ``messages[15].content: `Ran 9 tests in 0.001s` → `Ran 9 tests in 0.000s` ``.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub replay_drift: Option<String>,
}
