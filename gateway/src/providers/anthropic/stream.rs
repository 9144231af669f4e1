//! Anthropic's streaming events turned into OpenAI `chat.completion.chunk`s, as they come.
//!
//! Anthropic's documented sequence is `message_start`, then per content block
//! `content_block_start`, `content_block_delta`s (`text_delta`, or `input_json_delta`
//! pieces of a tool call's JSON input), `content_block_stop`; then `message_delta` (the
//! `stop_reason` and cumulative usage) and `message_stop`, with `ping`s anywhere and an
//! `error` event possible at any point.
//!
//! - `message_start` → nothing yet: the assistant role rides on the first chunk that has
//!   content, so a stream that fails before any content (an `error` event right after
//!   `message_start`, Anthropic's usual overload) has sent the agent nothing and is retried
//!   by the gateway like a failed request;
//! - text deltas → `delta.content`; a `tool_use` block start → a `delta.tool_calls` entry
//!   with the id and name (OpenAI's index counts tool calls, not blocks), its
//!   `input_json_delta`s → argument pieces of that entry; a call whose input never came
//!   gets `{}` at its block's stop;
//! - `message_stop` → the finish-reason chunk, then a usage chunk (no choices), as OpenAI
//!   sends with `include_usage`; the gateway then writes `[DONE]`.
//!
//! Only `message_stop` finishes the answer: a stream that ends before it is
//! [`ProviderError::Truncated`] (retried), never taken as the model's answer. An `error`
//! event is [`ProviderError::InStream`], retryable for overload and server errors.

use super::response::{Usage, finish_reason, is_retryable_error_type, tool_call};
use crate::error::ProviderError;
use crate::provider::ChunkStream;
use futures::StreamExt;
use serde_json::{Value, json};
use std::collections::{HashMap, VecDeque};

/// The state of one stream's translation.
#[derive(Debug, Default)]
pub struct Translator {
    id: String,
    model: String,
    created: i64,
    /// Content-block index → (tool-call index, whether any input arrived).
    tools: HashMap<u64, (usize, bool)>,
    next_tool: usize,
    usage: Usage,
    stop_reason: Option<String>,
    /// Events taken (for the truncation message).
    events: usize,
    /// Whether a chunk (which carries the role) went out.
    role_sent: bool,
    finished: bool,
}

impl Translator {
    pub fn new() -> Self {
        Translator {
            created: chrono::Utc::now().timestamp(),
            ..Default::default()
        }
    }

    /// Whether `message_stop` came.
    pub fn finished(&self) -> bool {
        self.finished
    }

    fn chunk(&mut self, mut delta: Value, finish: Option<&str>) -> String {
        if !self.role_sent {
            self.role_sent = true;
            delta["role"] = json!("assistant");
        }
        json!({
            "id": self.id, "object": "chat.completion.chunk", "created": self.created,
            "model": self.model,
            "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]
        })
        .to_string()
    }

    /// The chunks one event's `data` turns into (often none).
    pub fn on_event(&mut self, data: &str) -> Result<Vec<String>, ProviderError> {
        let data = data.trim();
        if data.is_empty() {
            return Ok(Vec::new());
        }
        self.events += 1;
        let ev: Value = serde_json::from_str(data).map_err(|e| {
            ProviderError::InvalidResponse(format!(
                "an Anthropic stream event is not JSON ({e}): {}",
                nab_protocol::cap_text(data, 200)
            ))
        })?;
        let index = || ev.get("index").and_then(Value::as_u64).unwrap_or(0);
        match ev.get("type").and_then(Value::as_str).unwrap_or("") {
            "message_start" => {
                self.message_start(ev.get("message").unwrap_or(&Value::Null));
                Ok(Vec::new())
            }
            "content_block_start" => {
                let block = ev.get("content_block").unwrap_or(&Value::Null);
                Ok(self.block_start(index(), block).into_iter().collect())
            }
            "content_block_delta" => {
                let delta = ev.get("delta").unwrap_or(&Value::Null);
                Ok(self.block_delta(index(), delta)?.into_iter().collect())
            }
            "content_block_stop" => Ok(self.block_stop(index()).into_iter().collect()),
            "message_delta" => {
                if let Some(r) = ev.pointer("/delta/stop_reason").and_then(Value::as_str) {
                    self.stop_reason = Some(r.to_owned());
                }
                if let Some(u) = ev.get("usage") {
                    self.usage.update(u);
                }
                Ok(Vec::new())
            }
            "message_stop" => Ok(self.message_stop()),
            "error" => Err(in_stream_error(ev.get("error").unwrap_or(&Value::Null))),
            // `ping`, and event types added later, carry nothing for the agent.
            _ => Ok(Vec::new()),
        }
    }

    /// `message_start`: the answer's id, model and first usage; nothing is sent yet.
    fn message_start(&mut self, m: &Value) {
        let s = |k: &str| m.get(k).and_then(Value::as_str).unwrap_or("").to_owned();
        self.id = s("id");
        self.model = s("model");
        if let Some(u) = m.get("usage") {
            self.usage.update(u);
        }
    }

    /// `content_block_start`: a tool call's id and name, or a text block's opening text.
    fn block_start(&mut self, index: u64, block: &Value) -> Option<String> {
        match block.get("type").and_then(Value::as_str) {
            Some("tool_use") => {
                let n = self.next_tool;
                self.next_tool += 1;
                self.tools.insert(index, (n, false));
                let id = block.get("id").and_then(Value::as_str).unwrap_or("");
                let name = block.get("name").and_then(Value::as_str).unwrap_or("");
                let mut call = tool_call(id, name, "");
                call["index"] = json!(n);
                Some(self.chunk(json!({"tool_calls": [call]}), None))
            }
            Some("text") => {
                let text = block.get("text").and_then(Value::as_str).unwrap_or("");
                (!text.is_empty()).then(|| self.chunk(json!({"content": text}), None))
            }
            _ => None,
        }
    }

    /// `content_block_delta`: text, or a piece of a tool call's JSON input.
    fn block_delta(&mut self, index: u64, delta: &Value) -> Result<Option<String>, ProviderError> {
        match delta.get("type").and_then(Value::as_str) {
            Some("text_delta") => {
                let text = delta.get("text").and_then(Value::as_str).unwrap_or("");
                Ok(Some(self.chunk(json!({"content": text}), None)))
            }
            Some("input_json_delta") => {
                let piece = delta
                    .get("partial_json")
                    .and_then(Value::as_str)
                    .unwrap_or("");
                let Some((n, got)) = self.tools.get_mut(&index) else {
                    return Err(ProviderError::InvalidResponse(format!(
                        "an input_json_delta for content block {index}, which is not a tool_use block"
                    )));
                };
                if piece.is_empty() {
                    return Ok(None);
                }
                *got = true;
                let n = *n;
                Ok(Some(self.chunk(
                    json!({"tool_calls": [{"index": n, "function": {"arguments": piece}}]}),
                    None,
                )))
            }
            // Thinking and signature deltas have no OpenAI counterpart.
            _ => Ok(None),
        }
    }

    /// `content_block_stop`: a tool call whose input never came gets `{}`.
    fn block_stop(&mut self, index: u64) -> Option<String> {
        let (n, false) = self.tools.get(&index).copied()? else {
            return None;
        };
        Some(self.chunk(
            json!({"tool_calls": [{"index": n, "function": {"arguments": "{}"}}]}),
            None,
        ))
    }

    /// `message_stop`: the finish-reason chunk, then the usage chunk (no choices).
    fn message_stop(&mut self) -> Vec<String> {
        self.finished = true;
        let finish = finish_reason(self.stop_reason.as_deref());
        vec![
            self.chunk(json!({}), Some(finish)),
            json!({
                "id": self.id, "object": "chat.completion.chunk", "created": self.created,
                "model": self.model, "choices": [], "usage": self.usage.to_openai()
            })
            .to_string(),
        ]
    }
}

/// An `error` event: retryable for overload and server errors.
fn in_stream_error(e: &Value) -> ProviderError {
    let kind = e.get("type").and_then(Value::as_str).unwrap_or("");
    let message = e
        .get("message")
        .and_then(Value::as_str)
        .unwrap_or("(no message)");
    ProviderError::InStream {
        message: format!("{kind}: {message}"),
        retryable: is_retryable_error_type(kind),
    }
}

/// Turns a stream of Anthropic event `data` texts into OpenAI chunk texts. The first error
/// ends it; so does `message_stop` (anything after it is ignored); running out before
/// `message_stop` yields [`ProviderError::Truncated`].
pub fn translate(events: ChunkStream) -> ChunkStream {
    struct State {
        events: ChunkStream,
        tr: Translator,
        pending: VecDeque<String>,
        over: bool,
    }
    let state = State {
        events,
        tr: Translator::new(),
        pending: VecDeque::new(),
        over: false,
    };
    futures::stream::unfold(state, |mut st| async move {
        loop {
            if let Some(c) = st.pending.pop_front() {
                return Some((Ok(c), st));
            }
            if st.over || st.tr.finished() {
                return None;
            }
            match st.events.next().await {
                None => {
                    st.over = true;
                    let chunks = st.tr.events;
                    return Some((Err(ProviderError::Truncated { chunks }), st));
                }
                Some(Err(e)) => {
                    st.over = true;
                    return Some((Err(e), st));
                }
                Some(Ok(data)) => match st.tr.on_event(&data) {
                    Ok(chunks) => st.pending.extend(chunks),
                    Err(e) => {
                        st.over = true;
                        return Some((Err(e), st));
                    }
                },
            }
        }
    })
    .boxed()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn feed(tr: &mut Translator, ev: Value) -> Vec<Value> {
        tr.on_event(&ev.to_string())
            .unwrap()
            .iter()
            .map(|c| serde_json::from_str(c).unwrap())
            .collect()
    }

    #[test]
    fn thinking_and_pings_send_nothing_and_the_role_rides_on_the_first_text() {
        let mut tr = Translator::new();
        let start = json!({"type": "message_start", "message": {"id": "m", "model": "c", "usage": {"input_tokens": 3}}});
        assert!(feed(&mut tr, start).is_empty());
        assert!(feed(&mut tr, json!({"type": "ping"})).is_empty());
        let think = json!({"type": "content_block_delta", "index": 0, "delta": {"type": "thinking_delta", "thinking": "hmm"}});
        assert!(feed(&mut tr, think).is_empty());
        let text = json!({"type": "content_block_delta", "index": 1, "delta": {"type": "text_delta", "text": "hi"}});
        let out = feed(&mut tr, text.clone());
        assert_eq!(out[0]["choices"][0]["delta"]["role"], "assistant");
        assert!(
            feed(&mut tr, text)[0]["choices"][0]["delta"]
                .get("role")
                .is_none()
        );
        assert!(!tr.finished());
        feed(
            &mut tr,
            json!({"type": "message_delta", "delta": {"stop_reason": "end_turn"}, "usage": {"output_tokens": 2}}),
        );
        let end = feed(&mut tr, json!({"type": "message_stop"}));
        assert!(tr.finished());
        assert_eq!(end[0]["choices"][0]["finish_reason"], "stop");
        assert_eq!(end[1]["usage"]["prompt_tokens"], 3);
        assert_eq!(end[1]["usage"]["completion_tokens"], 2);
    }

    #[test]
    fn json_for_a_block_that_is_not_a_tool_call_is_an_invalid_response() {
        let mut tr = Translator::new();
        let e = tr
            .on_event(&json!({"type": "content_block_delta", "index": 4, "delta": {"type": "input_json_delta", "partial_json": "{"}}).to_string())
            .unwrap_err();
        assert_eq!(e.code(), "invalid_provider_response");
        let e = tr.on_event("not json").unwrap_err();
        assert_eq!(e.code(), "invalid_provider_response");
        let e = tr
            .on_event(&json!({"type": "error", "error": {"type": "invalid_request_error", "message": "bad"}}).to_string())
            .unwrap_err();
        assert!(!e.is_retryable(), "{e}");
    }
}
