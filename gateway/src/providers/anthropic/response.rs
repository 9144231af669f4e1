//! An Anthropic Messages answer (a whole `message` object) turned into an OpenAI
//! `chat.completion`, and the two mappings streams share: stop reasons and usage.

use serde_json::{Map, Value, json};

/// Anthropic's `stop_reason` as an OpenAI `finish_reason`: `end_turn`, `stop_sequence`
/// (and `pause_turn`, `refusal`, anything new) → `stop`, `max_tokens` → `length`,
/// `tool_use` → `tool_calls`.
pub fn finish_reason(stop_reason: Option<&str>) -> &'static str {
    match stop_reason {
        Some("max_tokens") => "length",
        Some("tool_use") => "tool_calls",
        _ => "stop",
    }
}

/// Anthropic's token counts, merged from `message_start` and `message_delta` in a stream.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Usage {
    /// Input tokens not read from or written to the cache.
    pub input: u64,
    pub output: u64,
    pub cache_read: u64,
    pub cache_creation: u64,
}

impl Usage {
    /// Takes the counts `u` (an Anthropic `usage` object) has, keeping the others: a
    /// stream's `message_delta` repeats some of them, cumulatively.
    pub fn update(&mut self, u: &Value) {
        let n = |k: &str| u.get(k).and_then(Value::as_u64);
        if let Some(v) = n("input_tokens") {
            self.input = v;
        }
        if let Some(v) = n("output_tokens") {
            self.output = v;
        }
        if let Some(v) = n("cache_read_input_tokens") {
            self.cache_read = v;
        }
        if let Some(v) = n("cache_creation_input_tokens") {
            self.cache_creation = v;
        }
    }

    /// OpenAI's shape: `prompt_tokens` counts every input token, cached or not (as OpenAI
    /// does), `prompt_tokens_details.cached_tokens` the cache reads, and
    /// `prompt_tokens_details.cache_creation_tokens` (not an OpenAI field) the cache writes.
    pub fn to_openai(self) -> Value {
        let prompt = self.input + self.cache_read + self.cache_creation;
        json!({
            "prompt_tokens": prompt,
            "completion_tokens": self.output,
            "total_tokens": prompt + self.output,
            "prompt_tokens_details": {
                "cached_tokens": self.cache_read,
                "cache_creation_tokens": self.cache_creation,
            }
        })
    }
}

/// An OpenAI `tool_calls` entry.
pub fn tool_call(id: &str, name: &str, arguments: &str) -> Value {
    json!({"id": id, "type": "function", "function": {"name": name, "arguments": arguments}})
}

/// The answer is not an Anthropic message; `shown` is its start.
#[derive(Debug, thiserror::Error)]
#[error("expected an Anthropic message object (type \"message\"): {shown}")]
pub struct NotAMessage {
    pub shown: String,
}

/// A whole Anthropic `message` as a `chat.completion`; `Err` says what is missing.
pub fn to_completion(message: &Value) -> Result<Value, NotAMessage> {
    if message.get("type").and_then(Value::as_str) != Some("message") {
        return Err(NotAMessage {
            shown: nab_protocol::cap_text(&message.to_string(), 200),
        });
    }
    let blocks = message
        .get("content")
        .and_then(Value::as_array)
        .map(Vec::as_slice)
        .unwrap_or(&[]);
    let mut text = String::new();
    let mut calls = Vec::new();
    for b in blocks {
        match b.get("type").and_then(Value::as_str) {
            Some("text") => text.push_str(b.get("text").and_then(Value::as_str).unwrap_or("")),
            Some("tool_use") => {
                let id = b.get("id").and_then(Value::as_str).unwrap_or("");
                let name = b.get("name").and_then(Value::as_str).unwrap_or("");
                let input = b.get("input").cloned().unwrap_or_else(|| json!({}));
                calls.push(tool_call(id, name, &input.to_string()));
            }
            // Thinking and other blocks have no place in an OpenAI message.
            _ => {}
        }
    }
    let mut msg = Map::new();
    msg.insert("role".into(), json!("assistant"));
    msg.insert(
        "content".into(),
        if text.is_empty() && !calls.is_empty() {
            Value::Null
        } else {
            json!(text)
        },
    );
    if !calls.is_empty() {
        msg.insert("tool_calls".into(), Value::Array(calls));
    }
    let mut usage = Usage::default();
    if let Some(u) = message.get("usage") {
        usage.update(u);
    }
    Ok(json!({
        "id": message.get("id").cloned().unwrap_or(Value::Null),
        "object": "chat.completion",
        "created": chrono::Utc::now().timestamp(),
        "model": message.get("model").cloned().unwrap_or(Value::Null),
        "choices": [{
            "index": 0,
            "message": msg,
            "finish_reason": finish_reason(message.get("stop_reason").and_then(Value::as_str)),
        }],
        "usage": usage.to_openai(),
    }))
}

/// An Anthropic error body (`{"type": "error", "error": {"type", "message"}}`) as an
/// OpenAI-style one (`{"error": {"message", "type", "code"}}`), so the agent reads it as
/// it reads any provider's; other text is returned as it is.
pub fn openai_error_body(body: &str) -> String {
    let Ok(v) = serde_json::from_str::<Value>(body.trim()) else {
        return body.to_owned();
    };
    let Some(e) = v.get("error").filter(|e| e.is_object()) else {
        return body.to_owned();
    };
    json!({"error": {
        "message": e.get("message").cloned().unwrap_or(Value::Null),
        "type": e.get("type").cloned().unwrap_or(Value::Null),
        "code": e.get("type").cloned().unwrap_or(Value::Null),
    }})
    .to_string()
}

/// Whether an in-stream Anthropic error type could pass if tried again.
pub fn is_retryable_error_type(kind: &str) -> bool {
    matches!(
        kind,
        "overloaded_error" | "api_error" | "rate_limit_error" | "timeout_error"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_message_with_text_and_calls_becomes_a_completion() {
        let c = to_completion(&json!({
            "id": "msg_1", "type": "message", "role": "assistant", "model": "claude-x",
            "content": [{"type": "text", "text": "Reading."},
                        {"type": "tool_use", "id": "toolu_1", "name": "read_file", "input": {"path": "a.rs"}}],
            "stop_reason": "tool_use",
            "usage": {"input_tokens": 10, "output_tokens": 5, "cache_read_input_tokens": 100, "cache_creation_input_tokens": 7}
        }))
        .unwrap();
        assert_eq!(c["choices"][0]["finish_reason"], "tool_calls");
        assert_eq!(c["choices"][0]["message"]["content"], "Reading.");
        let call = &c["choices"][0]["message"]["tool_calls"][0];
        assert_eq!(call["id"], "toolu_1");
        let args: Value =
            serde_json::from_str(call["function"]["arguments"].as_str().unwrap()).unwrap();
        assert_eq!(args, json!({"path": "a.rs"}));
        assert_eq!(c["usage"]["prompt_tokens"], 117);
        assert_eq!(c["usage"]["prompt_tokens_details"]["cached_tokens"], 100);
        assert_eq!(c["usage"]["completion_tokens"], 5);
    }

    #[test]
    fn stop_reasons_map() {
        assert_eq!(finish_reason(Some("end_turn")), "stop");
        assert_eq!(finish_reason(Some("stop_sequence")), "stop");
        assert_eq!(finish_reason(Some("max_tokens")), "length");
        assert_eq!(finish_reason(Some("tool_use")), "tool_calls");
    }

    #[test]
    fn error_bodies_become_openai_shaped() {
        let b = openai_error_body(
            r#"{"type":"error","error":{"type":"invalid_request_error","message":"prompt is too long"}}"#,
        );
        let v: Value = serde_json::from_str(&b).unwrap();
        assert_eq!(v["error"]["message"], "prompt is too long");
        assert_eq!(v["error"]["type"], "invalid_request_error");
        assert_eq!(openai_error_body("plain"), "plain");
    }
}
