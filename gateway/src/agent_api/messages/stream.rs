//! A stream of `chat.completion.chunk`s as Anthropic's Messages events, written as the
//! chunks come: `message_start` with the first chunk; a text block (`content_block_start`,
//! `text_delta`s) for the text, a `tool_use` block (`input_json_delta`s) for each tool call,
//! each closed by `content_block_stop` when the next begins; at the end `message_delta`
//! (stop reason and usage — the upstream's, which a chat stream sends last) and
//! `message_stop`.
//!
//! `message_start` carries zero token counts: a chat stream tells them only at its end, and
//! the final `message_delta` carries them all (input, output and cache counts).

use crate::agent_api::messages::answer::{error_body, message_id, stop_reason, usage};
use crate::agent_api::{EventWriter, named_event, usage_of};
use bytes::Bytes;
use http::StatusCode;
use serde_json::{Value, json};

/// The content block being written.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Open {
    None,
    Text,
    /// The tool call with this chat `index`.
    Tool(u64),
}

pub struct Events {
    started: bool,
    open: Open,
    /// The next content block's index.
    next_block: u64,
    finish: Option<String>,
    usage: Option<nab_protocol::Usage>,
}

impl Default for Events {
    fn default() -> Self {
        Events {
            started: false,
            open: Open::None,
            next_block: 0,
            finish: None,
            usage: None,
        }
    }
}

impl Events {
    fn start(&mut self, chunk: Option<&Value>, out: &mut Vec<Bytes>) {
        if self.started {
            return;
        }
        self.started = true;
        let field = |k: &str| chunk.and_then(|c| c.get(k));
        let message = json!({
            "id": message_id(field("id")), "type": "message", "role": "assistant",
            "model": field("model").cloned().unwrap_or(json!("")),
            "content": [], "stop_reason": null, "stop_sequence": null,
            "usage": usage(None),
        });
        out.push(named_event(
            "message_start",
            &json!({"type": "message_start", "message": message}),
        ));
    }

    fn close(&mut self, out: &mut Vec<Bytes>) {
        if self.open != Open::None {
            let index = self.next_block - 1;
            out.push(named_event(
                "content_block_stop",
                &json!({"type": "content_block_stop", "index": index}),
            ));
            self.open = Open::None;
        }
    }

    fn open(&mut self, open: Open, block: Value, out: &mut Vec<Bytes>) {
        self.close(out);
        out.push(named_event(
            "content_block_start",
            &json!({"type": "content_block_start", "index": self.next_block, "content_block": block}),
        ));
        self.next_block += 1;
        self.open = open;
    }

    fn delta(&self, delta: Value) -> Bytes {
        named_event(
            "content_block_delta",
            &json!({"type": "content_block_delta", "index": self.next_block - 1, "delta": delta}),
        )
    }

    fn text(&mut self, text: &str, out: &mut Vec<Bytes>) {
        if text.is_empty() {
            return;
        }
        if self.open != Open::Text {
            self.open(Open::Text, json!({"type": "text", "text": ""}), out);
        }
        out.push(self.delta(json!({"type": "text_delta", "text": text})));
    }

    fn tool_call(&mut self, pos: usize, call: &Value, out: &mut Vec<Bytes>) {
        let index = call
            .get("index")
            .and_then(Value::as_u64)
            .unwrap_or(pos as u64);
        let f = call.get("function").unwrap_or(&Value::Null);
        let s = |v: Option<&Value>| v.and_then(Value::as_str).unwrap_or("").to_owned();
        if self.open != Open::Tool(index) {
            let block = json!({"type": "tool_use", "id": s(call.get("id")),
                "name": s(f.get("name")), "input": {}});
            self.open(Open::Tool(index), block, out);
        }
        let args = s(f.get("arguments"));
        if !args.is_empty() {
            out.push(self.delta(json!({"type": "input_json_delta", "partial_json": args})));
        }
    }
}

impl EventWriter for Events {
    fn chunk(&mut self, _text: &str, chunk: Option<&Value>) -> Vec<Bytes> {
        let mut out = Vec::new();
        self.start(chunk, &mut out);
        let Some(chunk) = chunk else { return out };
        if let Some(u) = usage_of(chunk) {
            self.usage = Some(u);
        }
        if let Some(e) = chunk.get("error").filter(|e| !e.is_null()) {
            out.push(self.error(&json!({"error": e})));
            return out;
        }
        let choice = chunk.get("choices").and_then(|c| c.get(0));
        let Some(choice) = choice else { return out };
        if let Some(f) = choice.get("finish_reason").and_then(Value::as_str) {
            self.finish = Some(f.to_owned());
        }
        let delta = choice.get("delta").unwrap_or(&Value::Null);
        if let Some(t) = delta.get("content").and_then(Value::as_str) {
            self.text(t, &mut out);
        }
        let calls = delta.get("tool_calls").and_then(Value::as_array);
        for (pos, call) in calls.into_iter().flatten().enumerate() {
            self.tool_call(pos, call, &mut out);
        }
        out
    }

    fn end(&mut self) -> Vec<Bytes> {
        let mut out = Vec::new();
        self.start(None, &mut out);
        self.close(&mut out);
        out.push(named_event(
            "message_delta",
            &json!({"type": "message_delta",
                "delta": {"stop_reason": stop_reason(self.finish.as_deref()), "stop_sequence": null},
                "usage": usage(self.usage)}),
        ));
        out.push(named_event(
            "message_stop",
            &json!({"type": "message_stop"}),
        ));
        out
    }

    fn error(&mut self, body: &Value) -> Bytes {
        named_event("error", &error_body(StatusCode::BAD_GATEWAY, body))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn events(frames: Vec<Bytes>) -> Vec<(String, Value)> {
        frames
            .iter()
            .map(|b| {
                let t = String::from_utf8_lossy(b);
                let (name, data) = t.trim_end().split_once('\n').unwrap();
                let name = name.strip_prefix("event: ").unwrap().to_owned();
                (
                    name,
                    serde_json::from_str(data.strip_prefix("data: ").unwrap()).unwrap(),
                )
            })
            .collect()
    }

    #[test]
    fn text_then_a_tool_call_become_two_blocks_and_usage_comes_last() {
        let mut w = Events::default();
        let chunks = [
            json!({"id": "c", "model": "m", "choices": [{"index": 0, "delta": {"role": "assistant", "content": "Hi"}}]}),
            json!({"choices": [{"index": 0, "delta": {"tool_calls": [{"index": 0, "id": "t", "type": "function", "function": {"name": "f", "arguments": "{\"a\""}}]}}]}),
            json!({"choices": [{"index": 0, "delta": {"tool_calls": [{"index": 0, "function": {"arguments": ":1}"}}]}}]}),
            json!({"choices": [{"index": 0, "delta": {}, "finish_reason": "tool_calls"}]}),
            json!({"choices": [], "usage": {"prompt_tokens": 9, "completion_tokens": 4}}),
        ];
        let mut frames = Vec::new();
        for c in &chunks {
            frames.extend(w.chunk("", Some(c)));
        }
        frames.extend(w.end());
        let ev = events(frames);
        let names: Vec<&str> = ev.iter().map(|(n, _)| n.as_str()).collect();
        assert_eq!(
            names,
            [
                "message_start",
                "content_block_start",
                "content_block_delta",
                "content_block_stop",
                "content_block_start",
                "content_block_delta",
                "content_block_delta",
                "content_block_stop",
                "message_delta",
                "message_stop"
            ]
        );
        assert_eq!(ev[4].1["index"], 1);
        assert_eq!(ev[4].1["content_block"]["name"], "f");
        assert_eq!(ev[6].1["delta"]["partial_json"], ":1}");
        assert_eq!(ev[8].1["delta"]["stop_reason"], "tool_use");
        assert_eq!(ev[8].1["usage"]["input_tokens"], 9);
        assert_eq!(ev[8].1["usage"]["output_tokens"], 4);
    }
}
