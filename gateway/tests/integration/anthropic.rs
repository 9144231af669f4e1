//! `anthropic:` through the real gateway over a Unix socket, with wiremock standing in for
//! the Anthropic Messages API and serving recorded-format event streams from
//! `tests/fixtures/anthropic/` (Anthropic's documented event sequence: message_start,
//! content blocks with text_delta / input_json_delta pieces, ping, message_delta,
//! message_stop).

use crate::common;

use common::{chat, chat_stream, content_of_chunks, transcript};
use nab_gateway::{
    Budgets, CallPolicy, Gateway, GatewayConfig, GatewayHandle, ProviderOptions, build_provider,
};
use serde_json::{Value, json};
use std::path::Path;
use std::time::Duration;
use wiremock::matchers::{header, method, path};
use wiremock::{Mock, MockServer, ResponseTemplate};

const KEY: &str = "sk-ant-canary-5b1e0c77a2";

fn fixture(name: &str) -> String {
    let p = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/anthropic")
        .join(name);
    std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

fn sse(name: &str) -> ResponseTemplate {
    ResponseTemplate::new(200).set_body_raw(fixture(name), "text/event-stream")
}

fn policy() -> CallPolicy {
    CallPolicy {
        max_retries: 3,
        base_backoff: Duration::from_millis(5),
        max_backoff: Duration::from_millis(50),
        idle_timeout: Duration::from_secs(2),
        response_timeout: Duration::from_secs(10),
    }
}

async fn start(dir: &Path, spec: &str) -> GatewayHandle {
    let mut o = ProviderOptions::default();
    o.env_overrides
        .insert("ANTHROPIC_API_KEY".into(), KEY.into());
    let provider = build_provider(spec, &o).expect("provider");
    let mut cfg = GatewayConfig::new(
        dir.join("llm.sock"),
        dir.join(nab_protocol::TRANSCRIPT_FILE),
    );
    cfg.budgets = Budgets::default();
    cfg.policy = policy();
    Gateway::start(cfg, provider).await.expect("gateway starts")
}

async fn serving(responses: Vec<ResponseTemplate>) -> MockServer {
    let server = MockServer::start().await;
    let n = responses.len();
    for (i, r) in responses.into_iter().enumerate() {
        let m = Mock::given(method("POST"))
            .and(path("/v1/messages"))
            .and(header("x-api-key", KEY))
            .and(header("anthropic-version", "2023-06-01"))
            .respond_with(r);
        // Each response once, in order; the last one for every later request.
        let m = if i + 1 < n { m.up_to_n_times(1) } else { m };
        m.mount(&server).await;
    }
    server
}

/// What one agent request through the gateway to a mock Anthropic left behind: the mock
/// (with the requests it got), the trial folder (transcript.jsonl), the status and reply
/// the agent got, and the gateway's metrics.
struct Exchange<R> {
    server: MockServer,
    dir: tempfile::TempDir,
    status: u16,
    reply: R,
    metrics: nab_gateway::TranscriptMetrics,
}

/// A streamed [`request`] to a mock that serves `answers` (see [`serving`]); the reply is
/// the SSE events the agent got.
async fn streamed(answers: Vec<ResponseTemplate>) -> Exchange<Vec<String>> {
    let (server, dir, gw) = gateway_to(answers).await;
    let (status, reply) = chat_stream(gw.socket_path(), &request(true)).await;
    Exchange::after(server, dir, gw, status, reply).await
}

/// A [`request`] (`stream` or not) to a mock that serves `answers`, read whole; the reply is
/// the JSON body the agent got.
async fn answered(answers: Vec<ResponseTemplate>, stream: bool) -> Exchange<Value> {
    let (server, dir, gw) = gateway_to(answers).await;
    let (status, reply) = chat(gw.socket_path(), &request(stream)).await;
    Exchange::after(server, dir, gw, status, reply).await
}

/// A gateway (in a fresh folder) to a mock Anthropic that serves `answers`.
async fn gateway_to(
    answers: Vec<ResponseTemplate>,
) -> (MockServer, tempfile::TempDir, GatewayHandle) {
    let server = serving(answers).await;
    let dir = tempfile::tempdir().unwrap();
    let gw = start(dir.path(), &spec(&server)).await;
    (server, dir, gw)
}

impl<R> Exchange<R> {
    /// Shuts `gw` down once the agent has its reply.
    async fn after(
        server: MockServer,
        dir: tempfile::TempDir,
        gw: GatewayHandle,
        status: u16,
        reply: R,
    ) -> Exchange<R> {
        let metrics = gw.shutdown().await;
        Exchange {
            server,
            dir,
            status,
            reply,
            metrics,
        }
    }
}

/// How many requests `server` has seen.
async fn received(server: &MockServer) -> usize {
    server.received_requests().await.unwrap().len()
}

/// The transcript the gateway wrote in `dir`.
fn lines_in(dir: &tempfile::TempDir) -> Vec<nab_protocol::TranscriptLine> {
    transcript(&dir.path().join(nab_protocol::TRANSCRIPT_FILE))
}

fn spec(server: &MockServer) -> String {
    format!("anthropic:claude-sonnet-4-5@{}", server.uri())
}

fn tools() -> Value {
    json!([
        {"type": "function", "function": {"name": "read_file", "description": "Read a file",
            "parameters": {"type": "object", "properties": {"path": {"type": "string"}}, "required": ["path"]}}},
        {"type": "function", "function": {"name": "list_dir", "parameters": {"type": "object", "properties": {}}}}
    ])
}

fn request(stream: bool) -> Value {
    json!({
        "model": "agent-label", "stream": stream,
        "messages": [{"role": "system", "content": "You fix code."}, {"role": "user", "content": "Fix it."}],
        "tools": tools(),
    })
}

fn chunks(events: &[String]) -> Vec<Value> {
    events
        .iter()
        .filter(|e| *e != "[DONE]")
        .map(|e| serde_json::from_str(e).unwrap())
        .collect()
}

/// The tool calls of a chunk stream, reassembled as an OpenAI client does (by index).
fn tool_calls(events: &[String]) -> Vec<(String, String, String)> {
    let mut calls: Vec<(String, String, String)> = Vec::new();
    for c in chunks(events) {
        let Some(tcs) = c["choices"][0]["delta"]["tool_calls"].as_array() else {
            continue;
        };
        for tc in tcs {
            let i = tc["index"].as_u64().unwrap() as usize;
            if i == calls.len() {
                calls.push(Default::default());
            }
            let call = &mut calls[i];
            if let Some(id) = tc["id"].as_str() {
                call.0 = id.to_owned();
            }
            if let Some(n) = tc["function"]["name"].as_str() {
                call.1 = n.to_owned();
            }
            if let Some(a) = tc["function"]["arguments"].as_str() {
                call.2.push_str(a);
            }
        }
    }
    calls
}

fn finish_reasons(events: &[String]) -> Vec<String> {
    chunks(events)
        .iter()
        .filter_map(|c| c["choices"][0]["finish_reason"].as_str().map(str::to_owned))
        .collect()
}

#[tokio::test]
async fn a_streamed_text_answer_becomes_openai_chunks_ending_in_stop_and_done() {
    let Exchange {
        server,
        dir,
        status,
        reply: events,
        metrics: m,
    } = streamed(vec![sse("text.sse")]).await;
    assert_eq!(status, 200);
    assert_eq!(content_of_chunks(&events), "The tests pass now.");
    assert_eq!(finish_reasons(&events), vec!["stop"]);
    assert_eq!(events.last().unwrap(), "[DONE]");
    let all = chunks(&events);
    assert_eq!(all[0]["choices"][0]["delta"]["role"], "assistant");
    assert!(all.iter().all(
        |c| c["object"] == "chat.completion.chunk" && c["id"] == "msg_01XFDUDYJgAACzvnptvVoYEL"
    ));
    assert_eq!((m.input_tokens, m.output_tokens), (412, 9));
    let lines = lines_in(&dir);
    assert_eq!(lines[0].provider, spec(&server));
    assert_eq!(
        lines[0].response.as_ref().unwrap()["choices"][0]["message"]["content"],
        "The tests pass now."
    );
}

#[tokio::test]
async fn a_tool_call_split_over_many_input_json_deltas_is_reassembled() {
    let expected: Value = serde_json::from_str(&fixture("tool_split.expected.json")).unwrap();
    assert!(
        expected["pieces"].as_u64().unwrap() >= 10,
        "the fixture splits the input finely"
    );
    let Exchange {
        dir,
        status,
        reply: events,
        ..
    } = streamed(vec![sse("tool_split.sse")]).await;
    assert_eq!(status, 200);
    assert_eq!(content_of_chunks(&events), "I'll write the file.");
    let calls = tool_calls(&events);
    assert_eq!(calls.len(), 1, "{events:?}");
    assert_eq!(calls[0].0, "toolu_01T1x1fJ34qAmk2tNTrN7Up6");
    assert_eq!(calls[0].1, "write_file");
    let args: Value = serde_json::from_str(&calls[0].2).unwrap();
    assert_eq!(args, expected["arguments"]);
    assert_eq!(finish_reasons(&events), vec!["tool_calls"]);
    // The gateway's own reassembly (the transcript) agrees.
    let lines = lines_in(&dir);
    let msg = &lines[0].response.as_ref().unwrap()["choices"][0]["message"];
    let recorded: Value = serde_json::from_str(
        msg["tool_calls"][0]["function"]["arguments"]
            .as_str()
            .unwrap(),
    )
    .unwrap();
    assert_eq!(recorded, expected["arguments"]);
}

#[tokio::test]
async fn two_parallel_tool_calls_get_indices_0_and_1_and_an_argumentless_call_gets_braces() {
    let Exchange {
        status,
        reply: events,
        ..
    } = streamed(vec![sse("parallel.sse")]).await;
    assert_eq!(status, 200);
    let calls = tool_calls(&events);
    assert_eq!(
        calls,
        vec![
            (
                "toolu_01A".to_owned(),
                "read_file".to_owned(),
                r#"{"path": "a.rs"}"#.to_owned()
            ),
            (
                "toolu_01B".to_owned(),
                "list_dir".to_owned(),
                "{}".to_owned()
            ),
        ]
    );
    assert_eq!(finish_reasons(&events), vec!["tool_calls"]);
}

#[tokio::test]
async fn cache_read_and_write_tokens_reach_the_gateways_usage() {
    let Exchange {
        status,
        reply: events,
        metrics: m,
        ..
    } = streamed(vec![sse("cache.sse")]).await;
    assert_eq!(status, 200);
    // max_tokens → length.
    assert_eq!(finish_reasons(&events), vec!["length"]);
    let usage = chunks(&events)
        .into_iter()
        .find_map(|c| c.get("usage").filter(|u| !u.is_null()).cloned())
        .expect("a usage chunk");
    assert_eq!(usage["prompt_tokens"], 21 + 188 + 3020);
    assert_eq!(usage["prompt_tokens_details"]["cached_tokens"], 3020);
    assert_eq!(usage["prompt_tokens_details"]["cache_creation_tokens"], 188);
    assert_eq!(usage["completion_tokens"], 393);
    assert_eq!(
        (m.input_tokens, m.cached_tokens, m.output_tokens),
        (21 + 188 + 3020, 3020, 393)
    );
}

#[tokio::test]
async fn a_429_then_success_is_retried_and_the_agent_sees_only_the_answer() {
    let busy = ResponseTemplate::new(429)
        .insert_header("retry-after", "0")
        .set_body_json(json!({"type": "error", "error": {"type": "rate_limit_error", "message": "Number of request tokens has exceeded your per-minute rate limit"}}));
    let Exchange {
        server,
        dir,
        status,
        reply: events,
        ..
    } = streamed(vec![busy, sse("text.sse")]).await;
    assert_eq!(status, 200);
    assert_eq!(content_of_chunks(&events), "The tests pass now.");
    assert_eq!(received(&server).await, 2);
    let lines = lines_in(&dir);
    assert_eq!(lines[0].retries, 1);
    assert!(lines[0].error.is_none());
}

#[tokio::test]
async fn a_529_overloaded_is_retried_then_reported_as_an_upstream_error() {
    let overloaded = ResponseTemplate::new(529).set_body_json(
        json!({"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}}),
    );
    let Exchange {
        server,
        dir,
        status,
        reply: body,
        ..
    } = answered(vec![overloaded], false).await;
    assert_eq!(received(&server).await, 4);
    assert_eq!(status, 502, "{body}");
    assert_eq!(body["error"]["type"], "upstream_error");
    let lines = lines_in(&dir);
    assert_eq!(lines[0].retries, 3);
    assert!(lines[0].error.as_deref().unwrap().contains("Overloaded"));
}

#[tokio::test]
async fn an_error_event_in_the_stream_is_retried_not_an_answer() {
    let Exchange {
        server,
        status,
        reply: events,
        ..
    } = streamed(vec![sse("overloaded.sse"), sse("text.sse")]).await;
    assert_eq!(status, 200);
    assert_eq!(content_of_chunks(&events), "The tests pass now.");
    assert_eq!(received(&server).await, 2);
}

#[tokio::test]
async fn a_400_reaches_the_agent_as_an_openai_error_unretried_and_without_the_key() {
    let bad = ResponseTemplate::new(400).set_body_json(json!({"type": "error", "error": {
        "type": "invalid_request_error",
        "message": format!("prompt is too long: 210000 tokens > 200000 maximum (key {KEY})")}}));
    let Exchange {
        server,
        dir,
        status,
        reply: body,
        ..
    } = answered(vec![bad], false).await;
    assert_eq!(received(&server).await, 1);
    assert_eq!(status, 400);
    let msg = body["error"]["message"].as_str().unwrap();
    assert!(msg.starts_with("prompt is too long"), "{body}");
    assert_eq!(body["error"]["type"], "invalid_request_error");
    assert!(!body.to_string().contains(KEY), "{body}");
    let text = std::fs::read_to_string(dir.path().join(nab_protocol::TRANSCRIPT_FILE)).unwrap();
    assert!(!text.contains(KEY));
}

/// Cut mid tool call (content already passed on): the agent gets what came and a
/// `stream_truncated` upstream error, never a finish reason or `[DONE]`.
#[tokio::test]
async fn a_stream_without_message_stop_after_content_is_an_upstream_error() {
    let Exchange {
        dir,
        status,
        reply: events,
        ..
    } = streamed(vec![sse("truncated.sse")]).await;
    assert_eq!(status, 200);
    assert!(!events.iter().any(|e| e == "[DONE]"), "{events:?}");
    let err: Value = serde_json::from_str(events.last().unwrap()).unwrap();
    assert_eq!(err["error"]["code"], "stream_truncated", "{events:?}");
    assert!(
        finish_reasons(&events).is_empty(),
        "never a finished answer"
    );
    let lines = lines_in(&dir);
    assert_eq!(lines[0].error_code.as_deref(), Some("stream_truncated"));
}

/// Only message_start ever comes, on every attempt: retried, then an upstream error.
#[tokio::test]
async fn a_stream_that_always_breaks_before_content_is_retried_then_an_upstream_error() {
    let Exchange {
        server,
        dir,
        status,
        reply: body,
        ..
    } = answered(vec![sse("cut_early.sse")], true).await;
    assert_eq!(received(&server).await, 4);
    assert_eq!(status, 502, "{body}");
    assert_eq!(body["error"]["code"], "stream_truncated");
    let lines = lines_in(&dir);
    assert_eq!(lines[0].retries, 3);
    assert!(lines[0].response.is_none(), "never an answer");
}

/// Cut after message_start, before any content: the agent was sent nothing, so the gateway
/// retries and the agent gets the next, whole answer.
#[tokio::test]
async fn a_stream_cut_before_content_is_retried_and_the_whole_one_is_the_answer() {
    let Exchange {
        server,
        status,
        reply: events,
        ..
    } = streamed(vec![sse("cut_early.sse"), sse("parallel.sse")]).await;
    assert_eq!(status, 200);
    assert_eq!(tool_calls(&events).len(), 2, "{events:?}");
    assert_eq!(events.last().unwrap(), "[DONE]");
    assert_eq!(received(&server).await, 2);
}

#[tokio::test]
async fn a_whole_message_becomes_a_chat_completion() {
    let Exchange {
        server,
        status,
        reply: body,
        metrics: m,
        ..
    } = answered(
        vec![ResponseTemplate::new(200).set_body_raw(fixture("message.json"), "application/json")],
        false,
    )
    .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["object"], "chat.completion");
    let choice = &body["choices"][0];
    assert_eq!(choice["finish_reason"], "tool_calls");
    assert_eq!(choice["message"]["content"], "Looking.");
    assert_eq!(choice["message"]["tool_calls"][0]["id"], "toolu_01W");
    assert_eq!(
        choice["message"]["tool_calls"][0]["function"]["arguments"],
        r#"{"path":"README.md"}"#
    );
    assert_eq!(
        (m.input_tokens, m.cached_tokens, m.output_tokens),
        (250, 200, 30)
    );
    let sent: Value = server.received_requests().await.unwrap()[0]
        .body_json()
        .unwrap();
    assert!(sent.get("stream").is_none(), "{sent}");
}

/// The agent's request with a history: system prompt, tools, two parallel calls answered.
fn history() -> Value {
    json!({
        "model": "agent-label", "stream": true, "stream_options": {"include_usage": true},
        "temperature": 0, "stop": ["END"], "tool_choice": "required",
        "tools": tools(),
        "messages": [
            {"role": "system", "content": "You fix code."},
            {"role": "user", "content": "Fix it."},
            {"role": "assistant", "content": "Looking.", "tool_calls": [
                {"id": "toolu_1", "type": "function", "function": {"name": "read_file", "arguments": "{\"path\":\"a.rs\"}"}},
                {"id": "toolu_2", "type": "function", "function": {"name": "list_dir", "arguments": "{}"}}]},
            {"role": "tool", "tool_call_id": "toolu_1", "content": "fn a() {}"},
            {"role": "tool", "tool_call_id": "toolu_2", "content": "a.rs\nb.rs"},
        ]
    })
}

/// What Anthropic received for `history()` through `spec`.
async fn sent_for(spec_of: impl Fn(&MockServer) -> String) -> Value {
    let server = serving(vec![sse("text.sse")]).await;
    let dir = tempfile::tempdir().unwrap();
    let gw = start(dir.path(), &spec_of(&server)).await;
    let (status, _) = chat_stream(gw.socket_path(), &history()).await;
    gw.shutdown().await;
    assert_eq!(status, 200);
    server.received_requests().await.unwrap()[0]
        .body_json()
        .unwrap()
}

/// The body Anthropic gets: system on top, tools as input_schema, tool_choice mapped,
/// assistant tool_calls as tool_use, consecutive tool results merged into one user message.
/// (Prompt caching off: the marks are the next test's.)
#[tokio::test]
async fn the_request_is_translated_into_the_messages_api() {
    let sent = sent_for(|s| spec(s).replacen("anthropic:", "anthropic[cache=off]:", 1)).await;
    assert_eq!(
        sent,
        json!({
            "model": "claude-sonnet-4-5",
            "max_tokens": 4096,
            "system": "You fix code.",
            "stream": true,
            "temperature": 0,
            "stop_sequences": ["END"],
            "tool_choice": {"type": "any"},
            "tools": [
                {"name": "read_file", "description": "Read a file",
                 "input_schema": {"type": "object", "properties": {"path": {"type": "string"}}, "required": ["path"]}},
                {"name": "list_dir", "input_schema": {"type": "object", "properties": {}}}
            ],
            "messages": [
                {"role": "user", "content": [{"type": "text", "text": "Fix it."}]},
                {"role": "assistant", "content": [
                    {"type": "text", "text": "Looking."},
                    {"type": "tool_use", "id": "toolu_1", "name": "read_file", "input": {"path": "a.rs"}},
                    {"type": "tool_use", "id": "toolu_2", "name": "list_dir", "input": {}}]},
                {"role": "user", "content": [
                    {"type": "tool_result", "tool_use_id": "toolu_1", "content": "fn a() {}"},
                    {"type": "tool_result", "tool_use_id": "toolu_2", "content": "a.rs\nb.rs"}]}
            ]
        })
    );
}

/// By default the stable prefix is marked for prompt caching: the last tool, the system
/// prompt (as a marked text block) and the last block of the last message (the previous
/// call's end, the user turn before the last assistant turn, is the first message here).
#[tokio::test]
async fn the_stable_prefix_is_marked_for_prompt_caching_unless_turned_off() {
    let sent = sent_for(spec).await;
    let eph = json!({"type": "ephemeral"});
    assert_eq!(sent["tools"][1]["cache_control"], eph, "{sent}");
    assert!(sent["tools"][0].get("cache_control").is_none());
    assert_eq!(
        sent["system"],
        json!([{"type": "text", "text": "You fix code.", "cache_control": eph}])
    );
    let msgs = sent["messages"].as_array().unwrap();
    assert_eq!(msgs[2]["content"][1]["cache_control"], eph);
    assert!(msgs[2]["content"][0].get("cache_control").is_none());
    assert_eq!(msgs[0]["content"][0]["cache_control"], eph);
    let marks = sent.to_string().matches("cache_control").count();
    assert_eq!(marks, 4, "at most four breakpoints: {sent}");
    // Off: the same body without a single mark.
    let off = sent_for(|s| spec(s).replacen("anthropic:", "anthropic[cache=off]:", 1)).await;
    assert!(!off.to_string().contains("cache_control"), "{off}");
}

#[tokio::test]
async fn record_then_replay_works_unchanged_keyed_by_the_agents_request() {
    let server = serving(vec![sse("tool_split.sse")]).await;
    let work = tempfile::tempdir().unwrap();
    let cassette = work.path().join("cassette");
    let rec = tempfile::tempdir().unwrap();
    let gw = start(
        rec.path(),
        &format!("record:{}:{}", cassette.display(), spec(&server)),
    )
    .await;
    let (status, recorded) = chat_stream(gw.socket_path(), &request(true)).await;
    gw.shutdown().await;
    assert_eq!(status, 200);
    assert_eq!(received(&server).await, 1);
    // The cassette holds the agent's OpenAI-shaped request, not Anthropic's.
    let files: Vec<_> = std::fs::read_dir(&cassette).unwrap().collect();
    assert_eq!(files.len(), 1);
    let stored = std::fs::read_to_string(files[0].as_ref().unwrap().path()).unwrap();
    assert!(stored.contains("agent-label") && !stored.contains("input_schema"));

    let rep = tempfile::tempdir().unwrap();
    let gw = start(rep.path(), &format!("replay:{}", cassette.display())).await;
    let (status, replayed) = chat_stream(gw.socket_path(), &request(true)).await;
    gw.shutdown().await;
    assert_eq!(status, 200);
    assert_eq!(tool_calls(&replayed), tool_calls(&recorded));
    assert_eq!(received(&server).await, 1, "replay never calls Anthropic");
}

/// A history the agent forged (tool-call arguments that are not JSON) cannot be sent to
/// Anthropic: the agent gets a 400 saying where, Anthropic is never called, nothing retried.
#[tokio::test]
async fn an_untranslatable_history_is_the_agents_400_and_never_reaches_anthropic() {
    let server = serving(vec![sse("text.sse")]).await;
    let dir = tempfile::tempdir().unwrap();
    let gw = start(dir.path(), &spec(&server)).await;
    let mut req = request(false);
    req["messages"].as_array_mut().unwrap().push(json!({"role": "assistant", "tool_calls": [
        {"id": "x", "type": "function", "function": {"name": "read_file", "arguments": "{\"path\": "}}]}));
    let (status, body) = chat(gw.socket_path(), &req).await;
    gw.shutdown().await;
    assert_eq!(status, 400, "{body}");
    assert_eq!(body["error"]["code"], "invalid_request");
    let msg = body["error"]["message"].as_str().unwrap();
    assert!(
        msg.contains("messages[2].tool_calls[0].function.arguments"),
        "{msg}"
    );
    assert!(server.received_requests().await.unwrap().is_empty());
}

/// An answer past the gateway's cap on a provider's answer is an upstream error, not read
/// further (the cap applies to the whole event stream).
#[tokio::test]
async fn an_oversized_stream_is_cut_at_the_answer_cap() {
    let server = serving(vec![sse("tool_split.sse")]).await;
    let dir = tempfile::tempdir().unwrap();
    let mut o = ProviderOptions::default();
    o.env_overrides
        .insert("ANTHROPIC_API_KEY".into(), KEY.into());
    o.max_answer_bytes = Some(1024);
    let provider = build_provider(&spec(&server), &o).unwrap();
    let mut cfg = GatewayConfig::new(
        dir.path().join("llm.sock"),
        dir.path().join(nab_protocol::TRANSCRIPT_FILE),
    );
    cfg.policy = policy();
    let gw = Gateway::start(cfg, provider).await.unwrap();
    // The fixture arrives in one piece, past the cap before its first event: the agent
    // gets a JSON error, not a stream.
    let (status, err) = chat(gw.socket_path(), &request(true)).await;
    gw.shutdown().await;
    assert_eq!(status, 502, "{err}");
    assert_eq!(err["error"]["code"], "invalid_provider_response", "{err}");
    assert!(
        err["error"]["message"]
            .as_str()
            .unwrap()
            .contains("larger than 1024 bytes")
    );
}
