//! The chat-completions request. Serialization borrows everything: the history is a vector
//! of `Arc<Message>` and the tool schemas are shared, so building a request copies no text.

use std::sync::Arc;

use serde::ser::{SerializeMap, SerializeSeq};
use serde::{Serialize, Serializer};

use crate::message::Message;

#[derive(Debug, Clone)]
pub struct ChatRequest {
    pub model: String,
    pub messages: Vec<Arc<Message>>,
    /// `{"type":"function","function":{...}}` objects, already sorted by name.
    pub tools: Arc<Vec<serde_json::Value>>,
    pub max_tokens: Option<u64>,
    pub temperature: Option<f64>,
}

impl Serialize for ChatRequest {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut map = s.serialize_map(None)?;
        map.serialize_entry("model", &self.model)?;
        map.serialize_entry("messages", &Messages(&self.messages))?;
        if !self.tools.is_empty() {
            map.serialize_entry("tools", self.tools.as_slice())?;
            map.serialize_entry("tool_choice", "auto")?;
        }
        if let Some(t) = self.max_tokens {
            map.serialize_entry("max_tokens", &t)?;
        }
        if let Some(t) = self.temperature {
            map.serialize_entry("temperature", &t)?;
        }
        map.serialize_entry("stream", &true)?;
        map.serialize_entry(
            "stream_options",
            &StreamOptions {
                include_usage: true,
            },
        )?;
        map.end()
    }
}

#[derive(Serialize)]
struct StreamOptions {
    include_usage: bool,
}

struct Messages<'a>(&'a [Arc<Message>]);

impl Serialize for Messages<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut seq = s.serialize_seq(Some(self.0.len()))?;
        for m in self.0 {
            seq.serialize_element(m.as_ref())?;
        }
        seq.end()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::message::{Role, ToolCall};
    use serde_json::Value;

    fn nulls(v: &Value, at: &str, out: &mut Vec<String>) {
        match v {
            Value::Null => out.push(at.to_owned()),
            Value::Array(a) => a
                .iter()
                .enumerate()
                .for_each(|(i, x)| nulls(x, &format!("{at}[{i}]"), out)),
            Value::Object(o) => o
                .iter()
                .for_each(|(k, x)| nulls(x, &format!("{at}.{k}"), out)),
            _ => {}
        }
    }

    /// Every shape of message nab-agent sends, including the one llama-cpp-python refused
    /// (an assistant turn with tool calls and no text), serializes without a single `null`.
    #[test]
    fn no_request_carries_a_null() {
        let tool_only = Message {
            role: Role::Assistant,
            content: None,
            reasoning: Some("thinking".into()),
            tool_calls: vec![ToolCall::new("c1", "read_file", r#"{"path":"a"}"#)],
            tool_call_id: None,
        };
        let empty_answer = Message {
            role: Role::Assistant,
            content: None,
            reasoning: None,
            tool_calls: Vec::new(),
            tool_call_id: None,
        };
        for (tools, max_tokens) in [
            (vec![], None),
            (
                vec![
                    serde_json::json!({"type": "function", "function": {"name": "read_file", "parameters": {"type": "object"}}}),
                ],
                Some(5),
            ),
        ] {
            let req = ChatRequest {
                model: "m".into(),
                messages: vec![
                    Arc::new(Message::system("s")),
                    Arc::new(Message::user("u")),
                    Arc::new(tool_only.clone()),
                    Arc::new(Message::tool("c1", "out")),
                    Arc::new(empty_answer.clone()),
                ],
                tools: Arc::new(tools),
                max_tokens,
                temperature: None,
            };
            let v = serde_json::to_value(&req).unwrap();
            let mut found = Vec::new();
            nulls(&v, "$", &mut found);
            assert!(found.is_empty(), "nulls at {found:?} in {v}");
            assert_eq!(v["messages"][2]["content"], "");
            assert_eq!(v["messages"][2]["tool_calls"][0]["type"], "function");
            assert!(v["messages"][2].get("reasoning").is_none());
            assert!(v["messages"][0].get("tool_call_id").is_none());
        }
    }
}
