//! Synthetic runs for tests, benchmarks and demos: realistic trial records and trial
//! folders (transcripts with tool calls and long outputs, events, diffs, logs, judges),
//! generated from a seed. Nothing here is used to produce a real run's numbers.

use nab_protocol::{
    DimensionScore, JudgeRecord, SandboxExit, TrialRecord, TrialStatus, VetoVerdict,
};
use nab_protocol::{RunMeta, RunPaths, instruction_path};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde_json::json;
use std::path::Path;

pub const CATEGORIES: [&str; 5] = ["localization", "bug-fix", "terminal", "mcp", "long-context"];

#[derive(Debug, Clone)]
pub struct SynthSpec {
    pub run_id: String,
    pub agent: String,
    pub model: String,
    pub tasks: usize,
    pub trials: u32,
    pub seed: u64,
    /// Model turns per trial transcript.
    pub turns: usize,
    /// Size of the one long tool output in each transcript (characters).
    pub long_output_chars: usize,
    /// Share of trials that end in an infrastructure error.
    pub error_rate: f64,
    /// Write transcripts, events, diffs and logs (off: results.jsonl and run.json only).
    pub artifacts: bool,
    pub judged: bool,
}

impl SynthSpec {
    pub fn new(run_id: &str, tasks: usize, trials: u32) -> SynthSpec {
        SynthSpec {
            run_id: run_id.to_owned(),
            agent: "nab-agent".into(),
            model: "replay:cassettes/ci".into(),
            tasks,
            trials,
            seed: 7,
            turns: 8,
            long_output_chars: 40_000,
            error_rate: 0.0,
            artifacts: true,
            judged: true,
        }
    }
}

pub fn synth_task_id(i: usize) -> String {
    format!("task-{i:02}-{}", CATEGORIES[i % CATEGORIES.len()])
}

/// Trial records: each task has its own pass probability, spread from 0 to 1.
pub fn synth_records(spec: &SynthSpec) -> Vec<TrialRecord> {
    let mut rng = ChaCha8Rng::seed_from_u64(spec.seed);
    let mut out = Vec::new();
    for i in 0..spec.tasks {
        let p: f64 = match i % 4 {
            0 => 1.0,
            1 => 0.0,
            _ => rng.random_range(0.2..0.9),
        };
        for t in 0..spec.trials {
            let mut r = TrialRecord::new(
                &spec.run_id,
                &synth_task_id(i),
                CATEGORIES[i % CATEGORIES.len()],
                t,
                &spec.agent,
            );
            r.model = Some(spec.model.clone());
            if rng.random_bool(spec.error_rate.clamp(0.0, 1.0)) {
                r.outcome.status = TrialStatus::Error;
                r.outcome.error =
                    Some("docker: container create failed: no space left on device".into());
                r.outcome.attempts = 3;
                out.push(r);
                continue;
            }
            let pass = rng.random_bool(p);
            r.outcome.status = if pass {
                TrialStatus::Passed
            } else {
                TrialStatus::Failed
            };
            r.outcome.reward = if pass { 1.0 } else { 0.0 };
            r.outcome.tests_total = Some(6);
            r.outcome.tests_passed = Some(if pass { 6 } else { rng.random_range(0..6) });
            r.outcome.exit_reason = Some(SandboxExit::Exited);
            r.outcome.agent_exit_code = Some(0);
            r.outcome.agent_s = rng.random_range(20.0..300.0);
            r.outcome.verify_s = rng.random_range(1.0..20.0);
            r.outcome.started_at = Some("2026-11-30T04:00:00.000Z".into());
            r.usage.llm_calls = Some(spec.turns as u64);
            r.usage.input_tokens = Some(rng.random_range(20_000..400_000));
            r.usage.output_tokens = Some(rng.random_range(1_000..20_000));
            r.usage.cached_tokens = Some(rng.random_range(0..10_000));
            r.behaviour.steps = Some(rng.random_range(3..45));
            let calls = rng.random_range(3..40u64);
            let fails = rng.random_range(0..=calls / 4);
            r.behaviour.tool_calls = Some(calls);
            r.behaviour.tool_failures = Some(fails);
            r.behaviour.tool_failure_rate = Some(fails as f64 / calls as f64);
            r.behaviour.policy_blocks = Some(u64::from(rng.random_bool(0.05)));
            r.behaviour.agent_exit_reason = Some("final_answer".into());
            if spec.judged {
                r.judges.push(judge(&mut rng));
            }
            out.push(r);
        }
    }
    out
}

fn judge(rng: &mut ChaCha8Rng) -> JudgeRecord {
    let scores: Vec<DimensionScore> = ["readability", "error_handling", "minimal_change"]
        .iter()
        .map(|d| DimensionScore {
            dimension: (*d).into(),
            score: rng.random_range(1..=5),
            evidence: format!("The diff's {d} is shown by the change to `src/app.py` lines 10–14."),
        })
        .collect();
    let score = scores.iter().map(|s| f64::from(s.score)).sum::<f64>() / 3.0;
    JudgeRecord {
        judge_model: "openai:judge-model".into(),
        rubric_id: "code-quality".into(),
        rubric_hash: "0f3a".into(),
        prompt_hash: "9c1d".into(),
        weighted_score: Some(score),
        scores,
        vetoes: vec![VetoVerdict {
            id: "deletes_tests".into(),
            violated: false,
            evidence: "No test file is touched.".into(),
        }],
        vetoed: false,
        gate_passed: Some(score >= 3.0),
        error: None,
        retries: 0,
        raw_output: "{}".into(),
        input_tokens: 1200,
        output_tokens: 300,
        cost_usd: None,
    }
}

/// Writes `records` as a run directory: results.jsonl, run.json, a tasks folder with
/// instructions, and (if `spec.artifacts`) every trial's folder.
pub fn write_synth_run(
    dir: &Path,
    spec: &SynthSpec,
    records: &[TrialRecord],
) -> std::io::Result<()> {
    std::fs::create_dir_all(dir)?;
    let paths = RunPaths::new(dir);
    nab_protocol::write_jsonl_atomic(&paths.results(), records).map_err(std::io::Error::other)?;
    let tasks_dir = dir.join("tasks");
    for i in 0..spec.tasks {
        let instruction = instruction_path(&tasks_dir, &synth_task_id(i));
        if let Some(t) = instruction.parent() {
            std::fs::create_dir_all(t)?;
        }
        std::fs::write(
            instruction,
            format!(
                "# {}\n\nThe function `paginate` in `src/app.py` drops the last item of each page.\nFix it so every item appears exactly once. Do not change the tests.\n",
                synth_task_id(i)
            ),
        )?;
    }
    RunMeta {
        v: 1,
        run_id: Some(spec.run_id.clone()),
        agent: Some(spec.agent.clone()),
        model: Some(spec.model.clone()),
        tasks_dir: Some("tasks".into()),
        tasks_hash: None,
        task_ids: Vec::new(),
        trials: Some(spec.trials),
        started_at: Some("2026-11-30T04:00:00.000Z".into()),
        finished_at: Some("2026-11-30T05:00:00.000Z".into()),
        nab_version: Some(env!("CARGO_PKG_VERSION").into()),
        command: Some(format!("nab run --tasks tasks --trials {}", spec.trials)),
        ..RunMeta::default()
    }
    .write(dir)
    .map_err(std::io::Error::other)?;
    if spec.artifacts {
        for r in records {
            write_trial(dir, spec, r)?;
        }
    }
    Ok(())
}

fn write_trial(dir: &Path, spec: &SynthSpec, r: &TrialRecord) -> std::io::Result<()> {
    let d = RunPaths::new(dir)
        .trial_of(r)
        .map_err(std::io::Error::other)?;
    std::fs::create_dir_all(d.path())?;
    let (transcript, events) = transcript_and_events(spec);
    std::fs::write(d.transcript(), transcript)?;
    std::fs::write(d.events(), events)?;
    std::fs::write(
        d.diff(),
        "diff --git a/src/app.py b/src/app.py\nindex 3b18e51..a9c2f10 100644\n--- a/src/app.py\n+++ b/src/app.py\n@@ -10,7 +10,7 @@ def paginate(items, page, size):\n     \"\"\"Return one page of items.\"\"\"\n     start = page * size\n-    end = start + size - 1\n+    end = start + size\n     return items[start:end]\n \n \n",
    )?;
    let verdict = if r.outcome.status == TrialStatus::Passed {
        "6 passed in 0.12s"
    } else {
        "FAILED tests/test_app.py::test_last_item - assert 9 in [..]\n1 failed, 5 passed in 0.14s"
    };
    std::fs::write(
        d.verify_log(),
        format!(
            "$ python3 -I -m pytest -q /nab/tests\n......\n{verdict}\nexit status: {}\n",
            u8::from(r.outcome.status != TrialStatus::Passed)
        ),
    )?;
    std::fs::write(d.agent_log(), "nab-agent 0.1.0 starting\n".repeat(40))?;
    Ok(())
}

/// A trial's transcript.jsonl and events.jsonl: `spec.turns` model calls, each but the last
/// with one tool call whose result the next request carries.
fn transcript_and_events(spec: &SynthSpec) -> (String, String) {
    let mut transcript = String::new();
    let mut events = String::new();
    let mut messages = vec![
        json!({"role": "system", "content": "You are nab-agent, a coding agent. Use the tools to solve the task.\n".repeat(20)}),
        json!({"role": "user", "content": "The function `paginate` in `src/app.py` drops the last item of each page."}),
    ];
    let push_line = |out: &mut String, v: serde_json::Value| {
        out.push_str(&v.to_string());
        out.push('\n');
    };
    for turn in 0..spec.turns {
        let last = turn + 1 == spec.turns;
        let call_id = format!("call_{turn}");
        let (name, args) = tool_of_turn(turn);
        let message = if last {
            json!({"role": "assistant", "content": "I fixed the slice bound in `paginate`; the tests pass."})
        } else {
            json!({"role": "assistant", "content": format!("Step {turn}: checking the code."),
                   "reasoning_content": "The slice end is exclusive, so page * size + size is right and the bug is in the start index.",
                   "tool_calls": [{"id": call_id, "type": "function", "function": {"name": name, "arguments": args}}]})
        };
        push_line(
            &mut transcript,
            json!({
                "v": 1, "ts": "2026-11-30T04:00:00.000Z", "seq": turn, "provider": spec.model, "stream": true,
                "request": {"model": "m", "messages": messages},
                "response": {"object": "chat.completion", "choices": [{"index": 0, "message": message, "finish_reason": if last {"stop"} else {"tool_calls"}}]},
                "usage": {"prompt_tokens": 1000 + 500 * turn, "completion_tokens": 120},
                "latency_ms": 850, "status": 200, "retries": 0
            }),
        );
        push_line(
            &mut events,
            json!({"v": 1, "ts": "2026-11-30T04:00:01.000Z", "kind": "model_call", "step": turn,
                    "usage": {"prompt_tokens": 1000, "completion_tokens": 120}, "latency_ms": 850}),
        );
        if !last {
            messages.push(message.clone());
            messages.push(json!({"role": "tool", "tool_call_id": call_id, "content": tool_output(turn, spec)}));
            push_line(
                &mut events,
                json!({"v": 1, "ts": "2026-11-30T04:00:02.000Z", "kind": "tool_call", "step": turn,
                        "tool_call_id": call_id, "name": name, "args_summary": args.chars().take(80).collect::<String>(),
                        "status": if turn % 5 == 4 {"error"} else {"ok"}, "duration_ms": 120}),
            );
        }
    }
    push_line(
        &mut events,
        json!({"v": 1, "ts": "2026-11-30T04:05:00.000Z", "kind": "finish", "exit_reason": "final_answer", "steps": spec.turns}),
    );
    (transcript, events)
}

/// The tool a turn calls and its arguments (JSON), in turn: read, grep, run the tests.
fn tool_of_turn(turn: usize) -> (&'static str, String) {
    match turn % 3 {
        0 => (
            "read_file",
            json!({"path": "src/app.py", "offset": 1}).to_string(),
        ),
        1 => (
            "grep_code",
            json!({"pattern": "def paginate", "path": "src"}).to_string(),
        ),
        _ => (
            "execute_command",
            json!({"argv": ["python3", "-m", "pytest", "-q"]}).to_string(),
        ),
    }
}

/// The result of a turn's tool call: the first turn's is long, the others short.
fn tool_output(turn: usize, spec: &SynthSpec) -> String {
    if turn == 0 {
        // One long tool output per trial: a file listing far beyond the collapse limit.
        (0..)
            .map(|i| format!("{i:>5}\tdef helper_{i}(items, page, size): return items[page * size:(page + 1) * size]\n"))
            .take_while({
                let mut n = 0usize;
                move |l: &String| {
                    n += l.len();
                    n <= spec.long_output_chars
                }
            })
            .collect::<String>()
    } else {
        format!(
            "src/app.py:12: def paginate(items, page, size):\n{}",
            "ok\n".repeat(3)
        )
    }
}
