//! Tool calls a model wrote as plain text.
//!
//! Small local models served without a working tool-call parser often answer with the call
//! in the message text — `{"name": "read_file", "arguments": {"path": "a.py"}}`, the same in
//! a ```` ```json ```` fence, or Hermes/Qwen-style `<tool_call>{…}</tool_call>` tags — and no
//! `tool_calls`. Taken literally that is a final answer after one step. When the whole text
//! is nothing but such calls, and every call names a tool the agent offers, they are run as
//! the tool calls they were meant to be. Anything else (prose around the JSON, an unknown
//! name) stays text: a final answer that quotes JSON must not turn into actions.

use serde_json::Value;

use crate::message::ToolCall;

/// The calls in `text`, when `text` is only tool calls naming tools in `known`.
pub fn extract(text: &str, known: &[String]) -> Option<Vec<ToolCall>> {
    let body = unwrap(text.trim())?;
    let objects: Vec<Value> = body
        .iter()
        .map(|part| serde_json::from_str::<Value>(part).ok())
        .collect::<Option<Vec<_>>>()?
        .into_iter()
        .flat_map(|v| match v {
            Value::Array(items) => items,
            one => vec![one],
        })
        .collect();
    if objects.is_empty() {
        return None;
    }
    let mut calls = Vec::with_capacity(objects.len());
    for (i, obj) in objects.iter().enumerate() {
        let f = obj.get("function").filter(|f| f.is_object()).unwrap_or(obj);
        let name = f.get("name")?.as_str()?;
        if !known.iter().any(|k| k == name) {
            return None;
        }
        let args = match f.get("arguments").or_else(|| f.get("parameters")) {
            None => "{}".to_owned(),
            Some(Value::String(s)) => s.clone(),
            Some(v @ Value::Object(_)) => v.to_string(),
            Some(_) => return None,
        };
        calls.push(ToolCall::new(format!("text_call_{i}"), name, args));
    }
    Some(calls)
}

/// The JSON texts inside `text`: one fenced block, one or more `<tool_call>` blocks, or the
/// text itself when it is a JSON object or array.
fn unwrap(text: &str) -> Option<Vec<&str>> {
    if text.starts_with("<tool_call>") {
        let mut parts = Vec::new();
        let mut rest = text;
        while let Some(after) = rest.trim_start().strip_prefix("<tool_call>") {
            let end = after.find("</tool_call>")?;
            parts.push(after[..end].trim());
            rest = &after[end + "</tool_call>".len()..];
        }
        return rest.trim().is_empty().then_some(parts);
    }
    if let Some(after) = text.strip_prefix("```") {
        let inner = after.strip_suffix("```")?;
        let inner = inner.strip_prefix("json").unwrap_or(inner);
        return Some(vec![inner.trim()]);
    }
    (text.starts_with('{') || text.starts_with('[')).then(|| vec![text])
}

#[cfg(test)]
mod tests {
    use super::*;

    fn known() -> Vec<String> {
        vec!["read_file".into(), "list_dir".into()]
    }

    #[test]
    fn text_that_is_only_calls_becomes_calls() {
        let table: &[(&str, &[(&str, &str)])] = &[
            (
                r#"{"name": "read_file", "arguments": {"path": "a.py"}}"#,
                &[("read_file", r#"{"path":"a.py"}"#)],
            ),
            (
                r#"{"name": "list_dir", "parameters": {"path": "."}}"#,
                &[("list_dir", r#"{"path":"."}"#)],
            ),
            (
                "```json\n{\"name\": \"read_file\", \"arguments\": \"{\\\"path\\\": \\\"b\\\"}\"}\n```",
                &[("read_file", r#"{"path": "b"}"#)],
            ),
            (
                "<tool_call>\n{\"name\": \"read_file\", \"arguments\": {\"path\": \"x\"}}\n</tool_call>\n<tool_call>{\"name\": \"list_dir\"}</tool_call>",
                &[("read_file", r#"{"path":"x"}"#), ("list_dir", "{}")],
            ),
            (
                r#"[{"type": "function", "function": {"name": "list_dir", "arguments": {}}}]"#,
                &[("list_dir", "{}")],
            ),
        ];
        for (text, want) in table {
            let got = extract(text, &known()).unwrap_or_else(|| panic!("not taken: {text}"));
            let got: Vec<(&str, &str)> = got
                .iter()
                .map(|c| (c.function.name.as_str(), c.function.arguments.as_str()))
                .collect();
            assert_eq!(&got, want, "{text}");
        }
    }

    #[test]
    fn anything_else_stays_text() {
        for text in [
            "The fix is done.",
            r#"I will call {"name": "read_file", "arguments": {}} next"#,
            r#"{"name": "rm_rf", "arguments": {}}"#,
            r#"{"name": "read_file", "arguments": [1, 2]}"#,
            r#"{"result": 42}"#,
            "[]",
            "<tool_call>{\"name\": \"read_file\"}</tool_call> and some prose",
            "<tool_call>{\"name\": \"read_file\"}",
            "{not json",
        ] {
            assert!(extract(text, &known()).is_none(), "{text}");
        }
    }
}
