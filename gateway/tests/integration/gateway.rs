//! The gateway over real Unix sockets, with wiremock (or a raw TCP server) standing in
//! for the remote model provider.

use crate::common;

use common::*;
use nab_gateway::{
    Budgets, CallPolicy, Gateway, GatewayConfig, GatewayHandle, ProviderOptions, build_provider,
    metrics_from_file,
};
use serde_json::{Value, json};
use std::os::unix::fs::PermissionsExt;
use std::path::Path;
use std::time::Duration;
use wiremock::matchers::{method, path};
use wiremock::{Mock, MockServer, Request, Respond, ResponseTemplate};

const KEY: &str = "sk-canary-7f3a9c0e1d";

fn fast_policy() -> CallPolicy {
    CallPolicy {
        max_retries: 3,
        base_backoff: Duration::from_millis(5),
        max_backoff: Duration::from_secs(2),
        idle_timeout: Duration::from_millis(400),
        response_timeout: Duration::from_secs(10),
    }
}

fn opts() -> ProviderOptions {
    let mut o = ProviderOptions::default();
    o.env_overrides.insert("NAB_API_KEY".into(), KEY.into());
    o
}

async fn start(dir: &Path, spec: &str, budgets: Budgets, policy: CallPolicy) -> GatewayHandle {
    let provider = build_provider(spec, &opts()).expect("provider");
    let mut cfg = GatewayConfig::new(
        dir.join("llm.sock"),
        dir.join(nab_protocol::TRANSCRIPT_FILE),
    );
    cfg.budgets = budgets;
    cfg.policy = policy;
    Gateway::start(cfg, provider).await.expect("gateway starts")
}

/// A gateway in `dir` to `spec`, without budgets and with quick retries.
async fn quick_start(dir: &Path, spec: &str) -> GatewayHandle {
    start(dir, spec, Budgets::default(), fast_policy()).await
}

/// [`quick_start`] in a fresh folder, to the OpenAI-compatible mock `server`.
async fn plain_gateway(server: &MockServer) -> (tempfile::TempDir, GatewayHandle) {
    let dir = tempfile::tempdir().unwrap();
    let gw = quick_start(dir.path(), &openai_spec(server)).await;
    (dir, gw)
}

fn openai_spec(server: &MockServer) -> String {
    format!("openai:test-model@{}/v1", server.uri())
}

#[tokio::test]
async fn a_429_is_retried_honouring_retry_after_then_200_passes() {
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .and(path("/v1/chat/completions"))
        .respond_with(
            ResponseTemplate::new(429)
                .insert_header("retry-after", "1")
                .set_body_string("slow down"),
        )
        .up_to_n_times(1)
        .mount(&server)
        .await;
    Mock::given(method("POST"))
        .and(path("/v1/chat/completions"))
        .respond_with(ResponseTemplate::new(200).set_body_json(completion("hello", 10, 2)))
        .mount(&server)
        .await;
    let (dir, gw) = plain_gateway(&server).await;
    let (status, body) = chat(gw.socket_path(), &request("sys", "hi", false)).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["choices"][0]["message"]["content"], "hello");
    let metrics = gw.shutdown().await;
    let lines = transcript(&dir.path().join(nab_protocol::TRANSCRIPT_FILE));
    assert_eq!(lines.len(), 1);
    assert_eq!(lines[0].retries, 1);
    assert_eq!(lines[0].status, Some(200));
    assert!(lines[0].error.is_none());
    // Retry-After: 1 was honoured rather than the 5 ms backoff.
    assert!(
        lines[0].latency_ms >= 900,
        "latency {} ms",
        lines[0].latency_ms
    );
    assert_eq!(server.received_requests().await.unwrap().len(), 2);
    assert_eq!(
        (
            metrics.llm_calls,
            metrics.input_tokens,
            metrics.output_tokens
        ),
        (1, 10, 2)
    );
}

#[tokio::test]
async fn a_500_three_times_is_a_recorded_failure_reported_to_the_agent() {
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .respond_with(ResponseTemplate::new(500).set_body_string("internal trouble"))
        .mount(&server)
        .await;
    let dir = tempfile::tempdir().unwrap();
    let policy = CallPolicy {
        max_retries: 2,
        ..fast_policy()
    };
    let gw = start(
        dir.path(),
        &openai_spec(&server),
        Budgets::default(),
        policy,
    )
    .await;
    let (status, body) = chat(gw.socket_path(), &request("sys", "hi", false)).await;
    assert_eq!(status, 502);
    assert_eq!(body["error"]["type"], "upstream_error");
    let msg = body["error"]["message"].as_str().unwrap();
    assert!(
        msg.contains("500") && msg.contains("internal trouble") && msg.contains("2 retries"),
        "{msg}"
    );
    let metrics = gw.shutdown().await;
    assert_eq!(server.received_requests().await.unwrap().len(), 3);
    let lines = transcript(&dir.path().join(nab_protocol::TRANSCRIPT_FILE));
    assert_eq!(lines.len(), 1);
    assert_eq!(lines[0].status, Some(500));
    assert_eq!(lines[0].retries, 2);
    assert!(
        lines[0]
            .error
            .as_deref()
            .unwrap()
            .contains("internal trouble")
    );
    assert!(lines[0].response.is_none());
    assert_eq!(metrics.failed_calls, 1);
}

#[tokio::test]
async fn a_connection_refused_provider_is_retried_then_reported() {
    // Bind then drop a listener: nothing listens on the port afterwards.
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let dir = tempfile::tempdir().unwrap();
    let policy = CallPolicy {
        max_retries: 1,
        ..fast_policy()
    };
    let gw = start(
        dir.path(),
        &format!("openai:m@http://127.0.0.1:{port}/v1"),
        Budgets::default(),
        policy,
    )
    .await;
    let (status, body) = chat(gw.socket_path(), &request("sys", "hi", true)).await;
    assert_eq!(status, 502);
    assert_eq!(body["error"]["code"], "provider_unreachable");
    gw.shutdown().await;
    let lines = transcript(&dir.path().join(nab_protocol::TRANSCRIPT_FILE));
    assert_eq!(lines[0].retries, 1);
    assert_eq!(lines[0].status, None);
    assert!(lines[0].error.as_deref().unwrap().contains("cannot reach"));
}

/// A provider that sends the stream's headers and one chunk, then nothing.
/// The receiver fires once the chunk was sent.
async fn stalling_provider() -> (
    String,
    tokio::task::JoinHandle<()>,
    tokio::sync::oneshot::Receiver<()>,
) {
    use tokio::io::AsyncWriteExt;
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let (sent_tx, sent) = tokio::sync::oneshot::channel();
    let task = tokio::spawn(async move {
        let (mut sock, _) = listener.accept().await.unwrap();
        read_request(&mut sock).await;
        let chunk = json!({"id": "s", "object": "chat.completion.chunk", "created": 1, "model": "m",
            "choices": [{"index": 0, "delta": {"role": "assistant", "content": "partial "}, "finish_reason": null}]});
        let event = format!("data: {chunk}\n\n");
        let head = "HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\ntransfer-encoding: chunked\r\n\r\n";
        sock.write_all(head.as_bytes()).await.unwrap();
        sock.write_all(format!("{:x}\r\n{event}\r\n", event.len()).as_bytes())
            .await
            .unwrap();
        sock.flush().await.unwrap();
        let _ = sent_tx.send(());
        tokio::time::sleep(Duration::from_secs(30)).await;
    });
    (format!("http://{addr}/v1"), task, sent)
}

#[tokio::test]
async fn a_stream_that_stalls_hits_the_idle_timeout_and_is_recorded() {
    let (base, provider_task, _sent) = stalling_provider().await;
    let dir = tempfile::tempdir().unwrap();
    let gw = quick_start(dir.path(), &format!("openai:m@{base}")).await;
    let (status, events) = chat_stream(gw.socket_path(), &request("sys", "hi", true)).await;
    assert_eq!(status, 200);
    assert_eq!(content_of_chunks(&events), "partial ");
    assert!(
        !events.iter().any(|e| e == "[DONE]"),
        "a stalled stream must not look complete"
    );
    let err: Value = serde_json::from_str(events.last().unwrap()).unwrap();
    assert_eq!(err["error"]["code"], "idle_timeout");
    gw.shutdown().await;
    provider_task.abort();
    let lines = transcript(&dir.path().join(nab_protocol::TRANSCRIPT_FILE));
    assert!(
        lines[0].error.as_deref().unwrap().contains("idle timeout"),
        "{:?}",
        lines[0].error
    );
    assert_eq!(
        lines[0].response.as_ref().unwrap()["choices"][0]["message"]["content"],
        "partial "
    );
    assert!(lines[0].stream);
}

#[tokio::test]
async fn past_the_token_budget_the_agent_gets_token_budget_and_it_is_recorded() {
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .respond_with(ResponseTemplate::new(200).set_body_json(completion("ok", 80, 20)))
        .mount(&server)
        .await;
    let dir = tempfile::tempdir().unwrap();
    let budgets = Budgets {
        llm_calls: None,
        tokens: Some(150),
        usd: None,
    };
    let gw = start(dir.path(), &openai_spec(&server), budgets, fast_policy()).await;
    for _ in 0..2 {
        let (status, _) = chat(gw.socket_path(), &request("sys", "hi", false)).await;
        assert_eq!(status, 200);
    }
    let (status, body) = chat(gw.socket_path(), &request("sys", "hi", false)).await;
    assert_eq!(status, 429);
    assert_eq!(body["error"]["type"], "budget_exceeded");
    assert_eq!(body["error"]["code"], "token_budget");
    assert!(body["error"]["message"].as_str().unwrap().contains("150"));
    let metrics = gw.shutdown().await;
    assert_eq!(
        server.received_requests().await.unwrap().len(),
        2,
        "the refused call never reached the provider"
    );
    assert_eq!(metrics.budget_exceeded.as_deref(), Some("tokens"));
    assert_eq!(metrics.llm_calls, 2);
    let lines = transcript(&dir.path().join(nab_protocol::TRANSCRIPT_FILE));
    assert_eq!(lines[2].budget_exceeded.as_deref(), Some("tokens"));
    assert_eq!(
        metrics_from_file(&dir.path().join(nab_protocol::TRANSCRIPT_FILE)).unwrap(),
        metrics
    );
}

#[tokio::test]
async fn past_the_usd_budget_the_agent_gets_cost_budget_priced_from_the_providers_usage() {
    let server = MockServer::start().await;
    // 80 prompt tokens of which 20 cached, 20 out: at 100 / 10 / 1000 USD per million
    // that is 60 × 100 + 20 × 10 + 20 × 1000 = $0.0262 a call.
    let mut answer = completion("ok", 80, 20);
    answer["usage"]["prompt_tokens_details"] = json!({"cached_tokens": 20});
    Mock::given(method("POST"))
        .respond_with(ResponseTemplate::new(200).set_body_json(answer))
        .mount(&server)
        .await;
    let dir = tempfile::tempdir().unwrap();
    let provider = build_provider(&openai_spec(&server), &opts()).expect("provider");
    let mut cfg = GatewayConfig::new(
        dir.path().join("llm.sock"),
        dir.path().join(nab_protocol::TRANSCRIPT_FILE),
    );
    cfg.budgets = Budgets {
        usd: Some(0.05),
        ..Budgets::default()
    };
    cfg.price = Some(nab_gateway::Rate {
        input: 100.0,
        cached_input: 10.0,
        cache_write: 100.0,
        output: 1000.0,
    });
    cfg.policy = fast_policy();
    let gw = Gateway::start(cfg, provider).await.expect("gateway starts");
    for _ in 0..2 {
        let (status, _) = chat(gw.socket_path(), &request("sys", "hi", false)).await;
        assert_eq!(status, 200);
    }
    // $0.0524 spent of $0.05: no further call starts.
    let (status, body) = chat(gw.socket_path(), &request("sys", "hi", true)).await;
    assert_eq!(status, 429, "refused before any stream starts");
    assert_eq!(body["error"]["type"], "budget_exceeded");
    assert_eq!(body["error"]["code"], "cost_budget");
    let msg = body["error"]["message"].as_str().unwrap();
    assert!(msg.contains("$0.0500") && msg.contains("$0.0524"), "{msg}");
    let metrics = gw.shutdown().await;
    assert_eq!(
        server.received_requests().await.unwrap().len(),
        2,
        "the refused call never reached the provider"
    );
    assert_eq!(metrics.budget_exceeded.as_deref(), Some("usd"));
    assert_eq!((metrics.llm_calls, metrics.cached_tokens), (2, 40));
    let lines = transcript(&dir.path().join(nab_protocol::TRANSCRIPT_FILE));
    assert_eq!(lines[2].budget_exceeded.as_deref(), Some("usd"));
    assert_eq!(lines[2].error_code.as_deref(), Some("budget_exceeded"));
}

#[tokio::test]
async fn past_the_call_budget_the_agent_gets_llm_calls() {
    let dir = tempfile::tempdir().unwrap();
    let traj = dir.path().join("t.yaml");
    std::fs::write(&traj, "turns:\n  - content: one\n  - content: two\n").unwrap();
    let budgets = Budgets {
        llm_calls: Some(1),
        tokens: None,
        usd: None,
    };
    let gw = start(
        dir.path(),
        &format!("scripted:{}", traj.display()),
        budgets,
        fast_policy(),
    )
    .await;
    let (status, _) = chat(gw.socket_path(), &request("sys", "hi", false)).await;
    assert_eq!(status, 200);
    let (status, body) = chat(gw.socket_path(), &request("sys", "hi", true)).await;
    assert_eq!(status, 429, "refused before any stream starts");
    assert_eq!(body["error"]["code"], "llm_calls");
    let m = gw.shutdown().await;
    assert_eq!(m.budget_exceeded.as_deref(), Some("llm_calls"));
}

#[tokio::test]
async fn two_gateways_at_once_do_not_cross_talk() {
    let dirs = [tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap()];
    let mut gws = Vec::new();
    for (i, d) in dirs.iter().enumerate() {
        let traj = d.path().join("t.yaml");
        let turns: String = (0..5)
            .map(|n| format!("  - content: trial{i}-turn{n}\n"))
            .collect();
        std::fs::write(&traj, format!("turns:\n{turns}")).unwrap();
        gws.push(quick_start(d.path(), &format!("scripted:{}", traj.display())).await);
    }
    // Interleave: both trials' requests are in flight together.
    for n in 0..5 {
        let (ra, rb) = (
            request("sys", &format!("a{n}"), true),
            request("sys", &format!("b{n}"), false),
        );
        let a = chat_stream(gws[0].socket_path(), &ra);
        let b = chat(gws[1].socket_path(), &rb);
        let ((sa, ea), (sb, bb)) = tokio::join!(a, b);
        assert_eq!((sa, sb), (200, 200));
        assert_eq!(content_of_chunks(&ea), format!("trial0-turn{n}"));
        assert_eq!(
            bb["choices"][0]["message"]["content"],
            format!("trial1-turn{n}")
        );
    }
    for (i, gw) in gws.into_iter().enumerate() {
        let m = gw.shutdown().await;
        assert_eq!(m.llm_calls, 5);
        let lines = transcript(&dirs[i].path().join(nab_protocol::TRANSCRIPT_FILE));
        let prefix = if i == 0 { "a" } else { "b" };
        assert!(lines.iter().all(|l| {
            l.request["messages"][1]["content"]
                .as_str()
                .unwrap()
                .starts_with(prefix)
        }));
        assert!(lines.iter().all(|l| l.stream == (i == 0)));
    }
}

#[tokio::test]
async fn record_then_replay_round_trips_streams_and_whole_answers() {
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .and(wiremock::matchers::body_partial_json(
            json!({"stream": true}),
        ))
        .respond_with(
            ResponseTemplate::new(200)
                .set_body_string(sse_body(&["str", "eam", "ed"], 30, 3))
                .insert_header("content-type", "text/event-stream"),
        )
        .mount(&server)
        .await;
    Mock::given(method("POST"))
        .respond_with(ResponseTemplate::new(200).set_body_json(completion("whole", 20, 1)))
        .mount(&server)
        .await;
    let work = tempfile::tempdir().unwrap();
    let cassette = work.path().join("cassette");
    let rec_dir = tempfile::tempdir().unwrap();
    let gw = quick_start(
        rec_dir.path(),
        &format!("record:{}:{}", cassette.display(), openai_spec(&server)),
    )
    .await;
    let (_, rec_stream) = chat_stream(gw.socket_path(), &request("sys", "stream me", true)).await;
    let (_, rec_whole) = chat(gw.socket_path(), &request("sys", "whole please", false)).await;
    gw.shutdown().await;
    assert_eq!(content_of_chunks(&rec_stream), "streamed");
    assert_eq!(std::fs::read_dir(&cassette).unwrap().count(), 2);
    let upstream_calls = server.received_requests().await.unwrap().len();
    assert_eq!(upstream_calls, 2);

    let rep_dir = tempfile::tempdir().unwrap();
    let gw = quick_start(rep_dir.path(), &format!("replay:{}", cassette.display())).await;
    // Volatile fields differ (stream_options, user): still a hit.
    let mut req = request("sys", "stream me", true);
    req["user"] = json!("someone-else");
    let (status, rep_stream) = chat_stream(gw.socket_path(), &req).await;
    assert_eq!(status, 200);
    assert_eq!(content_of_chunks(&rep_stream), "streamed");
    assert_eq!(
        rep_stream.len(),
        rec_stream.len(),
        "replayed chunk by chunk"
    );
    let (status, rep_whole) = chat(gw.socket_path(), &request("sys", "whole please", false)).await;
    assert_eq!(status, 200);
    assert_eq!(rep_whole, rec_whole);
    // The streamed recording also answers a non-stream request, reassembled.
    let (_, as_whole) = chat(gw.socket_path(), &request("sys", "stream me", false)).await;
    assert_eq!(as_whole["choices"][0]["message"]["content"], "streamed");
    let m = gw.shutdown().await;
    assert_eq!(
        server.received_requests().await.unwrap().len(),
        upstream_calls,
        "replay never calls the provider"
    );
    assert_eq!((m.input_tokens, m.output_tokens), (30 + 20 + 30, 3 + 1 + 3));
}

#[tokio::test]
async fn a_replay_miss_names_the_nearest_request_and_the_first_difference() {
    let dir = tempfile::tempdir().unwrap();
    let traj = dir.path().join("t.yaml");
    std::fs::write(&traj, "turns:\n  - content: a\n  - content: b\n").unwrap();
    let cassette = dir.path().join("cas");
    let system = "You are a coding agent.\nWork in /workspace.\nBe brief.";
    let gw = quick_start(
        dir.path(),
        &format!("record:{}:scripted:{}", cassette.display(), traj.display()),
    )
    .await;
    chat_stream(gw.socket_path(), &request(system, "fix the bug", true)).await;
    chat_stream(
        gw.socket_path(),
        &request("other prompt", "unrelated", true),
    )
    .await;
    gw.shutdown().await;

    let rep = tempfile::tempdir().unwrap();
    let gw = quick_start(rep.path(), &format!("replay:{}", cassette.display())).await;
    let changed = system.replace("Be brief.", "Be very thorough.");
    let (status, body) = chat(gw.socket_path(), &request(&changed, "fix the bug", true)).await;
    gw.shutdown().await;
    assert_eq!(status, 400);
    assert_eq!(body["error"]["code"], "replay_miss");
    let msg = body["error"]["message"].as_str().unwrap();
    assert!(msg.contains("nearest recorded request"), "{msg}");
    assert!(msg.contains("messages[0].content"), "{msg}");
    assert!(
        msg.contains("-Be brief.") && msg.contains("+Be very thorough."),
        "{msg}"
    );
    let lines = transcript(&rep.path().join(nab_protocol::TRANSCRIPT_FILE));
    assert!(lines[0].error.as_deref().unwrap().contains("replay miss"));
}

/// Echoes the Authorization header the provider received back in the answer, the way a
/// careless server's error page might.
struct EchoAuth;
impl Respond for EchoAuth {
    fn respond(&self, req: &Request) -> ResponseTemplate {
        let auth = req
            .headers
            .get("authorization")
            .map(|v| v.to_str().unwrap().to_owned())
            .unwrap_or_default();
        if String::from_utf8_lossy(&req.body).contains("\"stream\":true") {
            ResponseTemplate::new(200)
                .set_body_string(sse_body(&["you sent ", &auth], 1, 1))
                .insert_header("content-type", "text/event-stream")
        } else if String::from_utf8_lossy(&req.body).contains("reject me") {
            ResponseTemplate::new(401)
                .set_body_string(format!("{{\"error\":{{\"message\":\"bad key {auth}\"}}}}"))
        } else {
            ResponseTemplate::new(200).set_body_json(completion(&format!("you sent {auth}"), 1, 1))
        }
    }
}

#[tokio::test]
async fn the_key_reaches_the_provider_but_never_the_agent_or_the_transcript() {
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .respond_with(EchoAuth)
        .mount(&server)
        .await;
    let (dir, gw) = plain_gateway(&server).await;
    let (_, whole) = chat(gw.socket_path(), &request("sys", "hi", false)).await;
    let (_, streamed) = chat_stream(gw.socket_path(), &request("sys", "hi", true)).await;
    let (status, rejected) = chat(gw.socket_path(), &request("sys", "reject me", false)).await;
    gw.shutdown().await;
    let received = server.received_requests().await.unwrap();
    assert!(
        received
            .iter()
            .all(|r| r.headers.get("authorization").unwrap() == &format!("Bearer {KEY}")[..])
    );
    assert_eq!(status, 401, "a provider's 4xx is passed on");
    let seen_by_agent = format!("{whole}{}{rejected}", streamed.join(""));
    assert!(
        seen_by_agent.contains("Bearer [REDACTED]"),
        "{seen_by_agent}"
    );
    assert!(!seen_by_agent.contains(KEY));
    let text = std::fs::read_to_string(dir.path().join(nab_protocol::TRANSCRIPT_FILE)).unwrap();
    assert_eq!(text.lines().count(), 3);
    assert!(!text.contains(KEY), "key leaked into the transcript");
    assert!(text.contains("[REDACTED]"));
}

#[tokio::test]
async fn scripted_plays_turns_in_order_then_errors_when_out_of_turns() {
    let dir = tempfile::tempdir().unwrap();
    let traj = dir.path().join("trajectory.yaml");
    std::fs::write(
        &traj,
        "turns:\n  - content: Looking.\n    tool_calls:\n      - name: read_file\n        arguments: {path: a.py}\n  - content: Done.\n",
    )
    .unwrap();
    let mut o = opts();
    o.task_trajectory = Some(traj.clone());
    let provider = build_provider("scripted:task", &o).unwrap();
    let gw = Gateway::start(
        GatewayConfig::new(dir.path().join("s.sock"), dir.path().join("tr.jsonl")),
        provider,
    )
    .await
    .unwrap();
    let (_, first) = chat_stream(gw.socket_path(), &request("sys", "go", true)).await;
    assert_eq!(first.last().unwrap(), "[DONE]");
    let args: String = first
        .iter()
        .filter_map(|e| serde_json::from_str::<Value>(e).ok())
        .filter_map(|c| {
            c["choices"].get(0)?["delta"]["tool_calls"].get(0)?["function"]["arguments"]
                .as_str()
                .map(str::to_owned)
        })
        .collect();
    assert_eq!(
        serde_json::from_str::<Value>(&args).unwrap(),
        json!({"path": "a.py"})
    );
    let (_, second) = chat(gw.socket_path(), &request("sys", "go", false)).await;
    assert_eq!(second["choices"][0]["message"]["content"], "Done.");
    assert_eq!(second["choices"][0]["finish_reason"], "stop");
    let (status, third) = chat(gw.socket_path(), &request("sys", "go", false)).await;
    assert_eq!(status, 400);
    assert_eq!(third["error"]["code"], "scripted_out_of_turns");
    assert!(
        third["error"]["message"]
            .as_str()
            .unwrap()
            .contains("all 2 turns")
    );
    let m = gw.shutdown().await;
    assert_eq!(m.llm_calls, 3);
    assert!(m.input_tokens > 0, "scripted usage is estimated");
    let lines = transcript(&dir.path().join("tr.jsonl"));
    assert_eq!(
        lines[0].response.as_ref().unwrap()["choices"][0]["message"]["tool_calls"][0]["function"]["name"],
        "read_file"
    );
}

#[tokio::test]
async fn the_socket_is_world_connectable_and_removed_on_shutdown_and_drop() {
    let dir = tempfile::tempdir().unwrap();
    let traj = dir.path().join("t.yaml");
    std::fs::write(&traj, "turns:\n  - content: x\n").unwrap();
    let spec = format!("scripted:{}", traj.display());
    let gw = quick_start(dir.path(), &spec).await;
    let sock = gw.socket_path().to_owned();
    let mode = std::fs::metadata(&sock).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode, 0o666);
    let resp = send(&sock, "GET", "/v1/models", None).await;
    assert_eq!(resp.status(), 200);
    gw.shutdown().await;
    assert!(!sock.exists(), "socket left behind after shutdown");

    let gw = quick_start(dir.path(), &spec).await;
    assert!(sock.exists());
    drop(gw);
    assert!(!sock.exists(), "socket left behind after drop");
}

#[tokio::test]
async fn client_complete_reassembles_a_stream_for_the_judges() {
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .respond_with(
            ResponseTemplate::new(200)
                .set_body_string(sse_body(&["{\"score\":", " 4}"], 12, 5))
                .insert_header("content-type", "text/event-stream"),
        )
        .mount(&server)
        .await;
    let client =
        nab_gateway::Client::from_spec(&openai_spec(&server), &opts(), fast_policy()).unwrap();
    let (completion, usage) = client
        .complete(request("judge", "rate", true))
        .await
        .unwrap();
    assert_eq!(completion["object"], "chat.completion");
    assert_eq!(
        completion["choices"][0]["message"]["content"],
        "{\"score\": 4}"
    );
    assert_eq!((usage.prompt_tokens, usage.completion_tokens), (12, 5));
}

#[tokio::test]
async fn a_request_repeated_within_a_trial_replays_its_recordings_in_order() {
    let dir = tempfile::tempdir().unwrap();
    let traj = dir.path().join("t.yaml");
    std::fs::write(&traj, "turns:\n  - content: first\n  - content: second\n").unwrap();
    let cassette = dir.path().join("cas");
    let same = request("sys", "again", false);
    let gw = quick_start(
        dir.path(),
        &format!("record:{}:scripted:{}", cassette.display(), traj.display()),
    )
    .await;
    chat(gw.socket_path(), &same).await;
    chat(gw.socket_path(), &same).await;
    gw.shutdown().await;
    assert_eq!(
        std::fs::read_dir(&cassette).unwrap().count(),
        1,
        "one file per distinct request"
    );

    let rep = tempfile::tempdir().unwrap();
    let gw = quick_start(rep.path(), &format!("replay:{}", cassette.display())).await;
    let mut got = Vec::new();
    for _ in 0..3 {
        let (_, body) = chat(gw.socket_path(), &same).await;
        got.push(
            body["choices"][0]["message"]["content"]
                .as_str()
                .unwrap()
                .to_owned(),
        );
    }
    gw.shutdown().await;
    assert_eq!(got, ["first", "second", "second"]);
}

#[tokio::test]
async fn shutdown_cuts_off_a_running_stream_and_records_it_before_returning() {
    let (base, provider_task, sent) = stalling_provider().await;
    let dir = tempfile::tempdir().unwrap();
    let provider = build_provider(&format!("openai:m@{base}"), &opts()).unwrap();
    let mut cfg = GatewayConfig::new(
        dir.path().join("llm.sock"),
        dir.path().join(nab_protocol::TRANSCRIPT_FILE),
    );
    cfg.policy = CallPolicy {
        idle_timeout: Duration::from_secs(60),
        ..fast_policy()
    };
    cfg.shutdown_grace = Duration::from_millis(200);
    let gw = Gateway::start(cfg, provider).await.unwrap();
    let sock = gw.socket_path().to_owned();
    let agent = tokio::spawn(async move { chat_stream(&sock, &request("sys", "hi", true)).await });
    // The exchange is under way once the provider sent its chunk.
    sent.await.unwrap();
    let metrics = gw.shutdown().await;
    provider_task.abort();
    let lines = transcript(&dir.path().join(nab_protocol::TRANSCRIPT_FILE));
    assert_eq!(
        lines.len(),
        1,
        "the cut-off stream is recorded before shutdown returns"
    );
    assert!(
        lines[0].error.as_deref().unwrap().contains("shut down"),
        "{:?}",
        lines[0].error
    );
    assert_eq!(metrics.failed_calls, 1);
    let (_, events) = agent.await.unwrap();
    assert_eq!(content_of_chunks(&events), "partial ");
    assert!(!events.iter().any(|e| e == "[DONE]"));
}

/// The model-time clock counts the time calls spend with the provider (two concurrent
/// 300 ms calls count once, about 300 ms), not the time between calls: what the harness
/// takes out of the agent's time limit.
#[tokio::test]
async fn the_model_clock_counts_time_with_the_provider_once_and_not_the_gaps() {
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .and(path("/v1/chat/completions"))
        .respond_with(
            ResponseTemplate::new(200)
                .set_delay(Duration::from_millis(300))
                .set_body_json(completion("slow", 5, 1)),
        )
        .mount(&server)
        .await;
    let (_dir, gw) = plain_gateway(&server).await;
    let clock = gw.model_clock();
    assert_eq!(clock.total(), Duration::ZERO);
    let sock = gw.socket_path().to_owned();
    let req = request("sys", "hi", false);
    let (a, b) = tokio::join!(chat(&sock, &req), chat(&sock, &req));
    assert_eq!((a.0, b.0), (200, 200));
    let busy = clock.total();
    assert!(
        busy >= Duration::from_millis(300) && busy < Duration::from_millis(550),
        "two overlapping 300 ms calls: {busy:?}"
    );
    tokio::time::sleep(Duration::from_millis(200)).await;
    assert_eq!(
        clock.total(),
        busy,
        "the agent's own time between calls is not model time"
    );
    let _ = chat(&sock, &req).await;
    assert!(clock.total() >= busy + Duration::from_millis(300));
    gw.shutdown().await;
}
