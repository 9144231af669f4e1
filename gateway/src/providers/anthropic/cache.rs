//! Prompt caching for an Anthropic upstream.
//!
//! An agent resends its whole history on every call: the system prompt, the tool schemas
//! and every earlier turn. Anthropic caches a prompt prefix only where the request marks
//! it (`cache_control`); without a mark nothing is cached and every call pays the full
//! input rate for the same prefix. (Measured by issue 35 on a 5-call task: $0.0428 without
//! marks against $0.0240 with them.)
//!
//! The marks go on the stable prefix, at most four (Anthropic's limit):
//! 1. the last tool schema (the tools come first in Anthropic's prompt order);
//! 2. the system prompt (sent as one text block carrying the mark);
//! 3. the last block of the last message: this call writes the conversation so far, which
//!    the next call — the same prefix plus one turn — reads;
//! 4. the last block of the user turn before the last assistant turn: where the previous
//!    call put its mark 3, so this call reads exactly what that one wrote.
//!
//! The agent's request (what the transcript and a cassette hold) is not touched: the marks
//! exist only in the translated body. `anthropic[cache=off]:<model>` turns them off.

use serde_json::{Value, json};

/// The options of `anthropic[...]`: `cache=on|off`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AnthropicOptions {
    /// Mark the stable prefix for prompt caching (default on).
    pub cache: bool,
}

impl Default for AnthropicOptions {
    fn default() -> Self {
        AnthropicOptions { cache: true }
    }
}

/// The options and their values (default first), for error messages.
pub const OPTIONS_HELP: &str = "cache=on|off";

impl AnthropicOptions {
    /// Parses the text between the brackets of `anthropic[...]`.
    pub fn parse(options: &str) -> Result<AnthropicOptions, String> {
        let mut o = AnthropicOptions::default();
        let mut seen = false;
        for pair in options.split(',').map(str::trim) {
            let Some((key, value)) = pair.split_once('=') else {
                return Err(format!(
                    "option `{pair}` has no value; the options are {OPTIONS_HELP}"
                ));
            };
            match (key.trim(), value.trim()) {
                ("cache", _) if seen => {
                    return Err(format!("option `cache` given twice ({OPTIONS_HELP})"));
                }
                ("cache", "on") => o.cache = true,
                ("cache", "off") => o.cache = false,
                ("cache", v) => {
                    return Err(format!("cache={v}: the value is on or off"));
                }
                (k, _) => {
                    return Err(format!(
                        "unknown option `{k}`; the options are {OPTIONS_HELP}"
                    ));
                }
            }
            seen = true;
        }
        Ok(o)
    }

    pub fn is_default(&self) -> bool {
        *self == AnthropicOptions::default()
    }
}

fn mark(block: &mut Value) {
    if let Some(o) = block.as_object_mut() {
        o.insert("cache_control".into(), json!({"type": "ephemeral"}));
    }
}

/// The last block of `message`'s content, if it has blocks.
fn last_block(message: &mut Value) -> Option<&mut Value> {
    message
        .get_mut("content")
        .and_then(Value::as_array_mut)
        .and_then(|c| c.last_mut())
}

/// Puts the cache marks on a translated Messages body (see the module).
pub fn mark_stable_prefix(body: &mut Value) {
    if let Some(last) = body
        .get_mut("tools")
        .and_then(Value::as_array_mut)
        .and_then(|t| t.last_mut())
    {
        mark(last);
    }
    if let Some(obj) = body.as_object_mut()
        && let Some(Value::String(text)) = obj.get("system")
    {
        let block = json!([{"type": "text", "text": text, "cache_control": {"type": "ephemeral"}}]);
        obj.insert("system".into(), block);
    }
    let Some(messages) = body.get_mut("messages").and_then(Value::as_array_mut) else {
        return;
    };
    let n = messages.len();
    // The previous call's last message: the user turn just before the last assistant turn.
    let previous = (0..n.saturating_sub(1))
        .rev()
        .find(|&i| messages[i].get("role") == Some(&json!("assistant")))
        .and_then(|a| a.checked_sub(1))
        .filter(|&i| messages[i].get("role") == Some(&json!("user")));
    if let Some(i) = previous
        && let Some(b) = last_block(&mut messages[i])
    {
        mark(b);
    }
    if let Some(b) = messages.last_mut().and_then(last_block) {
        mark(b);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn marked(v: &Value) -> usize {
        match v {
            Value::Object(o) => {
                usize::from(o.contains_key("cache_control")) + o.values().map(marked).sum::<usize>()
            }
            Value::Array(a) => a.iter().map(marked).sum(),
            _ => 0,
        }
    }

    #[test]
    fn marks_tools_system_the_last_message_and_the_previous_calls_end() {
        let mut body = json!({
            "system": "You fix code.",
            "tools": [{"name": "a"}, {"name": "b"}],
            "messages": [
                {"role": "user", "content": [{"type": "text", "text": "Fix it."}]},
                {"role": "assistant", "content": [{"type": "tool_use", "id": "1"}]},
                {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "1"}]},
                {"role": "assistant", "content": [{"type": "tool_use", "id": "2"}]},
                {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "2"}, {"type": "text", "text": "go"}]}
            ]
        });
        mark_stable_prefix(&mut body);
        assert_eq!(marked(&body), 4, "Anthropic allows four: {body}");
        assert!(body["tools"][1].get("cache_control").is_some());
        assert!(body["tools"][0].get("cache_control").is_none());
        assert_eq!(body["system"][0]["text"], "You fix code.");
        assert!(body["system"][0].get("cache_control").is_some());
        // The previous call ended at messages[2]; this one ends at messages[4].
        assert!(
            body["messages"][2]["content"][0]
                .get("cache_control")
                .is_some()
        );
        assert!(
            body["messages"][4]["content"][1]
                .get("cache_control")
                .is_some()
        );
        assert!(
            body["messages"][4]["content"][0]
                .get("cache_control")
                .is_none()
        );
        assert!(
            body["messages"][0]["content"][0]
                .get("cache_control")
                .is_none()
        );
    }

    #[test]
    fn a_first_call_without_tools_or_system_gets_one_mark() {
        let mut body =
            json!({"messages": [{"role": "user", "content": [{"type": "text", "text": "hi"}]}]});
        mark_stable_prefix(&mut body);
        assert_eq!(marked(&body), 1);
        assert!(
            body["messages"][0]["content"][0]
                .get("cache_control")
                .is_some()
        );
    }

    #[test]
    fn options_parse_and_refuse_what_they_do_not_know() {
        assert!(!AnthropicOptions::parse("cache=off").unwrap().cache);
        assert!(AnthropicOptions::parse("cache=on").unwrap().is_default());
        for bad in ["cache", "cache=maybe", "beta=1", "cache=on,cache=off"] {
            let e = AnthropicOptions::parse(bad).unwrap_err();
            assert!(e.contains("cache") || e.contains("beta"), "{bad}: {e}");
        }
    }
}
