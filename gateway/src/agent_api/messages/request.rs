//! An Anthropic Messages request from the agent turned into a chat-completions request.
//!
//! - `system` (a string or text blocks) becomes the first, `system` message.
//! - A user turn's `tool_result` blocks become `tool` messages (in their order, before the
//!   turn's other blocks); its `text` and base64 `image` blocks become a user message.
//! - An assistant turn's `text` blocks become its content, its `tool_use` blocks its
//!   `tool_calls` (the input serialized as the arguments); `thinking` blocks are dropped
//!   (chat completions has no place for them).
//! - `tools` `{name, description, input_schema}` become function tools; Anthropic's
//!   server tools (a `type` such as `web_search_20250305`) are refused, as the chat
//!   endpoint refuses hosted tools. `tool_choice` auto / any / tool / none becomes auto /
//!   required / a named function / none, `disable_parallel_tool_use` becomes
//!   `parallel_tool_calls: false`.
//! - `max_tokens` (required, as Anthropic requires it), `temperature`, `top_p`,
//!   `stop_sequences` (→ `stop`) and `stream` carry over; `metadata` is dropped (it only
//!   names the end user); `top_k` is dropped (no chat-completions form). Anything else is
//!   refused by name. `cache_control` marks are dropped: caching is the provider's.
//!
//! A tool result's `is_error` has no chat-completions form: the text is passed as it is.

use crate::agent_api::{BadRequest, bad, only_fields};
use serde_json::{Map, Value, json};

const ALLOWED: &[&str] = &[
    "model",
    "max_tokens",
    "messages",
    "system",
    "tools",
    "tool_choice",
    "stream",
    "temperature",
    "top_p",
    "top_k",
    "stop_sequences",
    "metadata",
];

/// The chat-completions form of a Messages request.
pub fn to_chat(request: &Value) -> Result<Value, BadRequest> {
    only_fields(request, ALLOWED, "Anthropic Messages")?;
    let mut out = Map::new();
    if let Some(m) = request.get("model") {
        out.insert("model".into(), m.clone());
    }
    let max = request
        .get("max_tokens")
        .ok_or_else(|| bad("max_tokens", "required (a whole number of tokens)"))?;
    if max.as_u64().is_none() {
        return Err(bad("max_tokens", "must be a whole number of tokens"));
    }
    out.insert("max_tokens".into(), max.clone());
    let mut messages = system(request.get("system"))?;
    let turns = request
        .get("messages")
        .and_then(Value::as_array)
        .ok_or_else(|| bad("messages", "required: a list of {role, content} turns"))?;
    for (i, turn) in turns.iter().enumerate() {
        messages.extend(turn_messages(turn, i)?);
    }
    out.insert("messages".into(), Value::Array(messages));
    if let Some(tools) = request.get("tools") {
        out.insert("tools".into(), self::tools(tools)?);
    }
    if let Some(choice) = request.get("tool_choice") {
        tool_choice(choice, &mut out)?;
    }
    carry(request, &mut out)?;
    Ok(Value::Object(out))
}

/// `temperature`, `top_p`, `stop_sequences` and `stream`.
fn carry(request: &Value, out: &mut Map<String, Value>) -> Result<(), BadRequest> {
    for key in ["temperature", "top_p"] {
        if let Some(v) = request.get(key) {
            if !v.is_number() {
                return Err(bad(key, "must be a number"));
            }
            out.insert(key.into(), v.clone());
        }
    }
    if let Some(stop) = request.get("stop_sequences") {
        if !stop
            .as_array()
            .is_some_and(|a| a.iter().all(Value::is_string))
        {
            return Err(bad("stop_sequences", "must be a list of strings"));
        }
        out.insert("stop".into(), stop.clone());
    }
    if let Some(s) = request.get("stream") {
        if !s.is_boolean() {
            return Err(bad("stream", "must be true or false"));
        }
        out.insert("stream".into(), s.clone());
    }
    Ok(())
}

/// The `system` text (a string or a list of text blocks) as a system message.
fn system(system: Option<&Value>) -> Result<Vec<Value>, BadRequest> {
    let text = match system {
        None | Some(Value::Null) => return Ok(Vec::new()),
        Some(Value::String(s)) => s.clone(),
        Some(Value::Array(blocks)) => {
            let mut texts = Vec::new();
            for (j, b) in blocks.iter().enumerate() {
                texts.push(text_of_block(b, &format!("system[{j}]"))?);
            }
            texts.join("\n\n")
        }
        Some(_) => return Err(bad("system", "must be a string or a list of text blocks")),
    };
    Ok(vec![json!({"role": "system", "content": text})])
}

fn text_of_block(b: &Value, at: &str) -> Result<String, BadRequest> {
    if b.get("type").and_then(Value::as_str) != Some("text") {
        return Err(bad(format!("{at}.type"), "expected a text block"));
    }
    b.get("text")
        .and_then(Value::as_str)
        .map(str::to_owned)
        .ok_or_else(|| bad(format!("{at}.text"), "must be a string"))
}

/// One turn's chat messages.
fn turn_messages(turn: &Value, i: usize) -> Result<Vec<Value>, BadRequest> {
    let at = format!("messages[{i}]");
    let role = turn.get("role").and_then(Value::as_str).unwrap_or("");
    let blocks = match turn.get("content") {
        Some(Value::String(s)) => vec![json!({"type": "text", "text": s})],
        Some(Value::Array(a)) => a.clone(),
        _ => {
            return Err(bad(
                format!("{at}.content"),
                "must be a string or a list of content blocks",
            ));
        }
    };
    match role {
        "user" => user_messages(&blocks, &at),
        "assistant" => assistant_message(&blocks, &at).map(|m| vec![m]),
        other => Err(bad(
            format!("{at}.role"),
            format!(
                "{other:?}: expected \"user\" or \"assistant\" (the system prompt goes in `system`)"
            ),
        )),
    }
}

/// A user turn: its tool results as tool messages, then the rest as one user message.
fn user_messages(blocks: &[Value], at: &str) -> Result<Vec<Value>, BadRequest> {
    let mut out = Vec::new();
    let mut parts = Vec::new();
    for (j, b) in blocks.iter().enumerate() {
        let at = format!("{at}.content[{j}]");
        match b.get("type").and_then(Value::as_str).unwrap_or("") {
            "text" => parts.push(json!({"type": "text", "text": text_of_block(b, &at)?})),
            "image" => parts.push(image_part(b, &at)?),
            "tool_result" => out.push(tool_message(b, &at)?),
            other => {
                return Err(bad(
                    format!("{at}.type"),
                    format!(
                        "{other:?}: a user turn may hold text, image (base64) and tool_result blocks"
                    ),
                ));
            }
        }
    }
    match parts.as_slice() {
        [] => {}
        [only] if only["type"] == "text" => {
            out.push(json!({"role": "user", "content": only["text"]}));
        }
        _ => out.push(json!({"role": "user", "content": parts})),
    }
    Ok(out)
}

/// A base64 image block as an `image_url` part with a data: URL (the provider is never made
/// to fetch an image).
fn image_part(b: &Value, at: &str) -> Result<Value, BadRequest> {
    let source = b.get("source").unwrap_or(&Value::Null);
    let field = |k: &str| source.get(k).and_then(Value::as_str);
    match (field("type"), field("media_type"), field("data")) {
        (Some("base64"), Some(media), Some(data)) => Ok(json!({
            "type": "image_url", "image_url": {"url": format!("data:{media};base64,{data}")}
        })),
        _ => Err(bad(
            format!("{at}.source"),
            "only base64 images ({type: base64, media_type, data}) are taken; the provider is never made to fetch one",
        )),
    }
}

fn tool_message(b: &Value, at: &str) -> Result<Value, BadRequest> {
    let id = b
        .get("tool_use_id")
        .and_then(Value::as_str)
        .ok_or_else(|| bad(format!("{at}.tool_use_id"), "required: the tool_use's id"))?;
    let content = match b.get("content") {
        None | Some(Value::Null) => String::new(),
        Some(Value::String(s)) => s.clone(),
        Some(Value::Array(parts)) => {
            let mut texts = Vec::new();
            for (k, p) in parts.iter().enumerate() {
                texts.push(text_of_block(p, &format!("{at}.content[{k}]"))?);
            }
            texts.join("\n")
        }
        Some(_) => {
            return Err(bad(
                format!("{at}.content"),
                "must be a string or a list of text blocks",
            ));
        }
    };
    Ok(json!({"role": "tool", "tool_call_id": id, "content": content}))
}

/// An assistant turn: its text as the content, its tool_use blocks as tool calls.
fn assistant_message(blocks: &[Value], at: &str) -> Result<Value, BadRequest> {
    let mut texts = Vec::new();
    let mut calls = Vec::new();
    for (j, b) in blocks.iter().enumerate() {
        let at = format!("{at}.content[{j}]");
        match b.get("type").and_then(Value::as_str).unwrap_or("") {
            "text" => texts.push(text_of_block(b, &at)?),
            "tool_use" => calls.push(tool_call(b, &at)?),
            "thinking" | "redacted_thinking" => {}
            other => {
                return Err(bad(
                    format!("{at}.type"),
                    format!(
                        "{other:?}: an assistant turn may hold text, tool_use and thinking blocks"
                    ),
                ));
            }
        }
    }
    let mut m = Map::new();
    m.insert("role".into(), json!("assistant"));
    let content = texts.join("");
    m.insert(
        "content".into(),
        if content.is_empty() && !calls.is_empty() {
            Value::Null
        } else {
            json!(content)
        },
    );
    if !calls.is_empty() {
        m.insert("tool_calls".into(), Value::Array(calls));
    }
    Ok(Value::Object(m))
}

fn tool_call(b: &Value, at: &str) -> Result<Value, BadRequest> {
    let text = |k: &str| {
        b.get(k)
            .and_then(Value::as_str)
            .ok_or_else(|| bad(format!("{at}.{k}"), "required: a string"))
    };
    let (id, name) = (text("id")?, text("name")?);
    let input = b.get("input").cloned().unwrap_or(json!({}));
    if !input.is_object() {
        return Err(bad(format!("{at}.input"), "must be a JSON object"));
    }
    Ok(json!({"id": id, "type": "function",
        "function": {"name": name, "arguments": input.to_string()}}))
}

/// Function tools; a server tool (one with a `type` other than `custom`) is refused.
fn tools(tools: &Value) -> Result<Value, BadRequest> {
    let list = tools
        .as_array()
        .ok_or_else(|| bad("tools", "must be a list of tools"))?;
    let mut out = Vec::new();
    for (i, t) in list.iter().enumerate() {
        let at = format!("tools[{i}]");
        if let Some(kind) = t
            .get("type")
            .and_then(Value::as_str)
            .filter(|k| *k != "custom")
        {
            return Err(bad(
                format!("{at}.type"),
                format!(
                    "{kind:?}: server tools are not forwarded (they run, fetch and cost at the provider); only tools with an input_schema"
                ),
            ));
        }
        let name = t
            .get("name")
            .and_then(Value::as_str)
            .ok_or_else(|| bad(format!("{at}.name"), "required: a string"))?;
        let schema = t
            .get("input_schema")
            .filter(|s| s.is_object())
            .ok_or_else(|| {
                bad(
                    format!("{at}.input_schema"),
                    "required: a JSON schema object",
                )
            })?;
        let mut f = Map::new();
        f.insert("name".into(), json!(name));
        if let Some(d) = t.get("description").and_then(Value::as_str) {
            f.insert("description".into(), json!(d));
        }
        f.insert("parameters".into(), schema.clone());
        out.push(json!({"type": "function", "function": f}));
    }
    Ok(Value::Array(out))
}

fn tool_choice(choice: &Value, out: &mut Map<String, Value>) -> Result<(), BadRequest> {
    let kind = choice.get("type").and_then(Value::as_str).unwrap_or("");
    let chat = match kind {
        "auto" => json!("auto"),
        "any" => json!("required"),
        "none" => json!("none"),
        "tool" => {
            let name = choice
                .get("name")
                .and_then(Value::as_str)
                .ok_or_else(|| bad("tool_choice.name", "required for type \"tool\""))?;
            json!({"type": "function", "function": {"name": name}})
        }
        other => {
            return Err(bad(
                "tool_choice.type",
                format!("{other:?}: expected auto, any, tool or none"),
            ));
        }
    };
    out.insert("tool_choice".into(), chat);
    match choice.get("disable_parallel_tool_use") {
        Some(Value::Bool(true)) if kind != "none" => {
            out.insert("parallel_tool_calls".into(), json!(false));
        }
        None | Some(Value::Bool(_)) => {}
        Some(_) => {
            return Err(bad(
                "tool_choice.disable_parallel_tool_use",
                "must be true or false",
            ));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_tool_round_trip_becomes_chat_messages_in_order() {
        let r = json!({"model": "claude", "max_tokens": 100, "system": [{"type": "text", "text": "be brief", "cache_control": {"type": "ephemeral"}}],
            "messages": [
                {"role": "user", "content": "read a"},
                {"role": "assistant", "content": [{"type": "text", "text": "ok"}, {"type": "tool_use", "id": "t1", "name": "read", "input": {"p": "a"}}]},
                {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t1", "content": [{"type": "text", "text": "A"}]}, {"type": "text", "text": "and?"}]}],
            "tools": [{"name": "read", "description": "d", "input_schema": {"type": "object"}}],
            "tool_choice": {"type": "any", "disable_parallel_tool_use": true}, "stop_sequences": ["X"], "stream": true});
        let c = to_chat(&r).unwrap();
        assert_eq!(
            c["messages"],
            json!([
                {"role": "system", "content": "be brief"},
                {"role": "user", "content": "read a"},
                {"role": "assistant", "content": "ok", "tool_calls": [{"id": "t1", "type": "function", "function": {"name": "read", "arguments": "{\"p\":\"a\"}"}}]},
                {"role": "tool", "tool_call_id": "t1", "content": "A"},
                {"role": "user", "content": "and?"}
            ])
        );
        assert_eq!(
            c["tools"][0]["function"]["parameters"],
            json!({"type": "object"})
        );
        assert_eq!(c["tool_choice"], "required");
        assert_eq!(c["parallel_tool_calls"], false);
        assert_eq!(c["stop"], json!(["X"]));
        assert_eq!(c["max_tokens"], 100);
        assert_eq!(c["stream"], true);
        crate::allowlist::check(&c).unwrap();
    }

    #[test]
    fn what_cannot_be_translated_is_named_where_it_is() {
        let base = || json!({"model": "c", "max_tokens": 5, "messages": [{"role": "user", "content": "hi"}]});
        type Edit = fn(&mut Value);
        let table: Vec<(Edit, &str)> = vec![
            (
                |r| {
                    r.as_object_mut().unwrap().remove("max_tokens");
                },
                "max_tokens",
            ),
            (|r| r["thinking"] = json!({"type": "enabled"}), "thinking"),
            (
                |r| r["messages"][0]["role"] = json!("system"),
                "messages[0].role",
            ),
            (
                |r| r["messages"][0]["content"] = json!([{"type": "document"}]),
                "messages[0].content[0].type",
            ),
            (
                |r| {
                    r["messages"][0]["content"] =
                        json!([{"type": "image", "source": {"type": "url", "url": "https://x"}}])
                },
                "messages[0].content[0].source",
            ),
            (
                |r| r["tools"] = json!([{"type": "web_search_20250305", "name": "web_search"}]),
                "tools[0].type",
            ),
            (
                |r| r["tools"] = json!([{"name": "f"}]),
                "tools[0].input_schema",
            ),
            (
                |r| r["tool_choice"] = json!({"type": "tool"}),
                "tool_choice.name",
            ),
            (
                |r| r["messages"] = json!([{"role": "assistant", "content": [{"type": "tool_use", "id": "t", "name": "f", "input": [1]}]}]),
                "messages[0].content[0].input",
            ),
        ];
        for (edit, param) in table {
            let mut r = base();
            edit(&mut r);
            let e = to_chat(&r).unwrap_err();
            assert_eq!(e.param, param, "{e}");
        }
    }
}
