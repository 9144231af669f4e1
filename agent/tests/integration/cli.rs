//! The `nab-agent` binary as the harness starts it: a Unix-socket base URL, an instruction
//! file, an events file and a state folder, with secrets in its own environment.

use crate::support;

use std::process::Command;

use serde_json::json;
use support::{ScriptedServer, call, say, tool_messages, tools};

const BIN: &str = env!("CARGO_BIN_EXE_nab-agent");

#[tokio::test(flavor = "multi_thread")]
async fn the_binary_runs_a_task_over_a_unix_socket_and_children_see_no_secrets() {
    let dir = tempfile::tempdir().unwrap();
    let ws = dir.path().join("workspace");
    std::fs::create_dir_all(&ws).unwrap();
    std::fs::write(ws.join("AGENT.md"), "Always run the tests.\n").unwrap();
    std::fs::write(
        dir.path().join("instruction.md"),
        "Create hello.txt saying hi.",
    )
    .unwrap();
    let sock = dir.path().join("llm.sock");
    let server = ScriptedServer::start_unix(
        vec![
            tools(vec![call(
                "write_file",
                json!({"path": "hello.txt", "content": "hi\n"}),
            )]),
            tools(vec![call("execute_command", json!({"argv": ["env"]}))]),
            say("Created hello.txt."),
        ],
        &sock,
    )
    .await;
    let events = dir.path().join("out/events.jsonl");
    let state = dir.path().join("out/state");
    let mut agent = support::agent_run(&ws, &server.base_url, &state);
    agent
        .arg("--instruction-file")
        .arg(dir.path().join("instruction.md"))
        .args(["--max-steps", "10"])
        .arg("--events")
        .arg(&events)
        .env("OPENAI_API_KEY", "sk-cli-secret-1")
        .env("DEPLOY_TOKEN", "tok-cli-secret-2")
        .env("DB_PASSWORD", "pw-cli-secret-3");
    support::run_to_success(agent).await;
    assert_eq!(
        std::fs::read_to_string(ws.join("hello.txt")).unwrap(),
        "hi\n"
    );
    assert!(state.is_dir(), "--state-dir is created");

    let reqs = server.recorder.requests();
    assert_eq!(reqs.len(), 3);
    // The key reached the gateway as a bearer token…
    assert_eq!(
        server.recorder.auth.lock().unwrap()[0].as_deref(),
        Some("Bearer sk-cli-secret-1")
    );
    // …but never a child process.
    let env_out = &tool_messages(&reqs[2])[1].1;
    assert!(
        env_out.starts_with("exit code: 0") && env_out.contains("PATH="),
        "{env_out}"
    );
    for secret in ["sk-cli-secret-1", "tok-cli-secret-2", "pw-cli-secret-3"] {
        assert!(
            !env_out.contains(secret),
            "{secret} leaked to a child: {env_out}"
        );
    }
    // The instruction and AGENT.md reached the model.
    assert_eq!(
        reqs[0]["messages"][1]["content"],
        "Create hello.txt saying hi."
    );
    assert!(
        reqs[0]["messages"][0]["content"]
            .as_str()
            .unwrap()
            .ends_with("Always run the tests.\n")
    );

    let ev = support::read_events(&events);
    assert_eq!(ev.first().unwrap()["kind"], "start");
    assert_eq!(ev.last().unwrap()["exit_reason"], "final_answer");
}

#[test]
fn bad_arguments_fail_fast_with_a_clear_message() {
    let dir = tempfile::tempdir().unwrap();
    let out = Command::new(BIN)
        .args(["run", "--workspace"])
        .arg(dir.path())
        .args([
            "--instruction",
            "x",
            "--base-url",
            "ftp://nope",
            "--model",
            "m",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("invalid --base-url `ftp://nope`"), "{err}");

    let out = Command::new(BIN)
        .args([
            "run",
            "--workspace",
            "/nonexistent-nab-ws",
            "--instruction",
            "x",
            "--base-url",
            "http://127.0.0.1:9",
            "--model",
            "m",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&out.stderr)
            .contains("--workspace /nonexistent-nab-ws is not a folder")
    );

    let out = Command::new(BIN)
        .args(["run", "--workspace"])
        .arg(dir.path())
        .args(["--base-url", "http://127.0.0.1:9", "--model", "m"])
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(2),
        "clap refuses a missing instruction"
    );
}

#[test]
fn an_unreachable_model_ends_with_exit_reason_error_in_the_events() {
    let dir = tempfile::tempdir().unwrap();
    let events = dir.path().join(nab_protocol::EVENTS_FILE);
    let out = Command::new(BIN)
        .args(["run", "--workspace"])
        .arg(dir.path())
        .args(["--instruction", "x", "--base-url"])
        .arg(format!("unix://{}/missing.sock", dir.path().display()))
        .args(["--model", "m", "--events"])
        .arg(&events)
        .env("NAB_LOG", "error")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let ev = support::read_events(&events);
    let finish = ev.last().unwrap();
    assert_eq!(finish["exit_reason"], "error");
    assert!(
        finish["message"].as_str().unwrap().contains("missing.sock"),
        "{finish}"
    );
}
