//! A `chat.completion` as a Responses `response` object, and the parts the stream shares:
//! output items, usage and the response envelope.

use crate::agent_api::{first_message, usage_of};
use serde_json::{Value, json};

/// The upstream's usage in the Responses shape: `input_tokens` counts every prompt token,
/// the cache reads among them in `input_tokens_details.cached_tokens` (as OpenAI counts).
pub fn usage(u: Option<nab_protocol::Usage>) -> Value {
    let u = u.unwrap_or_default();
    json!({
        "input_tokens": u.prompt_tokens,
        "input_tokens_details": {"cached_tokens": u.cached_tokens},
        "output_tokens": u.completion_tokens,
        "output_tokens_details": {"reasoning_tokens": 0},
        "total_tokens": u.total(),
    })
}

/// The response id: the upstream's, with the Responses `resp_` prefix.
pub fn response_id(id: Option<&Value>) -> String {
    let id = id.and_then(Value::as_str).unwrap_or("gateway");
    if id.starts_with("resp_") {
        id.to_owned()
    } else {
        format!("resp_{id}")
    }
}

/// The assistant's text as a `message` output item.
pub fn message_item(item_id: &str, text: &str, status: &str) -> Value {
    json!({"type": "message", "id": item_id, "status": status, "role": "assistant",
        "content": [{"type": "output_text", "text": text, "annotations": []}]})
}

/// A tool call as a `function_call` output item.
pub fn call_item(call_id: &str, name: &str, arguments: &str, status: &str) -> Value {
    json!({"type": "function_call", "id": format!("fc_{call_id}"), "call_id": call_id,
        "name": name, "arguments": arguments, "status": status})
}

/// The `response` object around `output`: `completed`, or `incomplete` when the answer
/// stopped at its token limit (`finish` `length`); `in_progress` while a stream runs.
pub fn envelope(
    id: &str,
    completion: &Value,
    output: Vec<Value>,
    finish: Option<&str>,
    usage: Option<Value>,
) -> Value {
    let (status, incomplete) = match finish {
        None => ("in_progress", Value::Null),
        Some("length") => ("incomplete", json!({"reason": "max_output_tokens"})),
        Some("content_filter") => ("incomplete", json!({"reason": "content_filter"})),
        Some(_) => ("completed", Value::Null),
    };
    json!({
        "id": id, "object": "response",
        "created_at": completion.get("created").and_then(Value::as_u64).unwrap_or(0),
        "status": status, "error": null, "incomplete_details": incomplete,
        "model": completion.get("model").cloned().unwrap_or(json!("")),
        "output": output, "parallel_tool_calls": true, "tool_choice": "auto", "tools": [],
        "instructions": null, "metadata": {}, "temperature": null, "top_p": null,
        "text": {"format": {"type": "text"}}, "usage": usage,
    })
}

/// A whole `chat.completion` as a `response`.
pub fn from_completion(completion: &Value) -> Value {
    let id = response_id(completion.get("id"));
    let (message, finish) = first_message(completion);
    let mut output = Vec::new();
    if let Some(text) = message.get("content").and_then(Value::as_str)
        && !text.is_empty()
    {
        output.push(message_item(&format!("msg_{id}"), text, "completed"));
    }
    let calls = message.get("tool_calls").and_then(Value::as_array);
    for call in calls.into_iter().flatten() {
        let f = call.get("function").unwrap_or(&Value::Null);
        fn s(v: Option<&Value>) -> &str {
            v.and_then(Value::as_str).unwrap_or("")
        }
        output.push(call_item(
            s(call.get("id")),
            s(f.get("name")),
            s(f.get("arguments")),
            "completed",
        ));
    }
    let finish = finish.unwrap_or_else(|| "stop".into());
    envelope(
        &id,
        completion,
        output,
        Some(&finish),
        Some(usage(usage_of(completion))),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_completion_with_a_call_becomes_output_items_with_the_upstream_counts() {
        let r = from_completion(&json!({
            "id": "chatcmpl-1", "created": 5, "model": "claude-x",
            "choices": [{"index": 0, "finish_reason": "tool_calls", "message": {"role": "assistant", "content": "Reading.",
                "tool_calls": [{"id": "toolu_1", "type": "function", "function": {"name": "read", "arguments": "{\"p\":1}"}}]}}],
            "usage": {"prompt_tokens": 117, "completion_tokens": 5, "prompt_tokens_details": {"cached_tokens": 100}}
        }));
        assert_eq!(r["id"], "resp_chatcmpl-1");
        assert_eq!(r["status"], "completed");
        assert_eq!(r["output"][0]["content"][0]["text"], "Reading.");
        assert_eq!(r["output"][1]["call_id"], "toolu_1");
        assert_eq!(r["output"][1]["arguments"], "{\"p\":1}");
        assert_eq!(r["usage"]["input_tokens"], 117);
        assert_eq!(r["usage"]["input_tokens_details"]["cached_tokens"], 100);
        assert_eq!(r["usage"]["output_tokens"], 5);
        assert_eq!(r["usage"]["total_tokens"], 122);
    }

    #[test]
    fn an_answer_cut_at_its_limit_is_incomplete() {
        let r = from_completion(
            &json!({"choices": [{"finish_reason": "length", "message": {"content": "a"}}]}),
        );
        assert_eq!(r["status"], "incomplete");
        assert_eq!(r["incomplete_details"]["reason"], "max_output_tokens");
    }
}
