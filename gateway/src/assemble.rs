//! Reassembling a stream of `chat.completion.chunk`s into one `chat.completion`, and the
//! reverse (splitting a completion into chunks) for replaying a non-stream recording to a
//! streaming client.

use serde_json::{Map, Value, json};
use std::collections::BTreeMap;

#[derive(Default)]
struct ToolCallParts {
    id: Option<String>,
    kind: Option<String>,
    name: String,
    arguments: String,
}

#[derive(Default)]
struct ChoiceParts {
    role: Option<String>,
    content: Option<String>,
    reasoning: Option<String>,
    tool_calls: BTreeMap<u64, ToolCallParts>,
    finish_reason: Value,
}

/// Accumulates chunks as they pass through; [`Assembler::finish`] gives the completion.
#[derive(Default)]
pub struct Assembler {
    id: Option<Value>,
    created: Option<Value>,
    model: Option<Value>,
    system_fingerprint: Option<Value>,
    choices: BTreeMap<u64, ChoiceParts>,
    usage: Option<Value>,
    error: Option<Value>,
    chunks: usize,
}

impl Assembler {
    pub fn new() -> Assembler {
        Assembler::default()
    }

    /// Adds one chunk (already parsed).
    pub fn push(&mut self, chunk: &Value) {
        self.chunks += 1;
        let keep = |slot: &mut Option<Value>, v: Option<&Value>| {
            if slot.is_none()
                && let Some(v) = v.filter(|v| !v.is_null())
            {
                *slot = Some(v.clone());
            }
        };
        keep(&mut self.id, chunk.get("id"));
        keep(&mut self.created, chunk.get("created"));
        keep(&mut self.model, chunk.get("model"));
        keep(
            &mut self.system_fingerprint,
            chunk.get("system_fingerprint"),
        );
        if let Some(u) = chunk.get("usage").filter(|u| !u.is_null()) {
            self.usage = Some(u.clone());
        }
        if let Some(e) = chunk.get("error").filter(|e| !e.is_null()) {
            self.error = Some(e.clone());
        }
        let Some(choices) = chunk.get("choices").and_then(Value::as_array) else {
            return;
        };
        for choice in choices {
            let index = choice.get("index").and_then(Value::as_u64).unwrap_or(0);
            let parts = self.choices.entry(index).or_default();
            if let Some(fr) = choice.get("finish_reason").filter(|f| !f.is_null()) {
                parts.finish_reason = fr.clone();
            }
            // Kimi (Moonshot) puts a stream's usage inside its last choice.
            if self.usage.is_none()
                && let Some(u) = choice.get("usage").filter(|u| !u.is_null())
            {
                self.usage = Some(u.clone());
            }
            let Some(delta) = choice.get("delta") else {
                continue;
            };
            if let Some(role) = delta.get("role").and_then(Value::as_str) {
                parts.role = Some(role.to_owned());
            }
            let append = |slot: &mut Option<String>, v: Option<&Value>| {
                if let Some(s) = v.and_then(Value::as_str) {
                    slot.get_or_insert_with(String::new).push_str(s);
                }
            };
            append(&mut parts.content, delta.get("content"));
            append(&mut parts.reasoning, delta.get("reasoning_content"));
            if let Some(calls) = delta.get("tool_calls").and_then(Value::as_array) {
                for (pos, call) in calls.iter().enumerate() {
                    let idx = call
                        .get("index")
                        .and_then(Value::as_u64)
                        .unwrap_or(pos as u64);
                    let tc = parts.tool_calls.entry(idx).or_default();
                    if let Some(id) = call.get("id").and_then(Value::as_str) {
                        tc.id = Some(id.to_owned());
                    }
                    if let Some(t) = call.get("type").and_then(Value::as_str) {
                        tc.kind = Some(t.to_owned());
                    }
                    if let Some(f) = call.get("function") {
                        if let Some(n) = f.get("name").and_then(Value::as_str) {
                            tc.name.push_str(n);
                        }
                        if let Some(a) = f.get("arguments").and_then(Value::as_str) {
                            tc.arguments.push_str(a);
                        }
                    }
                }
            }
        }
    }

    /// An `error` object a provider sent inside the stream, if any.
    pub fn stream_error(&self) -> Option<&Value> {
        self.error.as_ref()
    }

    pub fn usage(&self) -> Option<&Value> {
        self.usage.as_ref()
    }

    /// The number of chunks seen.
    pub fn chunk_count(&self) -> usize {
        self.chunks
    }

    /// The reassembled `chat.completion` object.
    pub fn finish(&self) -> Value {
        let choices: Vec<Value> = self
            .choices
            .iter()
            .map(|(index, p)| {
                let mut message = Map::new();
                message.insert(
                    "role".into(),
                    json!(p.role.clone().unwrap_or_else(|| "assistant".into())),
                );
                message.insert("content".into(), json!(p.content));
                if let Some(r) = &p.reasoning {
                    message.insert("reasoning_content".into(), json!(r));
                }
                if !p.tool_calls.is_empty() {
                    let calls: Vec<Value> = p
                        .tool_calls
                        .values()
                        .map(|tc| {
                            json!({
                                "id": tc.id,
                                "type": tc.kind.clone().unwrap_or_else(|| "function".into()),
                                "function": {"name": tc.name, "arguments": tc.arguments},
                            })
                        })
                        .collect();
                    message.insert("tool_calls".into(), Value::Array(calls));
                }
                json!({"index": index, "message": message, "finish_reason": p.finish_reason})
            })
            .collect();
        let mut out = Map::new();
        out.insert("id".into(), self.id.clone().unwrap_or(Value::Null));
        out.insert("object".into(), json!("chat.completion"));
        out.insert("created".into(), self.created.clone().unwrap_or(json!(0)));
        out.insert("model".into(), self.model.clone().unwrap_or(Value::Null));
        if let Some(fp) = &self.system_fingerprint {
            out.insert("system_fingerprint".into(), fp.clone());
        }
        out.insert("choices".into(), Value::Array(choices));
        if let Some(u) = &self.usage {
            out.insert("usage".into(), u.clone());
        }
        Value::Object(out)
    }
}

/// Splits a `chat.completion` into the chunks a streaming provider would have sent:
/// role and text first, one chunk per tool call, the finish reason, then usage.
pub fn completion_to_chunks(completion: &Value) -> Vec<Value> {
    let head = |choices: Value| {
        let mut c = Map::new();
        c.insert(
            "id".into(),
            completion.get("id").cloned().unwrap_or(Value::Null),
        );
        c.insert("object".into(), json!("chat.completion.chunk"));
        c.insert(
            "created".into(),
            completion.get("created").cloned().unwrap_or(json!(0)),
        );
        c.insert(
            "model".into(),
            completion.get("model").cloned().unwrap_or(Value::Null),
        );
        c.insert("choices".into(), choices);
        c
    };
    let mut out = Vec::new();
    let empty = Vec::new();
    let choices = completion
        .get("choices")
        .and_then(Value::as_array)
        .unwrap_or(&empty);
    for (pos, choice) in choices.iter().enumerate() {
        let index = choice.get("index").cloned().unwrap_or(json!(pos));
        let message = choice.get("message").cloned().unwrap_or(json!({}));
        let mut delta = Map::new();
        delta.insert(
            "role".into(),
            message.get("role").cloned().unwrap_or(json!("assistant")),
        );
        for key in ["content", "reasoning_content"] {
            if let Some(v) = message.get(key).filter(|v| !v.is_null()) {
                delta.insert(key.into(), v.clone());
            }
        }
        out.push(Value::Object(head(
            json!([{"index": index, "delta": delta, "finish_reason": null}]),
        )));
        if let Some(calls) = message.get("tool_calls").and_then(Value::as_array) {
            for (i, call) in calls.iter().enumerate() {
                let mut call = call.clone();
                if let Some(obj) = call.as_object_mut() {
                    obj.insert("index".into(), json!(i));
                }
                out.push(Value::Object(head(json!([{
                    "index": index, "delta": {"tool_calls": [call]}, "finish_reason": null
                }]))));
            }
        }
        let finish = choice.get("finish_reason").cloned().unwrap_or(Value::Null);
        out.push(Value::Object(head(
            json!([{"index": index, "delta": {}, "finish_reason": finish}]),
        )));
    }
    if let Some(usage) = completion.get("usage").filter(|u| !u.is_null()) {
        let mut last = head(json!([]));
        last.insert("usage".into(), usage.clone());
        out.push(Value::Object(last));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reassembles_text_reasoning_and_tool_call_fragments() {
        let chunks = [
            json!({"id":"c1","created":5,"model":"m","choices":[{"index":0,"delta":{"role":"assistant","reasoning_content":"think "}}]}),
            json!({"id":"c1","choices":[{"index":0,"delta":{"reasoning_content":"hard","content":"Hel"}}]}),
            json!({"id":"c1","choices":[{"index":0,"delta":{"content":"lo","tool_calls":[{"index":0,"id":"t1","type":"function","function":{"name":"read_","arguments":"{\"pa"}}]}}]}),
            json!({"id":"c1","choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"name":"file","arguments":"th\":1}"}}]},"finish_reason":"tool_calls"}]}),
            json!({"id":"c1","choices":[],"usage":{"prompt_tokens":3,"completion_tokens":2}}),
        ];
        let mut a = Assembler::new();
        for c in &chunks {
            a.push(c);
        }
        let done = a.finish();
        assert_eq!(done["object"], "chat.completion");
        assert_eq!(done["id"], "c1");
        let msg = &done["choices"][0]["message"];
        assert_eq!(msg["content"], "Hello");
        assert_eq!(msg["reasoning_content"], "think hard");
        assert_eq!(msg["tool_calls"][0]["function"]["name"], "read_file");
        assert_eq!(
            msg["tool_calls"][0]["function"]["arguments"],
            "{\"path\":1}"
        );
        assert_eq!(done["choices"][0]["finish_reason"], "tool_calls");
        assert_eq!(done["usage"]["prompt_tokens"], 3);
    }

    #[test]
    fn chunks_of_a_completion_reassemble_to_the_same_completion() {
        let completion = json!({
            "id": "x", "object": "chat.completion", "created": 7, "model": "m",
            "choices": [{"index": 0, "message": {"role": "assistant", "content": "hi",
                "tool_calls": [{"id": "a", "type": "function", "function": {"name": "f", "arguments": "{}"}}]},
                "finish_reason": "tool_calls"}],
            "usage": {"prompt_tokens": 1, "completion_tokens": 1}
        });
        let mut a = Assembler::new();
        for c in completion_to_chunks(&completion) {
            a.push(&c);
        }
        assert_eq!(a.finish(), completion);
    }
}
