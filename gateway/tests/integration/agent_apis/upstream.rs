//! The remote providers the agent APIs are translated to, as wiremock serves them: an
//! OpenAI-compatible server and Anthropic, each answering a tool call first and text next,
//! whole or streamed in their own event formats, with fixed usage.

use serde_json::{Value, json};
use wiremock::matchers::{method, path};
use wiremock::{Mock, MockServer, ResponseTemplate};

/// Input tokens not cached, cache reads, output tokens: what every upstream answer reports.
pub const FRESH: u64 = 20;
pub const CACHED: u64 = 100;
pub const OUTPUT: u64 = 7;

pub const CALL_ID: &str = "call_7Qx";
pub const TOOL: &str = "read_file";
pub const FINAL_TEXT: &str = "The file says hello.";

pub fn call_args() -> Value {
    json!({"path": "a.txt", "lines": [1, 2]})
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Upstream {
    OpenAi,
    Anthropic,
}

/// One answer: text, or a tool call after a short text.
#[derive(Clone, Copy)]
pub enum Turn {
    Call,
    Text,
}

impl Upstream {
    pub fn spec(self, server: &MockServer) -> String {
        match self {
            Upstream::OpenAi => format!("openai:up-model@{}/v1", server.uri()),
            Upstream::Anthropic => format!("anthropic:claude-up@{}", server.uri()),
        }
    }

    pub fn path(self) -> &'static str {
        match self {
            Upstream::OpenAi => "/v1/chat/completions",
            Upstream::Anthropic => "/v1/messages",
        }
    }

    /// A mock serving the tool call, then the text (for every later request).
    pub async fn serve(self, stream: bool) -> MockServer {
        let server = MockServer::start().await;
        for (i, turn) in [Turn::Call, Turn::Text].into_iter().enumerate() {
            let m = Mock::given(method("POST"))
                .and(path(self.path()))
                .respond_with(self.answer(turn, stream));
            let m = if i == 0 { m.up_to_n_times(1) } else { m };
            m.mount(&server).await;
        }
        server
    }

    fn answer(self, turn: Turn, stream: bool) -> ResponseTemplate {
        match (self, stream) {
            (Upstream::OpenAi, false) => {
                ResponseTemplate::new(200).set_body_json(openai_json(turn))
            }
            (Upstream::OpenAi, true) => {
                ResponseTemplate::new(200).set_body_raw(openai_sse(turn), "text/event-stream")
            }
            (Upstream::Anthropic, false) => {
                ResponseTemplate::new(200).set_body_json(anthropic_json(turn))
            }
            (Upstream::Anthropic, true) => {
                ResponseTemplate::new(200).set_body_raw(anthropic_sse(turn), "text/event-stream")
            }
        }
    }

    /// Checks that the request the upstream got second holds the tool call and its result
    /// in the upstream's own form.
    pub fn assert_tool_result_sent(self, body: &Value, result: &str) {
        match self {
            Upstream::OpenAi => {
                let msgs = body["messages"].as_array().unwrap();
                let call = msgs
                    .iter()
                    .find_map(|m| m["tool_calls"].get(0))
                    .expect("the assistant's call");
                assert_eq!(call["id"], CALL_ID);
                let args: Value =
                    serde_json::from_str(call["function"]["arguments"].as_str().unwrap()).unwrap();
                assert_eq!(args, call_args());
                let tool = msgs
                    .iter()
                    .find(|m| m["role"] == "tool")
                    .expect("a tool message");
                assert_eq!(tool["tool_call_id"], CALL_ID);
                assert_eq!(tool["content"], result);
            }
            Upstream::Anthropic => {
                let blocks: Vec<&Value> = body["messages"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .flat_map(|m| m["content"].as_array().into_iter().flatten())
                    .collect();
                let use_ = blocks
                    .iter()
                    .find(|b| b["type"] == "tool_use")
                    .expect("tool_use");
                assert_eq!(use_["id"], CALL_ID);
                assert_eq!(use_["input"], call_args());
                let res = blocks
                    .iter()
                    .find(|b| b["type"] == "tool_result")
                    .expect("tool_result");
                assert_eq!(res["tool_use_id"], CALL_ID);
                let text = match &res["content"] {
                    Value::String(s) => s.clone(),
                    v => v[0]["text"].as_str().unwrap().to_owned(),
                };
                assert_eq!(text, result);
            }
        }
    }
}

fn openai_usage() -> Value {
    json!({"prompt_tokens": FRESH + CACHED, "completion_tokens": OUTPUT,
        "total_tokens": FRESH + CACHED + OUTPUT, "prompt_tokens_details": {"cached_tokens": CACHED}})
}

fn openai_json(turn: Turn) -> Value {
    let message = match turn {
        Turn::Call => json!({"role": "assistant", "content": "Reading.", "tool_calls": [
            {"id": CALL_ID, "type": "function", "function": {"name": TOOL, "arguments": call_args().to_string()}}]}),
        Turn::Text => json!({"role": "assistant", "content": FINAL_TEXT}),
    };
    let finish = match turn {
        Turn::Call => "tool_calls",
        Turn::Text => "stop",
    };
    json!({"id": "chatcmpl-up", "object": "chat.completion", "created": 1, "model": "up-model",
        "choices": [{"index": 0, "message": message, "finish_reason": finish}], "usage": openai_usage()})
}

fn openai_sse(turn: Turn) -> String {
    let chunk = |delta: Value, finish: Value| {
        json!({"id": "chatcmpl-up", "object": "chat.completion.chunk", "created": 1, "model": "up-model",
            "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]})
    };
    let mut chunks = vec![chunk(
        json!({"role": "assistant", "content": ""}),
        Value::Null,
    )];
    match turn {
        Turn::Call => {
            let args = call_args().to_string();
            let (a, b) = args.split_at(7);
            chunks.push(chunk(json!({"content": "Reading."}), Value::Null));
            chunks.push(chunk(
                json!({"tool_calls": [{"index": 0, "id": CALL_ID, "type": "function",
                "function": {"name": TOOL, "arguments": a}}]}),
                Value::Null,
            ));
            chunks.push(chunk(
                json!({"tool_calls": [{"index": 0, "function": {"arguments": b}}]}),
                Value::Null,
            ));
            chunks.push(chunk(json!({}), json!("tool_calls")));
        }
        Turn::Text => {
            let (a, b) = FINAL_TEXT.split_at(8);
            chunks.push(chunk(json!({"content": a}), Value::Null));
            chunks.push(chunk(json!({"content": b}), Value::Null));
            chunks.push(chunk(json!({}), json!("stop")));
        }
    }
    chunks.push(
        json!({"id": "chatcmpl-up", "object": "chat.completion.chunk", "created": 1,
        "model": "up-model", "choices": [], "usage": openai_usage()}),
    );
    let mut out: String = chunks.iter().map(|c| format!("data: {c}\n\n")).collect();
    out.push_str("data: [DONE]\n\n");
    out
}

fn anthropic_json(turn: Turn) -> Value {
    let (content, stop) = match turn {
        Turn::Call => (
            json!([{"type": "text", "text": "Reading."},
                {"type": "tool_use", "id": CALL_ID, "name": TOOL, "input": call_args()}]),
            "tool_use",
        ),
        Turn::Text => (json!([{"type": "text", "text": FINAL_TEXT}]), "end_turn"),
    };
    json!({"id": "msg_up", "type": "message", "role": "assistant", "model": "claude-up",
        "content": content, "stop_reason": stop, "stop_sequence": null,
        "usage": {"input_tokens": FRESH, "cache_read_input_tokens": CACHED, "cache_creation_input_tokens": 0, "output_tokens": OUTPUT}})
}

fn anthropic_sse(turn: Turn) -> String {
    let mut events = vec![
        json!({"type": "message_start", "message": {"id": "msg_up", "type": "message",
        "role": "assistant", "content": [], "model": "claude-up", "stop_reason": null, "stop_sequence": null,
        "usage": {"input_tokens": FRESH, "cache_read_input_tokens": CACHED, "cache_creation_input_tokens": 0, "output_tokens": 1}}}),
    ];
    let text = |index: u64, t: &str| {
        vec![
            json!({"type": "content_block_start", "index": index, "content_block": {"type": "text", "text": ""}}),
            json!({"type": "content_block_delta", "index": index, "delta": {"type": "text_delta", "text": t}}),
            json!({"type": "content_block_stop", "index": index}),
        ]
    };
    let stop = match turn {
        Turn::Call => {
            events.extend(text(0, "Reading."));
            let args = call_args().to_string();
            let (a, b) = args.split_at(7);
            events.push(json!({"type": "content_block_start", "index": 1,
                "content_block": {"type": "tool_use", "id": CALL_ID, "name": TOOL, "input": {}}}));
            for piece in [a, b] {
                events.push(json!({"type": "content_block_delta", "index": 1,
                    "delta": {"type": "input_json_delta", "partial_json": piece}}));
            }
            events.push(json!({"type": "content_block_stop", "index": 1}));
            "tool_use"
        }
        Turn::Text => {
            events.extend(text(0, FINAL_TEXT));
            "end_turn"
        }
    };
    events.push(
        json!({"type": "message_delta", "delta": {"stop_reason": stop, "stop_sequence": null},
        "usage": {"output_tokens": OUTPUT}}),
    );
    events.push(json!({"type": "message_stop"}));
    events
        .iter()
        .map(|e| format!("event: {}\ndata: {e}\n\n", e["type"].as_str().unwrap()))
        .collect()
}
