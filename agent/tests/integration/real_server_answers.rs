//! What real model servers do that the scripted model never did, through the whole loop:
//! malformed tool-call JSON, calls to tools that do not exist, tool calls written as plain
//! text, and a 400 for context overflow. (Slow first tokens: `client_sse.rs`.)

use crate::support;

use std::sync::atomic::{AtomicUsize, Ordering};

use nab_agent::EventSink;
use nab_agent::{Agent, AgentConfig, RunOutcome};
use nab_agent::{ClientConfig, Endpoint, LlmClient, RetryPolicy};
use nab_protocol::ExitReason;
use serde_json::{Value, json};
use support::tool_messages;
use wiremock::matchers::method;
use wiremock::{Mock, MockServer, Request, Respond, ResponseTemplate};

/// Streams the given raw answers in order, one per request, as a server would.
struct Answers {
    bodies: Vec<String>,
    next: AtomicUsize,
}

impl Respond for Answers {
    fn respond(&self, _: &Request) -> ResponseTemplate {
        let i = self.next.fetch_add(1, Ordering::SeqCst);
        match self.bodies.get(i) {
            Some(b) => ResponseTemplate::new(200).set_body_raw(b.clone(), "text/event-stream"),
            None => ResponseTemplate::new(400).set_body_string("out of answers"),
        }
    }
}

fn chunk(delta: Value, finish: Option<&str>) -> String {
    let c = json!({"id": "x", "object": "chat.completion.chunk", "model": "m",
        "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]});
    format!("data: {c}\n\n")
}

fn usage() -> String {
    let c = json!({"id": "x", "object": "chat.completion.chunk", "model": "m", "choices": [],
        "usage": {"prompt_tokens": 50, "completion_tokens": 5, "total_tokens": 55}});
    format!("data: {c}\n\ndata: [DONE]\n\n")
}

/// A turn whose tool calls carry raw argument text, exactly as given.
fn raw_calls(calls: &[(&str, &str)]) -> String {
    let mut s = chunk(json!({"role": "assistant", "content": ""}), None);
    for (i, (name, args)) in calls.iter().enumerate() {
        s.push_str(&chunk(
            json!({"tool_calls": [{"index": i, "id": format!("call_{i}"), "type": "function",
                "function": {"name": name, "arguments": args}}]}),
            None,
        ));
    }
    s.push_str(&chunk(json!({}), Some("tool_calls")));
    s + &usage()
}

fn text(t: &str) -> String {
    chunk(json!({"role": "assistant", "content": t}), None)
        + &chunk(json!({}), Some("stop"))
        + &usage()
}

struct Run {
    outcome: RunOutcome,
    requests: Vec<Value>,
    events: Vec<Value>,
}

async fn run(server: &MockServer) -> Run {
    let ws = tempfile::tempdir().unwrap();
    std::fs::write(
        ws.path().join("calc.py"),
        "def add(a, b):\n    return a - b\n",
    )
    .unwrap();
    let events_path = ws.path().join(nab_protocol::EVENTS_FILE);
    let mut cfg = ClientConfig::new(Endpoint::parse(&format!("{}/v1", server.uri())).unwrap());
    cfg.retry = RetryPolicy {
        max_retries: 3,
        base_delay: std::time::Duration::from_millis(5),
        max_delay: std::time::Duration::from_millis(20),
    };
    let agent_cfg = AgentConfig::new(ws.path().to_path_buf(), "m", ws.path().join("state"));
    let mut agent = Agent::new(
        agent_cfg,
        LlmClient::new(cfg),
        EventSink::to_file(&events_path).unwrap(),
    )
    .unwrap();
    let outcome = agent.run("Fix add in calc.py").await;
    let requests = server
        .received_requests()
        .await
        .unwrap()
        .iter()
        .map(|r| serde_json::from_slice(&r.body).unwrap())
        .collect();
    Run {
        outcome,
        requests,
        events: support::read_events(&events_path),
    }
}

#[tokio::test]
async fn malformed_json_unknown_tools_and_text_calls_do_not_end_the_run() {
    let server = MockServer::start().await;
    let bodies = vec![
        // A cut-off argument object, and a tool the agent does not have.
        raw_calls(&[
            ("read_file", r#"{"path": "calc.py""#),
            ("python", r#"{"code": "print(1)"}"#),
        ]),
        // The call written as text, Hermes-style, with no tool_calls.
        text(
            "<tool_call>\n{\"name\": \"read_file\", \"arguments\": {\"path\": \"calc.py\"}}\n</tool_call>",
        ),
        text("add() subtracts; it should add."),
    ];
    Mock::given(method("POST"))
        .respond_with(Answers {
            bodies,
            next: AtomicUsize::new(0),
        })
        .mount(&server)
        .await;
    let r = run(&server).await;
    assert_eq!(
        r.outcome.exit_reason,
        ExitReason::FinalAnswer,
        "{:?}",
        r.outcome.message
    );
    assert_eq!(r.outcome.steps, 3);
    assert_eq!(r.requests.len(), 3, "no retries: every answer was usable");

    // Step 1's results tell the model what was wrong with each call.
    let results = tool_messages(&r.requests[1]);
    assert!(
        results[0].1.contains("not valid JSON"),
        "malformed arguments: {}",
        results[0].1
    );
    assert!(
        results[1].1.starts_with("ERROR: unknown tool `python`"),
        "unknown tool: {}",
        results[1].1
    );

    // Step 2's text call ran as a real call: the history shows a structured call (no text)
    // and the file's content came back.
    let history = r.requests[2]["messages"].as_array().unwrap();
    let converted = history
        .iter()
        .rev()
        .find(|m| m["role"] == "assistant")
        .unwrap();
    assert_eq!(converted["content"], "");
    assert_eq!(converted["tool_calls"][0]["function"]["name"], "read_file");
    let last_results = tool_messages(&r.requests[2]);
    assert!(
        last_results.last().unwrap().1.contains("return a - b"),
        "{last_results:?}"
    );
    let calls: Vec<&Value> = r
        .events
        .iter()
        .filter(|e| e["kind"] == "tool_call")
        .collect();
    assert_eq!(calls.len(), 3);
    assert_eq!(calls[2]["status"], "ok");
    // No request ever carried a null content.
    for req in &r.requests {
        for m in req["messages"].as_array().unwrap() {
            assert!(m["content"].is_string(), "{m}");
        }
    }
}

#[tokio::test]
async fn a_context_overflow_400_ends_the_run_as_context_overflow_at_once() {
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .respond_with(ResponseTemplate::new(400).set_body_json(json!({"error": {
            "message": "This model's maximum context length is 8192 tokens. However, you requested 20010 tokens (20010 in the messages, None in the completion). Please reduce the length of the messages or completion.",
            "type": "invalid_request_error", "param": "messages", "code": "context_length_exceeded"}})))
        .mount(&server)
        .await;
    let r = run(&server).await;
    assert_eq!(r.outcome.exit_reason, ExitReason::ContextOverflow);
    assert!(
        r.outcome
            .message
            .as_deref()
            .unwrap()
            .contains("maximum context length is 8192"),
        "{:?}",
        r.outcome.message
    );
    assert_eq!(r.requests.len(), 1, "not retried");
    assert_eq!(r.events.last().unwrap()["exit_reason"], "context_overflow");
}
