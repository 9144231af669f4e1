//! The allow-list over a real Unix socket: what costs money or makes the provider fetch is
//! refused with a 400 naming the field, before the budget or the provider is touched; a
//! recording never stores such a request, and the judges' path refuses it too.

use crate::common;

use common::*;
use nab_gateway::{
    Budgets, CallPolicy, Client, Gateway, GatewayConfig, GatewayError, ProviderError,
    ProviderOptions, build_provider,
};
use serde_json::json;
use wiremock::matchers::method;
use wiremock::{Mock, MockServer, ResponseTemplate};

fn opts() -> ProviderOptions {
    let mut o = ProviderOptions::default();
    o.env_overrides
        .insert("NAB_API_KEY".into(), "sk-allowlist-test".into());
    o
}

#[tokio::test]
async fn refused_fields_never_reach_the_provider_the_budget_or_the_cassette() {
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .respond_with(ResponseTemplate::new(200).set_body_json(completion("ok", 10, 2)))
        .mount(&server)
        .await;
    let dir = tempfile::tempdir().unwrap();
    let cassette = dir.path().join("cassette");
    let spec = format!("record:{}:openai:m@{}/v1", cassette.display(), server.uri());
    let provider = build_provider(&spec, &opts()).unwrap();
    let mut cfg = GatewayConfig::new(dir.path().join("llm.sock"), dir.path().join("t.jsonl"));
    cfg.budgets = Budgets {
        llm_calls: Some(1),
        tokens: None,
        usd: None,
    };
    let gw = Gateway::start(cfg, provider).await.unwrap();

    let attacks = [
        ("n", json!(5), "n"),
        ("store", json!(true), "store"),
        ("metadata", json!({"k": "v"}), "metadata"),
        ("service_tier", json!("priority"), "service_tier"),
        ("web_search_options", json!({}), "web_search_options"),
    ];
    for (field, value, param) in attacks {
        let mut req = request("sys", "hi", false);
        req[field] = value;
        let (status, body) = chat(gw.socket_path(), &req).await;
        assert_eq!(status, 400, "{field}: {body}");
        assert_eq!(body["error"]["type"], "invalid_request_error");
        assert_eq!(body["error"]["code"], "not_allowed");
        assert_eq!(body["error"]["param"], param);
    }
    let mut fetch = request("sys", "hi", true);
    fetch["messages"][1]["content"] = json!([
        {"type": "text", "text": "what is in this image?"},
        {"type": "image_url", "image_url": {"url": "http://169.254.169.254/latest/meta-data/"}}
    ]);
    let (status, body) = chat(gw.socket_path(), &fetch).await;
    assert_eq!(status, 400, "{body}");
    assert_eq!(
        body["error"]["param"],
        "messages[1].content[1].image_url.url"
    );
    assert!(
        server.received_requests().await.unwrap().is_empty(),
        "a refused request reached the provider"
    );
    assert!(
        !cassette.exists() || std::fs::read_dir(&cassette).unwrap().next().is_none(),
        "a refused request was recorded"
    );

    // An inline image is forwarded, and used the one call the budget allows (the refusals
    // above did not count).
    let mut inline = request("sys", "hi", false);
    inline["messages"][1]["content"] = json!([
        {"type": "image_url", "image_url": {"url": "data:image/png;base64,iVBORw0KGgo="}}
    ]);
    let (status, body) = chat(gw.socket_path(), &inline).await;
    assert_eq!(status, 200, "{body}");
    let got = server.received_requests().await.unwrap();
    assert_eq!(got.len(), 1);
    let sent: serde_json::Value = serde_json::from_slice(&got[0].body).unwrap();
    assert_eq!(
        sent["messages"][1]["content"][0]["image_url"]["url"],
        "data:image/png;base64,iVBORw0KGgo="
    );
    gw.shutdown().await;
    assert_eq!(std::fs::read_dir(&cassette).unwrap().count(), 1);
}

#[tokio::test]
async fn the_judges_path_refuses_the_same_requests() {
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .respond_with(ResponseTemplate::new(200).set_body_json(completion("ok", 10, 2)))
        .mount(&server)
        .await;
    let client = Client::from_spec(
        &format!("openai:m@{}/v1", server.uri()),
        &opts(),
        CallPolicy::default(),
    )
    .unwrap();
    let mut req = request("sys", "hi", false);
    req["n"] = json!(4);
    match client.complete(req).await {
        Err(GatewayError::Provider {
            error: ProviderError::InvalidRequest(m),
            retries: 0,
        }) => assert!(m.contains("`n`"), "{m}"),
        other => panic!("expected a refusal, got {other:?}"),
    }
    assert!(server.received_requests().await.unwrap().is_empty());
}
