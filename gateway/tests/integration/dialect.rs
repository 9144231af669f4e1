//! The gateway against servers that are not OpenAI: validation errors, truncated streams,
//! the `openai[...]` dialect options, short keys. Real Unix sockets; wiremock (or a raw TCP
//! server) stands in for the remote server.

use crate::common;

use common::*;
use nab_gateway::{
    Budgets, CallPolicy, Gateway, GatewayConfig, GatewayHandle, ProviderOptions, build_provider,
};
use serde_json::{Value, json};
use std::path::Path;
use std::time::Duration;
use wiremock::matchers::method;
use wiremock::{Mock, MockServer, ResponseTemplate};

fn policy() -> CallPolicy {
    CallPolicy {
        max_retries: 3,
        base_backoff: Duration::from_millis(5),
        max_backoff: Duration::from_millis(50),
        idle_timeout: Duration::from_millis(400),
        response_timeout: Duration::from_secs(10),
    }
}

async fn start_with_key(dir: &Path, spec: &str, key: &str, policy: CallPolicy) -> GatewayHandle {
    let mut opts = ProviderOptions::default();
    opts.env_overrides.insert("NAB_API_KEY".into(), key.into());
    let provider = build_provider(spec, &opts).expect("provider");
    let mut cfg = GatewayConfig::new(
        dir.join("llm.sock"),
        dir.join(nab_protocol::TRANSCRIPT_FILE),
    );
    cfg.budgets = Budgets::default();
    cfg.policy = policy;
    Gateway::start(cfg, provider).await.expect("gateway starts")
}

async fn start(dir: &Path, spec: &str) -> GatewayHandle {
    start_with_key(dir, spec, "sk-dialect-canary-0042", policy()).await
}

/// A mock server answering every POST with `answer`.
/// A gateway (in a fresh folder) to the OpenAI-compatible mock `server`.
async fn gateway_to(server: &MockServer) -> (tempfile::TempDir, GatewayHandle) {
    let dir = tempfile::tempdir().unwrap();
    let gw = start(dir.path(), &format!("openai:m@{}/v1", server.uri())).await;
    (dir, gw)
}

async fn serving(answer: ResponseTemplate) -> MockServer {
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .respond_with(answer)
        .mount(&server)
        .await;
    server
}

/// llama-cpp-python 0.3.36's answer to an assistant message with `content: null`.
const PYDANTIC_500: &str = r#"{"error":{"message":"7 validation errors:\n  {'type': 'string_type', 'loc': ('body', 'messages', 2, 'ChatCompletionRequestAssistantMessage', 'content'), 'msg': 'Input should be a valid string', 'input': None}","type":"internal_server_error","param":null,"code":null}}"#;

fn with_null_content() -> Value {
    json!({"model": "m", "stream": true, "messages": [
        {"role": "system", "content": "s"}, {"role": "user", "content": "u"},
        {"role": "assistant", "content": null, "tool_calls": [{"id": "c1", "type": "function",
            "function": {"name": "list_dir", "arguments": "{}"}}]},
        {"role": "tool", "tool_call_id": "c1", "content": "a.py"}]})
}

/// The issue's "done when": a server that refuses `content: null` with a 500 and a
/// validation body is asked once, not four times, and the agent gets the server's words.
#[tokio::test]
async fn a_validation_500_is_asked_once_and_passed_on_with_its_message() {
    let server =
        serving(ResponseTemplate::new(500).set_body_raw(PYDANTIC_500, "application/json")).await;
    let (dir, gw) = gateway_to(&server).await;
    let (status, body) = chat(gw.socket_path(), &with_null_content()).await;
    gw.shutdown().await;
    assert_eq!(
        server.received_requests().await.unwrap().len(),
        1,
        "one attempt, not four"
    );
    assert_eq!(status, 500);
    let message = body["error"]["message"].as_str().unwrap();
    assert!(message.contains("Input should be a valid string"), "{body}");
    let lines = transcript(&dir.path().join(nab_protocol::TRANSCRIPT_FILE));
    assert_eq!(lines.len(), 1);
    assert_eq!(lines[0].retries, 0);
    assert_eq!(lines[0].status, Some(500));
    assert_eq!(lines[0].error_code.as_deref(), Some("provider_rejected"));
}

/// A plain 500 is still retried, and reported as the provider's fault.
#[tokio::test]
async fn a_plain_500_is_retried_and_recorded_as_a_provider_fault() {
    let server = serving(ResponseTemplate::new(500).set_body_string("Internal Server Error")).await;
    let (dir, gw) = gateway_to(&server).await;
    let (status, body) = chat(gw.socket_path(), &request("s", "u", false)).await;
    gw.shutdown().await;
    assert_eq!(server.received_requests().await.unwrap().len(), 4);
    assert_eq!(status, 502);
    assert_eq!(body["error"]["type"], "upstream_error");
    let lines = transcript(&dir.path().join(nab_protocol::TRANSCRIPT_FILE));
    assert_eq!(lines[0].error_code.as_deref(), Some("provider_http_error"));
    assert_eq!(lines[0].retries, 3);
}

/// vLLM's errors are not wrapped in `error`; its message still reaches the agent.
#[tokio::test]
async fn a_top_level_vllm_error_reaches_the_agent_with_its_message() {
    let server = serving(ResponseTemplate::new(400).set_body_json(json!({"object": "error",
            "message": "\"auto\" tool choice requires --enable-auto-tool-choice and --tool-call-parser to be set",
            "type": "BadRequestError", "param": null, "code": 400}))).await;
    let (_dir, gw) = gateway_to(&server).await;
    let (status, body) = chat(gw.socket_path(), &request("s", "u", true)).await;
    gw.shutdown().await;
    assert_eq!(status, 400);
    assert!(
        body["error"]["message"]
            .as_str()
            .unwrap()
            .starts_with("\"auto\" tool choice requires"),
        "{body}"
    );
}

/// llama-cpp-python's broken streaming: HTTP 200, keep-alive comments, no data. Never an
/// answer: retried, then an upstream error naming the cause.
#[tokio::test]
async fn an_empty_200_stream_is_retried_then_an_upstream_error() {
    let server = serving(
        ResponseTemplate::new(200).set_body_raw(": ping - 2026-11-30\n\n", "text/event-stream"),
    )
    .await;
    let (dir, gw) = gateway_to(&server).await;
    let (status, body) = chat(gw.socket_path(), &request("s", "u", true)).await;
    gw.shutdown().await;
    assert_eq!(server.received_requests().await.unwrap().len(), 4);
    assert_eq!(status, 502, "{body}");
    assert_eq!(body["error"]["code"], "stream_truncated");
    let lines = transcript(&dir.path().join(nab_protocol::TRANSCRIPT_FILE));
    assert_eq!(lines[0].error_code.as_deref(), Some("stream_truncated"));
    assert!(lines[0].response.is_none(), "an empty stream is no answer");
    assert!(lines[0].usage.is_none());
}

/// Empty once, whole the second time: the agent gets the second answer and never knows.
#[tokio::test]
async fn an_empty_200_then_a_good_stream_is_the_good_answer() {
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .respond_with(ResponseTemplate::new(200).set_body_raw("", "text/event-stream"))
        .up_to_n_times(1)
        .mount(&server)
        .await;
    Mock::given(method("POST"))
        .respond_with(
            ResponseTemplate::new(200)
                .set_body_raw(sse_body(&["he", "llo"], 7, 2), "text/event-stream"),
        )
        .mount(&server)
        .await;
    let (dir, gw) = gateway_to(&server).await;
    let (status, events) = chat_stream(gw.socket_path(), &request("s", "u", true)).await;
    gw.shutdown().await;
    assert_eq!(status, 200);
    assert_eq!(content_of_chunks(&events), "hello");
    assert_eq!(events.last().unwrap(), "[DONE]");
    let lines = transcript(&dir.path().join(nab_protocol::TRANSCRIPT_FILE));
    assert_eq!(lines[0].retries, 1);
    assert!(lines[0].error.is_none());
    assert_eq!(lines[0].usage.unwrap().prompt_tokens, 7);
}

/// A stream cut after some chunks (no finish reason, no `[DONE]`): the agent gets what came
/// and an error event saying the stream was truncated — never a `[DONE]`.
#[tokio::test]
async fn a_stream_cut_after_chunks_ends_with_a_truncation_error_not_done() {
    let chunk = json!({"id": "s", "object": "chat.completion.chunk", "created": 1, "model": "m",
        "choices": [{"index": 0, "delta": {"content": "partial"}, "finish_reason": null}]});
    let server = serving(
        ResponseTemplate::new(200).set_body_raw(format!("data: {chunk}\n\n"), "text/event-stream"),
    )
    .await;
    let (dir, gw) = gateway_to(&server).await;
    let (status, events) = chat_stream(gw.socket_path(), &request("s", "u", true)).await;
    gw.shutdown().await;
    assert_eq!(status, 200);
    assert_eq!(content_of_chunks(&events), "partial");
    assert!(!events.iter().any(|e| e == "[DONE]"), "{events:?}");
    let err: Value = serde_json::from_str(events.last().unwrap()).unwrap();
    assert_eq!(err["error"]["code"], "stream_truncated");
    assert_eq!(err["error"]["type"], "upstream_error");
    let lines = transcript(&dir.path().join(nab_protocol::TRANSCRIPT_FILE));
    assert_eq!(lines[0].error_code.as_deref(), Some("stream_truncated"));
}

/// `stream=off`: the server is called without streaming, the agent still gets a stream,
/// with the usage; `stream_options` never reaches the server.
#[tokio::test]
async fn stream_off_calls_whole_and_restreams_to_the_agent() {
    let server = serving(ResponseTemplate::new(200).set_body_json(json!({
            "id": "c", "object": "chat.completion", "created": 1, "model": "m",
            "choices": [{"index": 0, "message": {"role": "assistant", "content": null,
                "tool_calls": [{"id": "call__0_read_file", "type": "function",
                    "function": {"name": "read_file", "arguments": "{ \"path\": \"a.py\" }"}}]},
                "finish_reason": "tool_calls"}],
            "usage": {"prompt_tokens": 287, "completion_tokens": 38, "total_tokens": 325}})))
    .await;
    let dir = tempfile::tempdir().unwrap();
    let gw = start(
        dir.path(),
        &format!("openai[stream=off]:m@{}/v1", server.uri()),
    )
    .await;
    let mut req = request("s", "u", true);
    req["tool_choice"] = json!("auto");
    let (status, events) = chat_stream(gw.socket_path(), &req).await;
    gw.shutdown().await;
    assert_eq!(status, 200);
    assert_eq!(events.last().unwrap(), "[DONE]");
    let chunks: Vec<Value> = events
        .iter()
        .filter_map(|e| serde_json::from_str(e).ok())
        .collect();
    assert!(
        chunks
            .iter()
            .all(|c| c["object"] == "chat.completion.chunk")
    );
    let names: Vec<&str> = chunks
        .iter()
        .filter_map(|c| c["choices"].get(0)?["delta"]["tool_calls"][0]["function"]["name"].as_str())
        .collect();
    assert_eq!(names, ["read_file"]);
    let sent: Value =
        serde_json::from_slice(&server.received_requests().await.unwrap()[0].body).unwrap();
    assert!(sent.get("stream").is_none(), "{sent}");
    assert!(sent.get("stream_options").is_none(), "{sent}");
    assert_eq!(sent["tool_choice"], "auto", "kept unless told otherwise");
    let lines = transcript(&dir.path().join(nab_protocol::TRANSCRIPT_FILE));
    assert!(lines[0].stream, "the agent asked for a stream");
    assert_eq!(lines[0].usage.unwrap().completion_tokens, 38);
    assert_eq!(
        lines[0].provider,
        format!("openai[stream=off]:m@{}/v1", server.uri())
    );
}

/// The `omit` options keep the fields off the wire, and only those fields.
#[tokio::test]
async fn omit_options_drop_exactly_their_fields() {
    let server = serving(
        ResponseTemplate::new(200).set_body_raw(sse_body(&["ok"], 3, 1), "text/event-stream"),
    )
    .await;
    let dir = tempfile::tempdir().unwrap();
    let gw = start(
        dir.path(),
        &format!(
            "openai[stream_options=omit,tool_choice=omit,parallel_tool_calls=omit]:m@{}/v1",
            server.uri()
        ),
    )
    .await;
    let mut req = request("s", "u", true);
    req["tool_choice"] = json!("auto");
    req["parallel_tool_calls"] = json!(true);
    let (status, _) = chat_stream(gw.socket_path(), &req).await;
    gw.shutdown().await;
    assert_eq!(status, 200);
    let sent: Value =
        serde_json::from_slice(&server.received_requests().await.unwrap()[0].body).unwrap();
    for gone in ["stream_options", "tool_choice", "parallel_tool_calls"] {
        assert!(sent.get(gone).is_none(), "{gone} was sent: {sent}");
    }
    for kept in ["stream", "tools", "messages", "temperature"] {
        assert!(sent.get(kept).is_some(), "{kept} was dropped: {sent}");
    }
    // With the defaults everything goes through, including the usage request.
    let server2 = serving(
        ResponseTemplate::new(200).set_body_raw(sse_body(&["ok"], 3, 1), "text/event-stream"),
    )
    .await;
    let dir2 = tempfile::tempdir().unwrap();
    let gw2 = start(dir2.path(), &format!("openai:m@{}/v1", server2.uri())).await;
    chat_stream(gw2.socket_path(), &req).await;
    gw2.shutdown().await;
    let sent: Value =
        serde_json::from_slice(&server2.received_requests().await.unwrap()[0].body).unwrap();
    assert_eq!(sent["stream_options"]["include_usage"], true);
    assert_eq!(sent["tool_choice"], "auto");
    assert_eq!(sent["parallel_tool_calls"], true);
}

/// A first token that takes longer than the idle timeout (a model thinking, a queue) is
/// waited for up to the response timeout.
#[tokio::test]
async fn a_slow_first_chunk_is_waited_for_up_to_the_response_timeout() {
    use tokio::io::AsyncWriteExt;
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let task = tokio::spawn(async move {
        let (mut sock, _) = listener.accept().await.unwrap();
        read_request(&mut sock).await;
        let head = "HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\ntransfer-encoding: chunked\r\n\r\n";
        sock.write_all(head.as_bytes()).await.unwrap();
        sock.flush().await.unwrap();
        // Three idle timeouts of silence before the first token.
        tokio::time::sleep(Duration::from_millis(1200)).await;
        let body = sse_body(&["slow"], 5, 1);
        sock.write_all(format!("{:x}\r\n{body}\r\n0\r\n\r\n", body.len()).as_bytes())
            .await
            .unwrap();
        sock.flush().await.unwrap();
    });
    let dir = tempfile::tempdir().unwrap();
    let gw = start(dir.path(), &format!("openai:m@http://{addr}/v1")).await;
    let (status, events) = chat_stream(gw.socket_path(), &request("s", "u", true)).await;
    gw.shutdown().await;
    task.abort();
    assert_eq!(status, 200);
    assert_eq!(content_of_chunks(&events), "slow");
    let lines = transcript(&dir.path().join(nab_protocol::TRANSCRIPT_FILE));
    assert_eq!(lines[0].retries, 0);
}

/// Kimi reports a stream's usage inside its last choice; the transcript still has it.
#[tokio::test]
async fn usage_inside_the_last_choice_is_recorded() {
    let body = format!(
        "data: {}\n\ndata: {}\n\ndata: [DONE]\n\n",
        json!({"id": "k", "object": "chat.completion.chunk", "created": 1, "model": "kimi",
            "choices": [{"index": 0, "delta": {"role": "assistant", "content": "hi"}, "finish_reason": null}]}),
        json!({"id": "k", "object": "chat.completion.chunk", "created": 1, "model": "kimi",
            "choices": [{"index": 0, "delta": {}, "finish_reason": "stop",
                "usage": {"prompt_tokens": 19, "completion_tokens": 13, "total_tokens": 32}}]})
    );
    let server = serving(ResponseTemplate::new(200).set_body_raw(body, "text/event-stream")).await;
    let dir = tempfile::tempdir().unwrap();
    let gw = start(dir.path(), &format!("openai:kimi@{}/v1", server.uri())).await;
    chat_stream(gw.socket_path(), &request("s", "u", true)).await;
    gw.shutdown().await;
    let lines = transcript(&dir.path().join(nab_protocol::TRANSCRIPT_FILE));
    let u = lines[0].usage.unwrap();
    assert_eq!((u.prompt_tokens, u.completion_tokens), (19, 13));
}

/// Issue 22 item 3: a one-character key must not turn "maximum context length" into
/// "ma[REDACTED]imum conte[REDACTED]t length"; a real key is still redacted.
#[tokio::test]
async fn a_short_key_leaves_messages_alone_and_a_real_one_is_redacted() {
    let message = "This model's maximum context length is 8192 tokens (key x, sent as Bearer x)";
    let server = serving(
        ResponseTemplate::new(400)
            .set_body_json(json!({"error": {"message": message, "type": "invalid_request_error"}})),
    )
    .await;
    let dir = tempfile::tempdir().unwrap();
    let gw = start_with_key(
        dir.path(),
        &format!("openai:m@{}/v1", server.uri()),
        "x",
        policy(),
    )
    .await;
    let (status, body) = chat(gw.socket_path(), &request("s", "u", false)).await;
    gw.shutdown().await;
    assert_eq!(status, 400);
    assert_eq!(body["error"]["message"], message);

    let long_key = "sk-real-secret-4242";
    let server = serving(ResponseTemplate::new(401).set_body_json(json!({"error": {
            "message": format!("Incorrect API key provided: {long_key}. maximum context length"),
            "type": "invalid_request_error"}})))
    .await;
    let dir = tempfile::tempdir().unwrap();
    let gw = start_with_key(
        dir.path(),
        &format!("openai:m@{}/v1", server.uri()),
        long_key,
        policy(),
    )
    .await;
    let (_, body) = chat(gw.socket_path(), &request("s", "u", false)).await;
    gw.shutdown().await;
    assert_eq!(
        body["error"]["message"],
        "Incorrect API key provided: [REDACTED]. maximum context length"
    );
    let text = std::fs::read_to_string(dir.path().join(nab_protocol::TRANSCRIPT_FILE)).unwrap();
    assert!(!text.contains(long_key));
}
