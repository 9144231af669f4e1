//! The agent speaking each API the gateway serves — OpenAI chat completions, Anthropic
//! Messages, OpenAI Responses — over the real Unix socket, to each kind of upstream
//! (wiremock standing in for an OpenAI-compatible server and for Anthropic), whole and
//! streamed: a tool call, then its result sent back and the final text; the token counts
//! the agent reads and the transcript holds are the upstream's; budgets, refusals, the
//! transcript and replay work the same whatever API the agent speaks.

mod agent;
mod failures;
mod python_clients;
mod upstream;

use crate::common::{send, transcript};
use agent::{Api, RESULT};
use http_body_util::BodyExt;
use nab_gateway::{
    Budgets, Gateway, GatewayConfig, GatewayHandle, ProviderOptions, build_provider,
};
use serde_json::{Value, json};
use std::path::Path;
use upstream::{CACHED, CALL_ID, FINAL_TEXT, FRESH, OUTPUT, TOOL, Upstream, call_args};

fn opts() -> ProviderOptions {
    let mut o = ProviderOptions::default();
    o.env_overrides
        .insert("NAB_API_KEY".into(), "sk-test".into());
    o.env_overrides
        .insert("ANTHROPIC_API_KEY".into(), "sk-ant-test".into());
    o
}

async fn start(dir: &Path, spec: &str, budgets: Budgets) -> GatewayHandle {
    let provider = build_provider(spec, &opts()).expect("provider");
    let mut cfg = GatewayConfig::new(
        dir.join("llm.sock"),
        dir.join(nab_protocol::TRANSCRIPT_FILE),
    );
    cfg.budgets = budgets;
    Gateway::start(cfg, provider).await.expect("gateway starts")
}

/// POSTs `body` at `path`; the status and the body as text.
async fn post(sock: &Path, path: &str, body: &Value) -> (u16, String) {
    let resp = send(sock, "POST", path, Some(body)).await;
    let status = resp.status().as_u16();
    let bytes = resp.into_body().collect().await.unwrap().to_bytes();
    (status, String::from_utf8_lossy(&bytes).into_owned())
}

/// One turn of the conversation in `api`: what the agent read.
async fn turn(sock: &Path, api: Api, stream: bool, answered: bool) -> agent::Read {
    let (status, text) = post(sock, api.path(), &api.request(stream, answered)).await;
    assert_eq!(status, 200, "{api:?}: {text}");
    if stream {
        api.read_stream(&text)
    } else {
        api.read(&serde_json::from_str(&text).unwrap())
    }
}

/// The stop reason `api` gives a tool call and a finished answer.
fn stops(api: Api) -> (&'static str, &'static str) {
    match api {
        Api::Chat => ("tool_calls", "stop"),
        Api::Messages => ("tool_use", "end_turn"),
        Api::Responses => ("completed", "completed"),
    }
}

/// The tool-using conversation in `api` through the gateway to `up`, checked end to end.
async fn round_trip(api: Api, up: Upstream, stream: bool) {
    let server = up.serve(stream).await;
    let dir = tempfile::tempdir().unwrap();
    let gw = start(dir.path(), &up.spec(&server), Budgets::default()).await;
    let case = format!("{api:?} agent, {up:?} upstream, stream {stream}");

    let first = turn(gw.socket_path(), api, stream, false).await;
    let call = (CALL_ID.to_owned(), TOOL.to_owned(), call_args());
    assert_eq!(first.call, Some(call), "{case}");
    assert_eq!(first.text, "Reading.", "{case}");
    assert_eq!(first.stop, stops(api).0, "{case}");
    // The upstream's counts, whichever shape either side gives them in.
    let counts = |r: &agent::Read| (r.prompt, r.cached, r.output);
    assert_eq!(counts(&first), (FRESH + CACHED, CACHED, OUTPUT), "{case}");

    let second = turn(gw.socket_path(), api, stream, true).await;
    assert_eq!(second.text, FINAL_TEXT, "{case}");
    assert_eq!(second.call, None, "{case}");
    assert_eq!(second.stop, stops(api).1, "{case}");
    assert_eq!(counts(&second), (FRESH + CACHED, CACHED, OUTPUT), "{case}");

    let got = server.received_requests().await.unwrap();
    assert_eq!(got.len(), 2, "{case}");
    up.assert_tool_result_sent(&got[1].body_json::<Value>().unwrap(), RESULT);

    let m = gw.shutdown().await;
    assert_eq!(m.llm_calls, 2, "{case}");
    assert_eq!(
        (m.input_tokens, m.cached_tokens, m.output_tokens),
        (2 * (FRESH + CACHED), 2 * CACHED, 2 * OUTPUT),
        "{case}"
    );
    let lines = transcript(&dir.path().join(nab_protocol::TRANSCRIPT_FILE));
    assert_eq!(lines.len(), 2, "{case}");
    let spoken = match api {
        Api::Chat => "chat_completions",
        Api::Messages => "messages",
        Api::Responses => "responses",
    };
    for l in &lines {
        assert_eq!(l.stream, stream, "{case}");
        assert_eq!(l.api.as_deref(), Some(spoken), "{case}");
        assert_eq!(l.usage.unwrap().prompt_tokens, FRESH + CACHED, "{case}");
        assert!(l.error.is_none(), "{case}: {:?}", l.error);
    }
    // The transcript holds the canonical (chat-completions) form of what the agent sent.
    let tool = lines[1].request["messages"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["role"] == "tool")
        .cloned();
    assert_eq!(
        tool,
        Some(json!({"role": "tool", "tool_call_id": CALL_ID, "content": RESULT})),
        "{case}"
    );
}

async fn both_ways(api: Api, up: Upstream) {
    round_trip(api, up, false).await;
    round_trip(api, up, true).await;
}

#[tokio::test]
async fn chat_agent_to_openai_and_anthropic() {
    both_ways(Api::Chat, Upstream::OpenAi).await;
    both_ways(Api::Chat, Upstream::Anthropic).await;
}

#[tokio::test]
async fn messages_agent_to_openai_upstream() {
    both_ways(Api::Messages, Upstream::OpenAi).await;
}

#[tokio::test]
async fn messages_agent_to_anthropic_upstream() {
    both_ways(Api::Messages, Upstream::Anthropic).await;
}

#[tokio::test]
async fn responses_agent_to_openai_upstream() {
    both_ways(Api::Responses, Upstream::OpenAi).await;
}

#[tokio::test]
async fn responses_agent_to_anthropic_upstream() {
    both_ways(Api::Responses, Upstream::Anthropic).await;
}

/// A call over the budget is refused in the agent's API, and never reaches the upstream.
#[tokio::test]
async fn budgets_refuse_in_the_agents_api() {
    for api in [Api::Messages, Api::Responses] {
        let server = Upstream::OpenAi.serve(false).await;
        let dir = tempfile::tempdir().unwrap();
        let budgets = Budgets {
            llm_calls: Some(1),
            ..Budgets::default()
        };
        let gw = start(dir.path(), &Upstream::OpenAi.spec(&server), budgets).await;
        turn(gw.socket_path(), api, false, false).await;
        let (status, text) = post(gw.socket_path(), api.path(), &api.request(false, true)).await;
        assert_eq!(status, 429, "{api:?}: {text}");
        let body: Value = serde_json::from_str(&text).unwrap();
        match api {
            Api::Messages => {
                assert_eq!(body["type"], "error", "{body}");
                assert_eq!(body["error"]["type"], "rate_limit_error", "{body}");
                assert!(
                    body["error"]["message"]
                        .as_str()
                        .unwrap()
                        .contains("llm_calls"),
                    "{body}"
                );
            }
            _ => assert_eq!(body["error"]["code"], "llm_calls", "{body}"),
        }
        assert_eq!(server.received_requests().await.unwrap().len(), 1);
        let m = gw.shutdown().await;
        assert_eq!(m.budget_exceeded.as_deref(), Some("llm_calls"), "{api:?}");
    }
}

/// What has no chat-completions form is refused with the API's own error shape, saying
/// what and where; the refusal is recorded and nothing reaches the upstream.
#[tokio::test]
async fn malformed_requests_get_the_apis_error_shape() {
    let server = Upstream::Anthropic.serve(false).await;
    let dir = tempfile::tempdir().unwrap();
    let gw = start(
        dir.path(),
        &Upstream::Anthropic.spec(&server),
        Budgets::default(),
    )
    .await;
    let sock = gw.socket_path();
    let cases = [
        (
            Api::Messages,
            json!({"model": "c", "max_tokens": 5, "messages": [{"role": "user", "content": [{"type": "document", "source": {}}]}]}),
            "messages[0].content[0].type",
        ),
        (
            Api::Messages,
            json!({"model": "c", "messages": []}),
            "max_tokens",
        ),
        (
            Api::Messages,
            json!({"model": "c", "max_tokens": 5, "messages": [], "tools": [{"type": "web_search_20250305", "name": "web_search"}]}),
            "tools[0].type",
        ),
        (
            Api::Responses,
            json!({"model": "g", "input": "hi", "previous_response_id": "resp_1"}),
            "previous_response_id",
        ),
        (
            Api::Responses,
            json!({"model": "g", "input": [{"type": "function_call_output", "output": "x"}]}),
            "input[0].call_id",
        ),
    ];
    for (api, body, param) in &cases {
        let (status, text) = post(sock, api.path(), body).await;
        assert_eq!(status, 400, "{text}");
        let v: Value = serde_json::from_str(&text).unwrap();
        let message = v["error"]["message"].as_str().unwrap();
        assert!(message.contains(param), "{api:?}: {message}");
        match api {
            Api::Messages => {
                assert_eq!(v["type"], "error");
                assert_eq!(v["error"]["type"], "invalid_request_error");
            }
            _ => assert_eq!(v["error"]["param"], *param),
        }
    }
    // Not JSON at all: still the API's shape.
    let resp = send(sock, "POST", "/v1/messages", None).await;
    assert_eq!(resp.status().as_u16(), 400);
    let v: Value =
        serde_json::from_slice(&resp.into_body().collect().await.unwrap().to_bytes()).unwrap();
    assert_eq!(v["type"], "error", "{v}");
    assert_eq!(server.received_requests().await.unwrap().len(), 0);
    let m = gw.shutdown().await;
    assert_eq!(m.refused_requests, cases.len() as u64 + 1);
}

/// The cassette key is the canonical chat form: a conversation recorded by an agent
/// speaking Messages replays to one speaking Responses.
#[tokio::test]
async fn a_recording_in_one_api_replays_to_another() {
    let same = |api: Api, answered: bool| {
        let mut r = api.request(false, answered);
        r["model"] = json!("agent-model");
        r.as_object_mut().unwrap().remove("tool_choice");
        r
    };
    let server = Upstream::Anthropic.serve(false).await;
    let root = tempfile::tempdir().unwrap();
    let cas = root.path().join("cas");
    let rec = root.path().join("rec");
    std::fs::create_dir_all(&rec).unwrap();
    let spec = format!(
        "record:{}:{}",
        cas.display(),
        Upstream::Anthropic.spec(&server)
    );
    let gw = start(&rec, &spec, Budgets::default()).await;
    for answered in [false, true] {
        let (status, text) = post(
            gw.socket_path(),
            "/v1/messages",
            &same(Api::Messages, answered),
        )
        .await;
        assert_eq!(status, 200, "{text}");
    }
    gw.shutdown().await;

    let play = root.path().join("play");
    std::fs::create_dir_all(&play).unwrap();
    let gw = start(
        &play,
        &format!("replay:{}", cas.display()),
        Budgets::default(),
    )
    .await;
    let (status, text) = post(
        gw.socket_path(),
        "/v1/responses",
        &same(Api::Responses, true),
    )
    .await;
    assert_eq!(status, 200, "{text}");
    let read = Api::Responses.read(&serde_json::from_str(&text).unwrap());
    assert_eq!(read.text, FINAL_TEXT);
    assert_eq!((read.prompt, read.output), (FRESH + CACHED, OUTPUT));
    gw.shutdown().await;
    assert_eq!(server.received_requests().await.unwrap().len(), 2);
}

/// `scripted:` serves every API, whole and streamed: its call, then its final text, with
/// the counts the transcript holds.
#[tokio::test]
async fn the_scripted_provider_serves_each_api() {
    let root = tempfile::tempdir().unwrap();
    let traj = root.path().join("trajectory.yaml");
    std::fs::write(
        &traj,
        format!("turns:\n  - content: Reading.\n    tool_calls:\n      - name: {TOOL}\n        arguments: {}\n  - content: {FINAL_TEXT}\n", call_args()),
    )
    .unwrap();
    for api in [Api::Chat, Api::Messages, Api::Responses] {
        for stream in [false, true] {
            let dir = tempfile::tempdir().unwrap();
            let spec = format!("scripted:{}", traj.display());
            let gw = start(dir.path(), &spec, Budgets::default()).await;
            let first = turn(gw.socket_path(), api, stream, false).await;
            let (_, name, args) = first.call.clone().expect("a call");
            assert_eq!((name.as_str(), args), (TOOL, call_args()), "{api:?}");
            let second = turn(gw.socket_path(), api, stream, true).await;
            assert_eq!(second.text, FINAL_TEXT, "{api:?} {stream}");
            gw.shutdown().await;
            let lines = transcript(&dir.path().join(nab_protocol::TRANSCRIPT_FILE));
            for (read, line) in [first, second].iter().zip(&lines) {
                let u = line.usage.unwrap();
                assert!(u.prompt_tokens > 0, "{api:?}");
                assert_eq!(
                    (read.prompt, read.output),
                    (u.prompt_tokens, u.completion_tokens),
                    "{api:?} {stream}"
                );
            }
        }
    }
}
