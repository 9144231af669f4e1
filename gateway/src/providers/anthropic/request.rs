//! The agent's OpenAI chat-completions request turned into an Anthropic Messages request.
//!
//! - `system` (and `developer`) messages become the top-level `system` text, joined by a
//!   blank line, wherever they stand in the history.
//! - `user` text (or text parts; `image_url` parts with a `data:` URL as base64 images)
//!   becomes content blocks; an assistant's `tool_calls` become `tool_use` blocks after its
//!   text; each `tool` message becomes a `tool_result` block in a user message.
//! - Consecutive messages of the same role are merged into one (Anthropic wants the roles
//!   to alternate): this is what puts parallel calls' results in one user message, and a
//!   user message sent right after tool results behind them.
//! - `tools` become `{name, description, input_schema}`; `tool_choice` auto / none /
//!   required / a named function becomes `auto` / `none` / `any` / `tool`, and
//!   `parallel_tool_calls: false` becomes `disable_parallel_tool_use`.
//! - `max_tokens` (or `max_completion_tokens`) is required by Anthropic:
//!   [`DEFAULT_MAX_TOKENS`] when the agent sent neither.
//! - `temperature`, `top_p`, `stop` (→ `stop_sequences`) and `stream` carry over; the other
//!   OpenAI knobs (seed, penalties, logprobs, …) have no Anthropic equivalent and are
//!   dropped.

use serde_json::{Map, Value, json};

/// `max_tokens` sent when the agent's request has none: Anthropic requires one, and 4096 is
/// within every Claude model's output limit.
pub const DEFAULT_MAX_TOKENS: u64 = 4096;

/// The part of the agent's request that has no Anthropic form; the message says where.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum TranslateError {
    #[error("the request has no `messages` array")]
    NoMessages,
    #[error("messages[{i}]: unknown role {role:?}")]
    UnknownRole { i: usize, role: String },
    #[error(
        "messages[{i}].content[{j}]: content part type {kind:?} cannot be sent to Anthropic (text and image_url only)"
    )]
    PartType {
        i: usize,
        j: usize,
        kind: Option<String>,
    },
    #[error("messages[{i}].content: expected a string or an array of parts")]
    ContentShape { i: usize },
    #[error(
        "messages[{i}].content[{j}].image_url.url: only data:<type>;base64,<data> URLs are translated"
    )]
    ImageUrl { i: usize, j: usize },
    /// `at` is `messages[i].tool_calls[j]`; `missing` is `id` or `function.name`.
    #[error("{at}: no {missing}")]
    CallField { at: String, missing: &'static str },
    #[error("{at}.function.arguments: not JSON ({source}), so it cannot be a tool_use input")]
    ArgumentsNotJson {
        at: String,
        #[source]
        source: serde_json::Error,
    },
    #[error("{at}.function.arguments: a JSON object is needed for a tool_use input")]
    ArgumentsNotObject { at: String },
    #[error("messages[{i}]: a tool message needs tool_call_id")]
    NoToolCallId { i: usize },
    #[error("tools[{i}]: only function tools are translated")]
    NotFunctionTool { i: usize },
    #[error("tools[{i}].function: no name")]
    ToolNoName { i: usize },
    #[error("tool_choice {0:?}: expected auto, none, required or a function")]
    ToolChoiceString(String),
    #[error("tool_choice {0}: expected {{\"type\": \"function\", \"function\": {{\"name\": …}}}}")]
    ToolChoiceObject(Value),
}

/// Builds the Messages body for `model` from the agent's request, or says which part of the
/// request cannot be translated.
pub fn to_messages_request(
    request: &Map<String, Value>,
    model: &str,
) -> Result<Value, TranslateError> {
    let mut out = Map::new();
    out.insert("model".into(), json!(model));
    let max_tokens = request
        .get("max_tokens")
        .or_else(|| request.get("max_completion_tokens"))
        .and_then(Value::as_u64)
        .unwrap_or(DEFAULT_MAX_TOKENS);
    out.insert("max_tokens".into(), json!(max_tokens));

    let messages = request
        .get("messages")
        .and_then(Value::as_array)
        .ok_or(TranslateError::NoMessages)?;
    let (system, turns) = system_and_turns(messages)?;
    if !system.is_empty() {
        out.insert("system".into(), json!(system.join("\n\n")));
    }
    let turns: Vec<Value> = turns
        .into_iter()
        .map(|(role, content)| json!({"role": role, "content": content}))
        .collect();
    out.insert("messages".into(), Value::Array(turns));

    let tools = tools(request.get("tools"))?;
    let has_tools = !tools.is_empty();
    if has_tools {
        out.insert("tools".into(), Value::Array(tools));
    }
    // Anthropic refuses a tool_choice without tools.
    if has_tools
        && let Some(choice) = tool_choice(
            request.get("tool_choice"),
            request.get("parallel_tool_calls"),
        )?
    {
        out.insert("tool_choice".into(), choice);
    }
    carry_sampling(request, &mut out);
    Ok(Value::Object(out))
}

/// A role and its content blocks.
type Turn = (String, Vec<Value>);

/// The system texts, and the other messages as turns of content blocks, consecutive
/// messages of one role merged.
fn system_and_turns(messages: &[Value]) -> Result<(Vec<String>, Vec<Turn>), TranslateError> {
    let mut system = Vec::new();
    let mut turns: Vec<Turn> = Vec::new();
    for (i, m) in messages.iter().enumerate() {
        let role = m.get("role").and_then(Value::as_str).unwrap_or("");
        let (role, blocks) = match role {
            "system" | "developer" => {
                let text = text_of(m.get("content"));
                if !text.is_empty() {
                    system.push(text);
                }
                continue;
            }
            "user" => ("user", user_blocks(m.get("content"), i)?),
            "assistant" => ("assistant", assistant_blocks(m, i)?),
            "tool" => ("user", vec![tool_result(m, i)?]),
            other => {
                return Err(TranslateError::UnknownRole {
                    i,
                    role: other.to_owned(),
                });
            }
        };
        if blocks.is_empty() {
            continue;
        }
        match turns.last_mut() {
            Some((last, content)) if last == role => content.extend(blocks),
            _ => turns.push((role.to_owned(), blocks)),
        }
    }
    Ok((system, turns))
}

/// `temperature`, `top_p`, `stop` (as `stop_sequences`) and `stream`, where the agent
/// sent them.
fn carry_sampling(request: &Map<String, Value>, out: &mut Map<String, Value>) {
    for key in ["temperature", "top_p"] {
        if let Some(v) = request.get(key).filter(|v| v.is_number()) {
            out.insert(key.into(), v.clone());
        }
    }
    match request.get("stop") {
        Some(Value::String(s)) => {
            out.insert("stop_sequences".into(), json!([s]));
        }
        Some(Value::Array(a)) if !a.is_empty() => {
            out.insert("stop_sequences".into(), Value::Array(a.clone()));
        }
        _ => {}
    }
    if request.get("stream").and_then(Value::as_bool) == Some(true) {
        out.insert("stream".into(), json!(true));
    }
}

/// The text of an OpenAI `content`: the string itself, or its text parts joined.
fn text_of(content: Option<&Value>) -> String {
    match content {
        Some(Value::String(s)) => s.clone(),
        Some(Value::Array(parts)) => parts
            .iter()
            .filter_map(|p| p.get("text").and_then(Value::as_str))
            .collect::<Vec<_>>()
            .join("\n"),
        _ => String::new(),
    }
}

fn text_block(text: &str) -> Value {
    json!({"type": "text", "text": text})
}

fn user_blocks(content: Option<&Value>, i: usize) -> Result<Vec<Value>, TranslateError> {
    match content {
        Some(Value::String(s)) if s.is_empty() => Ok(Vec::new()),
        Some(Value::String(s)) => Ok(vec![text_block(s)]),
        Some(Value::Array(parts)) => {
            let mut blocks = Vec::new();
            for (j, p) in parts.iter().enumerate() {
                match p.get("type").and_then(Value::as_str) {
                    Some("text") => {
                        let t = p.get("text").and_then(Value::as_str).unwrap_or("");
                        if !t.is_empty() {
                            blocks.push(text_block(t));
                        }
                    }
                    Some("image_url") => blocks.push(image_block(p, i, j)?),
                    other => {
                        return Err(TranslateError::PartType {
                            i,
                            j,
                            kind: other.map(str::to_owned),
                        });
                    }
                }
            }
            Ok(blocks)
        }
        None | Some(Value::Null) => Ok(Vec::new()),
        Some(_) => Err(TranslateError::ContentShape { i }),
    }
}

/// `data:<media type>;base64,<data>` → an Anthropic base64 image block.
fn image_block(part: &Value, i: usize, j: usize) -> Result<Value, TranslateError> {
    let url = part
        .pointer("/image_url/url")
        .and_then(Value::as_str)
        .unwrap_or("");
    let parsed = url
        .strip_prefix("data:")
        .and_then(|rest| rest.split_once(";base64,"));
    match parsed {
        Some((media_type, data)) => Ok(json!({
            "type": "image",
            "source": {"type": "base64", "media_type": media_type, "data": data}
        })),
        None => Err(TranslateError::ImageUrl { i, j }),
    }
}

fn assistant_blocks(m: &Value, i: usize) -> Result<Vec<Value>, TranslateError> {
    let mut blocks = Vec::new();
    let text = text_of(m.get("content"));
    // Anthropic refuses empty text blocks.
    if !text.trim().is_empty() {
        blocks.push(text_block(&text));
    }
    let calls = m
        .get("tool_calls")
        .and_then(Value::as_array)
        .map(Vec::as_slice)
        .unwrap_or(&[]);
    for (j, call) in calls.iter().enumerate() {
        let at = format!("messages[{i}].tool_calls[{j}]");
        let id =
            call.get("id")
                .and_then(Value::as_str)
                .ok_or_else(|| TranslateError::CallField {
                    at: at.clone(),
                    missing: "id",
                })?;
        let name = call
            .pointer("/function/name")
            .and_then(Value::as_str)
            .ok_or_else(|| TranslateError::CallField {
                at: at.clone(),
                missing: "function.name",
            })?;
        let args = call
            .pointer("/function/arguments")
            .and_then(Value::as_str)
            .unwrap_or("");
        // Anthropic's `input` is an object; a call without arguments is `{}`.
        let input: Value = if args.trim().is_empty() {
            json!({})
        } else {
            serde_json::from_str(args).map_err(|source| TranslateError::ArgumentsNotJson {
                at: at.clone(),
                source,
            })?
        };
        if !input.is_object() {
            return Err(TranslateError::ArgumentsNotObject { at });
        }
        blocks.push(json!({"type": "tool_use", "id": id, "name": name, "input": input}));
    }
    Ok(blocks)
}

fn tool_result(m: &Value, i: usize) -> Result<Value, TranslateError> {
    let id = m
        .get("tool_call_id")
        .and_then(Value::as_str)
        .ok_or(TranslateError::NoToolCallId { i })?;
    Ok(json!({
        "type": "tool_result",
        "tool_use_id": id,
        "content": text_of(m.get("content")),
    }))
}

fn tools(tools: Option<&Value>) -> Result<Vec<Value>, TranslateError> {
    let Some(list) = tools.and_then(Value::as_array) else {
        return Ok(Vec::new());
    };
    let mut out = Vec::new();
    for (i, t) in list.iter().enumerate() {
        let f = t
            .get("function")
            .ok_or(TranslateError::NotFunctionTool { i })?;
        let name = f
            .get("name")
            .and_then(Value::as_str)
            .ok_or(TranslateError::ToolNoName { i })?;
        let mut tool = Map::new();
        tool.insert("name".into(), json!(name));
        if let Some(d) = f.get("description").and_then(Value::as_str) {
            tool.insert("description".into(), json!(d));
        }
        let schema = f
            .get("parameters")
            .filter(|p| p.is_object())
            .cloned()
            .unwrap_or_else(|| json!({"type": "object", "properties": {}}));
        tool.insert("input_schema".into(), schema);
        out.push(Value::Object(tool));
    }
    Ok(out)
}

fn tool_choice(
    choice: Option<&Value>,
    parallel: Option<&Value>,
) -> Result<Option<Value>, TranslateError> {
    let mut out = match choice {
        None | Some(Value::Null) => None,
        Some(Value::String(s)) => match s.as_str() {
            "auto" => Some(json!({"type": "auto"})),
            "none" => Some(json!({"type": "none"})),
            "required" => Some(json!({"type": "any"})),
            other => return Err(TranslateError::ToolChoiceString(other.to_owned())),
        },
        Some(v) => match v.pointer("/function/name").and_then(Value::as_str) {
            Some(name) => Some(json!({"type": "tool", "name": name})),
            None => return Err(TranslateError::ToolChoiceObject(v.clone())),
        },
    };
    if parallel.and_then(Value::as_bool) == Some(false) {
        let c = out.get_or_insert_with(|| json!({"type": "auto"}));
        // `none` takes no such flag; there are no calls to serialize anyway.
        if c["type"] != "none" {
            c["disable_parallel_tool_use"] = json!(true);
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn translate(v: Value) -> Value {
        to_messages_request(v.as_object().unwrap(), "claude-x").unwrap()
    }

    #[test]
    fn history_with_parallel_calls_and_results_alternates_roles() {
        let out = translate(json!({
            "model": "agent", "max_tokens": 100,
            "messages": [
                {"role": "system", "content": "be brief"},
                {"role": "user", "content": "hi"},
                {"role": "assistant", "content": null, "tool_calls": [
                    {"id": "a", "type": "function", "function": {"name": "f", "arguments": "{\"x\":1}"}},
                    {"id": "b", "type": "function", "function": {"name": "g", "arguments": ""}}]},
                {"role": "tool", "tool_call_id": "a", "content": "one"},
                {"role": "tool", "tool_call_id": "b", "content": "two"},
                {"role": "user", "content": "go on"}
            ]
        }));
        assert_eq!(out["system"], "be brief");
        assert_eq!(out["max_tokens"], 100);
        let msgs = out["messages"].as_array().unwrap();
        assert_eq!(msgs.len(), 3, "{out}");
        assert_eq!(msgs[1]["content"][0]["input"], json!({"x": 1}));
        assert_eq!(msgs[1]["content"][1]["input"], json!({}));
        assert_eq!(msgs[2]["role"], "user");
        assert_eq!(msgs[2]["content"][0]["tool_use_id"], "a");
        assert_eq!(msgs[2]["content"][1]["tool_use_id"], "b");
        assert_eq!(msgs[2]["content"][2]["text"], "go on");
    }

    #[test]
    fn tool_choice_maps_and_defaults_apply() {
        let tools = json!([{"type": "function", "function": {"name": "f", "parameters": {"type": "object"}}}]);
        let cases = [
            (json!("auto"), json!({"type": "auto"})),
            (json!("none"), json!({"type": "none"})),
            (json!("required"), json!({"type": "any"})),
            (
                json!({"type": "function", "function": {"name": "f"}}),
                json!({"type": "tool", "name": "f"}),
            ),
        ];
        for (choice, want) in cases {
            let out = translate(
                json!({"messages": [{"role": "user", "content": "x"}], "tools": tools, "tool_choice": choice}),
            );
            assert_eq!(out["tool_choice"], want);
            assert_eq!(out["max_tokens"], DEFAULT_MAX_TOKENS);
        }
        let out = translate(
            json!({"messages": [{"role": "user", "content": "x"}], "tools": tools, "parallel_tool_calls": false}),
        );
        assert_eq!(
            out["tool_choice"],
            json!({"type": "auto", "disable_parallel_tool_use": true})
        );
        // No tools: no tool_choice, which Anthropic would refuse.
        let out = translate(
            json!({"messages": [{"role": "user", "content": "x"}], "tool_choice": "auto"}),
        );
        assert!(out.get("tool_choice").is_none());
    }

    #[test]
    fn untranslatable_input_says_where() {
        let e = to_messages_request(
            json!({"messages": [{"role": "assistant", "tool_calls": [{"id": "a", "function": {"name": "f", "arguments": "{oops"}}]}]})
                .as_object()
                .unwrap(),
            "m",
        )
        .unwrap_err()
        .to_string();
        assert!(
            e.contains("messages[0].tool_calls[0].function.arguments"),
            "{e}"
        );
        let e = to_messages_request(
            json!({"messages": [{"role": "tool", "content": "x"}]})
                .as_object()
                .unwrap(),
            "m",
        )
        .unwrap_err()
        .to_string();
        assert!(e.contains("tool_call_id"), "{e}");
    }
}
