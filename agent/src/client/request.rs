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
