//! A trial's time limit counts the agent's own time, not the time its gateway waits for the
//! model (issue 35): against real Docker, a `command:` agent calls a provider that takes
//! 2 s per answer. Three calls (6 s with the model) and 1 s of its own fit a 4 s limit;
//! 6 s of its own do not, whatever the model did.

use crate::common;

use common::{copy_dir, repo_tasks, write, write_exec};
use nab_protocol::{SandboxExit, TrialRecord};
use std::path::Path;
use std::time::Duration;
use wiremock::matchers::method;
use wiremock::{Mock, MockServer, ResponseTemplate};

/// The agent: `calls` model calls, then `own` seconds of its own work, then an answer.
fn agent(calls: u32, own: u32) -> String {
    format!(
        "#!/usr/bin/env python3\n{}\nimport time\nfor _ in range({calls}):\n    post(json.dumps({{\"model\": \"m\", \"messages\": [{{\"role\": \"user\", \"content\": \"hi\"}}]}}).encode())\ntime.sleep({own})\nevents = [{{\"v\": 1, \"ts\": \"2026-01-01T00:00:00.000Z\", \"kind\": \"finish\", \"exit_reason\": \"final_answer\", \"steps\": {calls}}}]\nwith open(\"/nab/out/events.jsonl\", \"w\") as f:\n    f.write(\"\".join(json.dumps(e) + \"\\n\" for e in events))\n",
        crate::gateway_post_py!()
    )
}

async fn run(root: &Path, calls: u32, own: u32, server: &MockServer) -> (TrialRecord, String) {
    let suite = root.join("suite");
    let id = "term-log-report";
    copy_dir(&repo_tasks().join(id), &suite.join(id));
    let yaml = std::fs::read_to_string(suite.join(id).join("task.yaml")).unwrap();
    // Rewrite the agent's timeout: 4 s of its own, a 60 s wall-clock cap.
    let yaml: String = yaml
        .lines()
        .map(|l| {
            if l.trim_start().starts_with("timeouts:") {
                "timeouts: {agent_s: 4, verify_s: 120, agent_wall_s: 60}".to_owned()
            } else {
                l.to_owned()
            }
        })
        .collect::<Vec<_>>()
        .join("\n");
    write(&suite.join(id).join("task.yaml"), &(yaml + "\n"));
    let agent_file = root.join(format!("agent-{calls}-{own}.py"));
    write_exec(&agent_file, &agent(calls, own));
    let (run_id, _sweep, out) = common::run_slot(root, &format!("own-time-{own}"));
    let o = common::nab_run(&run_id, 1)
        .arg("--out")
        .arg(&out)
        .args(["--tasks"])
        .arg(&suite)
        .args(["--agent", &format!("command:{}", agent_file.display())])
        .args(["--model", &format!("openai:slow@{}/v1", server.uri())])
        .env("NAB_API_KEY", "unused-by-the-mock")
        .output()
        .unwrap();
    let show = format!(
        "{}\n{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
    let recs = nab_protocol::read_jsonl::<TrialRecord>(&out.join(nab_protocol::RESULTS_FILE))
        .unwrap_or_else(|e| panic!("{e}\n{show}"))
        .records;
    assert_eq!(recs.len(), 1, "{show}");
    let log = std::fs::read_to_string(
        out.join("trials")
            .join(id)
            .join("0")
            .join(nab_protocol::AGENT_LOG_FILE),
    )
    .unwrap_or_default();
    (recs[0].clone(), log)
}

#[tokio::test(flavor = "multi_thread")]
async fn waiting_for_a_slow_model_does_not_count_against_the_agents_time_limit() {
    common::base_image().await;
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .respond_with(
            ResponseTemplate::new(200)
                .set_delay(Duration::from_secs(2))
                .set_body_json(serde_json::json!({
                    "id": "c", "object": "chat.completion", "created": 0, "model": "slow",
                    "choices": [{"index": 0, "finish_reason": "stop",
                                 "message": {"role": "assistant", "content": "ok"}}],
                    "usage": {"prompt_tokens": 10, "completion_tokens": 2}
                })),
        )
        .mount(&server)
        .await;
    let root = common::agent_root();

    // 6 s with the model, 1 s of its own: past 4 s of wall time, within 4 s of its own.
    let (r, log) = run(root.path(), 3, 1, &server).await;
    assert_eq!(
        r.outcome.exit_reason,
        Some(SandboxExit::Exited),
        "{r:?}\n{log}"
    );
    assert_eq!(r.usage.llm_calls, Some(3));
    let model = r.outcome.model_s.expect("model time is recorded");
    assert!(model >= 6.0, "three 2 s answers: {model}");
    assert!(
        r.outcome.agent_s > 4.0,
        "the wall time is over the limit: {}",
        r.outcome.agent_s
    );
    assert!(
        r.outcome.agent_s - model < 4.0,
        "its own time is not: {r:?}"
    );

    // 6 s of its own: killed at the 4 s limit, the note says what was not counted.
    let other = common::agent_root();
    let (r, log) = run(other.path(), 1, 6, &server).await;
    assert_eq!(
        r.outcome.exit_reason,
        Some(SandboxExit::Timeout),
        "{r:?}\n{log}"
    );
    assert!(log.contains("limit of its own time"), "{log}");
    let model = r.outcome.model_s.unwrap();
    assert!(
        model >= 2.0 && r.outcome.agent_s - model >= 4.0 && r.outcome.agent_s < 20.0,
        "{r:?}"
    );
}
