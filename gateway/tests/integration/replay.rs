//! Replay matching over the real gateway socket: a tool result whose timing changed is
//! answered and reported as drift; a real change is still a miss naming the difference;
//! a task's own pattern; cassettes recorded before normalization still replay; a cassette
//! from a newer nab asks to be re-recorded.

use crate::common;

use common::*;
use nab_gateway::Pattern;
use nab_gateway::{
    Budgets, Gateway, GatewayConfig, GatewayHandle, ProviderOptions, build_provider,
};
use serde_json::{Value, json};
use std::path::{Path, PathBuf};

async fn start(dir: &Path, spec: &str, opts: &ProviderOptions) -> GatewayHandle {
    let provider = build_provider(spec, opts).expect("provider");
    let mut cfg = GatewayConfig::new(
        dir.join("llm.sock"),
        dir.join(nab_protocol::TRANSCRIPT_FILE),
    );
    cfg.budgets = Budgets::default();
    Gateway::start(cfg, provider).await.expect("gateway starts")
}

/// A second-turn request: the model asked to run the tests, and this is their output.
fn after_tool(output: &str) -> Value {
    json!({
        "model": "agent-model",
        "stream": false,
        "messages": [
            {"role": "system", "content": "You are a coding agent."},
            {"role": "user", "content": "fix the bug"},
            {"role": "assistant", "content": "", "tool_calls": [{"id": "call_1", "type": "function",
                "function": {"name": "execute_command", "arguments": "{\"command\":\"python3 -m unittest\"}"}}]},
            {"role": "tool", "tool_call_id": "call_1", "content": output},
        ],
        "tools": [{"type": "function", "function": {"name": "execute_command", "parameters": {"type": "object"}}}],
    })
}

const RECORDED: &str = "..F\n----------------------------------------------------------------------\nRan 9 tests in 0.001s\n\nFAILED (failures=1)";

/// A cassette in a temporary folder, recorded and replayed with `opts`.
struct Cassette {
    root: tempfile::TempDir,
    path: PathBuf,
    opts: ProviderOptions,
}

impl Cassette {
    fn new(opts: ProviderOptions) -> Cassette {
        let root = tempfile::tempdir().unwrap();
        let path = root.path().join("cas");
        Cassette { root, path, opts }
    }

    /// Records `request` with a scripted model answering `answer`.
    async fn record(&self, request: &Value, answer: &str) {
        let traj = self.root.path().join("t.yaml");
        std::fs::write(&traj, format!("turns:\n  - content: {answer}\n")).unwrap();
        let rec = tempfile::tempdir().unwrap();
        let gw = start(
            rec.path(),
            &format!("record:{}:scripted:{}", self.path.display(), traj.display()),
            &self.opts,
        )
        .await;
        let (status, body) = chat(gw.socket_path(), request).await;
        assert_eq!(status, 200, "{body}");
        gw.shutdown().await;
    }
}

fn files(dir: &Path) -> Vec<std::path::PathBuf> {
    let mut v: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    v.sort();
    v
}

#[tokio::test]
async fn a_volatile_timing_in_a_tool_result_is_drift_not_a_miss() {
    let cas = Cassette::new(ProviderOptions::default());
    cas.record(&after_tool(RECORDED), "fixed").await;
    let (cassette, opts) = (&cas.path, &cas.opts);

    let rep = tempfile::tempdir().unwrap();
    let gw = start(rep.path(), &format!("replay:{}", cassette.display()), opts).await;
    // This machine is faster: the same run prints another timing.
    let faster = RECORDED.replace("0.001s", "0.000s");
    let (status, body) = chat(gw.socket_path(), &after_tool(&faster)).await;
    assert_eq!(status, 200, "answered, not a miss: {body}");
    assert_eq!(body["choices"][0]["message"]["content"], "fixed");
    // Exactly as recorded: no drift.
    let (status, _) = chat(gw.socket_path(), &after_tool(RECORDED)).await;
    assert_eq!(status, 200);
    // A real change in what the world reported (one test fewer) is still a miss, and it
    // names the difference in normalized form.
    let fewer = RECORDED.replace("Ran 9 tests", "Ran 8 tests");
    let (status, body) = chat(gw.socket_path(), &after_tool(&fewer)).await;
    gw.shutdown().await;
    assert_eq!(status, 400, "{body}");
    assert_eq!(body["error"]["code"], "replay_miss");
    let msg = body["error"]["message"].as_str().unwrap();
    assert!(msg.contains("messages[3].content"), "{msg}");
    assert!(
        msg.contains("-Ran 9 tests in <duration>") && msg.contains("+Ran 8 tests in <duration>"),
        "{msg}"
    );
    assert!(msg.contains("Re-record the cassette"), "{msg}");

    let lines = transcript(&rep.path().join(nab_protocol::TRANSCRIPT_FILE));
    assert_eq!(lines.len(), 3);
    assert_eq!(
        lines[0].replay_drift.as_deref(),
        Some("messages[3].content: `Ran 9 tests in 0.001s` → `Ran 9 tests in 0.000s`")
    );
    assert_eq!(lines[0].error, None);
    assert_eq!(lines[1].replay_drift, None, "an exact match is not drift");
    assert_eq!(lines[2].replay_drift, None);
    assert_eq!(lines[2].error_code.as_deref(), Some("replay_miss"));
}

#[tokio::test]
async fn recording_again_with_another_timing_replaces_the_entry() {
    let cas = Cassette::new(ProviderOptions::default());
    cas.record(&after_tool(RECORDED), "first").await;
    let later = RECORDED.replace("0.001s", "0.250s");
    cas.record(&after_tool(&later), "second").await;
    let f = files(&cas.path);
    assert_eq!(f.len(), 1, "same key under normalization: {f:?}");
    let entry: Value = serde_json::from_str(&std::fs::read_to_string(&f[0]).unwrap()).unwrap();
    assert_eq!(entry["v"], 2);
    assert_eq!(entry["request"]["messages"][3]["content"], later.as_str());
    assert_eq!(entry["responses"].as_array().unwrap().len(), 1);
}

#[tokio::test]
async fn a_task_pattern_normalizes_what_the_builtins_do_not() {
    let cas = Cassette::new(ProviderOptions {
        normalize: vec![Pattern {
            pattern: r"random seed \d+".into(),
            replace: "random seed <seed>".into(),
        }],
        ..Default::default()
    });
    let out = |seed: u32| format!("random seed {seed}\nOK");
    cas.record(&after_tool(&out(1234)), "done").await;
    let (cassette, opts) = (&cas.path, &cas.opts);
    let spec = format!("replay:{}", cassette.display());
    let rep = tempfile::tempdir().unwrap();
    let gw = start(rep.path(), &spec, opts).await;
    let (status, body) = chat(gw.socket_path(), &after_tool(&out(99))).await;
    gw.shutdown().await;
    assert_eq!(status, 200, "{body}");
    // Without the task's pattern the seed is a real difference.
    let rep = tempfile::tempdir().unwrap();
    let gw = start(rep.path(), &spec, &ProviderOptions::default()).await;
    let (status, _) = chat(gw.socket_path(), &after_tool(&out(99))).await;
    gw.shutdown().await;
    assert_eq!(status, 400);
    // A bad pattern is refused when the provider is built, naming it.
    let bad = ProviderOptions {
        normalize: vec![Pattern {
            pattern: "(".into(),
            replace: String::new(),
        }],
        ..Default::default()
    };
    let e = build_provider(&spec, &bad)
        .err()
        .expect("refused")
        .to_string();
    assert!(
        e.contains("replay_normalize[0]") && e.contains("invalid pattern"),
        "{e}"
    );
}

#[tokio::test]
async fn a_version_1_cassette_still_replays_and_a_newer_one_asks_for_a_rerecord() {
    let root = tempfile::tempdir().unwrap();
    let cassette = root.path().join("cas");
    std::fs::create_dir_all(&cassette).unwrap();
    // Version 1 keyed the raw request: its file name is the hash without normalization.
    let mut request = after_tool(RECORDED);
    request.as_object_mut().unwrap().remove("stream");
    let raw_key = {
        use sha2::{Digest, Sha256};
        hex::encode(Sha256::digest(
            nab_gateway::canonical_json(&request).as_bytes(),
        ))
    };
    let entry = json!({"v": 1, "key": raw_key, "request": request,
        "responses": [{"kind": "json", "status": 200, "body": completion("from v1", 5, 1)}]});
    std::fs::write(
        cassette.join(format!("{raw_key}.json")),
        serde_json::to_string_pretty(&entry).unwrap(),
    )
    .unwrap();
    let spec = format!("replay:{}", cassette.display());
    let rep = tempfile::tempdir().unwrap();
    let gw = start(rep.path(), &spec, &ProviderOptions::default()).await;
    let faster = RECORDED.replace("0.001s", "0.000s");
    let (status, body) = chat(gw.socket_path(), &after_tool(&faster)).await;
    gw.shutdown().await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["choices"][0]["message"]["content"], "from v1");

    let mut newer = entry.clone();
    newer["v"] = json!(3);
    std::fs::write(
        cassette.join(format!("{raw_key}.json")),
        serde_json::to_string_pretty(&newer).unwrap(),
    )
    .unwrap();
    let e = build_provider(&spec, &ProviderOptions::default())
        .err()
        .expect("refused")
        .to_string();
    assert!(
        e.contains("cassette version 3") && e.contains("re-record"),
        "{e}"
    );
}
