//! An OpenAI Responses request from the agent turned into a chat-completions request.
//!
//! - `instructions` becomes the first, `system` message; `input` (a string, or a list of
//!   items) the others: a message item (`role` user / system / developer / assistant,
//!   content a string or `input_text` / `output_text` / `input_image` parts with a data: URL)
//!   becomes a message; `function_call` items become the `tool_calls` of the assistant
//!   message they follow (or of a new one); a `function_call_output` becomes a `tool`
//!   message; `reasoning` items are dropped (chat completions has no place for them).
//! - `tools` of type `function` (`{name, description, parameters, strict}`) become chat
//!   function tools; hosted tools (web search, file search, computer use, …) are refused.
//!   `tool_choice` and `parallel_tool_calls` carry over.
//! - `max_output_tokens` becomes `max_tokens`; `temperature`, `top_p` and `stream` carry
//!   over; `reasoning.effort` becomes `reasoning_effort`; `text.format` json_schema /
//!   json_object becomes `response_format`.
//! - `store`, `metadata`, `user` and `stream_options` are dropped: the gateway keeps
//!   nothing and forwards none of them. Anything else (`previous_response_id`, `include`,
//!   `background`, `service_tier`, …) is refused by name.

use crate::agent_api::{BadRequest, bad, only_fields};
use serde_json::{Map, Value, json};

const ALLOWED: &[&str] = &[
    "model",
    "input",
    "instructions",
    "tools",
    "tool_choice",
    "parallel_tool_calls",
    "max_output_tokens",
    "temperature",
    "top_p",
    "stream",
    "reasoning",
    "text",
    "store",
    "metadata",
    "user",
    "stream_options",
];

/// The chat-completions form of a Responses request.
pub fn to_chat(request: &Value) -> Result<Value, BadRequest> {
    only_fields(request, ALLOWED, "OpenAI Responses")?;
    let mut out = Map::new();
    if let Some(m) = request.get("model") {
        out.insert("model".into(), m.clone());
    }
    let mut messages = Vec::new();
    match request.get("instructions") {
        None | Some(Value::Null) => {}
        Some(Value::String(s)) => messages.push(json!({"role": "system", "content": s})),
        Some(_) => return Err(bad("instructions", "must be a string")),
    }
    match request.get("input") {
        Some(Value::String(s)) => messages.push(json!({"role": "user", "content": s})),
        Some(Value::Array(items)) => {
            for (i, item) in items.iter().enumerate() {
                add_item(item, &format!("input[{i}]"), &mut messages)?;
            }
        }
        _ => return Err(bad("input", "required: a string or a list of input items")),
    }
    out.insert("messages".into(), Value::Array(messages));
    if let Some(tools) = request.get("tools") {
        out.insert("tools".into(), self::tools(tools)?);
    }
    if let Some(choice) = request.get("tool_choice") {
        out.insert("tool_choice".into(), tool_choice(choice)?);
    }
    carry(request, &mut out)?;
    Ok(Value::Object(out))
}

/// The sampling and output fields.
fn carry(request: &Value, out: &mut Map<String, Value>) -> Result<(), BadRequest> {
    for key in ["temperature", "top_p"] {
        if let Some(v) = request.get(key).filter(|v| !v.is_null()) {
            if !v.is_number() {
                return Err(bad(key, "must be a number"));
            }
            out.insert(key.into(), v.clone());
        }
    }
    if let Some(v) = request.get("max_output_tokens").filter(|v| !v.is_null()) {
        if v.as_u64().is_none() {
            return Err(bad("max_output_tokens", "must be a whole number of tokens"));
        }
        out.insert("max_tokens".into(), v.clone());
    }
    for key in ["stream", "parallel_tool_calls"] {
        if let Some(v) = request.get(key).filter(|v| !v.is_null()) {
            if !v.is_boolean() {
                return Err(bad(key, "must be true or false"));
            }
            out.insert(key.into(), v.clone());
        }
    }
    if let Some(effort) = request.get("reasoning").and_then(|r| r.get("effort"))
        && !effort.is_null()
    {
        out.insert("reasoning_effort".into(), effort.clone());
    }
    if let Some(format) = request.get("text").and_then(|t| t.get("format")) {
        response_format(format, out)?;
    }
    Ok(())
}

/// `text.format` as `response_format` (plain text needs none).
fn response_format(format: &Value, out: &mut Map<String, Value>) -> Result<(), BadRequest> {
    match format.get("type").and_then(Value::as_str) {
        Some("text") => {}
        Some("json_object") => {
            out.insert("response_format".into(), json!({"type": "json_object"}));
        }
        Some("json_schema") => {
            let mut schema = format.as_object().cloned().unwrap_or_default();
            schema.remove("type");
            out.insert(
                "response_format".into(),
                json!({"type": "json_schema", "json_schema": schema}),
            );
        }
        _ => {
            return Err(bad(
                "text.format.type",
                "expected text, json_object or json_schema",
            ));
        }
    }
    Ok(())
}

/// Adds one input item's chat message (or tool call) to `messages`.
fn add_item(item: &Value, at: &str, messages: &mut Vec<Value>) -> Result<(), BadRequest> {
    let kind = item.get("type").and_then(Value::as_str);
    match kind {
        None | Some("message") => messages.push(message(item, at)?),
        Some("function_call") => add_call(item, at, messages)?,
        Some("function_call_output") => {
            let id = str_field(item, "call_id", at)?;
            let output = match item.get("output") {
                Some(Value::String(s)) => s.clone(),
                Some(Value::Array(parts)) => texts(parts, &format!("{at}.output"))?,
                _ => {
                    return Err(bad(
                        format!("{at}.output"),
                        "required: a string or a list of input_text parts",
                    ));
                }
            };
            messages.push(json!({"role": "tool", "tool_call_id": id, "content": output}));
        }
        Some("reasoning") => {}
        Some(other) => {
            return Err(bad(
                format!("{at}.type"),
                format!(
                    "{other:?}: the gateway takes message, function_call, function_call_output and reasoning items (it keeps no items to refer to)"
                ),
            ));
        }
    }
    Ok(())
}

fn str_field<'a>(item: &'a Value, key: &str, at: &str) -> Result<&'a str, BadRequest> {
    item.get(key)
        .and_then(Value::as_str)
        .ok_or_else(|| bad(format!("{at}.{key}"), "required: a string"))
}

/// A `function_call` item joins the assistant message before it, or opens one.
fn add_call(item: &Value, at: &str, messages: &mut Vec<Value>) -> Result<(), BadRequest> {
    let call = json!({"id": str_field(item, "call_id", at)?, "type": "function",
        "function": {"name": str_field(item, "name", at)?, "arguments": str_field(item, "arguments", at)?}});
    if let Some(last) = messages.last_mut().and_then(Value::as_object_mut)
        && last.get("role").and_then(Value::as_str) == Some("assistant")
    {
        if let Some(Value::Array(calls)) = last.get_mut("tool_calls") {
            calls.push(call);
        } else {
            last.insert("tool_calls".into(), json!([call]));
        }
        return Ok(());
    }
    messages.push(json!({"role": "assistant", "content": null, "tool_calls": [call]}));
    Ok(())
}

/// A message item as a chat message.
fn message(item: &Value, at: &str) -> Result<Value, BadRequest> {
    let role = item.get("role").and_then(Value::as_str).unwrap_or("");
    if !matches!(role, "user" | "system" | "developer" | "assistant") {
        return Err(bad(
            format!("{at}.role"),
            format!("{role:?}: expected user, system, developer or assistant"),
        ));
    }
    let content = match item.get("content") {
        Some(Value::String(s)) => json!(s),
        Some(Value::Array(parts)) if role == "user" => user_parts(parts, at)?,
        Some(Value::Array(parts)) => json!(texts(parts, &format!("{at}.content"))?),
        _ => {
            return Err(bad(
                format!("{at}.content"),
                "required: a string or a list of content parts",
            ));
        }
    };
    Ok(json!({"role": role, "content": content}))
}

/// The text of text parts (`input_text`, `output_text`, `text`, `refusal`), joined.
fn texts(parts: &[Value], at: &str) -> Result<String, BadRequest> {
    let mut out = Vec::new();
    for (j, p) in parts.iter().enumerate() {
        let kind = p.get("type").and_then(Value::as_str).unwrap_or("");
        let key = if kind == "refusal" { "refusal" } else { "text" };
        match (kind, p.get(key).and_then(Value::as_str)) {
            ("input_text" | "output_text" | "text" | "refusal", Some(t)) => out.push(t),
            _ => {
                return Err(bad(
                    format!("{at}[{j}]"),
                    "expected a text part ({type: input_text or output_text, text})",
                ));
            }
        }
    }
    Ok(out.join(""))
}

/// A user message's parts: text, and images inline as data: URLs.
fn user_parts(parts: &[Value], at: &str) -> Result<Value, BadRequest> {
    let mut out = Vec::new();
    for (j, p) in parts.iter().enumerate() {
        let at = format!("{at}.content[{j}]");
        match p.get("type").and_then(Value::as_str).unwrap_or("") {
            "input_text" | "text" => {
                out.push(json!({"type": "text", "text": str_field(p, "text", &at)?}))
            }
            "input_image" => {
                let url = p.get("image_url").and_then(Value::as_str).unwrap_or("");
                if !url.starts_with("data:") {
                    return Err(bad(
                        format!("{at}.image_url"),
                        "an image must be inline as a data: URL; the provider is never made to fetch one",
                    ));
                }
                out.push(json!({"type": "image_url", "image_url": {"url": url}}));
            }
            other => {
                return Err(bad(
                    format!("{at}.type"),
                    format!(
                        "{other:?}: a user message may hold input_text and input_image (data: URL) parts"
                    ),
                ));
            }
        }
    }
    Ok(Value::Array(out))
}

/// Function tools; hosted tools are refused.
fn tools(tools: &Value) -> Result<Value, BadRequest> {
    let list = tools
        .as_array()
        .ok_or_else(|| bad("tools", "must be a list of tools"))?;
    let mut out = Vec::new();
    for (i, t) in list.iter().enumerate() {
        let at = format!("tools[{i}]");
        let kind = t.get("type").and_then(Value::as_str).unwrap_or("");
        if kind != "function" {
            return Err(bad(
                format!("{at}.type"),
                format!(
                    "{kind:?}: hosted tools are not forwarded (they search, fetch and cost extra); only `function`"
                ),
            ));
        }
        let mut f = Map::new();
        f.insert("name".into(), json!(str_field(t, "name", &at)?));
        for key in ["description", "parameters", "strict"] {
            if let Some(v) = t.get(key).filter(|v| !v.is_null()) {
                f.insert(key.into(), v.clone());
            }
        }
        out.push(json!({"type": "function", "function": f}));
    }
    Ok(Value::Array(out))
}

fn tool_choice(choice: &Value) -> Result<Value, BadRequest> {
    match choice {
        Value::String(s) if matches!(s.as_str(), "auto" | "none" | "required") => Ok(json!(s)),
        Value::Object(o) if o.get("type").and_then(Value::as_str) == Some("function") => {
            let name = str_field(choice, "name", "tool_choice")?;
            Ok(json!({"type": "function", "function": {"name": name}}))
        }
        _ => Err(bad(
            "tool_choice",
            "expected auto, none, required or {type: function, name}",
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn items_with_a_call_and_its_output_become_chat_messages() {
        let r = json!({"model": "gpt", "instructions": "be brief", "store": false, "max_output_tokens": 50,
            "input": [
                {"role": "user", "content": [{"type": "input_text", "text": "read a"}]},
                {"type": "message", "role": "assistant", "content": [{"type": "output_text", "text": "ok", "annotations": []}]},
                {"type": "function_call", "call_id": "c1", "name": "read", "arguments": "{\"p\":\"a\"}", "id": "fc_1"},
                {"type": "function_call_output", "call_id": "c1", "output": "A"}],
            "tools": [{"type": "function", "name": "read", "parameters": {"type": "object"}, "strict": false}],
            "tool_choice": {"type": "function", "name": "read"}, "reasoning": {"effort": "low"}});
        let c = to_chat(&r).unwrap();
        assert_eq!(
            c["messages"],
            json!([
                {"role": "system", "content": "be brief"},
                {"role": "user", "content": [{"type": "text", "text": "read a"}]},
                {"role": "assistant", "content": "ok", "tool_calls": [{"id": "c1", "type": "function", "function": {"name": "read", "arguments": "{\"p\":\"a\"}"}}]},
                {"role": "tool", "tool_call_id": "c1", "content": "A"}
            ])
        );
        assert_eq!(c["max_tokens"], 50);
        assert_eq!(c["tool_choice"]["function"]["name"], "read");
        assert_eq!(c["reasoning_effort"], "low");
        assert!(c.get("store").is_none());
        crate::allowlist::check(&c).unwrap();
    }

    #[test]
    fn what_cannot_be_translated_is_named_where_it_is() {
        let base = || json!({"model": "g", "input": [{"role": "user", "content": "hi"}]});
        type Edit = fn(&mut Value);
        let table: Vec<(Edit, &str)> = vec![
            (
                |r| r["previous_response_id"] = json!("resp_1"),
                "previous_response_id",
            ),
            (|r| r["service_tier"] = json!("priority"), "service_tier"),
            (
                |r| {
                    r.as_object_mut().unwrap().remove("input");
                },
                "input",
            ),
            (|r| r["input"][0]["role"] = json!("tool"), "input[0].role"),
            (
                |r| r["input"][0] = json!({"type": "item_reference", "id": "x"}),
                "input[0].type",
            ),
            (
                |r| {
                    r["input"][0]["content"] =
                        json!([{"type": "input_image", "image_url": "https://x/y.png"}])
                },
                "input[0].content[0].image_url",
            ),
            (
                |r| r["input"][0] = json!({"type": "function_call", "call_id": "c", "name": "f"}),
                "input[0].arguments",
            ),
            (
                |r| r["tools"] = json!([{"type": "web_search"}]),
                "tools[0].type",
            ),
            (
                |r| r["tool_choice"] = json!({"type": "file_search"}),
                "tool_choice",
            ),
            (|r| r["max_output_tokens"] = json!("9"), "max_output_tokens"),
        ];
        for (edit, param) in table {
            let mut r = base();
            edit(&mut r);
            let e = to_chat(&r).unwrap_err();
            assert_eq!(e.param, param, "{e}");
        }
    }
}
