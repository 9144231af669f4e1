//! A provider that fails is an infrastructure error naming it, never the model's answer and
//! never the agent's failure: against real Docker, nab-agent talks through the gateway to a
//! server that answers every request with HTTP 200 and an empty stream (what
//! llama-cpp-python 0.3.36 does to a streamed request with `tool_choice`).

use crate::common;

use nab_protocol::trial::{ErrorKind, TrialRecord, TrialStatus};
use std::path::Path;
use std::process::Command;
use wiremock::matchers::method;
use wiremock::{Mock, MockServer, ResponseTemplate};

#[tokio::test(flavor = "multi_thread")]
async fn an_empty_stream_after_retries_is_a_provider_error_naming_it() {
    common::base_image().await;
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let built = Command::new(cargo)
        .args(["build", "-p", "nab-agent"])
        .current_dir(Path::new(env!("CARGO_MANIFEST_DIR")).join(".."))
        .status()
        .expect("cargo");
    assert!(built.success(), "cargo build -p nab-agent failed");

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
        nab_protocol::read_jsonl::<TrialRecord>(&out.path().join("results.jsonl"))
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
    assert_eq!(r.status, TrialStatus::Error, "{r:?}");
    assert_eq!(r.error_kind, Some(ErrorKind::Provider), "{r:?}");
    assert!(r.failure_reason.is_none(), "not the agent's failure: {r:?}");
    let error = r.error.as_deref().unwrap();
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
        .join("transcript.jsonl");
    let lines = nab_protocol::read_jsonl::<nab_protocol::transcript::TranscriptLine>(&transcript)
        .unwrap()
        .records;
    assert_eq!(lines.len(), 1);
    assert!(
        lines[0].response.is_none(),
        "nothing was taken for an answer"
    );
}
