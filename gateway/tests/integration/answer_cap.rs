//! The provider's answer is untrusted too: a success body (a JSON answer, or a whole event
//! stream) larger than the cap is an upstream error, not a buffer that grows without end.
//! A mock HTTP server stands in for the remote provider; the gateway is real, on a Unix
//! socket.

use crate::common;

use common::*;
use nab_gateway::{
    Budgets, CallPolicy, Gateway, GatewayConfig, GatewayHandle, ProviderOptions, build_provider,
};
use serde_json::Value;
use std::path::Path;
use wiremock::matchers::{body_string_contains, method};
use wiremock::{Mock, MockServer, ResponseTemplate};

/// The cap these tests set: 1 MiB.
const CAP: u64 = 1 << 20;

async fn start(dir: &Path, server: &MockServer, cap: Option<u64>) -> GatewayHandle {
    let mut opts = ProviderOptions::default();
    opts.env_overrides.insert("NAB_API_KEY".into(), "k".into());
    opts.max_answer_bytes = cap;
    let provider = build_provider(&format!("openai:m@{}/v1", server.uri()), &opts).unwrap();
    let mut cfg = GatewayConfig::new(
        dir.join("llm.sock"),
        dir.join(nab_protocol::TRANSCRIPT_FILE),
    );
    cfg.budgets = Budgets::default();
    cfg.policy = CallPolicy {
        max_retries: 0,
        ..CallPolicy::default()
    };
    Gateway::start(cfg, provider).await.unwrap()
}

/// A 2 MiB answer of each kind: plain JSON, and an event stream of small events.
async fn big_answers() -> MockServer {
    let server = MockServer::start().await;
    let big = "x".repeat(2 << 20);
    Mock::given(method("POST"))
        .and(body_string_contains("\"stream\":true"))
        .respond_with(
            ResponseTemplate::new(200)
                .insert_header("content-type", "text/event-stream")
                .set_body_string(sse_body(&vec!["0123456789abcdef"; 40_000], 10, 2)),
        )
        .mount(&server)
        .await;
    Mock::given(method("POST"))
        .respond_with(ResponseTemplate::new(200).set_body_json(completion(&big, 10, 2)))
        .mount(&server)
        .await;
    server
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_json_answer_over_the_cap_is_an_upstream_error() {
    let server = big_answers().await;
    let dir = tempfile::tempdir().unwrap();
    let gw = start(dir.path(), &server, Some(CAP)).await;
    let (status, body) = chat(gw.socket_path(), &request("sys", "hi", false)).await;
    assert_eq!(status, 502, "{body}");
    assert_eq!(body["error"]["type"], "upstream_error");
    assert_eq!(body["error"]["code"], "invalid_provider_response");
    let msg = body["error"]["message"].as_str().unwrap();
    assert!(msg.contains("larger than 1048576 bytes"), "{msg}");
    gw.shutdown().await;
    let lines = transcript(&dir.path().join(nab_protocol::TRANSCRIPT_FILE));
    assert_eq!(lines.len(), 1);
    assert_eq!(
        lines[0].error_code.as_deref(),
        Some("invalid_provider_response")
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_stream_over_the_cap_ends_in_an_upstream_error() {
    let server = big_answers().await;
    let dir = tempfile::tempdir().unwrap();
    let gw = start(dir.path(), &server, Some(CAP)).await;
    let (status, events) = chat_stream(gw.socket_path(), &request("sys", "hi", true)).await;
    assert_eq!(status, 200);
    assert!(
        !events.iter().any(|e| e == "[DONE]"),
        "must not look complete"
    );
    let err: Value = serde_json::from_str(events.last().unwrap()).unwrap();
    assert_eq!(err["error"]["code"], "invalid_provider_response", "{err}");
    // What was passed on before the cap is at most the cap.
    let passed = content_of_chunks(&events).len() as u64;
    assert!(passed > 0 && passed <= CAP, "{passed}");
    gw.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn answers_under_the_default_cap_pass_whole() {
    let server = big_answers().await;
    let dir = tempfile::tempdir().unwrap();
    let gw = start(dir.path(), &server, None).await;
    let (status, body) = chat(gw.socket_path(), &request("sys", "hi", false)).await;
    assert_eq!(status, 200, "{body}");
    let content = body["choices"][0]["message"]["content"].as_str().unwrap();
    assert_eq!(content.len(), 2 << 20);
    let (status, events) = chat_stream(gw.socket_path(), &request("sys", "hi", true)).await;
    assert_eq!(status, 200);
    assert_eq!(content_of_chunks(&events).len(), 16 * 40_000);
    gw.shutdown().await;
}
