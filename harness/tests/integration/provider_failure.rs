//! A provider that fails is an infrastructure error naming it, never the model's answer and
//! never the agent's failure: against real Docker, nab-agent talks through the gateway to a
//! server that answers every request with HTTP 200 and an empty stream (what
//! llama-cpp-python 0.3.36 does to a streamed request with `tool_choice`).

use crate::common;

use nab_protocol::{ErrorKind, TrialRecord, TrialStatus};
use std::process::Command;
use wiremock::matchers::method;
use wiremock::{Mock, MockServer, ResponseTemplate};

#[tokio::test(flavor = "multi_thread")]
async fn an_empty_stream_after_retries_is_a_provider_error_naming_it() {
    common::nab_agent_ready().await;

    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .respond_with(ResponseTemplate::new(200).set_body_raw("", "text/event-stream"))
        .mount(&server)
        .await;
    let spec = format!("openai:broken-model@{}/v1", server.uri());
    let out = tempfile::tempdir().unwrap();
    let o = Command::new(env!("CARGO_BIN_EXE_nab"))
        .args([
            "run",
            "--run-id",
            "dialect-provider-fault",
            "--attempts",
            "1",
            "--max-retries",
            "3",
        ])
        .args(["--tasks"])
        .arg(common::repo_tasks())
        .args(["--agent", "nab-agent", "--model", &spec, "--out"])
        .arg(out.path())
        .arg("term-log-report")
        .env("NAB_API_KEY", "unused-by-the-mock")
        .output()
        .unwrap();
    let records: Vec<TrialRecord> =
        nab_protocol::read_jsonl::<TrialRecord>(&out.path().join(nab_protocol::RESULTS_FILE))
            .unwrap_or_else(|e| {
                panic!(
                    "{e}\n{}\n{}",
                    String::from_utf8_lossy(&o.stdout),
                    String::from_utf8_lossy(&o.stderr)
                )
            })
            .records;
    assert_eq!(records.len(), 1);
    let r = &records[0];
    assert_eq!(r.outcome.status, TrialStatus::Error, "{r:?}");
    assert_eq!(r.outcome.error_kind, Some(ErrorKind::Provider), "{r:?}");
    assert!(
        r.outcome.failure_reason.is_none(),
        "not the agent's failure: {r:?}"
    );
    let error = r.outcome.error.as_deref().unwrap();
    assert!(
        error.contains(&spec) && error.contains("stream_truncated"),
        "the error names the provider and the fault: {error}"
    );
    // The gateway asked 1 + 3 times; nab-agent did not multiply that.
    assert_eq!(server.received_requests().await.unwrap().len(), 4);
    let transcript = out
        .path()
        .join("trials/term-log-report")
        .read_dir()
        .unwrap()
        .next()
        .unwrap()
        .unwrap()
        .path()
        .join(nab_protocol::TRANSCRIPT_FILE);
    let lines = nab_protocol::read_jsonl::<nab_protocol::TranscriptLine>(&transcript)
        .unwrap()
        .records;
    assert_eq!(lines.len(), 1);
    assert!(
        lines[0].response.is_none(),
        "nothing was taken for an answer"
    );
}

/// The first call of each attempt answers with a tool call and usage; every later call
/// fails with HTTP 500 (so the gateway's retries run out and the trial is a provider error).
struct FirstCallThenDown;

impl wiremock::Respond for FirstCallThenDown {
    fn respond(&self, req: &wiremock::Request) -> ResponseTemplate {
        let body: serde_json::Value = serde_json::from_slice(&req.body).unwrap_or_default();
        let answered_a_tool = body["messages"]
            .as_array()
            .is_some_and(|m| m.iter().any(|m| m["role"] == "tool"));
        if answered_a_tool {
            return ResponseTemplate::new(500).set_body_string("down");
        }
        ResponseTemplate::new(200).set_body_json(serde_json::json!({
            "id": "c1", "object": "chat.completion", "created": 0, "model": "m",
            "choices": [{"index": 0, "finish_reason": "tool_calls", "message": {
                "role": "assistant", "content": null,
                "tool_calls": [{"id": "call_1", "type": "function",
                    "function": {"name": "list_dir", "arguments": "{\"path\": \".\"}"}}]}}],
            "usage": {"prompt_tokens": 1000, "completion_tokens": 100, "total_tokens": 1100}
        }))
    }
}

/// A retried trial's `cost_usd` is what every attempt spent, not only the last: two
/// attempts, each one priced call (1000 + 100 tokens at USD 1000 per million: 1.1) before
/// the provider went down, cost 2.2.
#[tokio::test(flavor = "multi_thread")]
async fn a_retried_trial_costs_what_every_attempt_spent() {
    common::nab_agent_ready().await;
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .respond_with(FirstCallThenDown)
        .mount(&server)
        .await;
    let spec = format!("openai[stream=off]:priced@{}/v1", server.uri());
    let root = tempfile::tempdir().unwrap();
    let prices = common::prices(
        root.path(),
        "prices:\n  - {model: priced, input: 1000, cached_input: 1000, output: 1000}\n",
    );
    let (run_id, _sweep, out) = common::run_slot(root.path(), "retried-cost");
    let o = Command::new(env!("CARGO_BIN_EXE_nab"))
        .args([
            "run",
            "--run-id",
            &run_id,
            "--attempts",
            "2",
            "--max-retries",
            "1",
            "--tasks",
        ])
        .arg(common::repo_tasks())
        .args(["--agent", "nab-agent", "--model", &spec, "--prices"])
        .arg(&prices)
        .arg("--out")
        .arg(&out)
        .arg("term-log-report")
        .env("NAB_API_KEY", "unused-by-the-mock")
        .output()
        .unwrap();
    let show = format!(
        "{}\n{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
    let records = nab_protocol::read_jsonl::<TrialRecord>(&out.join(nab_protocol::RESULTS_FILE))
        .unwrap_or_else(|e| panic!("{e}\n{show}"))
        .records;
    assert_eq!(records.len(), 1, "{show}");
    let r = &records[0];
    assert_eq!(
        (r.outcome.status, r.outcome.error_kind, r.outcome.attempts),
        (TrialStatus::Error, Some(ErrorKind::Provider), 2),
        "{r:?}"
    );
    let cost = r.usage.cost_usd.expect("the attempts' cost is recorded");
    assert!((cost - 2.2).abs() < 1e-9, "{cost}: {r:?}");
}

/// Issue 35: a provider that refuses the run's configuration — a bad key (401), a model it
/// does not know (404) — stops the run with one line quoting the provider, and no trial is
/// scored (before, every trial ended `failed` and the model showed 0%).
async fn a_refusing_provider_stops_the_run(status: u16, body: serde_json::Value, quote: &str) {
    common::nab_agent_ready().await;
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .respond_with(ResponseTemplate::new(status).set_body_json(body))
        .mount(&server)
        .await;
    let spec = format!("openai:no-such-model@{}/v1", server.uri());
    let out = tempfile::tempdir().unwrap();
    let o = Command::new(env!("CARGO_BIN_EXE_nab"))
        .args(["run", "--run-id", &format!("provider-config-{status}")])
        .args(["--tasks"])
        .arg(common::repo_tasks())
        .args(["--agent", "nab-agent", "--model", &spec, "--out"])
        .arg(out.path())
        .args(["term-log-report", "py-pagination-offbyone"])
        .env("NAB_API_KEY", "sk-wrong-key-for-the-mock")
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&o.stderr);
    let show = format!("{}\n{stderr}", String::from_utf8_lossy(&o.stdout));
    assert_eq!(o.status.code(), Some(2), "bad input, not a result: {show}");
    let line = stderr
        .lines()
        .find(|l| l.contains("the run stopped"))
        .unwrap_or_else(|| panic!("one line says why: {show}"));
    assert!(
        line.contains(&format!("HTTP {status}")) && line.contains(quote),
        "the line quotes the provider: {line}"
    );
    assert!(!line.contains("sk-wrong-key"), "never the key: {line}");
    // Nothing was scored: no record at all (--resume runs the trials after the fix).
    let results = out.path().join(nab_protocol::RESULTS_FILE);
    let records = if results.exists() {
        nab_protocol::read_jsonl::<TrialRecord>(&results)
            .unwrap()
            .records
    } else {
        Vec::new()
    };
    assert!(records.is_empty(), "{records:?}\n{show}");
    // The first refusal stopped it: not every trial's attempts ran into the provider.
    let calls = server.received_requests().await.unwrap().len();
    assert!(
        calls <= 2,
        "{calls} calls: the run did not stop early\n{show}"
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn a_bad_key_401_stops_the_run_with_the_providers_message_and_scores_nothing() {
    a_refusing_provider_stops_the_run(
        401,
        serde_json::json!({"error": {"message": "Incorrect API key provided: sk-wron***************mock", "type": "invalid_request_error", "code": "invalid_api_key"}}),
        "Incorrect API key provided",
    )
    .await;
}

#[tokio::test(flavor = "multi_thread")]
async fn an_unknown_model_404_stops_the_run_with_the_providers_message_and_scores_nothing() {
    a_refusing_provider_stops_the_run(
        404,
        serde_json::json!({"error": {"message": "The model `no-such-model` does not exist or you do not have access to it.", "type": "invalid_request_error", "code": "model_not_found"}}),
        "The model `no-such-model` does not exist",
    )
    .await;
}
