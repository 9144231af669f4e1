//! `nab export --format atif`: the mapping of a hand-written trial to ATIF steps, every
//! trajectory checked with Harbor's published validator (the baseline run's 28 trials, the
//! fixture), and hostile trial files (a huge line, invalid UTF-8, deep nesting, a link, a
//! FIFO) giving a bounded, named outcome while the other trials are still written.

use crate::common;
use nab_protocol::{RunMeta, TrialRecord, TrialStatus, Usage};
use nab_reports::export::{self, Format};
use serde_json::{Value, json};
use std::path::{Path, PathBuf};

fn line(seq: u64, request: Value, response: Option<Value>, usage: Option<Usage>) -> String {
    let l = nab_protocol::TranscriptLine {
        v: 1,
        ts: format!("2026-12-01T10:00:0{seq}.000Z"),
        seq,
        provider: "openai:m-1".into(),
        stream: false,
        api: None,
        request,
        response,
        usage,
        latency_ms: 100 + seq,
        status: Some(200),
        retries: 0,
        error: None,
        error_code: None,
        budget_exceeded: None,
        replay_drift: None,
        refused: None,
    };
    serde_json::to_string(&l).unwrap() + "\n"
}

fn answer(content: &str, calls: Value) -> Value {
    json!({"model": "m-1", "choices": [{"finish_reason": "tool_calls",
        "message": {"role": "assistant", "content": content, "reasoning_content": "think",
                    "tool_calls": calls}}]})
}

fn call(id: &str, name: &str, args: &str) -> Value {
    json!({"id": id, "type": "function", "function": {"name": name, "arguments": args}})
}

/// Two model calls and a refused request: call 1 reads a file and runs a command the
/// policy blocks (its arguments not JSON), call 2 lists a folder and gets no result.
fn transcript() -> String {
    let prompt =
        json!([{"role": "system", "content": "SYS"}, {"role": "user", "content": "Fix the bug"}]);
    let calls1 = json!([
        call("c1", "read_file", r#"{"path":"a.py"}"#),
        call("c2", "execute_command", "not json")
    ]);
    let mut second = prompt.as_array().unwrap().clone();
    second.push(json!({"role": "assistant", "tool_calls": calls1}));
    second.push(json!({"role": "tool", "tool_call_id": "c1", "content": "contents of a"}));
    second.push(json!({"role": "tool", "tool_call_id": "c2", "content": [{"type": "text", "text": "blocked: rm -rf"}]}));
    let usage = |p, c, k| Usage {
        prompt_tokens: p,
        completion_tokens: c,
        cached_tokens: k,
        cache_write_tokens: 0,
    };
    let mut refused: nab_protocol::TranscriptLine =
        serde_json::from_str(&line(2, json!({}), None, None)).unwrap();
    refused.refused = Some("body_too_large".into());
    refused.status = None;
    line(
        0,
        json!({"messages": prompt}),
        Some(answer("Looking", calls1)),
        Some(usage(100, 10, 40)),
    ) + &line(
        1,
        json!({"messages": second}),
        Some(answer("Done", json!([call("c3", "list_dir", "{}")]))),
        Some(usage(150, 5, 0)),
    ) + &serde_json::to_string(&refused).unwrap()
        + "\n"
}

fn events() -> String {
    [
        r#"{"v":1,"ts":"2026-12-01T09:59:59.000Z","kind":"start","model":"m-1","workspace":"/workspace","max_steps":50}"#,
        r#"{"v":1,"ts":"2026-12-01T10:00:00.500Z","kind":"tool_call","step":1,"tool_call_id":"c1","name":"read_file","args_summary":"path=a.py","status":"ok","duration_ms":3}"#,
        r#"{"v":1,"ts":"2026-12-01T10:00:00.600Z","kind":"policy_block","step":1,"command":"rm -rf /","rule":"rm-root","reason":"deletes everything"}"#,
        r#"{"v":1,"ts":"2026-12-01T10:00:00.600Z","kind":"tool_call","step":1,"tool_call_id":"c2","name":"execute_command","args_summary":"rm -rf /","status":"blocked","duration_ms":0}"#,
        r#"{"v":1,"ts":"2026-12-01T10:00:02.000Z","kind":"finish","exit_reason":"max_steps","steps":2,"message":"out of steps"}"#,
    ]
    .join("\n")
        + "\n"
}

fn record(task: &str) -> TrialRecord {
    let mut r = TrialRecord::new("run-1", task, "bug-fix", 0, "nab-agent");
    r.model = Some("openai:m-1".into());
    r.outcome.status = TrialStatus::Failed;
    r.outcome.failure_reason = Some(nab_protocol::FailureReason::TestsFailed);
    r.usage.llm_calls = Some(2);
    r.usage.input_tokens = Some(250);
    r.usage.output_tokens = Some(15);
    r.usage.cached_tokens = Some(40);
    r.usage.cost_usd = Some(0.01);
    r
}

/// A run folder of `tasks`, each trial folder filled by `fill` (given the task's name).
fn run_of(root: &Path, tasks: &[&str], fill: impl Fn(&str, &Path)) -> PathBuf {
    let run = root.join("run");
    let records: Vec<TrialRecord> = tasks.iter().map(|t| record(t)).collect();
    std::fs::create_dir_all(&run).unwrap();
    nab_protocol::write_jsonl_atomic(&run.join(nab_protocol::RESULTS_FILE), &records).unwrap();
    RunMeta {
        run_id: Some("run-1".into()),
        nab_version: Some("9.9.9".into()),
        ..RunMeta::default()
    }
    .write(&run)
    .unwrap();
    for t in tasks {
        let dir = run.join("trials").join(t).join("0");
        std::fs::create_dir_all(&dir).unwrap();
        fill(t, &dir);
    }
    run
}

fn good(dir: &Path) {
    std::fs::write(dir.join(nab_protocol::TRANSCRIPT_FILE), transcript()).unwrap();
    std::fs::write(dir.join(nab_protocol::EVENTS_FILE), events()).unwrap();
}

fn read(path: &Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

#[test]
fn a_trial_maps_to_steps_with_calls_results_tokens_and_the_verdict() {
    let tmp = tempfile::tempdir().unwrap();
    let run = run_of(tmp.path(), &["t1"], |_, d| good(d));
    let done = export::export_atif(std::slice::from_ref(&run), None).unwrap();
    let file = run.join("atif/t1/0.json");
    assert_eq!(done.written, vec![file.clone()]);
    assert!(done.failed.is_empty(), "{:?}", done.failed);
    let t = read(&file);
    assert_eq!(t["schema_version"], "ATIF-v1.7");
    assert_eq!(t["session_id"], "run-1/t1/0");
    assert_eq!(
        t["agent"],
        json!({"name": "nab-agent", "version": "9.9.9", "model_name": "m-1", "extra": {"model_spec": "openai:m-1"}})
    );
    let steps = t["steps"].as_array().unwrap();
    let head: Vec<(&str, &str)> = steps
        .iter()
        .map(|s| {
            (
                s["source"].as_str().unwrap(),
                s["message"].as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        head,
        vec![
            ("system", "SYS"),
            ("user", "Fix the bug"),
            ("agent", "Looking"),
            ("agent", "Done"),
            (
                "system",
                "the gateway refused the agent's request (body_too_large)"
            ),
        ]
    );
    let ids: Vec<u64> = steps
        .iter()
        .map(|s| s["step_id"].as_u64().unwrap())
        .collect();
    assert_eq!(ids, vec![1, 2, 3, 4, 5]);
    assert_eq!(steps[0]["timestamp"], "2026-12-01T09:59:59.000Z");
    let first = &steps[2];
    assert_eq!(first["reasoning_content"], "think");
    assert_eq!(first["timestamp"], "2026-12-01T10:00:00.000Z");
    assert_eq!(
        first["metrics"],
        json!({"prompt_tokens": 100, "completion_tokens": 10, "cached_tokens": 40})
    );
    assert_eq!(first["llm_call_count"], 1);
    assert_eq!(
        first["tool_calls"][0],
        json!({"tool_call_id": "c1", "function_name": "read_file",
        "arguments": {"path": "a.py"}, "extra": {"status": "ok", "duration_ms": 3}})
    );
    assert_eq!(first["tool_calls"][1]["arguments"], json!({}));
    assert_eq!(
        first["tool_calls"][1]["extra"],
        json!({"raw_arguments": "not json", "status": "blocked", "duration_ms": 0})
    );
    assert_eq!(
        first["observation"]["results"],
        json!([
        {"source_call_id": "c1", "content": "contents of a"},
        {"source_call_id": "c2", "content": "blocked: rm -rf"}])
    );
    let last_call = &steps[3]["observation"]["results"][0];
    assert_eq!(last_call["source_call_id"], "c3");
    assert!(
        last_call.get("content").is_none() && last_call["extra"]["missing"].is_string(),
        "{last_call}"
    );
    assert!(steps[4].get("metrics").is_none() && steps[4]["extra"]["refused"] == "body_too_large");
    assert_eq!(t["final_metrics"]["total_prompt_tokens"], 250);
    assert_eq!(t["final_metrics"]["total_cached_tokens"], 40);
    assert_eq!(t["final_metrics"]["total_cost_usd"], 0.01);
    assert_eq!(t["final_metrics"]["total_steps"], 5);
    let nab = &t["extra"]["nab"];
    assert_eq!(nab["record"]["status"], "failed");
    assert_eq!(nab["record"]["failure_reason"], "tests_failed");
    assert_eq!(nab["policy_blocks"][0]["rule"], "rm-root");
    assert_eq!(nab["finish"]["exit_reason"], "max_steps");
    assert_eq!(common::harbor_rejects(&[file]), Vec::<String>::new());
}

#[test]
fn every_baseline_trial_validates_and_the_format_flag_writes_to_out() {
    let tmp = tempfile::tempdir().unwrap();
    let baseline = Path::new(env!("CARGO_MANIFEST_DIR")).join("../ci/baseline");
    let out = tmp.path().join("atif");
    let done = export::export(std::slice::from_ref(&baseline), &out, Format::Atif).unwrap();
    let records =
        nab_protocol::read_jsonl::<TrialRecord>(&baseline.join(nab_protocol::RESULTS_FILE))
            .unwrap()
            .records;
    assert_eq!(done.written.len(), records.len());
    for r in &records {
        let f = out.join(&r.task_id).join("0.json");
        assert!(done.written.contains(&f), "{}", f.display());
        let t = read(&f);
        let calls = t["steps"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|s| s["source"] == "agent")
            .count();
        assert_eq!(Some(calls as u64), r.usage.llm_calls, "{}", r.task_id);
    }
    assert_eq!(common::harbor_rejects(&done.written), Vec::<String>::new());
}

/// A transcript line of `depth` nested arrays: more than serde_json's recursion limit.
fn nested(depth: usize) -> String {
    "[".repeat(depth) + &"]".repeat(depth) + "\n"
}

#[test]
fn hostile_trial_files_are_refused_or_skipped_by_name_and_the_others_are_written() {
    let tmp = tempfile::tempdir().unwrap();
    let outside = tmp.path().join("secret.jsonl");
    std::fs::write(&outside, events()).unwrap();
    let run = run_of(
        tmp.path(),
        &["ok", "junk", "link", "fifo"],
        |t, d| match t {
            "ok" => good(d),
            "junk" => {
                // A line over the reader's 64 MiB cap, invalid UTF-8, nesting past serde's limit,
                // then the real transcript: the three are skipped, each named, and the rest read.
                let mut bytes = vec![b'x'; nab_protocol::READ_LINE_LIMIT + 1];
                bytes.push(b'\n');
                bytes.extend_from_slice(b"{\"v\":1,\"ts\":\"\xff\xfe\"}\n");
                bytes.extend_from_slice(nested(100_000).as_bytes());
                bytes.extend_from_slice(transcript().as_bytes());
                std::fs::write(d.join(nab_protocol::TRANSCRIPT_FILE), bytes).unwrap();
                std::fs::write(d.join(nab_protocol::EVENTS_FILE), events()).unwrap();
            }
            "link" => {
                std::fs::write(d.join(nab_protocol::TRANSCRIPT_FILE), transcript()).unwrap();
                std::os::unix::fs::symlink(&outside, d.join(nab_protocol::EVENTS_FILE)).unwrap();
            }
            _ => {
                let fifo = d.join(nab_protocol::TRANSCRIPT_FILE);
                let made = std::process::Command::new("mkfifo")
                    .arg(&fifo)
                    .status()
                    .unwrap();
                assert!(made.success());
            }
        },
    );
    let done = export::export_atif(std::slice::from_ref(&run), None).unwrap();
    let atif = run.join("atif");
    assert_eq!(
        done.written,
        vec![atif.join("junk/0.json"), atif.join("ok/0.json")]
    );
    assert_eq!(done.failed.len(), 2, "{:?}", done.failed);
    let link = run.join("trials/link/0").join(nab_protocol::EVENTS_FILE);
    assert_eq!(
        done.failed[1],
        format!(
            "{}: a symbolic link (not followed), not a regular file",
            link.display()
        )
    );
    let fifo = run
        .join("trials/fifo/0")
        .join(nab_protocol::TRANSCRIPT_FILE);
    assert_eq!(
        done.failed[0],
        format!("{}: a FIFO, not a regular file", fifo.display())
    );
    let junk = run
        .join("trials/junk/0")
        .join(nab_protocol::TRANSCRIPT_FILE);
    let skipped: Vec<&String> = done
        .notes
        .iter()
        .filter(|n| n.starts_with(&junk.display().to_string()))
        .collect();
    assert_eq!(skipped.len(), 3, "{:?}", done.notes);
    assert!(
        skipped.iter().any(|n| n.contains(":2:")) && skipped.iter().any(|n| n.contains(":3:")),
        "{skipped:?}"
    );
    assert!(
        skipped.iter().any(|n| n.contains("1 line(s) longer than")),
        "{skipped:?}"
    );
    let t = read(&atif.join("junk/0.json"));
    assert_eq!(t["steps"].as_array().unwrap().len(), 5);
    assert_eq!(t["extra"]["nab"]["skipped"].as_array().unwrap().len(), 3);
    assert_eq!(t, {
        let mut ok = read(&atif.join("ok/0.json"));
        ok["session_id"] = t["session_id"].clone();
        ok["trajectory_id"] = t["trajectory_id"].clone();
        ok["extra"]["nab"]["record"]["task_id"] = "junk".into();
        ok["extra"]["nab"]["skipped"] = t["extra"]["nab"]["skipped"].clone();
        ok["notes"] = t["notes"].clone();
        ok
    });
    assert_eq!(common::harbor_rejects(&done.written), Vec::<String>::new());
    // The trajectories' folder itself a link: nothing is written through it.
    std::fs::remove_dir_all(&atif).unwrap();
    std::os::unix::fs::symlink(tmp.path(), &atif).unwrap();
    let e = export::export_atif(std::slice::from_ref(&run), None)
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("a symbolic link: refusing to write through it"),
        "{e}"
    );
    assert!(!tmp.path().join("ok").exists());
}
