//! The official Python client libraries (`anthropic` and `openai` from PyPI, pinned in
//! ci/python-clients.txt and installed by ci/python-clients.sh) as the agent: each holds a
//! tool-using conversation through the gateway's Unix socket, whole and streamed with the
//! library's own stream helpers, against each kind of upstream, so both directions of
//! translation are run by a real client. The counts each library reports are the
//! upstream's.

use super::start;
use super::upstream::{CACHED, CALL_ID, FINAL_TEXT, FRESH, OUTPUT, TOOL, Upstream, call_args};
use nab_gateway::Budgets;
use serde_json::{Value, json};
use std::path::{Path, PathBuf};
use std::process::Command;

/// The virtual environment ci/python-clients.sh makes, or `NAB_PYTHON_CLIENTS` (a Python
/// interpreter that can import both libraries).
fn python() -> PathBuf {
    let p = std::env::var_os("NAB_PYTHON_CLIENTS").map_or_else(
        || Path::new(env!("CARGO_MANIFEST_DIR")).join("../target/pyclients/bin/python"),
        PathBuf::from,
    );
    assert!(
        p.exists(),
        "{} not found: run ci/python-clients.sh (it installs the pinned openai and anthropic Python packages in target/pyclients), or set NAB_PYTHON_CLIENTS to a Python that has them",
        p.display()
    );
    p
}

fn script() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/python/gateway_clients.py")
}

/// Runs `client` through a gateway to a mock `up`; the turns it reported.
async fn converse(client: &'static str, up: Upstream, stream: bool) -> Vec<Value> {
    let server = up.serve(stream).await;
    let dir = tempfile::tempdir().unwrap();
    let gw = start(dir.path(), &up.spec(&server), Budgets::default()).await;
    let sock = gw.socket_path().to_owned();
    let mode = if stream { "stream" } else { "whole" };
    let (py, script) = (python(), script());
    let out = tokio::task::spawn_blocking(move || {
        Command::new(py)
            .arg(script)
            .arg(&sock)
            .arg(client)
            .arg(mode)
            .output()
    })
    .await
    .unwrap()
    .expect("run python");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{client} ({mode}, {up:?}) failed: {}\n{stdout}",
        String::from_utf8_lossy(&out.stderr)
    );
    let m = gw.shutdown().await;
    assert_eq!(m.llm_calls, 2, "{client} {mode} {up:?}");
    assert_eq!(m.input_tokens, 2 * (FRESH + CACHED));
    assert_eq!(server.received_requests().await.unwrap().len(), 2);
    stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// The counts as each library names them: the upstream's, in that API's terms.
fn usage_is_the_upstreams(client: &str, u: &Value) {
    let n = |k: &str| {
        u[k].as_u64()
            .unwrap_or_else(|| panic!("{client}: no {k} in {u}"))
    };
    match client {
        "anthropic" => {
            assert_eq!(n("input_tokens"), FRESH, "{u}");
            assert_eq!(n("cache_read_input_tokens"), CACHED, "{u}");
            assert_eq!(n("output_tokens"), OUTPUT, "{u}");
        }
        "responses" => {
            assert_eq!(n("input_tokens"), FRESH + CACHED, "{u}");
            assert_eq!(u["input_tokens_details"]["cached_tokens"], CACHED, "{u}");
            assert_eq!(n("output_tokens"), OUTPUT, "{u}");
            assert_eq!(n("total_tokens"), FRESH + CACHED + OUTPUT, "{u}");
        }
        _ => {
            assert_eq!(n("prompt_tokens"), FRESH + CACHED, "{u}");
            assert_eq!(n("completion_tokens"), OUTPUT, "{u}");
        }
    }
}

async fn each_way(client: &'static str) {
    for up in [Upstream::OpenAi, Upstream::Anthropic] {
        for stream in [false, true] {
            let turns = converse(client, up, stream).await;
            let case = format!("{client}, {up:?} upstream, stream {stream}: {turns:?}");
            assert_eq!(turns.len(), 2, "{case}");
            assert_eq!(
                turns[0]["calls"],
                json!([[CALL_ID, TOOL, call_args()]]),
                "{case}"
            );
            assert_eq!(turns[0]["text"], "Reading.", "{case}");
            assert_eq!(turns[1]["calls"], json!([]), "{case}");
            assert_eq!(turns[1]["text"], FINAL_TEXT, "{case}");
            for t in &turns {
                usage_is_the_upstreams(client, &t["usage"]);
            }
        }
    }
}

#[tokio::test]
async fn python_anthropic_client_through_the_gateway() {
    each_way("anthropic").await;
}

#[tokio::test]
async fn python_openai_responses_client_through_the_gateway() {
    each_way("responses").await;
}

#[tokio::test]
async fn python_openai_chat_client_through_the_gateway() {
    each_way("chat").await;
}
