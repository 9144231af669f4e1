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
        if chunk.get("error").is_some_and(|e| !e.is_null()) {
            return Err(error::from_stream_error(chunk));
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
            // Kimi (Moonshot) puts the usage of a stream inside its last choice.
            if self.turn.usage.is_none()
                && let Some(u) = choice.get("usage").filter(|u| !u.is_null())
            {
                self.turn.usage = Usage::from_openai(u);
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

/// How long a stream may stay silent: `first` until its first byte arrives (a model may
/// think, or a server may queue the request, for a long time before it answers), `idle`
/// between later bytes. SSE comments (`: keep-alive`, as DeepSeek sends while a request
/// waits) count as life.
#[derive(Debug, Clone, Copy)]
pub struct Patience {
    pub first: Duration,
    pub idle: Duration,
}

impl Patience {
    pub fn uniform(d: Duration) -> Patience {
        Patience { first: d, idle: d }
    }
}

/// Reads an SSE response to its end.
pub async fn read_sse(
    body: hyper::body::Incoming,
    patience: Patience,
    observer: &mut dyn StreamObserver,
) -> Result<AssistantTurn, ClientError> {
    read_sse_stream(body.into_data_stream(), patience, observer).await
}

/// Why the byte stream under the SSE parser stopped.
#[derive(Debug)]
enum ByteError {
    Silent { secs: u64, first: bool },
    Io(String),
}

impl std::fmt::Display for ByteError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ByteError::Silent { secs, .. } => write!(f, "silent for {secs} s"),
            ByteError::Io(e) => f.write_str(e),
        }
    }
}

/// Reads SSE from any byte stream (the benchmarks feed it from memory).
pub async fn read_sse_stream<S, B, E>(
    bytes: S,
    patience: Patience,
    observer: &mut dyn StreamObserver,
) -> Result<AssistantTurn, ClientError>
where
    S: futures::Stream<Item = Result<B, E>> + Unpin,
    B: AsRef<[u8]>,
    E: std::fmt::Display,
{
    // The silence timer runs on bytes, not events, so keep-alive comments keep it reset.
    let timed = futures::stream::unfold(
        (bytes, false, false),
        move |(mut s, seen, over)| async move {
            if over {
                return None;
            }
            let wait = if seen { patience.idle } else { patience.first };
            match tokio::time::timeout(wait, s.next()).await {
                Ok(Some(Ok(b))) => Some((Ok(b), (s, true, false))),
                Ok(Some(Err(e))) => Some((Err(ByteError::Io(e.to_string())), (s, seen, true))),
                Ok(None) => None,
                Err(_) => Some((
                    Err(ByteError::Silent {
                        secs: wait.as_secs(),
                        first: !seen,
                    }),
                    (s, seen, true),
                )),
            }
        },
    );
    let mut events = Box::pin(timed).eventsource();
    let mut acc = ChunkAccumulator::default();
    loop {
        match events.next().await {
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
                    eventsource_stream::EventStreamError::Transport(ByteError::Silent {
                        secs,
                        first,
                    }) => ClientError::IdleTimeout {
                        secs,
                        phase: if first {
                            "waiting for the first byte of the answer"
                        } else {
                            "streaming the answer"
                        },
                    },
                    eventsource_stream::EventStreamError::Transport(ByteError::Io(_)) => {
                        ClientError::StreamInterrupted { events: acc.events }
                    }
                    other => ClientError::StreamError {
                        message: other.to_string(),
                        retryable: false,
                    },
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
    // An empty 200 is a server that failed after sending its headers, not an answer.
    if text.trim().is_empty() {
        return Err(ClientError::StreamInterrupted { events: 0 });
    }
    let v: Value =
        serde_json::from_str(text).map_err(|e| ClientError::MalformedCompletion(e.to_string()))?;
    if v.get("error").is_some_and(|e| !e.is_null()) {
        return Err(error::from_stream_error(&v));
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
        usage: v
            .get("usage")
            .or_else(|| choice.get("usage"))
            .and_then(Usage::from_openai),
    })
}
