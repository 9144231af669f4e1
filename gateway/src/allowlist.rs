//! What a chat request may carry to a provider. The agent is an adversary holding our key
//! by proxy: a field that costs money (`n` > 1, `store`, `service_tier`, audio output,
//! predicted outputs), makes the provider fetch something (`image_url` with an `http` URL,
//! `file` parts, web search, hosted tools) or keeps data at the provider (`store`,
//! `metadata`) must never reach it. Only the fields and content-part types a chat request
//! needs pass; anything else is refused with an OpenAI-style 400 naming it.
//!
//! The gateway checks every request before its budget is touched, and [`crate::Client`]
//! checks every request it sends, so `record:` and `replay:` (and the cassette key) only
//! ever see allowed requests.

use serde_json::Value;

/// Top-level fields a request may have. Everything else is refused.
pub const ALLOWED_FIELDS: &[&str] = &[
    "model",
    "messages",
    "tools",
    "tool_choice",
    "parallel_tool_calls",
    "stream",
    "stream_options",
    "temperature",
    "top_p",
    "max_tokens",
    "max_completion_tokens",
    "stop",
    "seed",
    "presence_penalty",
    "frequency_penalty",
    "logit_bias",
    "logprobs",
    "top_logprobs",
    "response_format",
    "reasoning_effort",
    "user",
    "n",
];

/// Content-part types a message may have. `image_url` only with a `data:` URL.
pub const ALLOWED_PARTS: &[&str] = &["text", "image_url", "refusal"];

/// Why some well-known fields are refused, for the message the agent gets.
fn why_refused(field: &str) -> &'static str {
    match field {
        "store" => "it keeps the conversation at the provider",
        "metadata" => "it goes with `store`, keeping data at the provider",
        "service_tier" => "it changes what a call costs",
        "audio" | "modalities" => "audio output costs extra",
        "prediction" => "predicted outputs are billed",
        "web_search_options" => "it makes the provider fetch from the web",
        "functions" | "function_call" => "use `tools` and `tool_choice`",
        _ => "it is not among the fields a chat request needs",
    }
}

/// A request field or value the gateway does not forward.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NotAllowed {
    /// Where, e.g. `messages[2].content[0].image_url.url` (OpenAI's `param`).
    pub param: String,
    pub message: String,
}

impl NotAllowed {
    /// The OpenAI-style error body sent to the agent (HTTP 400).
    pub fn error_body(&self) -> Value {
        serde_json::json!({"error": {
            "type": "invalid_request_error",
            "code": "not_allowed",
            "message": self.message,
            "param": self.param,
        }})
    }
}

impl std::fmt::Display for NotAllowed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

fn refuse(param: impl Into<String>, message: impl Into<String>) -> Result<(), NotAllowed> {
    let param = param.into();
    Err(NotAllowed {
        message: format!("`{param}`: {}", message.into()),
        param,
    })
}

/// Checks a request against the allow-list; the first thing not allowed is the error.
pub fn check(request: &Value) -> Result<(), NotAllowed> {
    let Some(obj) = request.as_object() else {
        return refuse("(root)", "the request body must be a JSON object");
    };
    for (field, value) in obj {
        if !ALLOWED_FIELDS.contains(&field.as_str()) {
            return refuse(
                field.as_str(),
                format!(
                    "the gateway does not forward this field ({}); allowed: {}",
                    why_refused(field),
                    ALLOWED_FIELDS.join(", ")
                ),
            );
        }
        match field.as_str() {
            "n" if value.as_u64() != Some(1) => {
                return refuse("n", "only n = 1 is allowed (each extra choice is billed)");
            }
            "max_tokens" | "max_completion_tokens" if value.as_u64().is_none() => {
                return refuse(field.as_str(), "must be a whole number of tokens");
            }
            "stream" if !value.is_boolean() => return refuse("stream", "must be true or false"),
            "stream_options" => check_stream_options(value)?,
            "messages" => check_messages(value)?,
            "tools" => check_tools(value)?,
            _ => {}
        }
    }
    Ok(())
}

fn check_stream_options(value: &Value) -> Result<(), NotAllowed> {
    let Some(o) = value.as_object() else {
        return refuse("stream_options", "must be an object");
    };
    for (k, v) in o {
        if k != "include_usage" {
            return refuse(
                format!("stream_options.{k}"),
                "not forwarded; only include_usage is allowed",
            );
        }
        if !v.is_boolean() {
            return refuse("stream_options.include_usage", "must be true or false");
        }
    }
    Ok(())
}

fn check_messages(value: &Value) -> Result<(), NotAllowed> {
    let Some(messages) = value.as_array() else {
        return refuse("messages", "must be a list of messages");
    };
    for (i, m) in messages.iter().enumerate() {
        let Some(content) = m.get("content") else {
            continue;
        };
        let Some(parts) = content.as_array() else {
            continue;
        };
        for (j, part) in parts.iter().enumerate() {
            let at = format!("messages[{i}].content[{j}]");
            let kind = part.get("type").and_then(Value::as_str).unwrap_or("");
            if !ALLOWED_PARTS.contains(&kind) {
                return refuse(
                    format!("{at}.type"),
                    format!(
                        "content parts of type `{kind}` are not forwarded; allowed: {} (images as data: URLs)",
                        ALLOWED_PARTS.join(", ")
                    ),
                );
            }
            if kind == "image_url" {
                let url = part
                    .get("image_url")
                    .and_then(|u| u.get("url"))
                    .and_then(Value::as_str)
                    .unwrap_or("");
                if !url.starts_with("data:") {
                    return refuse(
                        format!("{at}.image_url.url"),
                        "an image must be inline as a data: URL; the provider is never made to fetch one",
                    );
                }
            }
        }
    }
    Ok(())
}

fn check_tools(value: &Value) -> Result<(), NotAllowed> {
    let Some(tools) = value.as_array() else {
        return refuse("tools", "must be a list of tools");
    };
    for (i, t) in tools.iter().enumerate() {
        let kind = t.get("type").and_then(Value::as_str).unwrap_or("");
        if kind != "function" {
            return refuse(
                format!("tools[{i}].type"),
                format!(
                    "tools of type `{kind}` are not forwarded (hosted tools search, fetch and cost extra); only `function`"
                ),
            );
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn base() -> Value {
        json!({"model": "m", "stream": true, "stream_options": {"include_usage": true},
            "messages": [
                {"role": "system", "content": "s"},
                {"role": "user", "content": [
                    {"type": "text", "text": "look"},
                    {"type": "image_url", "image_url": {"url": "data:image/png;base64,iVBORw0KGgo=", "detail": "low"}}]},
                {"role": "assistant", "content": null, "tool_calls": [{"id": "c", "type": "function", "function": {"name": "f", "arguments": "{}"}}]},
                {"role": "tool", "tool_call_id": "c", "content": "out"}],
            "tools": [{"type": "function", "function": {"name": "f", "parameters": {"type": "object"}}}],
            "tool_choice": "auto", "parallel_tool_calls": true, "temperature": 0, "max_tokens": 100, "n": 1})
    }

    #[test]
    fn a_full_agent_request_passes() {
        assert_eq!(check(&base()), Ok(()));
    }

    /// The cassette key follows the same rule: every allowed field but the volatile ones
    /// (streaming options, the end-user id) changes the key, and nothing the allow-list
    /// refuses can reach it.
    #[test]
    fn the_cassette_key_covers_every_allowed_field_but_the_volatile_ones() {
        use crate::canonical::{VOLATILE_FIELDS, request_key};
        let n = crate::normalize::Normalizer::default();
        let key = |r: &Value| request_key(r, &n);
        for field in ALLOWED_FIELDS {
            let mut changed = base();
            changed[*field] = json!("something else");
            let volatile = VOLATILE_FIELDS.contains(field);
            assert_eq!(key(&changed) == key(&base()), volatile, "{field}");
        }
        for field in VOLATILE_FIELDS {
            let mut r = base();
            r[*field] = json!("x");
            assert!(
                ALLOWED_FIELDS.contains(field) || check(&r).is_err(),
                "{field} is neither allowed nor refused"
            );
        }
    }

    #[test]
    fn each_costly_or_fetching_thing_is_refused_by_name() {
        // (change to the request, param named)
        type Edit = fn(&mut Value);
        let table: Vec<(Edit, &str, &str)> = vec![
            (|r| r["n"] = json!(3), "n", "only n = 1"),
            (
                |r| r["store"] = json!(true),
                "store",
                "keeps the conversation",
            ),
            (
                |r| r["metadata"] = json!({"a": "b"}),
                "metadata",
                "keeping data",
            ),
            (
                |r| r["service_tier"] = json!("priority"),
                "service_tier",
                "costs",
            ),
            (
                |r| r["modalities"] = json!(["text", "audio"]),
                "modalities",
                "audio",
            ),
            (
                |r| r["web_search_options"] = json!({}),
                "web_search_options",
                "fetch",
            ),
            (
                |r| r["prediction"] = json!({"type": "content"}),
                "prediction",
                "billed",
            ),
            (
                |r| r["some_new_field"] = json!(1),
                "some_new_field",
                "allowed: model",
            ),
            (
                |r| r["max_tokens"] = json!("100"),
                "max_tokens",
                "whole number",
            ),
            (
                |r| r["stream_options"]["include_obfuscation"] = json!(true),
                "stream_options.include_obfuscation",
                "only include_usage",
            ),
            (
                |r| {
                    r["messages"][1]["content"][1]["image_url"]["url"] =
                        json!("https://attacker.example/x.png")
                },
                "messages[1].content[1].image_url.url",
                "data: URL",
            ),
            (
                |r| {
                    r["messages"][1]["content"][0] =
                        json!({"type": "input_audio", "input_audio": {}})
                },
                "messages[1].content[0].type",
                "`input_audio`",
            ),
            (
                |r| {
                    r["messages"][1]["content"][0] =
                        json!({"type": "file", "file": {"file_id": "f"}})
                },
                "messages[1].content[0].type",
                "`file`",
            ),
            (
                |r| r["tools"][0] = json!({"type": "web_search"}),
                "tools[0].type",
                "hosted tools",
            ),
        ];
        for (edit, param, why) in table {
            let mut r = base();
            edit(&mut r);
            let e = check(&r).unwrap_err();
            assert_eq!(e.param, param);
            assert!(e.message.contains(why), "{param}: {}", e.message);
            let body = e.error_body();
            assert_eq!(body["error"]["type"], "invalid_request_error");
            assert_eq!(body["error"]["param"], param);
        }
    }
}
