//! The streaming client against a mock provider (wiremock) and a real Unix socket.

use crate::support;

use std::sync::Arc;
use std::time::Duration;

use nab_agent::Message;
use nab_agent::{
    ChatRequest, ClientConfig, ClientError, Endpoint, LlmClient, RetryPolicy, StreamObserver,
};
use serde_json::{Value, json};
use wiremock::matchers::{method, path};
use wiremock::{Mock, MockServer, ResponseTemplate};

fn sse(chunks: &[Value], done: bool) -> String {
    let mut s = String::new();
    for c in chunks {
        s.push_str(&format!("data: {c}\n\n"));
    }
    if done {
        s.push_str("data: [DONE]\n\n");
    }
    s
}

fn delta(d: Value) -> Value {
    json!({"id": "x", "object": "chat.completion.chunk", "choices": [{"index": 0, "delta": d, "finish_reason": null}]})
}

fn finish(reason: &str) -> Value {
    json!({"id": "x", "object": "chat.completion.chunk", "choices": [{"index": 0, "delta": {}, "finish_reason": reason}]})
}

fn request() -> Arc<ChatRequest> {
    Arc::new(ChatRequest {
        model: "m".into(),
        messages: vec![
            Arc::new(Message::system("sys")),
            Arc::new(Message::user("hi")),
        ],
        tools: Arc::new(vec![
            json!({"type": "function", "function": {"name": "read_file", "parameters": {}}}),
        ]),
        max_tokens: None,
        temperature: None,
    })
}

fn client(url: &str) -> LlmClient {
    let mut cfg = ClientConfig::new(Endpoint::parse(url).unwrap());
    cfg.retry = RetryPolicy {
        max_retries: 3,
        base_delay: Duration::from_millis(10),
        max_delay: Duration::from_millis(50),
    };
    cfg.idle_timeout = Duration::from_secs(5);
    LlmClient::new(cfg)
}

#[derive(Default)]
struct Seen {
    reasoning: Vec<String>,
    content: Vec<String>,
}
impl StreamObserver for Seen {
    fn on_reasoning(&mut self, d: &str) {
        self.reasoning.push(d.into());
    }
    fn on_content(&mut self, d: &str) {
        self.content.push(d.into());
    }
}

/// Reads one request whose body nab-agent sends chunked (it streams the body).
async fn read_chunked_request(s: &mut tokio::net::TcpStream) {
    use tokio::io::AsyncReadExt;
    let mut buf = vec![0u8; 65536];
    let mut seen = Vec::new();
    while !seen.ends_with(b"0\r\n\r\n") {
        let n = s.read(&mut buf).await.unwrap();
        if n == 0 {
            break;
        }
        seen.extend_from_slice(&buf[..n]);
    }
}

async fn mock_sse(body: String) -> MockServer {
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .and(path("/v1/chat/completions"))
        .respond_with(ResponseTemplate::new(200).set_body_raw(body, "text/event-stream"))
        .mount(&server)
        .await;
    server
}

/// A 200 whose body is `chunks` as SSE events (then `[DONE]` if `done`).
fn streamed(chunks: &[Value], done: bool) -> ResponseTemplate {
    ResponseTemplate::new(200).set_body_raw(sse(chunks, done), "text/event-stream")
}

/// A mock provider that answers each of `once` in turn, one request each, then `always`.
async fn answering(once: Vec<ResponseTemplate>, always: ResponseTemplate) -> MockServer {
    let server = MockServer::start().await;
    for answer in once {
        Mock::given(method("POST"))
            .respond_with(answer)
            .up_to_n_times(1)
            .mount(&server)
            .await;
    }
    Mock::given(method("POST"))
        .respond_with(always)
        .mount(&server)
        .await;
    server
}

/// One completion of [`request`] by [`client`] at `url`, observed by nobody.
async fn complete(url: &str) -> Result<nab_agent::Completion, ClientError> {
    client(url).complete(request(), &mut Seen::default()).await
}

/// How many requests `server` has seen.
async fn requests(server: &MockServer) -> usize {
    server.received_requests().await.unwrap().len()
}

/// A client at `url` that does not retry and waits `idle` to connect, for the headers and
/// between events.
fn impatient(url: &str, idle: Duration) -> LlmClient {
    let mut cfg = ClientConfig::new(Endpoint::parse(url).unwrap());
    cfg.retry.max_retries = 0;
    cfg.idle_timeout = idle;
    cfg.response_timeout = idle;
    cfg.connect_timeout = idle;
    LlmClient::new(cfg)
}

/// A raw HTTP server on localhost for one request: it reads the (chunked) request and then
/// hands the connection to `answer`. Its base URL.
async fn raw_server<F, Fut>(answer: F) -> String
where
    F: FnOnce(tokio::net::TcpStream) -> Fut + Send + 'static,
    Fut: std::future::Future<Output = ()> + Send,
{
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    tokio::spawn(async move {
        let (mut s, _) = listener.accept().await.unwrap();
        read_chunked_request(&mut s).await;
        answer(s).await;
    });
    url
}

#[tokio::test]
async fn interleaved_parallel_tool_calls_assemble_by_index() {
    // Two calls whose fragments alternate; ids only on each call's first fragment; names and
    // arguments in pieces.
    let chunks = vec![
        delta(json!({"role": "assistant", "content": null})),
        delta(
            json!({"tool_calls": [{"index": 0, "id": "call_a", "type": "function", "function": {"name": "read_", "arguments": ""}}]}),
        ),
        delta(
            json!({"tool_calls": [{"index": 1, "id": "call_b", "type": "function", "function": {"name": "grep", "arguments": "{\"pat"}}]}),
        ),
        delta(
            json!({"tool_calls": [{"index": 0, "function": {"name": "file", "arguments": "{\"pa"}}]}),
        ),
        delta(
            json!({"tool_calls": [{"index": 1, "function": {"name": "_code", "arguments": "tern\": \"fo"}}]}),
        ),
        delta(json!({"tool_calls": [{"index": 0, "function": {"arguments": "th\": \"src/"}}]})),
        delta(json!({"tool_calls": [{"index": 1, "function": {"arguments": "o\\\"\"}"}}]})),
        delta(json!({"tool_calls": [{"index": 0, "function": {"arguments": "a.py\"}"}}]})),
        finish("tool_calls"),
    ];
    let server = mock_sse(sse(&chunks, true)).await;
    let out = complete(&format!("{}/v1", server.uri())).await.unwrap();
    let calls = &out.turn.tool_calls;
    assert_eq!(calls.len(), 2);
    assert_eq!(
        (calls[0].id.as_str(), calls[0].function.name.as_str()),
        ("call_a", "read_file")
    );
    assert_eq!(
        (calls[1].id.as_str(), calls[1].function.name.as_str()),
        ("call_b", "grep_code")
    );
    let a: Value = serde_json::from_str(&calls[0].function.arguments).unwrap();
    let b: Value = serde_json::from_str(&calls[1].function.arguments).unwrap();
    assert_eq!(a, json!({"path": "src/a.py"}));
    assert_eq!(b, json!({"pattern": "foo\""}));
    assert_eq!(out.turn.finish_reason.as_deref(), Some("tool_calls"));

    // The request that went out: streaming, tools included, messages in order.
    let sent: Value =
        serde_json::from_slice(&server.received_requests().await.unwrap()[0].body).unwrap();
    assert_eq!(sent["stream"], true);
    assert_eq!(sent["stream_options"]["include_usage"], true);
    assert_eq!(sent["messages"][1]["content"], "hi");
    assert_eq!(sent["tools"][0]["function"]["name"], "read_file");
}

#[tokio::test]
async fn reasoning_is_kept_apart_from_content_and_usage_comes_last() {
    let chunks = vec![
        delta(json!({"role": "assistant"})),
        delta(json!({"reasoning_content": "Let me "})),
        delta(json!({"reasoning_content": "think."})),
        delta(json!({"content": "The answer"})),
        delta(json!({"content": " is 42."})),
        finish("stop"),
        json!({"id": "x", "object": "chat.completion.chunk", "choices": [],
               "usage": {"prompt_tokens": 120, "completion_tokens": 9, "total_tokens": 129,
                         "prompt_tokens_details": {"cached_tokens": 64}}}),
    ];
    let server = mock_sse(sse(&chunks, true)).await;
    let mut seen = Seen::default();
    let out = client(&format!("{}/v1", server.uri()))
        .complete(request(), &mut seen)
        .await
        .unwrap();
    assert_eq!(out.turn.reasoning, "Let me think.");
    assert_eq!(out.turn.content, "The answer is 42.");
    assert_eq!(seen.reasoning, vec!["Let me ", "think."]);
    assert_eq!(seen.content, vec!["The answer", " is 42."]);
    let u = out.turn.usage.unwrap();
    assert_eq!(
        (u.prompt_tokens, u.completion_tokens, u.cached_tokens),
        (120, 9, 64)
    );
    assert!(out.turn.tool_calls.is_empty());
}

#[tokio::test]
async fn a_429_is_retried_honouring_retry_after_then_succeeds() {
    let slow_down = ResponseTemplate::new(429)
        .insert_header("retry-after", "1")
        .set_body_json(json!({"error": {"message": "slow down", "type": "rate_limit"}}));
    let ok = streamed(&[delta(json!({"content": "ok"})), finish("stop")], true);
    let server = answering(vec![slow_down], ok).await;
    let started = std::time::Instant::now();
    let out = complete(&server.uri()).await.unwrap();
    assert_eq!(out.turn.content, "ok");
    assert_eq!(out.attempts, 2);
    assert!(
        started.elapsed() >= Duration::from_secs(1),
        "Retry-After: 1 was not honoured"
    );
    assert_eq!(requests(&server).await, 2);
}

#[tokio::test]
async fn persistent_5xx_gives_up_with_the_last_error() {
    let down = ResponseTemplate::new(503).set_body_string("upstream down");
    let server = answering(vec![], down).await;
    let err = complete(&server.uri()).await.unwrap_err();
    assert!(
        matches!(err, ClientError::RetriesExhausted { attempts: 4, .. }),
        "{err}"
    );
    assert!(
        err.to_string().contains("503") && err.to_string().contains("upstream down"),
        "{err}"
    );
    assert_eq!(requests(&server).await, 4);
}

#[tokio::test]
async fn a_budget_error_from_the_gateway_is_not_retried() {
    let spent = ResponseTemplate::new(429).set_body_json(
        json!({"error": {"message": "trial token budget of 1000 used up", "type": "budget_exceeded", "code": "token_budget"}}),
    );
    let server = answering(vec![], spent).await;
    let err = complete(&server.uri()).await.unwrap_err();
    assert_eq!(err.budget(), Some(nab_agent::BudgetKind::Tokens), "{err}");
    assert_eq!(requests(&server).await, 1);
}

#[tokio::test]
async fn a_stream_cut_midway_is_retried_and_never_a_partial_answer() {
    let chunks = vec![
        delta(json!({"content": "I will now"})),
        delta(
            json!({"tool_calls": [{"index": 0, "id": "c", "function": {"name": "read_file", "arguments": "{\"pa"}}]}),
        ),
    ];
    let server = mock_sse(sse(&chunks, false)).await;
    let err = complete(&format!("{}/v1", server.uri())).await.unwrap_err();
    // A truncated stream can come out whole next time: retried, then given up on.
    let ClientError::RetriesExhausted { attempts: 4, last } = &err else {
        panic!("{err}");
    };
    assert!(
        matches!(**last, ClientError::StreamInterrupted { events: 2 }),
        "{err}"
    );
    assert!(
        err.to_string()
            .contains("ended before the answer was complete"),
        "{err}"
    );
    assert_eq!(requests(&server).await, 4);
}

#[tokio::test]
async fn a_stream_cut_once_then_whole_is_the_second_answer() {
    let half = streamed(&[delta(json!({"content": "half"}))], false);
    let whole = streamed(&[delta(json!({"content": "whole"})), finish("stop")], true);
    let server = answering(vec![half], whole).await;
    let out = complete(&server.uri()).await.unwrap();
    assert_eq!(out.turn.content, "whole");
    assert_eq!(out.attempts, 2);
}

/// The retry table end to end: each answer is served to a fresh client and the number of
/// requests the server saw is counted.
#[tokio::test]
async fn the_retry_table_over_http() {
    let pydantic = r#"{"error":{"message":"7 validation errors:\n  {'type': 'string_type', 'loc': ('body', 'messages', 2, 'ChatCompletionRequestAssistantMessage', 'content'), 'msg': 'Input should be a valid string', 'input': None}","type":"internal_server_error","param":null,"code":null}}"#;
    // (status, body, content type, requests the server sees, error contains)
    let table: &[(u16, &str, &str, usize, &str)] = &[
        (
            500,
            pydantic,
            "application/json",
            1,
            "Input should be a valid string",
        ),
        (
            400,
            r#"{"error":{"message":"invalid message content type: <nil>","type":"invalid_request_error"}}"#,
            "application/json",
            1,
            "invalid message content type",
        ),
        (401, "bad key", "text/plain", 1, "bad key"),
        (
            404,
            r#"{"detail":"Not Found"}"#,
            "application/json",
            1,
            "Not Found",
        ),
        (
            422,
            r#"{"detail":[{"loc":["body","messages"],"msg":"Field required","type":"missing"}]}"#,
            "application/json",
            1,
            "body.messages: Field required",
        ),
        (501, "not implemented", "text/plain", 1, "not implemented"),
        (
            500,
            "Internal Server Error",
            "text/plain",
            4,
            "Internal Server Error",
        ),
        (
            502,
            "<html>bad gateway</html>",
            "text/html",
            4,
            "bad gateway",
        ),
        (
            503,
            r#"{"error":{"message":"Server is overloaded","type":"server_error"}}"#,
            "application/json",
            4,
            "overloaded",
        ),
        (
            429,
            r#"{"error":{"message":"rate limited"}}"#,
            "application/json",
            4,
            "rate limited",
        ),
        // An empty 200 (the server failed after its headers) is a truncated stream.
        (
            200,
            "",
            "text/event-stream",
            4,
            "ended before the answer was complete",
        ),
        (
            200,
            "",
            "application/json",
            4,
            "ended before the answer was complete",
        ),
    ];
    for (status, body, ctype, seen, says) in table {
        let answer = ResponseTemplate::new(*status).set_body_raw(*body, ctype);
        let server = answering(vec![], answer).await;
        let err = complete(&server.uri()).await.unwrap_err();
        assert_eq!(
            requests(&server).await,
            *seen,
            "HTTP {status} {body}: {err}"
        );
        assert!(err.to_string().contains(says), "HTTP {status}: {err}");
        if *seen == 1 {
            assert!(
                err.to_string().contains("not retried"),
                "a refusal says why it was not retried: {err}"
            );
        }
    }
}

#[tokio::test]
async fn malformed_json_in_a_data_line_is_a_clear_error() {
    let body = format!(
        "data: {}\n\ndata: {{\"choices\": [{{\"delta\": {{\"content\": \"x\"}}\n\ndata: [DONE]\n\n",
        delta(json!({"content": "fine"}))
    );
    let server = mock_sse(body).await;
    let err = complete(&format!("{}/v1", server.uri())).await.unwrap_err();
    let msg = err.to_string();
    assert!(
        matches!(err, ClientError::MalformedChunk { event: 2, .. }),
        "{msg}"
    );
    assert!(
        msg.contains("malformed JSON in SSE event #2") && msg.contains("{\"choices\""),
        "{msg}"
    );
}

#[tokio::test]
async fn an_error_object_inside_the_stream_is_reported() {
    let body = sse(
        &[
            delta(json!({"content": "a"})),
            json!({"error": {"message": "overloaded", "type": "server_error"}}),
        ],
        false,
    );
    let server = mock_sse(body).await;
    let err = complete(&format!("{}/v1", server.uri())).await.unwrap_err();
    assert!(err.to_string().contains("overloaded"), "{err}");
    // An overload reported inside the stream may pass: retried.
    assert_eq!(requests(&server).await, 4);
}

#[tokio::test]
async fn a_slow_first_token_with_keep_alive_comments_is_waited_for() {
    use tokio::io::AsyncWriteExt;
    // Headers at once, then only `: keep-alive` comments for longer than the idle timeout
    // (DeepSeek does this while a request waits), then the answer.
    let url = raw_server(|mut s| async move {
        let head = "HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\ntransfer-encoding: chunked\r\n\r\n";
        s.write_all(head.as_bytes()).await.unwrap();
        let piece = |t: &str| format!("{:x}\r\n{t}\r\n", t.len());
        for _ in 0..6 {
            s.write_all(piece(": keep-alive\n\n").as_bytes())
                .await
                .unwrap();
            s.flush().await.unwrap();
            tokio::time::sleep(Duration::from_millis(150)).await;
        }
        let body = sse(&[delta(json!({"content": "late"})), finish("stop")], true);
        s.write_all(piece(&body).as_bytes()).await.unwrap();
        s.write_all(b"0\r\n\r\n").await.unwrap();
        s.flush().await.unwrap();
    })
    .await;
    // Silence of 400 ms would end the call; the answer comes after 900 ms of keep-alives.
    let out = impatient(&url, Duration::from_millis(400))
        .complete(request(), &mut Seen::default())
        .await
        .unwrap();
    assert_eq!(out.turn.content, "late");
}

#[tokio::test]
async fn a_silent_stream_hits_the_idle_timeout() {
    let late = streamed(&[finish("stop")], true).set_delay(Duration::from_secs(3));
    let server = answering(vec![], late).await;
    let err = impatient(&server.uri(), Duration::from_millis(300))
        .complete(request(), &mut Seen::default())
        .await
        .unwrap_err();
    assert!(err.to_string().contains("silent"), "{err}");
}

#[tokio::test]
async fn unix_socket_base_urls_work_over_a_real_socket() {
    let dir = tempfile::tempdir().unwrap();
    let sock = dir.path().join("llm.sock");
    let turn = nab_protocol::ScriptedTurn {
        content: Some("over the socket".into()),
        reasoning: Some("hm".into()),
        tool_calls: vec![support::call("list_dir", json!({"path": "."}))],
    };
    let server = support::ScriptedServer::start_unix(vec![turn], &sock).await;
    assert!(server.base_url.starts_with("unix:///"));
    let out = complete(&server.base_url).await.unwrap();
    assert_eq!(out.turn.content, "over the socket");
    assert_eq!(out.turn.reasoning, "hm");
    assert_eq!(out.turn.tool_calls[0].function.name, "list_dir");
    assert_eq!(out.turn.usage.unwrap().prompt_tokens, 100);
    assert_eq!(server.recorder.requests()[0]["model"], "m");
}

#[tokio::test]
async fn a_missing_socket_is_a_connect_error_naming_it() {
    let err = complete("unix:///nonexistent/dir/llm.sock")
        .await
        .unwrap_err();
    assert!(
        err.to_string().contains("unix:///nonexistent/dir/llm.sock"),
        "{err}"
    );
}

#[tokio::test]
async fn a_connection_dropped_midway_through_the_body_is_stream_interrupted() {
    use tokio::io::AsyncWriteExt;
    // A raw server that promises 10 000 bytes, sends one event and closes the socket.
    let url = raw_server(|mut s| async move {
        let event = format!("data: {}\n\n", delta(json!({"content": "partial"})));
        let head =
            "HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\ncontent-length: 10000\r\n\r\n";
        s.write_all(head.as_bytes()).await.unwrap();
        s.write_all(event.as_bytes()).await.unwrap();
        s.flush().await.unwrap();
        drop(s);
    })
    .await;
    let mut seen = Seen::default();
    let mut cfg = ClientConfig::new(Endpoint::parse(&url).unwrap());
    cfg.retry.max_retries = 0;
    let err = LlmClient::new(cfg)
        .complete(request(), &mut seen)
        .await
        .unwrap_err();
    let ClientError::RetriesExhausted { attempts: 1, last } = &err else {
        panic!("{err}");
    };
    assert!(
        matches!(**last, ClientError::StreamInterrupted { events: 1 }),
        "{err}"
    );
    assert!(last.is_retryable(), "a cut stream is worth another try");
    assert_eq!(
        seen.content,
        vec!["partial"],
        "what arrived before the cut was still shown"
    );
}
