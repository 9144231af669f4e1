//! What goes wrong reaches the agent in its own API: an upstream stream that breaks in the
//! middle ends with the API's error event (never its end-of-message event), and a request
//! past the gateway's size limit is refused in the API's error shape.

use super::agent::Api;
use super::post;
use super::upstream::Upstream;
use crate::common::transcript;
use nab_gateway::{Budgets, Gateway, GatewayConfig, GatewayHandle, GatewayLimits, build_provider};
use serde_json::{Value, json};
use std::path::Path;
use wiremock::matchers::{method, path};
use wiremock::{Mock, MockServer, ResponseTemplate};

async fn start(dir: &Path, spec: &str, limits: GatewayLimits) -> GatewayHandle {
    let provider = build_provider(spec, &super::opts()).expect("provider");
    let mut cfg = GatewayConfig::new(
        dir.join("llm.sock"),
        dir.join(nab_protocol::TRANSCRIPT_FILE),
    );
    cfg.budgets = Budgets::default();
    cfg.limits = limits;
    cfg.policy.max_retries = 0;
    Gateway::start(cfg, provider).await.expect("gateway starts")
}

/// An OpenAI-compatible stream cut after some text: no finish reason, no `[DONE]`.
fn cut_stream() -> String {
    let chunk = |delta: Value| {
        json!({"id": "c", "object": "chat.completion.chunk", "created": 1, "model": "m",
            "choices": [{"index": 0, "delta": delta, "finish_reason": null}]})
    };
    [
        chunk(json!({"role": "assistant"})),
        chunk(json!({"content": "Let me"})),
    ]
    .iter()
    .map(|c| format!("data: {c}\n\n"))
    .collect()
}

/// The events of an SSE body: (name, data).
fn events(sse: &str) -> Vec<(String, Value)> {
    sse.split("\n\n")
        .filter(|e| !e.trim().is_empty())
        .map(|e| {
            let name = e
                .lines()
                .find_map(|l| l.strip_prefix("event: "))
                .unwrap_or("");
            let data = e.lines().find_map(|l| l.strip_prefix("data: ")).unwrap();
            (name.to_owned(), serde_json::from_str(data).unwrap())
        })
        .collect()
}

#[tokio::test]
async fn a_stream_broken_upstream_ends_with_the_apis_error_event() {
    for api in [Api::Messages, Api::Responses] {
        let server = MockServer::start().await;
        Mock::given(method("POST"))
            .and(path("/v1/chat/completions"))
            .respond_with(
                ResponseTemplate::new(200).set_body_raw(cut_stream(), "text/event-stream"),
            )
            .mount(&server)
            .await;
        let dir = tempfile::tempdir().unwrap();
        let gw = start(
            dir.path(),
            &Upstream::OpenAi.spec(&server),
            GatewayLimits::default(),
        )
        .await;
        let (status, text) = post(gw.socket_path(), api.path(), &api.request(true, false)).await;
        assert_eq!(status, 200, "{text}");
        let ev = events(&text);
        let (name, last) = ev.last().unwrap();
        assert_eq!(name, "error", "{api:?}: {text}");
        let names: Vec<&str> = ev.iter().map(|(n, _)| n.as_str()).collect();
        match api {
            Api::Messages => {
                assert_eq!(last["type"], "error");
                assert_eq!(last["error"]["type"], "api_error", "{last}");
                assert!(
                    last["error"]["message"]
                        .as_str()
                        .unwrap()
                        .contains("stream"),
                    "{last}"
                );
                assert!(!names.contains(&"message_stop"), "{names:?}");
                assert!(
                    names.contains(&"content_block_delta"),
                    "the text before the break: {names:?}"
                );
            }
            _ => {
                assert_eq!(last["type"], "error");
                assert_eq!(last["code"], "stream_truncated", "{last}");
                assert!(!names.contains(&"response.completed"), "{names:?}");
            }
        }
        gw.shutdown().await;
        let lines = transcript(&dir.path().join(nab_protocol::TRANSCRIPT_FILE));
        assert_eq!(
            lines[0].error_code.as_deref(),
            Some("stream_truncated"),
            "{api:?}"
        );
    }
}

#[tokio::test]
async fn a_request_past_the_size_limit_is_refused_in_the_apis_shape() {
    let server = Upstream::Anthropic.serve(false).await;
    let dir = tempfile::tempdir().unwrap();
    let limits = GatewayLimits::from_sizes(4096, 8);
    let gw = start(dir.path(), &Upstream::Anthropic.spec(&server), limits).await;
    let mut big = Api::Messages.request(false, false);
    big["system"] = json!("x".repeat(8192));
    let (status, text) = post(gw.socket_path(), "/v1/messages", &big).await;
    assert_eq!(status, 413, "{text}");
    let v: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(v["type"], "error", "{v}");
    assert_eq!(v["error"]["type"], "request_too_large", "{v}");
    assert!(
        v["error"]["message"]
            .as_str()
            .unwrap()
            .contains("4096 bytes"),
        "{v}"
    );
    let mut big = Api::Responses.request(false, false);
    big["instructions"] = json!("x".repeat(8192));
    let (status, text) = post(gw.socket_path(), "/v1/responses", &big).await;
    assert_eq!(status, 413, "{text}");
    let v: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(v["error"]["code"], "request_too_large", "{v}");
    assert_eq!(server.received_requests().await.unwrap().len(), 0);
    let m = gw.shutdown().await;
    assert_eq!(m.refused_requests, 2);
}
