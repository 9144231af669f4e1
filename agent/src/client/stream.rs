//! Reading the answer: SSE events → `chat.completion.chunk` objects → one [`AssistantTurn`].

use std::collections::BTreeMap;
use std::time::Duration;

use eventsource_stream::Eventsource;
use futures::StreamExt;
use http_body_util::BodyExt;
use nab_protocol::Usage;
use serde_json::Value;

use crate::client::error::{self, ClientError};
use crate::message::ToolCall;

/// The assembled answer of one model call.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct AssistantTurn {
    pub content: String,
    /// `reasoning_content`, kept apart from the answer.
    pub reasoning: String,
    pub tool_calls: Vec<ToolCall>,
    pub finish_reason: Option<String>,
    pub usage: Option<Usage>,
}

/// Sees the answer while it streams (the terminal display).
pub trait StreamObserver: Send {
    fn on_reasoning(&mut self, _delta: &str) {}
    fn on_content(&mut self, _delta: &str) {}
}

pub struct NoopObserver;
impl StreamObserver for NoopObserver {}

/// A tool call under assembly: the id arrives on the first fragment only; the name and
/// the arguments may come in pieces.
#[derive(Debug, Default)]
struct PartialCall {
    id: String,
    name: String,
    arguments: String,
}

/// Folds chunks into a turn. Public so the benchmarks can drive it without a socket.
#[derive(Debug, Default)]
pub struct ChunkAccumulator {
    turn: AssistantTurn,
    calls: BTreeMap<u64, PartialCall>,
    pub events: usize,
    pub done: bool,
}

impl ChunkAccumulator {
    /// Applies the `data` of one SSE event.
    pub fn apply_data(
        &mut self,
        data: &str,
        observer: &mut dyn StreamObserver,
    ) -> Result<(), ClientError> {
        self.events += 1;
        let data = data.trim();
        if data == "[DONE]" {
            self.done = true;
            return Ok(());
        }
        if data.is_empty() {
            return Ok(());
        }
        let chunk: Value = serde_json::from_str(data).map_err(|e| ClientError::MalformedChunk {
            event: self.events,
            error: e.to_string(),
            data: data.chars().take(200).collect(),
        })?;
        self.apply_chunk(&chunk, observer)
    }

    pub fn apply_chunk(
        &mut self,
        chunk: &Value,
        observer: &mut dyn StreamObserver,
    ) -> Result<(), ClientError> {
        if let Some(err) = chunk.get("error").filter(|e| !e.is_null()) {
            if let Some(kind) = error::budget_kind(chunk) {
                let message = err
                    .get("message")
                    .and_then(Value::as_str)
                    .unwrap_or("")
                    .to_string();
                return Err(ClientError::Budget { kind, message });
            }
            return Err(ClientError::StreamError(err.to_string()));
        }
        if let Some(u) = chunk.get("usage").filter(|u| !u.is_null()) {
            self.turn.usage = Usage::from_openai(u);
        }
        let Some(choices) = chunk.get("choices").and_then(Value::as_array) else {
            return Ok(());
        };
        for choice in choices {
            if let Some(fr) = choice.get("finish_reason").and_then(Value::as_str) {
                self.turn.finish_reason = Some(fr.to_string());
            }
            let Some(delta) = choice.get("delta") else {
                continue;
            };
            if let Some(r) = delta
                .get("reasoning_content")
                .or_else(|| delta.get("reasoning"))
                .and_then(Value::as_str)
                && !r.is_empty()
            {
                observer.on_reasoning(r);
                self.turn.reasoning.push_str(r);
            }
            if let Some(c) = delta.get("content").and_then(Value::as_str)
                && !c.is_empty()
            {
                observer.on_content(c);
                self.turn.content.push_str(c);
            }
            if let Some(calls) = delta.get("tool_calls").and_then(Value::as_array) {
                for (pos, frag) in calls.iter().enumerate() {
                    // Some servers omit `index` when they send whole calls; fall back to the
                    // position in this delta.
                    let index = frag
                        .get("index")
                        .and_then(Value::as_u64)
                        .unwrap_or(pos as u64);
                    let call = self.calls.entry(index).or_default();
                    if let Some(id) = frag.get("id").and_then(Value::as_str)
                        && !id.is_empty()
                        && call.id.is_empty()
                    {
                        call.id = id.to_string();
                    }
                    if let Some(f) = frag.get("function") {
                        if let Some(n) = f.get("name").and_then(Value::as_str) {
                            call.name.push_str(n);
                        }
                        if let Some(a) = f.get("arguments").and_then(Value::as_str) {
                            call.arguments.push_str(a);
                        }
                    }
                }
            }
        }
        Ok(())
    }

    /// Whether the answer is known to be complete.
    pub fn complete(&self) -> bool {
        self.done || self.turn.finish_reason.is_some()
    }

    pub fn finish(mut self) -> AssistantTurn {
        self.turn.tool_calls = self
            .calls
            .into_iter()
            .map(|(index, c)| {
                let id = if c.id.is_empty() {
                    format!("call_{index}")
                } else {
                    c.id
                };
                ToolCall::new(id, c.name, c.arguments)
            })
            .collect();
        self.turn
    }
}

/// Reads an SSE response to its end, with `idle` as the longest allowed silence.
pub async fn read_sse(
    body: hyper::body::Incoming,
    idle: Duration,
    observer: &mut dyn StreamObserver,
) -> Result<AssistantTurn, ClientError> {
    read_sse_stream(body.into_data_stream(), idle, observer).await
}

/// Reads SSE from any byte stream (the benchmarks feed it from memory).
pub async fn read_sse_stream<S, B, E>(
    bytes: S,
    idle: Duration,
    observer: &mut dyn StreamObserver,
) -> Result<AssistantTurn, ClientError>
where
    S: futures::Stream<Item = Result<B, E>> + Unpin,
    B: AsRef<[u8]>,
    E: std::fmt::Display,
{
    let mut events = bytes.eventsource();
    let mut acc = ChunkAccumulator::default();
    loop {
        let next = tokio::time::timeout(idle, events.next())
            .await
            .map_err(|_| ClientError::IdleTimeout {
                secs: idle.as_secs(),
                phase: "streaming the answer",
            })?;
        match next {
            None => break,
            Some(Ok(event)) => {
                acc.apply_data(&event.data, observer)?;
                if acc.done {
                    break;
                }
            }
            Some(Err(e)) => {
                if acc.complete() {
                    break;
                }
                return Err(match e {
                    eventsource_stream::EventStreamError::Transport(_) => {
                        ClientError::StreamInterrupted { events: acc.events }
                    }
                    other => ClientError::StreamError(other.to_string()),
                });
            }
        }
    }
    if !acc.complete() {
        return Err(ClientError::StreamInterrupted { events: acc.events });
    }
    Ok(acc.finish())
}

/// Parses a non-streaming `chat.completion` (a server that ignored `stream: true`).
pub fn parse_completion(text: &str) -> Result<AssistantTurn, ClientError> {
    let v: Value =
        serde_json::from_str(text).map_err(|e| ClientError::MalformedCompletion(e.to_string()))?;
    if v.get("error").is_some_and(|e| !e.is_null()) {
        if let Some(kind) = error::budget_kind(&v) {
            return Err(ClientError::Budget {
                kind,
                message: v["error"]["message"].as_str().unwrap_or("").into(),
            });
        }
        return Err(ClientError::StreamError(v["error"].to_string()));
    }
    let choice = v
        .get("choices")
        .and_then(|c| c.get(0))
        .ok_or_else(|| ClientError::MalformedCompletion("no choices[0]".into()))?;
    let msg = choice.get("message").cloned().unwrap_or(Value::Null);
    let s = |k: &str| msg.get(k).and_then(Value::as_str).unwrap_or("").to_string();
    let tool_calls = match msg.get("tool_calls") {
        Some(Value::Array(calls)) => calls
            .iter()
            .enumerate()
            .map(|(i, c)| {
                let id = c
                    .get("id")
                    .and_then(Value::as_str)
                    .map_or_else(|| format!("call_{i}"), str::to_string);
                let name = c["function"]["name"].as_str().unwrap_or("").to_string();
                let args = c["function"]["arguments"]
                    .as_str()
                    .unwrap_or("")
                    .to_string();
                ToolCall::new(id, name, args)
            })
            .collect(),
        _ => Vec::new(),
    };
    Ok(AssistantTurn {
        content: s("content"),
        reasoning: s("reasoning_content"),
        tool_calls,
        finish_reason: choice
            .get("finish_reason")
            .and_then(Value::as_str)
            .map(str::to_string),
        usage: v.get("usage").and_then(Usage::from_openai),
    })
}
