//! One line of the gateway's `transcript.jsonl`: one model call as the provider saw it.

use crate::jsonl::{JsonlError, JsonlRead};
use crate::usage::Usage;
use serde::{Deserialize, Serialize};
use std::path::Path;

/// The version this crate writes. Readers accept `1..=TRANSCRIPT_VERSION`.
pub const TRANSCRIPT_VERSION: u32 = 1;

/// One model call as the gateway relayed it (one line of `transcript.jsonl`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TranscriptLine {
    /// The line's format version.
    pub v: u32,
    /// RFC 3339, UTC, milliseconds.
    pub ts: String,
    /// 0-based order of the call within the trial.
    pub seq: u64,
    /// The provider spec with secrets removed, e.g. `openai:deepseek-chat@https://…`.
    pub provider: String,
    /// Whether the agent asked for a streamed answer.
    pub stream: bool,
    /// The API the agent spoke: `chat_completions` (OpenAI), `messages` (Anthropic) or
    /// `responses` (OpenAI). `request` and `response` are always in the chat-completions
    /// form the gateway translates every request into. Absent in lines written before it
    /// existed (all chat completions).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub api: Option<String>,
    /// The request body as the agent sent it (the gateway adds credentials only in headers).
    pub request: serde_json::Value,
    /// The full response; for a stream, the chunks reassembled into one
    /// `chat.completion` object. Absent when no response was obtained.
    #[serde(default)]
    pub response: Option<serde_json::Value>,
    /// Token usage as the provider reported it (absent when it reported none).
    #[serde(default)]
    pub usage: Option<Usage>,
    /// Wall time of the call, in milliseconds.
    pub latency_ms: u64,
    /// The provider's final HTTP status (absent for a connection failure).
    #[serde(default)]
    pub status: Option<u16>,
    /// Retries the gateway made before this answer.
    #[serde(default)]
    pub retries: u32,
    /// Why the call failed, in words (absent on success).
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
    /// Set when the gateway refused the request before any provider was called (a body
    /// too large, a field not allowed, …): the `error.code` the agent got. The line's
    /// `request` is then a summary ([`Omitted`]), never a copy. Such a line is not a model
    /// call.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub refused: Option<String>,
}

/// The key of the object that stands for a request or response not written whole:
/// `{"nab_omitted": {"reason": …, "bytes": …, "sha256": …}}`.
pub const OMITTED_KEY: &str = "nab_omitted";

/// What stands in a transcript line for a request or response that was not written
/// whole: a refused request (`refused`), a line over the line cap (`line_cap`), a line
/// past the file cap (`file_cap`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Omitted {
    /// Why the body was left out: `refused`, `line_cap` or `file_cap`.
    pub reason: String,
    /// Size of the JSON that was left out (the body as received, for a refused request).
    pub bytes: u64,
    /// SHA-256 of that JSON, when it was read.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sha256: Option<String>,
}

impl Omitted {
    /// The placeholder as it stands in the line: `{"nab_omitted": {…}}`.
    pub fn to_value(&self) -> serde_json::Value {
        serde_json::json!({ OMITTED_KEY: self })
    }

    /// The summary `value` stands for, if it is one.
    pub fn of(value: &serde_json::Value) -> Option<Omitted> {
        serde_json::from_value(value.get(OMITTED_KEY)?.clone()).ok()
    }
}

/// The longest transcript line the readers take (the gateway writes far shorter ones,
/// `GatewayLimits::transcript_line_bytes`); a longer one is skipped, never held.
pub const READ_LINE_LIMIT: usize = 64 << 20;

/// A transcript line as read without its request: the request is skipped while parsing
/// (`IgnoredAny` allocates nothing), since every request repeats the whole history so far.
#[derive(Deserialize)]
struct WithoutRequest {
    v: u32,
    ts: String,
    seq: u64,
    provider: String,
    stream: bool,
    #[serde(default)]
    api: Option<String>,
    #[allow(dead_code)]
    #[serde(default)]
    request: serde::de::IgnoredAny,
    #[serde(default)]
    response: Option<serde_json::Value>,
    #[serde(default)]
    usage: Option<Usage>,
    latency_ms: u64,
    #[serde(default)]
    status: Option<u16>,
    #[serde(default)]
    retries: u32,
    #[serde(default)]
    error: Option<String>,
    #[serde(default)]
    error_code: Option<String>,
    #[serde(default)]
    budget_exceeded: Option<String>,
    #[serde(default)]
    replay_drift: Option<String>,
    #[serde(default)]
    refused: Option<String>,
}

/// Reads `transcript.jsonl` as a stream, one line at a time, keeping every line but its
/// request (`Value::Null`): what metrics, the harness and the judges need. Memory is the
/// answers, not the quadratic pile of histories. Same rules as [`crate::read_jsonl`]
/// (a torn last line is skipped, a malformed line in the middle is an error); a line
/// longer than [`READ_LINE_LIMIT`] is skipped.
pub fn read_without_requests(path: &Path) -> Result<JsonlRead<TranscriptLine>, JsonlError> {
    crate::jsonl::read_jsonl_with(path, READ_LINE_LIMIT, |_, line| parse_without_request(line))
}

/// One transcript line parsed without its request (`Value::Null`), for readers that
/// stream the file themselves.
pub fn parse_without_request(line: &str) -> Result<TranscriptLine, serde_json::Error> {
    serde_json::from_str::<WithoutRequest>(line).map(WithoutRequest::into_line)
}

/// What [`answered_summary_requests`] reads of a line: the request whole (one line at a
/// time), and whether the call was answered.
#[derive(Deserialize)]
struct SummaryProbe {
    seq: u64,
    #[serde(default)]
    request: serde_json::Value,
    #[serde(default)]
    response: Option<serde::de::IgnoredAny>,
    #[serde(default)]
    error: Option<serde::de::IgnoredAny>,
}

/// The `seq` of every call in `transcript.jsonl` that was one of nab-agent's summarization
/// requests ([`crate::scripted::is_summary_request`]) and was answered (a response and no
/// error), in file order. A request the gateway did not write whole (refused, or over a
/// cap: [`Omitted`]) is not one. The file is streamed one line at a time; each request is
/// parsed and dropped. Same rules as [`read_without_requests`].
pub fn answered_summary_requests(path: &Path) -> Result<Vec<u64>, JsonlError> {
    let read = crate::jsonl::read_jsonl_with(path, READ_LINE_LIMIT, |_, line| {
        serde_json::from_str::<SummaryProbe>(line).map(|p| {
            (p.response.is_some()
                && p.error.is_none()
                && crate::scripted::is_summary_request(&p.request))
            .then_some(p.seq)
        })
    })?;
    Ok(read.records.into_iter().flatten().collect())
}

impl WithoutRequest {
    fn into_line(self) -> TranscriptLine {
        let w = self;
        TranscriptLine {
            v: w.v,
            ts: w.ts,
            seq: w.seq,
            provider: w.provider,
            stream: w.stream,
            api: w.api,
            request: serde_json::Value::Null,
            response: w.response,
            usage: w.usage,
            latency_ms: w.latency_ms,
            status: w.status,
            retries: w.retries,
            error: w.error,
            error_code: w.error_code,
            budget_exceeded: w.budget_exceeded,
            replay_drift: w.replay_drift,
            refused: w.refused,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reading_without_requests_keeps_every_other_field() {
        let line = TranscriptLine {
            v: 1,
            ts: "t".into(),
            seq: 7,
            provider: "p".into(),
            stream: true,
            api: Some("messages".into()),
            request: serde_json::json!({"messages": [{"role": "user", "content": "long history"}]}),
            response: Some(serde_json::json!({"choices": []})),
            usage: Some(Usage {
                prompt_tokens: 3,
                completion_tokens: 2,
                cached_tokens: 1,
                cache_write_tokens: 0,
            }),
            latency_ms: 9,
            status: Some(200),
            retries: 1,
            error: Some("e".into()),
            error_code: Some("c".into()),
            budget_exceeded: Some("tokens".into()),
            replay_drift: Some("d".into()),
            refused: Some("not_allowed".into()),
        };
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("transcript.jsonl");
        std::fs::write(&p, serde_json::to_string(&line).unwrap() + "\n").unwrap();
        let read = read_without_requests(&p).unwrap();
        assert_eq!(
            read.records,
            vec![TranscriptLine {
                request: serde_json::Value::Null,
                ..line
            }]
        );
        let o = Omitted {
            reason: "refused".into(),
            bytes: 5,
            sha256: None,
        };
        assert_eq!(Omitted::of(&o.to_value()), Some(o));
    }

    #[test]
    fn answered_summary_requests_are_found_by_the_marker_and_need_an_answer() {
        let marker = crate::scripted::SUMMARY_REQUEST_MARKER;
        let summary = serde_json::json!({"messages": [
            {"role": "system", "content": format!("{marker} You compress...")},
            {"role": "user", "content": "history"}]});
        let work = serde_json::json!({"messages": [
            {"role": "system", "content": "You are a coding agent."},
            {"role": "user", "content": format!("{marker} quoted by the user")}]});
        let line = |seq: u64, request: serde_json::Value, answered: bool| TranscriptLine {
            v: 1,
            ts: "t".into(),
            seq,
            provider: "p".into(),
            stream: true,
            api: None,
            request,
            response: answered.then(|| serde_json::json!({"choices": []})),
            usage: None,
            latency_ms: 1,
            status: answered.then_some(200),
            retries: 0,
            error: (!answered).then(|| "boom".into()),
            error_code: None,
            budget_exceeded: None,
            replay_drift: None,
            refused: None,
        };
        let omitted = Omitted {
            reason: "line_cap".into(),
            bytes: 1 << 23,
            sha256: None,
        };
        let lines = [
            line(0, work.clone(), true),
            line(1, summary.clone(), true),
            // Not answered: the summary never reached the agent.
            line(2, summary.clone(), false),
            line(3, work, true),
            // Not written whole: nothing shows it was a summary request.
            line(4, omitted.to_value(), true),
            line(5, summary, true),
        ];
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("transcript.jsonl");
        let text: String = lines
            .iter()
            .map(|l| serde_json::to_string(l).unwrap() + "\n")
            .collect();
        std::fs::write(&p, text).unwrap();
        assert_eq!(answered_summary_requests(&p).unwrap(), vec![1, 5]);
        assert_eq!(
            answered_summary_requests(&dir.path().join("missing.jsonl")).unwrap(),
            Vec::<u64>::new()
        );
    }
}
