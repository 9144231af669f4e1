//! A `chat.completion` as an Anthropic `message`, and the mappings the stream shares:
//! finish reasons to stop reasons, usage, tool-call arguments to `tool_use` input, errors.

use crate::agent_api::{error_message, first_message, usage_of};
use http::StatusCode;
use serde_json::{Map, Value, json};

/// A chat `finish_reason` as Anthropic's `stop_reason`: `length` → `max_tokens`,
/// `tool_calls` → `tool_use`, `content_filter` → `refusal`, anything else → `end_turn`.
pub fn stop_reason(finish: Option<&str>) -> &'static str {
    match finish {
        Some("length") => "max_tokens",
        Some("tool_calls" | "function_call") => "tool_use",
        Some("content_filter") => "refusal",
        _ => "end_turn",
    }
}

/// The upstream's usage in Anthropic's shape: `input_tokens` are the prompt tokens neither
/// read from nor written to the cache, which go in their own counts (as Anthropic counts
/// them, so an Anthropic upstream's numbers come back unchanged).
pub fn usage(u: Option<nab_protocol::Usage>) -> Value {
    let u = u.unwrap_or_default();
    let input = u
        .prompt_tokens
        .saturating_sub(u.cached_tokens)
        .saturating_sub(u.cache_write_tokens);
    json!({
        "input_tokens": input,
        "output_tokens": u.completion_tokens,
        "cache_read_input_tokens": u.cached_tokens,
        "cache_creation_input_tokens": u.cache_write_tokens,
    })
}

/// A tool call's `arguments` (a JSON text) as a `tool_use` input object. Empty arguments
/// are `{}`; arguments that are not a JSON object (a model's malformed call) are kept
/// whole under `arguments`, so the agent sees what the model wrote.
pub fn tool_input(arguments: &str) -> Value {
    if arguments.trim().is_empty() {
        return json!({});
    }
    match serde_json::from_str::<Value>(arguments) {
        Ok(v @ Value::Object(_)) => v,
        _ => json!({"arguments": arguments}),
    }
}

/// The message id: the upstream's, with Anthropic's `msg_` prefix.
pub fn message_id(id: Option<&Value>) -> String {
    let id = id.and_then(Value::as_str).unwrap_or("gateway");
    if id.starts_with("msg_") {
        id.to_owned()
    } else {
        format!("msg_{id}")
    }
}

/// A whole `chat.completion` as an Anthropic `message`.
pub fn from_completion(completion: &Value) -> Value {
    let (message, finish) = first_message(completion);
    let mut content = Vec::new();
    if let Some(text) = message.get("content").and_then(Value::as_str)
        && !text.is_empty()
    {
        content.push(json!({"type": "text", "text": text}));
    }
    let calls = message.get("tool_calls").and_then(Value::as_array);
    for call in calls.into_iter().flatten() {
        let f = call.get("function").unwrap_or(&Value::Null);
        let s = |v: Option<&Value>| v.and_then(Value::as_str).unwrap_or("").to_owned();
        content.push(json!({
            "type": "tool_use",
            "id": s(call.get("id")),
            "name": s(f.get("name")),
            "input": tool_input(&s(f.get("arguments"))),
        }));
    }
    let mut out = Map::new();
    out.insert("id".into(), json!(message_id(completion.get("id"))));
    out.insert("type".into(), json!("message"));
    out.insert("role".into(), json!("assistant"));
    out.insert(
        "model".into(),
        completion.get("model").cloned().unwrap_or(json!("")),
    );
    out.insert("content".into(), Value::Array(content));
    out.insert("stop_reason".into(), json!(stop_reason(finish.as_deref())));
    out.insert("stop_sequence".into(), Value::Null);
    out.insert("usage".into(), usage(usage_of(completion)));
    Value::Object(out)
}

/// Anthropic's error type for an answer with `status`.
pub fn error_type(status: StatusCode) -> &'static str {
    match status.as_u16() {
        400 | 408 | 422 => "invalid_request_error",
        401 => "authentication_error",
        403 => "permission_error",
        404 => "not_found_error",
        413 => "request_too_large",
        429 => "rate_limit_error",
        503 | 529 => "overloaded_error",
        _ => "api_error",
    }
}

/// An error body (OpenAI's or Anthropic's shape) in Anthropic's shape.
pub fn error_body(status: StatusCode, body: &Value) -> Value {
    json!({"type": "error", "error": {"type": error_type(status), "message": error_message(body)}})
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_completion_with_a_call_becomes_a_message_with_the_upstream_counts() {
        let m = from_completion(&json!({
            "id": "chatcmpl-1", "model": "deepseek-chat",
            "choices": [{"index": 0, "finish_reason": "tool_calls", "message": {"role": "assistant", "content": "Reading.",
                "tool_calls": [{"id": "call_1", "type": "function", "function": {"name": "read", "arguments": "{\"p\":1}"}}]}}],
            "usage": {"prompt_tokens": 117, "completion_tokens": 5, "prompt_tokens_details": {"cached_tokens": 100, "cache_creation_tokens": 7}}
        }));
        assert_eq!(m["id"], "msg_chatcmpl-1");
        assert_eq!(m["stop_reason"], "tool_use");
        assert_eq!(m["content"][0], json!({"type": "text", "text": "Reading."}));
        assert_eq!(
            m["content"][1],
            json!({"type": "tool_use", "id": "call_1", "name": "read", "input": {"p": 1}})
        );
        assert_eq!(
            m["usage"],
            json!({"input_tokens": 10, "output_tokens": 5, "cache_read_input_tokens": 100, "cache_creation_input_tokens": 7})
        );
    }

    #[test]
    fn malformed_arguments_are_kept_for_the_agent_to_see() {
        assert_eq!(tool_input(""), json!({}));
        assert_eq!(tool_input("{\"a\""), json!({"arguments": "{\"a\""}));
    }

    #[test]
    fn errors_take_anthropics_shape() {
        let b = error_body(
            StatusCode::TOO_MANY_REQUESTS,
            &json!({"error": {"type": "x", "code": "budget_exceeded", "message": "over"}}),
        );
        assert_eq!(
            b,
            json!({"type": "error", "error": {"type": "rate_limit_error", "message": "over"}})
        );
    }
}
