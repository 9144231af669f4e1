//! nab-agent against the dialects of real OpenAI-compatible servers
//! (`tests/fixtures/dialects/*.json`, see the README there).
//!
//! Each fixture is played by a mock server (wiremock, over TCP) that refuses any request
//! breaking one of the server's documented rules with the server's status and body, and
//! otherwise answers as the server streams. nab-agent's real request — a history with an
//! assistant turn that only called tools, and the built-in tool schemas — goes through the
//! real gateway (over its Unix socket) with the fixture's `openai[...]` options; the test
//! checks that the server accepted it, what nab-agent assembled, what the transcript
//! recorded, and that errors are taken for what they are.

use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use nab_agent::ToolRegistry;
use nab_agent::{AssistantTurn, NoopObserver};
use nab_agent::{ChatRequest, ClientConfig, ClientError, Endpoint, LlmClient, RetryPolicy};
use nab_agent::{Message, Role, ToolCall};
use nab_gateway::{Budgets, CallPolicy, Gateway, GatewayConfig, GatewayHandle, ProviderOptions};
use nab_protocol::TranscriptLine;
use serde_json::{Value, json};
use wiremock::{Mock, MockServer, Request, Respond, ResponseTemplate};

fn fixtures() -> Vec<(String, Value)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/dialects");
    let mut out: Vec<(String, Value)> = std::fs::read_dir(&dir)
        .unwrap()
        .filter_map(|e| {
            let p = e.unwrap().path();
            (p.extension()? == "json").then(|| {
                let v = serde_json::from_str(&std::fs::read_to_string(&p).unwrap())
                    .unwrap_or_else(|e| panic!("{}: {e}", p.display()));
                (p.file_stem().unwrap().to_string_lossy().into_owned(), v)
            })
        })
        .collect();
    out.sort_by(|a, b| a.0.cmp(&b.0));
    assert!(out.len() >= 7, "fixtures missing from {}", dir.display());
    out
}

/// The first documented rule `body` breaks, if any.
fn broken_rule(rules: &[Value], body: &Value) -> Option<String> {
    let messages = body["messages"].as_array().cloned().unwrap_or_default();
    for rule in rules.iter().filter_map(Value::as_str) {
        let broken = match rule.split_once(':') {
            None if rule == "content_string" => messages
                .iter()
                .any(|m| !matches!(m.get("content"), Some(Value::String(_) | Value::Array(_)))),
            None if rule == "no_stream_with_tool_choice" => false, // answered, not refused
            Some(("no_field", f)) => body.get(f).is_some(),
            Some(("no_message_field", f)) => messages.iter().any(|m| m.get(f).is_some()),
            Some(("tool_choice_in", allowed)) => body
                .get("tool_choice")
                .is_some_and(|c| !allowed.split('|').any(|a| c == a)),
            _ => panic!("unknown rule {rule}"),
        };
        if broken {
            return Some(rule.to_owned());
        }
    }
    None
}

/// Plays one fixture: refuses what the server refuses, answers what it answers.
struct DialectServer {
    fixture: Value,
}

impl Respond for DialectServer {
    fn respond(&self, req: &Request) -> ResponseTemplate {
        let f = &self.fixture;
        let body: Value = serde_json::from_slice(&req.body).expect("the request is JSON");
        let rules = f["rules"].as_array().cloned().unwrap_or_default();
        if broken_rule(&rules, &body).is_some() {
            let r = &f["rejection"];
            return ResponseTemplate::new(r["status"].as_u64().unwrap() as u16)
                .set_body_json(r["body"].clone());
        }
        let streamed = body.get("stream") == Some(&json!(true));
        if streamed
            && body.get("tool_choice").is_some()
            && rules.iter().any(|r| r == "no_stream_with_tool_choice")
        {
            // The server fails after sending its headers: keep-alive comments, no data.
            return ResponseTemplate::new(200)
                .set_body_raw(": ping - 2026-11-30 18:02:10\n\n", "text/event-stream");
        }
        if streamed {
            let mut text = String::new();
            for c in f["comments"].as_array().into_iter().flatten() {
                text.push_str(&format!("{}\n\n", c.as_str().unwrap()));
            }
            for c in f["stream"].as_array().expect("a streamed answer") {
                text.push_str(&format!("data: {c}\n\n"));
            }
            text.push_str("data: [DONE]\n\n");
            return ResponseTemplate::new(200).set_body_raw(text, "text/event-stream");
        }
        match f.get("completion") {
            Some(c) => ResponseTemplate::new(200).set_body_json(c.clone()),
            None => ResponseTemplate::new(418).set_body_string("this fixture only streams"),
        }
    }
}

async fn serving(answer: impl Respond + 'static) -> MockServer {
    let server = MockServer::start().await;
    Mock::given(wiremock::matchers::method("POST"))
        .respond_with(answer)
        .mount(&server)
        .await;
    server
}

/// nab-agent's request after one tool round: the assistant turn that only called a tool has
/// no text (the turn llama-cpp-python and Ollama refused as `content: null`).
fn agent_request() -> Arc<ChatRequest> {
    let tool_only = Message {
        role: Role::Assistant,
        content: None,
        reasoning: Some("I should look at the directory.".into()),
        tool_calls: vec![ToolCall::new("call_1", "list_dir", r#"{"path": "."}"#)],
        tool_call_id: None,
    };
    Arc::new(ChatRequest {
        model: "agent-model".into(),
        messages: vec![
            Arc::new(Message::system("You are a coding agent.")),
            Arc::new(Message::user("Fix the bug in src/app.py")),
            Arc::new(tool_only),
            Arc::new(Message::tool("call_1", "src/\nREADME.md")),
        ],
        tools: Arc::new(ToolRegistry::with_builtins().schemas()),
        max_tokens: None,
        temperature: None,
    })
}

fn client(base_url: &str) -> LlmClient {
    let mut cfg = ClientConfig::new(Endpoint::parse(base_url).unwrap());
    cfg.retry = RetryPolicy {
        max_retries: 4,
        base_delay: Duration::from_millis(5),
        max_delay: Duration::from_millis(20),
    };
    cfg.idle_timeout = Duration::from_secs(10);
    LlmClient::new(cfg)
}

async fn gateway(dir: &Path, spec: &str) -> GatewayHandle {
    let mut opts = ProviderOptions::default();
    opts.env_overrides
        .insert("NAB_API_KEY".into(), "sk-dialect-test-key".into());
    let provider = nab_gateway::build_provider(spec, &opts).expect("provider");
    let mut cfg = GatewayConfig::new(
        dir.join("llm.sock"),
        dir.join(nab_protocol::TRANSCRIPT_FILE),
    );
    cfg.budgets = Budgets::default();
    cfg.policy = CallPolicy {
        max_retries: 3,
        base_backoff: Duration::from_millis(5),
        max_backoff: Duration::from_millis(50),
        idle_timeout: Duration::from_secs(5),
        response_timeout: Duration::from_secs(10),
    };
    Gateway::start(cfg, provider).await.expect("gateway")
}

fn spec(fixture: &Value, server: &MockServer) -> String {
    let options = fixture["options"].as_str().unwrap_or("");
    let kind = if options.is_empty() {
        "openai".to_owned()
    } else {
        format!("openai[{options}]")
    };
    format!("{kind}:served-model@{}/v1", server.uri())
}

fn transcript(dir: &Path) -> Vec<TranscriptLine> {
    nab_protocol::read_jsonl::<TranscriptLine>(&dir.join(nab_protocol::TRANSCRIPT_FILE))
        .unwrap()
        .records
}

fn check_turn(name: &str, f: &Value, turn: &AssistantTurn) {
    let e = &f["expect"];
    assert_eq!(
        turn.content,
        e["content"].as_str().unwrap(),
        "{name}: content"
    );
    if let Some(r) = e["reasoning"].as_str() {
        assert_eq!(turn.reasoning, r, "{name}: reasoning");
    }
    let calls: Vec<(String, String)> = turn
        .tool_calls
        .iter()
        .map(|c| (c.function.name.clone(), c.function.arguments.clone()))
        .collect();
    let want: Vec<(String, String)> = e["tool_calls"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| (c[0].as_str().unwrap().into(), c[1].as_str().unwrap().into()))
        .collect();
    if !want.is_empty() && calls.is_empty() {
        // Tool calls written as text are taken up by the agent loop, not the client.
        let known = ToolRegistry::with_builtins().names();
        let from_text = nab_agent::text_calls::extract(&turn.content, &known)
            .unwrap_or_else(|| panic!("{name}: no tool calls in {:?}", turn.content));
        let got: Vec<(String, String)> = from_text
            .iter()
            .map(|c| (c.function.name.clone(), c.function.arguments.clone()))
            .collect();
        assert_eq!(got, want, "{name}: tool calls written as text");
    } else {
        assert_eq!(calls, want, "{name}: tool calls");
    }
    for c in &turn.tool_calls {
        assert!(!c.id.is_empty(), "{name}: every call has an id");
    }
    assert_eq!(
        turn.finish_reason.as_deref(),
        e["finish_reason"].as_str(),
        "{name}: finish_reason"
    );
    let usage = turn.usage.unwrap_or_else(|| panic!("{name}: no usage"));
    assert_eq!(
        (usage.prompt_tokens, usage.completion_tokens),
        (
            e["usage"][0].as_u64().unwrap(),
            e["usage"][1].as_u64().unwrap()
        ),
        "{name}: usage"
    );
    if let Some(cached) = e["cached"].as_u64() {
        assert_eq!(usage.cached_tokens, cached, "{name}: cached tokens");
    }
}

/// Through the gateway with the fixture's options, every server accepts nab-agent's request
/// at the first try and nab-agent assembles its answer; the transcript has its usage.
#[tokio::test]
async fn every_server_accepts_the_agents_requests_through_the_gateway() {
    for (name, f) in fixtures() {
        let server = serving(DialectServer { fixture: f.clone() }).await;
        let dir = tempfile::tempdir().unwrap();
        let gw = gateway(dir.path(), &spec(&f, &server)).await;
        let base = format!("unix://{}", gw.socket_path().display());
        let done = client(&base)
            .complete(agent_request(), &mut NoopObserver)
            .await
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        gw.shutdown().await;
        check_turn(&name, &f, &done.turn);
        assert_eq!(done.attempts, 1, "{name}");
        let received = server.received_requests().await.unwrap();
        assert_eq!(received.len(), 1, "{name}: the server was asked once");
        let sent: Value = serde_json::from_slice(&received[0].body).unwrap();
        assert!(
            broken_rule(f["rules"].as_array().unwrap(), &sent).is_none(),
            "{name}: {sent}"
        );
        assert_eq!(sent["model"], "served-model", "{name}");
        assert_eq!(
            sent["messages"][2]["content"], "",
            "{name}: no null content"
        );
        let lines = transcript(dir.path());
        assert_eq!(lines.len(), 1, "{name}");
        assert!(lines[0].error.is_none(), "{name}: {:?}", lines[0].error);
        let u = lines[0]
            .usage
            .unwrap_or_else(|| panic!("{name}: transcript usage"));
        assert_eq!(
            u.prompt_tokens,
            f["expect"]["usage"][0].as_u64().unwrap(),
            "{name}: transcript usage"
        );
    }
}

/// Straight to the server (no gateway): servers whose defaults suit nab-agent's requests
/// answer them; the others refuse once, and nab-agent stops at once with the server's words.
#[tokio::test]
async fn straight_to_the_server_refusals_are_final_and_quoted() {
    for (name, f) in fixtures() {
        let server = serving(DialectServer { fixture: f.clone() }).await;
        let result = client(&format!("{}/v1", server.uri()))
            .complete(agent_request(), &mut NoopObserver)
            .await;
        let received = server.received_requests().await.unwrap().len();
        let needs_options = !f["options"].as_str().unwrap_or("").is_empty();
        match result {
            Ok(done) => {
                assert!(!needs_options, "{name}: should have been refused");
                check_turn(&name, &f, &done.turn);
                assert_eq!(received, 1, "{name}");
            }
            Err(e) => {
                assert!(needs_options, "{name}: refused: {e}");
                let msg = f["rejection"]["body"].to_string();
                let quoted = nab_protocol::upstream_error_message(&msg);
                match &e {
                    ClientError::Rejected { message, .. } => {
                        assert_eq!(message, &quoted, "{name}")
                    }
                    // A server whose streaming is broken is retried, then given up on.
                    ClientError::RetriesExhausted { last, .. } => assert!(
                        matches!(**last, ClientError::StreamInterrupted { events: 0 }),
                        "{name}: {e}"
                    ),
                    other => panic!("{name}: {other}"),
                }
                let expected = if matches!(e, ClientError::Rejected { .. }) {
                    1
                } else {
                    5
                };
                assert_eq!(received, expected, "{name}: attempts");
            }
        }
    }
}

/// Each server's context-overflow error ends the call at once as a context overflow.
#[tokio::test]
async fn context_overflow_errors_are_recognised_in_every_dialect() {
    let mut seen = 0;
    for (name, f) in fixtures() {
        let Some(o) = f.get("overflow") else { continue };
        seen += 1;
        let server = serving(
            ResponseTemplate::new(o["status"].as_u64().unwrap() as u16)
                .set_body_json(o["body"].clone()),
        )
        .await;
        let dir = tempfile::tempdir().unwrap();
        let gw = gateway(dir.path(), &spec(&f, &server)).await;
        let err = client(&format!("unix://{}", gw.socket_path().display()))
            .complete(agent_request(), &mut NoopObserver)
            .await
            .unwrap_err();
        gw.shutdown().await;
        assert!(err.is_context_overflow(), "{name}: {err}");
        assert_eq!(server.received_requests().await.unwrap().len(), 1, "{name}");
        let lines = transcript(dir.path());
        assert_eq!(lines.len(), 1, "{name}: the agent did not retry");
        assert_eq!(lines[0].error_code.as_deref(), Some("provider_rejected"));
    }
    assert!(seen >= 3);
}
