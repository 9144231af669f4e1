//! The chat history as it is sent to the model.
//!
//! Messages are held as `Arc<Message>` so that a request can snapshot the history (a vector of
//! pointers) while the body is serialized on another thread, without copying any text.

use serde::{Deserialize, Serialize};

pub use nab_protocol::Role;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Message {
    pub role: Role,
    /// `None` for an assistant turn that only calls tools. Always sent as a string (`""` for
    /// `None`), never `null`: llama-cpp-python answers a `null` with a 500 and pydantic's
    /// validation errors, Ollama with a 400 (`invalid message content type: <nil>`), and an
    /// empty string is accepted by OpenAI and every server in `tests/fixtures/dialects/`.
    #[serde(default, serialize_with = "text_or_empty")]
    pub content: Option<String>,
    /// Reasoning is kept for display and events but not sent back: several providers reject
    /// `reasoning_content` in input messages.
    #[serde(skip)]
    pub reasoning: Option<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tool_calls: Vec<ToolCall>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tool_call_id: Option<String>,
}

fn text_or_empty<S: serde::Serializer>(content: &Option<String>, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(content.as_deref().unwrap_or(""))
}

impl Message {
    pub fn system(text: impl Into<String>) -> Message {
        Message::plain(Role::System, text)
    }
    pub fn user(text: impl Into<String>) -> Message {
        Message::plain(Role::User, text)
    }
    pub fn tool(tool_call_id: impl Into<String>, text: impl Into<String>) -> Message {
        Message {
            tool_call_id: Some(tool_call_id.into()),
            ..Message::plain(Role::Tool, text)
        }
    }
    fn plain(role: Role, text: impl Into<String>) -> Message {
        Message {
            role,
            content: Some(text.into()),
            reasoning: None,
            tool_calls: Vec::new(),
            tool_call_id: None,
        }
    }
    /// Characters of text this message carries (a cheap size measure for context decisions).
    pub fn text_len(&self) -> usize {
        self.content.as_deref().map_or(0, str::len)
            + self
                .tool_calls
                .iter()
                .map(|c| c.function.name.len() + c.function.arguments.len())
                .sum::<usize>()
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ToolCall {
    pub id: String,
    #[serde(rename = "type", default = "function_type")]
    pub kind: String,
    pub function: FunctionCall,
}

fn function_type() -> String {
    "function".into()
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FunctionCall {
    pub name: String,
    /// The JSON text exactly as the model produced it (it may be invalid).
    pub arguments: String,
}

impl ToolCall {
    pub fn new(
        id: impl Into<String>,
        name: impl Into<String>,
        arguments: impl Into<String>,
    ) -> Self {
        ToolCall {
            id: id.into(),
            kind: function_type(),
            function: FunctionCall {
                name: name.into(),
                arguments: arguments.into(),
            },
        }
    }
}
