//! A stream of `chat.completion.chunk`s as Responses events, written as the chunks come:
//! `response.created` and `response.in_progress` with the first chunk; a `message` output
//! item (`output_item.added`, `content_part.added`, `output_text.delta`s, then the `done`
//! events) for the text and a `function_call` item (`function_call_arguments.delta`s) for
//! each tool call, each finished when the next begins; at the end `response.completed`
//! (or `response.incomplete`) with the whole response and the upstream's usage, which a
//! chat stream sends last. Every event has its `sequence_number`.

use crate::agent_api::responses::answer::{call_item, envelope, message_item, response_id, usage};
use crate::agent_api::{EventWriter, error_message, named_event, usage_of};
use bytes::Bytes;
use serde_json::{Map, Value, json};

/// The output item being written.
enum Open {
    None,
    Text {
        id: String,
        text: String,
    },
    /// The tool call with this chat `index`.
    Tool {
        index: u64,
        call_id: String,
        name: String,
        arguments: String,
    },
}

pub struct Events {
    /// The response's id, model and creation time (from the first chunk).
    head: Option<(String, Value)>,
    seq: u64,
    output: Vec<Value>,
    open: Open,
    finish: Option<String>,
    usage: Option<nab_protocol::Usage>,
}

impl Default for Events {
    fn default() -> Self {
        Events {
            head: None,
            seq: 0,
            output: Vec::new(),
            open: Open::None,
            finish: None,
            usage: None,
        }
    }
}

impl Events {
    /// One event; `fields` go beside its `type` and `sequence_number`.
    fn event(&mut self, kind: &str, fields: Value) -> Bytes {
        let mut data = Map::new();
        data.insert("type".into(), json!(kind));
        data.insert("sequence_number".into(), json!(self.seq));
        self.seq += 1;
        if let Value::Object(f) = fields {
            data.extend(f);
        }
        named_event(kind, &Value::Object(data))
    }

    fn id(&self) -> String {
        self.head.as_ref().map_or_else(String::new, |h| h.0.clone())
    }

    fn response(&self, finish: Option<&str>, usage: Option<Value>) -> Value {
        let (id, head) = self.head.clone().unwrap_or_default();
        envelope(&id, &head, self.output.clone(), finish, usage)
    }

    fn start(&mut self, chunk: Option<&Value>, out: &mut Vec<Bytes>) {
        if self.head.is_some() {
            return;
        }
        let chunk = chunk.cloned().unwrap_or(json!({}));
        self.head = Some((response_id(chunk.get("id")), chunk));
        let r = self.response(None, None);
        out.push(self.event("response.created", json!({"response": r})));
        out.push(self.event("response.in_progress", json!({"response": r})));
    }

    /// Finishes the open item: its `done` events, and it joins the output.
    fn close(&mut self, out: &mut Vec<Bytes>) {
        let index = self.output.len();
        let item = match std::mem::replace(&mut self.open, Open::None) {
            Open::None => return,
            Open::Text { id, text } => {
                let at = json!({"item_id": id, "output_index": index, "content_index": 0});
                let mut done = at.clone();
                done["text"] = json!(text);
                done["logprobs"] = json!([]);
                out.push(self.event("response.output_text.done", done));
                let mut part = at;
                part["part"] = json!({"type": "output_text", "text": text, "annotations": []});
                out.push(self.event("response.content_part.done", part));
                message_item(&id, &text, "completed")
            }
            Open::Tool {
                call_id,
                name,
                arguments,
                ..
            } => {
                let item = call_item(&call_id, &name, &arguments, "completed");
                out.push(self.event(
                    "response.function_call_arguments.done",
                    json!({"item_id": item["id"], "output_index": index, "name": name, "arguments": arguments}),
                ));
                item
            }
        };
        out.push(self.event(
            "response.output_item.done",
            json!({"output_index": index, "item": item}),
        ));
        self.output.push(item);
    }

    fn text(&mut self, delta: &str, out: &mut Vec<Bytes>) {
        if delta.is_empty() {
            return;
        }
        if !matches!(self.open, Open::Text { .. }) {
            self.close(out);
            let index = self.output.len();
            let id = format!("msg_{}_{index}", self.id());
            let mut item = message_item(&id, "", "in_progress");
            item["content"] = json!([]);
            out.push(self.event(
                "response.output_item.added",
                json!({"output_index": index, "item": item}),
            ));
            out.push(self.event("response.content_part.added", json!({"item_id": id, "output_index": index,
                "content_index": 0, "part": {"type": "output_text", "text": "", "annotations": []}})));
            self.open = Open::Text {
                id,
                text: String::new(),
            };
        }
        // The open item is the one after those done.
        let index = self.output.len();
        if let Open::Text { id, text } = &mut self.open {
            text.push_str(delta);
            let at = json!({"item_id": id, "output_index": index, "content_index": 0, "delta": delta, "logprobs": []});
            out.push(self.event("response.output_text.delta", at));
        }
    }

    fn tool_call(&mut self, pos: usize, call: &Value, out: &mut Vec<Bytes>) {
        let index = call
            .get("index")
            .and_then(Value::as_u64)
            .unwrap_or(pos as u64);
        let f = call.get("function").unwrap_or(&Value::Null);
        let s = |v: Option<&Value>| v.and_then(Value::as_str).unwrap_or("").to_owned();
        if !matches!(self.open, Open::Tool { index: i, .. } if i == index) {
            self.close(out);
            let output_index = self.output.len();
            let (call_id, name) = (s(call.get("id")), s(f.get("name")));
            let item = call_item(&call_id, &name, "", "in_progress");
            out.push(self.event(
                "response.output_item.added",
                json!({"output_index": output_index, "item": item}),
            ));
            self.open = Open::Tool {
                index,
                call_id,
                name,
                arguments: String::new(),
            };
        }
        let output_index = self.output.len();
        let delta = s(f.get("arguments"));
        if let Open::Tool {
            call_id, arguments, ..
        } = &mut self.open
            && !delta.is_empty()
        {
            arguments.push_str(&delta);
            let at = json!({"item_id": format!("fc_{call_id}"), "output_index": output_index, "delta": delta});
            out.push(self.event("response.function_call_arguments.delta", at));
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
        let Some(choice) = chunk.get("choices").and_then(|c| c.get(0)) else {
            return out;
        };
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
        let finish = self.finish.clone().unwrap_or_else(|| "stop".into());
        let r = self.response(Some(&finish), Some(usage(self.usage)));
        let kind = if r["status"] == "incomplete" {
            "response.incomplete"
        } else {
            "response.completed"
        };
        out.push(self.event(kind, json!({"response": r})));
        out
    }

    fn error(&mut self, body: &Value) -> Bytes {
        let code = body
            .get("error")
            .and_then(|e| e.get("code").or_else(|| e.get("type")))
            .cloned()
            .unwrap_or(Value::Null);
        let fields = json!({"code": code, "message": error_message(body), "param": null});
        self.event("error", fields)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_then_a_tool_call_become_two_items_and_usage_comes_last() {
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
        let ev: Vec<Value> = frames
            .iter()
            .map(|b| {
                let t = String::from_utf8_lossy(b).to_string();
                let data = t.lines().nth(1).unwrap().strip_prefix("data: ").unwrap();
                serde_json::from_str(data).unwrap()
            })
            .collect();
        let kinds: Vec<&str> = ev.iter().map(|e| e["type"].as_str().unwrap()).collect();
        assert_eq!(
            kinds,
            [
                "response.created",
                "response.in_progress",
                "response.output_item.added",
                "response.content_part.added",
                "response.output_text.delta",
                "response.output_text.done",
                "response.content_part.done",
                "response.output_item.done",
                "response.output_item.added",
                "response.function_call_arguments.delta",
                "response.function_call_arguments.delta",
                "response.function_call_arguments.done",
                "response.output_item.done",
                "response.completed"
            ]
        );
        let seqs: Vec<u64> = ev
            .iter()
            .map(|e| e["sequence_number"].as_u64().unwrap())
            .collect();
        assert_eq!(seqs, (0..14).collect::<Vec<_>>());
        let indexes: Vec<&Value> = ev.iter().filter_map(|e| e.get("output_index")).collect();
        assert_eq!(
            indexes,
            [&json!(0); 6]
                .into_iter()
                .chain([&json!(1); 5])
                .collect::<Vec<_>>()
        );
        let done = &ev[13]["response"];
        assert_eq!(done["output"][0]["content"][0]["text"], "Hi");
        assert_eq!(done["output"][1]["arguments"], "{\"a\":1}");
        assert_eq!(done["usage"]["input_tokens"], 9);
        assert_eq!(done["usage"]["output_tokens"], 4);
    }
}
