//! A provider's pace across gateways, over real Unix sockets with a mock provider: a 429
//! holds back every gateway of that provider and no other, and the retries it causes still
//! end at `max_retries` with an error naming the provider.

use crate::common;

use nab_gateway::{CallPolicy, Gateway, GatewayConfig, GatewayHandle, Pace, ProviderOptions};
use std::path::Path;
use std::sync::Arc;
use std::time::Duration;
use wiremock::matchers::method;
use wiremock::{Mock, MockServer, ResponseTemplate};

fn policy(max_retries: u32) -> CallPolicy {
    CallPolicy {
        max_retries,
        base_backoff: Duration::from_millis(5),
        max_backoff: Duration::from_secs(5),
        idle_timeout: Duration::from_secs(5),
        response_timeout: Duration::from_secs(10),
    }
}

async fn start(
    dir: &Path,
    name: &str,
    server: &MockServer,
    pace: &Arc<Pace>,
    max_retries: u32,
) -> GatewayHandle {
    let mut opts = ProviderOptions::default();
    opts.env_overrides.insert("NAB_API_KEY".into(), "k".into());
    let spec = format!("openai:{name}@{}/v1", server.uri());
    let provider = nab_gateway::build_provider(&spec, &opts).expect("provider");
    let mut cfg = GatewayConfig::new(
        dir.join(format!("{name}.sock")),
        dir.join(format!("{name}.jsonl")),
    );
    cfg.policy = policy(max_retries);
    cfg.pace = Some(pace.clone());
    Gateway::start(cfg, provider).await.expect("gateway")
}

async fn ok_server() -> MockServer {
    let s = MockServer::start().await;
    Mock::given(method("POST"))
        .respond_with(ResponseTemplate::new(200).set_body_json(common::completion("ok", 3, 1)))
        .mount(&s)
        .await;
    s
}

#[tokio::test(flavor = "multi_thread")]
async fn a_429_holds_back_every_gateway_of_that_provider_and_no_other() {
    let dir = tempfile::tempdir().unwrap();
    let limited = MockServer::start().await;
    Mock::given(method("POST"))
        .respond_with(
            ResponseTemplate::new(429)
                .insert_header("retry-after", "2")
                .set_body_string("rate limited"),
        )
        .up_to_n_times(1)
        .mount(&limited)
        .await;
    Mock::given(method("POST"))
        .respond_with(ResponseTemplate::new(200).set_body_json(common::completion("ok", 3, 1)))
        .mount(&limited)
        .await;
    let other = ok_server().await;
    let (pace_a, pace_b) = (
        Arc::new(Pace::new("limited", None)),
        Arc::new(Pace::new("other", None)),
    );
    // Two trials of the limited provider, one of another.
    let a1 = start(dir.path(), "a1", &limited, &pace_a, 3).await;
    let a2 = start(dir.path(), "a2", &limited, &pace_a, 3).await;
    let b = start(dir.path(), "b", &other, &pace_b, 3).await;
    let body = common::request("sys", "hi", false);

    let sock1 = a1.socket_path().to_owned();
    let body1 = body.clone();
    let first = tokio::spawn(async move { common::chat(&sock1, &body1).await });
    while pace_a.stats().slowed == 0 {
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    // The cool-down is on: the other provider answers at once, the second trial of the
    // limited one waits with the first.
    let (status, _) = common::chat(b.socket_path(), &body).await;
    assert_eq!(status, 200);
    let (status, _) = common::chat(a2.socket_path(), &body).await;
    assert_eq!(status, 200);
    assert_eq!(first.await.unwrap().0, 200);

    let sa = pace_a.stats();
    assert_eq!((sa.requests, sa.slowed), (3, 1), "{sa:?}");
    // The retry and the second trial both waited out (most of) the 2 s Retry-After.
    assert!(sa.waited >= Duration::from_millis(2500), "{sa:?}");
    let sb = pace_b.stats();
    assert_eq!((sb.requests, sb.slowed, sb.waited), (1, 0, Duration::ZERO));

    for g in [a1, a2, b] {
        g.shutdown().await;
    }
    let t1 = common::transcript(&dir.path().join("a1.jsonl"));
    assert_eq!(t1[0].retries, 1, "the 429 was retried once");
    let t2 = common::transcript(&dir.path().join("a2.jsonl"));
    assert_eq!(
        t2[0].retries, 0,
        "the second trial never saw a 429: it waited"
    );
    assert!(t2[0].latency_ms >= 500, "{}", t2[0].latency_ms);
    let tb = common::transcript(&dir.path().join("b.jsonl"));
    assert_eq!(tb[0].retries, 0);
}

#[tokio::test(flavor = "multi_thread")]
async fn a_provider_that_keeps_refusing_ends_at_max_retries_naming_it() {
    let dir = tempfile::tempdir().unwrap();
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .respond_with(
            ResponseTemplate::new(429)
                .insert_header("retry-after", "0.1")
                .set_body_string("rate limited"),
        )
        .mount(&server)
        .await;
    let pace = Arc::new(Pace::new("always-429", None));
    let gw = start(dir.path(), "always-429", &server, &pace, 2).await;
    let (status, body) = common::chat(gw.socket_path(), &common::request("s", "u", false)).await;
    assert_ne!(status, 200, "{body}");
    gw.shutdown().await;
    // 1 + max_retries attempts, never more, each one a cool-down.
    assert_eq!(server.received_requests().await.unwrap().len(), 3);
    assert_eq!(pace.stats().slowed, 3);
    let t = common::transcript(&dir.path().join("always-429.jsonl"));
    assert_eq!(t.len(), 1);
    assert_eq!(t[0].retries, 2);
    assert_eq!(t[0].status, Some(429));
    assert_eq!(t[0].error_code.as_deref(), Some("provider_http_error"));
    assert!(t[0].provider.contains("always-429"), "{}", t[0].provider);
}
