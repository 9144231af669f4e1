//! The agent's side in each API: the request of a tool-using conversation (first the
//! question, then the question with the model's call and its result), and what the agent
//! reads from an answer, whole or streamed, in that API's terms.

use super::upstream::{CALL_ID, TOOL, call_args};
use serde_json::{Value, json};

pub const SYSTEM: &str = "You read files.";
pub const QUESTION: &str = "What does a.txt say?";
pub const RESULT: &str = "hello";

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Api {
    Chat,
    Messages,
    Responses,
}

/// What the agent read from one answer: text, the tool call (id, name, arguments) and
/// the token counts as prompt (cached included), cached, output.
#[derive(Debug, Default, PartialEq)]
pub struct Read {
    pub text: String,
    pub call: Option<(String, String, Value)>,
    pub prompt: u64,
    pub cached: u64,
    pub output: u64,
    pub stop: String,
}

impl Api {
    pub fn path(self) -> &'static str {
        match self {
            Api::Chat => "/v1/chat/completions",
            Api::Messages => "/v1/messages",
            Api::Responses => "/v1/responses",
        }
    }

    /// The request: the question, and with `answered` the call and its result after it.
    pub fn request(self, stream: bool, answered: bool) -> Value {
        match self {
            Api::Chat => chat_request(stream, answered),
            Api::Messages => messages_request(stream, answered),
            Api::Responses => responses_request(stream, answered),
        }
    }

    /// What the agent reads from a whole answer.
    pub fn read(self, body: &Value) -> Read {
        match self {
            Api::Chat => read_chat(body),
            Api::Messages => read_message(body),
            Api::Responses => read_response(body),
        }
    }

    /// What the agent reads from a streamed answer (the raw SSE text).
    pub fn read_stream(self, sse: &str) -> Read {
        let events: Vec<Value> = sse
            .split("\n\n")
            .filter_map(|e| e.lines().find_map(|l| l.strip_prefix("data: ")))
            .filter(|d| *d != "[DONE]")
            .map(|d| serde_json::from_str(d).unwrap())
            .collect();
        match self {
            Api::Chat => {
                assert!(sse.ends_with("data: [DONE]\n\n"), "{sse}");
                read_chat_chunks(&events)
            }
            Api::Messages => read_message_events(&events),
            Api::Responses => read_response_events(&events),
        }
    }
}

fn args_text() -> String {
    call_args().to_string()
}

fn chat_request(stream: bool, answered: bool) -> Value {
    let mut messages = vec![
        json!({"role": "system", "content": SYSTEM}),
        json!({"role": "user", "content": QUESTION}),
    ];
    if answered {
        messages.push(json!({"role": "assistant", "content": "Reading.", "tool_calls": [
            {"id": CALL_ID, "type": "function", "function": {"name": TOOL, "arguments": args_text()}}]}));
        messages.push(json!({"role": "tool", "tool_call_id": CALL_ID, "content": RESULT}));
    }
    json!({"model": "agent-model", "stream": stream, "max_tokens": 256, "messages": messages,
        "tools": [{"type": "function", "function": {"name": TOOL, "description": "Reads a file.",
            "parameters": {"type": "object", "properties": {"path": {"type": "string"}}}}}]})
}

fn messages_request(stream: bool, answered: bool) -> Value {
    let mut messages = vec![json!({"role": "user", "content": QUESTION})];
    if answered {
        messages.push(
            json!({"role": "assistant", "content": [{"type": "text", "text": "Reading."},
            {"type": "tool_use", "id": CALL_ID, "name": TOOL, "input": call_args()}]}),
        );
        messages.push(json!({"role": "user", "content": [
            {"type": "tool_result", "tool_use_id": CALL_ID, "content": RESULT}]}));
    }
    json!({"model": "claude-agent", "stream": stream, "max_tokens": 256, "system": SYSTEM,
        "messages": messages, "tool_choice": {"type": "auto"},
        "tools": [{"name": TOOL, "description": "Reads a file.",
            "input_schema": {"type": "object", "properties": {"path": {"type": "string"}}}}]})
}

fn responses_request(stream: bool, answered: bool) -> Value {
    let mut input = vec![json!({"role": "user", "content": QUESTION})];
    if answered {
        input.push(json!({"type": "message", "role": "assistant",
            "content": [{"type": "output_text", "text": "Reading.", "annotations": []}]}));
        input.push(json!({"type": "function_call", "call_id": CALL_ID, "name": TOOL, "arguments": args_text()}));
        input.push(json!({"type": "function_call_output", "call_id": CALL_ID, "output": RESULT}));
    }
    json!({"model": "gpt-agent", "stream": stream, "max_output_tokens": 256, "instructions": SYSTEM,
        "input": input, "store": false,
        "tools": [{"type": "function", "name": TOOL, "description": "Reads a file.",
            "parameters": {"type": "object", "properties": {"path": {"type": "string"}}}}]})
}

fn parsed(args: &str) -> Value {
    serde_json::from_str(args).unwrap_or_else(|e| panic!("arguments {args:?}: {e}"))
}

fn read_chat(body: &Value) -> Read {
    let m = &body["choices"][0]["message"];
    let u = &body["usage"];
    Read {
        text: m["content"].as_str().unwrap_or("").to_owned(),
        call: m["tool_calls"].get(0).map(|c| {
            let f = &c["function"];
            (
                str(&c["id"]),
                str(&f["name"]),
                parsed(f["arguments"].as_str().unwrap()),
            )
        }),
        prompt: u["prompt_tokens"].as_u64().unwrap(),
        cached: u["prompt_tokens_details"]["cached_tokens"]
            .as_u64()
            .unwrap_or(0),
        output: u["completion_tokens"].as_u64().unwrap(),
        stop: str(&body["choices"][0]["finish_reason"]),
    }
}

fn read_chat_chunks(chunks: &[Value]) -> Read {
    let mut r = Read::default();
    let (mut id, mut name, mut args) = (String::new(), String::new(), String::new());
    for c in chunks {
        if let Some(u) = c.get("usage").filter(|u| !u.is_null()) {
            r.prompt = u["prompt_tokens"].as_u64().unwrap();
            r.cached = u["prompt_tokens_details"]["cached_tokens"]
                .as_u64()
                .unwrap_or(0);
            r.output = u["completion_tokens"].as_u64().unwrap();
        }
        let Some(choice) = c["choices"].get(0) else {
            continue;
        };
        if let Some(f) = choice["finish_reason"].as_str() {
            r.stop = f.to_owned();
        }
        r.text
            .push_str(choice["delta"]["content"].as_str().unwrap_or(""));
        if let Some(tc) = choice["delta"]["tool_calls"].get(0) {
            id.push_str(tc["id"].as_str().unwrap_or(""));
            name.push_str(tc["function"]["name"].as_str().unwrap_or(""));
            args.push_str(tc["function"]["arguments"].as_str().unwrap_or(""));
        }
    }
    if !id.is_empty() {
        r.call = Some((id, name, parsed(&args)));
    }
    r
}

fn str(v: &Value) -> String {
    v.as_str()
        .unwrap_or_else(|| panic!("not a string: {v}"))
        .to_owned()
}

fn messages_usage(r: &mut Read, u: &Value) {
    let n = |k: &str| u[k].as_u64().unwrap_or(0);
    r.prompt = n("input_tokens") + n("cache_read_input_tokens") + n("cache_creation_input_tokens");
    r.cached = n("cache_read_input_tokens");
    r.output = n("output_tokens");
}

fn read_message(body: &Value) -> Read {
    assert_eq!(body["type"], "message", "{body}");
    let mut r = Read {
        stop: str(&body["stop_reason"]),
        ..Read::default()
    };
    for b in body["content"].as_array().unwrap() {
        match b["type"].as_str().unwrap() {
            "text" => r.text.push_str(b["text"].as_str().unwrap()),
            "tool_use" => r.call = Some((str(&b["id"]), str(&b["name"]), b["input"].clone())),
            other => panic!("block {other}"),
        }
    }
    messages_usage(&mut r, &body["usage"]);
    r
}

fn read_message_events(events: &[Value]) -> Read {
    let kinds: Vec<&str> = events.iter().map(|e| e["type"].as_str().unwrap()).collect();
    assert_eq!(kinds.first(), Some(&"message_start"), "{kinds:?}");
    assert_eq!(kinds.last(), Some(&"message_stop"), "{kinds:?}");
    let mut r = Read::default();
    let mut args = String::new();
    for e in events {
        match e["type"].as_str().unwrap() {
            "content_block_start" if e["content_block"]["type"] == "tool_use" => {
                let b = &e["content_block"];
                r.call = Some((str(&b["id"]), str(&b["name"]), json!({})));
            }
            "content_block_delta" => {
                r.text.push_str(e["delta"]["text"].as_str().unwrap_or(""));
                args.push_str(e["delta"]["partial_json"].as_str().unwrap_or(""));
            }
            "message_delta" => {
                r.stop = str(&e["delta"]["stop_reason"]);
                messages_usage(&mut r, &e["usage"]);
            }
            _ => {}
        }
    }
    if let Some(call) = &mut r.call {
        call.2 = parsed(&args);
    }
    r
}

fn read_response(body: &Value) -> Read {
    assert_eq!(body["object"], "response", "{body}");
    let mut r = Read {
        stop: str(&body["status"]),
        ..Read::default()
    };
    for item in body["output"].as_array().unwrap() {
        match item["type"].as_str().unwrap() {
            "message" => r
                .text
                .push_str(item["content"][0]["text"].as_str().unwrap()),
            "function_call" => {
                let args = parsed(item["arguments"].as_str().unwrap());
                r.call = Some((str(&item["call_id"]), str(&item["name"]), args));
            }
            other => panic!("item {other}"),
        }
    }
    let u = &body["usage"];
    r.prompt = u["input_tokens"].as_u64().unwrap();
    r.cached = u["input_tokens_details"]["cached_tokens"].as_u64().unwrap();
    r.output = u["output_tokens"].as_u64().unwrap();
    assert_eq!(u["total_tokens"].as_u64().unwrap(), r.prompt + r.output);
    r
}

fn read_response_events(events: &[Value]) -> Read {
    let seqs: Vec<u64> = events
        .iter()
        .map(|e| e["sequence_number"].as_u64().unwrap())
        .collect();
    assert_eq!(seqs, (0..events.len() as u64).collect::<Vec<_>>());
    assert_eq!(events[0]["type"], "response.created");
    let last = events.last().unwrap();
    assert_eq!(last["type"], "response.completed", "{last}");
    let r = read_response(&last["response"]);
    // The deltas add up to what the final response says.
    let text: String = events
        .iter()
        .filter(|e| e["type"] == "response.output_text.delta")
        .map(|e| e["delta"].as_str().unwrap())
        .collect();
    assert_eq!(text, r.text);
    r
}
