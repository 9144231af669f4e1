//! `nab run` with a model, end to end against real Docker: nab-agent played by a scripted
//! model solves tasks in the sandbox; a recorded run replays; a changed system prompt
//! breaks replay with a diff; token metrics come from the gateway, not from the agent; the
//! API key never reaches the container or the run's files; a spent token budget stops
//! nab-agent with `token_budget`.

use crate::common;

use common::{copy_dir, repo_tasks, show, write, write_exec};
use nab_protocol::{TrialRecord, TrialStatus};
use std::path::{Path, PathBuf};
use std::process::Output;

/// The three spine tasks the cassette was recorded on.
const SPINE: [&str; 3] = [
    "py-pagination-offbyone",
    "java-interval-boundaries",
    "term-log-report",
];

fn cassette() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/cassettes/spine")
}

fn nab_run<S: AsRef<std::ffi::OsStr>>(
    run_id: &str,
    out: &Path,
    args: &[S],
    env: &[(&str, &str)],
) -> Output {
    let mut cmd = common::nab_run(run_id, 1);
    cmd.arg("--out").arg(out).args(args);
    for (k, v) in env {
        cmd.env(k, v);
    }
    cmd.output().unwrap()
}

/// `--tasks <tasks> --agent <agent> --model <model> --prices <prices>`, then `rest`.
fn priced(tasks: &Path, agent: &str, model: &str, prices: &Path, rest: &[&str]) -> Vec<String> {
    let mut args: Vec<String> = ["--tasks", &tasks.display().to_string(), "--agent", agent]
        .iter()
        .chain(&["--model", model, "--prices", &prices.display().to_string()])
        .map(|a| a.to_string())
        .collect();
    args.extend(rest.iter().map(|a| a.to_string()));
    args
}

fn records(out: &Path) -> Vec<TrialRecord> {
    let mut r = nab_protocol::read_jsonl::<TrialRecord>(&out.join(nab_protocol::RESULTS_FILE))
        .unwrap()
        .records;
    r.sort_by(|a, b| a.task_id.cmp(&b.task_id));
    r
}

fn transcript_lines(trial: &Path) -> Vec<nab_protocol::TranscriptLine> {
    nab_protocol::read_jsonl(&trial.join(nab_protocol::TRANSCRIPT_FILE))
        .unwrap()
        .records
}

#[tokio::test(flavor = "multi_thread")]
async fn scripted_nab_agent_solves_the_spine_tasks_and_a_spent_budget_stops_it() {
    common::nab_agent_ready().await;
    let root = tempfile::tempdir().unwrap();
    let suite = root.path().join("suite");
    for t in SPINE {
        copy_dir(&repo_tasks().join(t), &suite.join(t));
    }
    // The same task with a token budget the first call already crosses.
    let budget = suite.join("py-budget");
    copy_dir(&repo_tasks().join("py-pagination-offbyone"), &budget);
    let yaml = std::fs::read_to_string(budget.join("task.yaml"))
        .unwrap()
        .replace("id: py-pagination-offbyone", "id: py-budget");
    write(
        &budget.join("task.yaml"),
        &format!("{yaml}budgets: {{tokens: 500}}\n"),
    );

    // Prices that name the scripted model (the first entry does not match it).
    let prices = common::prices(
        root.path(),
        "prices:\n  - {model: 'example-*', input: 100, cached_input: 100, output: 100}\n  - {model: script*, input: 2, cached_input: 0.5, output: 8}\n",
    );

    let (run_id, _sweep, out) = common::run_slot(root.path(), "scripted");
    let args = priced(&suite, "nab-agent", "scripted:task", &prices, &["-j", "2"]);
    let o = nab_run(&run_id, &out, &args, &[]);
    let recs = records(&out);
    assert_eq!(recs.len(), 4, "{}", show(&o));
    assert!(
        String::from_utf8_lossy(&o.stderr)
            .contains("model `scripted` priced by entry 2 (`script*`)"),
        "{}",
        show(&o)
    );
    for r in recs.iter().filter(|r| r.task_id != "py-budget") {
        let dir = out.join("trials").join(&r.task_id).join("0");
        assert_eq!(r.outcome.status, TrialStatus::Passed, "{r:?}\n{}", show(&o));
        assert_eq!(r.model.as_deref(), Some("scripted:task"));
        assert_eq!(
            r.behaviour.agent_exit_reason.as_deref(),
            Some("final_answer")
        );
        assert_eq!(r.behaviour.budget_exceeded, Some(false));
        // Model calls and tokens are the transcript's.
        let lines = transcript_lines(&dir);
        assert_eq!(r.usage.llm_calls, Some(lines.len() as u64));
        let input: u64 = lines
            .iter()
            .filter_map(|l| l.usage)
            .map(|u| u.prompt_tokens)
            .sum();
        assert_eq!(r.usage.input_tokens, Some(input));
        assert!(input > 0 && r.usage.output_tokens.unwrap() > 0);
        // The cost is the gateway's tokens at the matching entry's rates.
        let cached = r.usage.cached_tokens.unwrap();
        let want = ((input - cached) as f64 * 2.0
            + cached as f64 * 0.5
            + r.usage.output_tokens.unwrap() as f64 * 8.0)
            / 1e6;
        let cost = r
            .usage
            .cost_usd
            .expect("a priced model's record has cost_usd");
        assert!((cost - want).abs() < 1e-12, "{cost} != {want}");
        // One model call per step; the final answer is a step without tools.
        assert_eq!(r.behaviour.steps, Some(lines.len() as u64), "{r:?}");
        assert!(
            r.behaviour.tool_calls.unwrap() >= 3 && r.behaviour.tool_failures == Some(0),
            "{r:?}"
        );
        let events = std::fs::read_to_string(dir.join(nab_protocol::EVENTS_FILE)).unwrap();
        assert!(events.contains(r#""kind":"finish""#), "{events}");
        // The agent's state stays out of the workspace and its diff.
        let diff = std::fs::read_to_string(dir.join(nab_protocol::DIFF_FILE)).unwrap();
        assert!(
            !diff.contains("/nab/out") && !diff.contains("state/"),
            "{diff}"
        );
    }
    let b = recs.iter().find(|r| r.task_id == "py-budget").unwrap();
    assert_eq!(b.outcome.status, TrialStatus::Failed, "{b:?}");
    assert_eq!(
        b.behaviour.agent_exit_reason.as_deref(),
        Some("token_budget"),
        "{b:?}"
    );
    assert_eq!(b.behaviour.budget_exceeded, Some(true));
    assert_eq!(
        b.usage.llm_calls,
        Some(1),
        "the refused call is not a model call"
    );
    let lines = transcript_lines(&out.join("trials/py-budget/0"));
    assert_eq!(
        lines.last().unwrap().budget_exceeded.as_deref(),
        Some("tokens")
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn the_recorded_spine_run_replays_and_passes() {
    common::nab_agent_ready().await;
    let root = tempfile::tempdir().unwrap();
    let (run_id, _sweep, out) = common::run_slot(root.path(), "replay");
    let model = format!("replay:{}", cassette().display());
    // Prices that name no model of the cassette: no cost, said once, never 0.
    let prices = common::prices(
        root.path(),
        "prices:\n  - {model: 'example-*', input: 1, cached_input: 1, output: 1}\n",
    );
    let args = priced(
        &repo_tasks(),
        "nab-agent",
        &model,
        &prices,
        &[&["-j", "2"], &SPINE[..]].concat(),
    );
    let o = nab_run(&run_id, &out, &args, &[]);
    let recs = records(&out);
    assert_eq!(recs.len(), 3, "{}", show(&o));
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert_eq!(
        stderr.matches("no entry matches model").count(),
        1,
        "{}",
        show(&o)
    );
    for r in &recs {
        assert_eq!(r.outcome.status, TrialStatus::Passed, "{r:?}\n{}", show(&o));
        assert_eq!(r.usage.cost_usd, None, "{r:?}");
        let lines = transcript_lines(&out.join("trials").join(&r.task_id).join("0"));
        assert!(lines.iter().all(|l| l.error.is_none()), "{lines:?}");
        assert!(
            lines[0].provider.starts_with("replay:"),
            "{}",
            lines[0].provider
        );
    }
    assert!(o.status.success(), "{}", show(&o));
}

#[tokio::test(flavor = "multi_thread")]
async fn a_changed_system_prompt_is_a_replay_miss_error_with_a_diff_that_shows_it() {
    common::nab_agent_ready().await;
    let root = tempfile::tempdir().unwrap();
    // The cassette as it would be had the agent's system prompt carried one more line
    // when it was recorded: today's agent now sends a different prompt.
    let changed = root.path().join("cassette");
    std::fs::create_dir_all(&changed).unwrap();
    let added = "Always answer in French.";
    for e in std::fs::read_dir(cassette()).unwrap() {
        let text = std::fs::read_to_string(e.unwrap().path()).unwrap();
        let mut entry: serde_json::Value = serde_json::from_str(&text).unwrap();
        let system = &mut entry["request"]["messages"][0];
        assert_eq!(system["role"], "system");
        let prompt = system["content"].as_str().unwrap().to_owned();
        let (first, rest) = prompt.split_once('\n').unwrap();
        system["content"] = format!("{first}\n{added}\n{rest}").into();
        let key = nab_gateway::request_key(&entry["request"], &nab_gateway::Normalizer::default());
        entry["key"] = key.clone().into();
        entry["v"] = 2.into();
        write(
            &changed.join(format!("{key}.json")),
            &serde_json::to_string_pretty(&entry).unwrap(),
        );
    }
    let (run_id, _sweep, out) = common::run_slot(root.path(), "replay-miss");
    let tasks = repo_tasks().to_string_lossy().into_owned();
    let model = format!("replay:{}", changed.display());
    // Three attempts allowed: a replay miss must not use them (it would miss again).
    let o = common::nab_run(&run_id, 3)
        .arg("--out")
        .arg(&out)
        .args([
            "--tasks",
            &tasks,
            "--agent",
            "nab-agent",
            "--model",
            &model,
            "py-pagination-offbyone",
        ])
        .output()
        .unwrap();
    let recs = records(&out);
    assert_eq!(recs.len(), 1, "{}", show(&o));
    // Not the agent's failure: the recording is stale. Not retried, not verified.
    let r = &recs[0];
    assert_eq!(r.outcome.status, TrialStatus::Error, "{r:?}");
    assert_eq!(
        r.outcome.error_kind,
        Some(nab_protocol::ErrorKind::ReplayMiss),
        "{r:?}"
    );
    assert_eq!(r.outcome.attempts, 1, "a replay miss is not retried: {r:?}");
    assert_eq!(r.outcome.failure_reason, None);
    let err = r.outcome.error.as_deref().unwrap();
    assert!(
        err.contains("messages[0].content") && err.contains(added),
        "{err}"
    );
    assert!(
        !out.join("trials/py-pagination-offbyone/0/verify.log")
            .exists(),
        "the half-done workspace is not verified"
    );
    let lines = transcript_lines(&out.join("trials/py-pagination-offbyone/0"));
    assert_eq!(lines.len(), 1, "the first call already misses");
    assert_eq!(lines[0].error_code.as_deref(), Some("replay_miss"));
    let log =
        std::fs::read_to_string(out.join("trials/py-pagination-offbyone/0/agent.log")).unwrap();
    assert!(log.contains("replay_miss") || log.contains(added), "{log}");
}

/// A `command:` agent that calls the gateway over the socket, claims huge token counts in
/// its own events, and dumps its environment and every /proc entry it can read into the
/// workspace (so the run's diff carries them).
const SNOOP: &str = concat!(
    "#!/usr/bin/env python3\n",
    crate::gateway_post_py!(),
    r#"import glob, os
resp = post(json.dumps({"model": "m", "messages": [{"role": "user", "content": "hi"}]}).encode())
dump = ["ENV " + json.dumps(dict(os.environ))]
for p in sorted(glob.glob("/proc/[0-9]*")):
    for f in ("environ", "cmdline"):
        try:
            dump.append(p + "/" + f + " " + open(p + "/" + f, "rb").read().decode("latin-1").replace("\0", " "))
        except OSError as e:
            dump.append(p + "/" + f + " unreadable: " + str(e))
with open("/workspace/inspection.txt", "w") as f:
    f.write("\n".join(dump) + "\n")
with open("/workspace/response.txt", "w") as f:
    f.write(resp.decode("latin-1") + "\n")
fake = {"prompt_tokens": 999999, "completion_tokens": 888888, "cached_tokens": 0}
events = [
    {"v": 1, "ts": "2026-01-01T00:00:00.000Z", "kind": "model_call", "step": 1, "usage": fake, "latency_ms": 1},
    {"v": 1, "ts": "2026-01-01T00:00:00.000Z", "kind": "finish", "exit_reason": "final_answer", "steps": 1},
]
with open("/nab/out/events.jsonl", "w") as f:
    f.write("".join(json.dumps(e) + "\n" for e in events))
"#
);

#[tokio::test(flavor = "multi_thread")]
async fn a_command_agent_gets_the_gateways_token_counts_and_never_sees_the_key() {
    use wiremock::matchers::{header, method, path};
    use wiremock::{Mock, MockServer, ResponseTemplate};
    common::base_image().await;
    let canary = format!("sk-canary-{:016x}", rand::random::<u64>());
    let provider = MockServer::start().await;
    Mock::given(method("POST"))
        .and(path("/v1/chat/completions"))
        .and(header("authorization", format!("Bearer {canary}").as_str()))
        .respond_with(ResponseTemplate::new(200).set_body_json(serde_json::json!({
            "id": "c1", "object": "chat.completion", "created": 0, "model": "m",
            "choices": [{"index": 0, "message": {"role": "assistant", "content": "hello"}, "finish_reason": "stop"}],
            "usage": {"prompt_tokens": 123, "completion_tokens": 45, "prompt_tokens_details": {"cached_tokens": 7}},
        })))
        .expect(1)
        .mount(&provider)
        .await;

    let root = common::agent_root();
    let suite = root.path().join("suite");
    copy_dir(
        &repo_tasks().join("term-log-report"),
        &suite.join("term-log-report"),
    );
    let agent = root.path().join("snoop.py");
    write_exec(&agent, SNOOP);
    let (run_id, _sweep, out) = common::run_slot(root.path(), "canary");
    let agent_arg = format!("command:{}", agent.display());
    let model = format!("openai:test-model@{}/v1", provider.uri());
    let suite_arg = suite.to_string_lossy().into_owned();
    let o = nab_run(
        &run_id,
        &out,
        &[
            "--tasks", &suite_arg, "--agent", &agent_arg, "--model", &model,
        ],
        &[("NAB_API_KEY", &canary)],
    );
    let recs = records(&out);
    assert_eq!(recs.len(), 1, "{}", show(&o));
    let r = &recs[0];
    // The provider saw the key (the mock only answers with it) ...
    provider.verify().await;
    // ... and the record has the gateway's numbers, not the agent's claims.
    assert_eq!(
        (
            r.usage.llm_calls,
            r.usage.input_tokens,
            r.usage.output_tokens,
            r.usage.cached_tokens
        ),
        (Some(1), Some(123), Some(45), Some(7)),
        "{r:?}"
    );
    assert_eq!(
        r.behaviour.agent_exit_reason.as_deref(),
        Some("final_answer")
    );
    assert_eq!(r.behaviour.steps, Some(1));

    // The agent really inspected its environment and /proc, and got the answer.
    let trial = out.join("trials/term-log-report/0");
    let diff = std::fs::read_to_string(trial.join(nab_protocol::DIFF_FILE)).unwrap();
    assert!(diff.contains("ENV {"), "{diff}");
    assert!(diff.contains("/proc/1/environ"), "{diff}");
    assert!(
        diff.contains("hello"),
        "the gateway's answer reached the agent: {diff}"
    );
    // The canary is nowhere in what the container saw or the run wrote.
    let mut scanned = 0;
    for e in walkdir::WalkDir::new(&out) {
        let e = e.unwrap();
        if e.file_type().is_file() {
            let bytes = std::fs::read(e.path()).unwrap();
            scanned += 1;
            assert!(
                !String::from_utf8_lossy(&bytes).contains(&canary),
                "the key leaked into {}",
                e.path().display()
            );
        }
    }
    assert!(
        scanned >= 5,
        "results, agent.log, diff, transcript, events: {scanned}"
    );
}

/// `--max-cost-usd` with a price that makes the first trial cross the limit: with one
/// trial at a time, the later trials never start (no folder, no record), the run says so
/// and exits 3; `--resume` without the limit runs them and keeps the first.
#[tokio::test(flavor = "multi_thread")]
async fn a_reached_cost_limit_starts_no_new_trial_and_resume_completes_the_run() {
    common::nab_agent_ready().await;
    let root = tempfile::tempdir().unwrap();
    // USD 1000 per million tokens: a trial's thousands of tokens cost dollars.
    let prices = common::prices(
        root.path(),
        "prices:\n  - {model: scripted, input: 1000, cached_input: 1000, output: 1000}\n",
    );
    let (run_id, _sweep, out) = common::run_slot(root.path(), "maxcost");
    let run = |rest: &[&str]| {
        let base = ["--trials", "3", "-j", "1"];
        let args = priced(
            &repo_tasks(),
            "nab-agent",
            "scripted:task",
            &prices,
            &[&base[..], rest].concat(),
        );
        nab_run(&run_id, &out, &args, &[])
    };
    let o = run(&["--max-cost-usd", "0.01", "term-log-report"]);
    assert_eq!(o.status.code(), Some(3), "{}", show(&o));
    let recs = records(&out);
    assert_eq!(recs.len(), 1, "{}", show(&o));
    let first = recs[0].clone();
    assert_eq!(first.trial, 0);
    assert_eq!(first.outcome.status, TrialStatus::Passed, "{first:?}");
    assert!(first.usage.cost_usd.unwrap() > 0.01, "{first:?}");
    for t in ["1", "2"] {
        assert!(
            !out.join("trials/term-log-report").join(t).exists(),
            "trial {t} was started"
        );
    }
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert!(
        stderr.contains("2 trial(s) were not started and are not recorded")
            && stderr.contains("--max-cost-usd 0.01"),
        "{}",
        show(&o)
    );

    let o = run(&["--resume", "term-log-report"]);
    assert_eq!(o.status.code(), Some(0), "{}", show(&o));
    let mut recs = records(&out);
    recs.sort_by_key(|r| r.trial);
    assert_eq!(
        recs.iter().map(|r| r.trial).collect::<Vec<_>>(),
        [0, 1, 2],
        "{}",
        show(&o)
    );
    assert_eq!(recs[0], first, "the trial that ran is kept, not run again");
    assert!(recs.iter().all(|r| r.outcome.status == TrialStatus::Passed));
}

/// A `command:` agent that makes three model calls through the gateway.
const THREE_CALLS: &str = concat!(
    "#!/usr/bin/env python3\n",
    crate::gateway_post_py!(),
    r#"for i in range(3):
    post(json.dumps({"model": "m", "messages": [{"role": "user", "content": "hi %d" % i}]}).encode())
"#
);

/// Attack: a priced upstream that reports absurd usage (u64::MAX tokens of every kind on
/// every call) at an absurd but finite price. The sums saturate instead of overflowing,
/// the cost is the largest finite number (never infinity, which JSON cannot carry), the
/// report is still written, and `--max-cost-usd` stops the run cleanly after that trial.
#[tokio::test(flavor = "multi_thread")]
async fn absurd_usage_from_a_priced_upstream_saturates_and_the_cost_limit_stops_the_run() {
    use wiremock::matchers::method;
    use wiremock::{Mock, MockServer, ResponseTemplate};
    common::base_image().await;
    let provider = MockServer::start().await;
    let max = u64::MAX;
    Mock::given(method("POST"))
        .respond_with(ResponseTemplate::new(200).set_body_json(serde_json::json!({
            "id": "c1", "object": "chat.completion", "created": 0, "model": "m",
            "choices": [{"index": 0, "message": {"role": "assistant", "content": "ok"}, "finish_reason": "stop"}],
            "usage": {"prompt_tokens": max, "completion_tokens": max, "total_tokens": max,
                      "prompt_tokens_details": {"cached_tokens": max}},
        })))
        .mount(&provider)
        .await;
    let root = common::agent_root();
    let agent = root.path().join("three.py");
    write_exec(&agent, THREE_CALLS);
    let prices = common::prices(
        root.path(),
        "prices:\n  - {model: absurd, input: 1e300, cached_input: 1e300, output: 1e300}\n",
    );
    let (run_id, _sweep, out) = common::run_slot(root.path(), "absurd");
    let agent_arg = format!("command:{}", agent.display());
    let model = format!("openai:absurd@{}/v1", provider.uri());
    let rest = ["--max-cost-usd", "1", "--trials", "2", "term-log-report"];
    let args = priced(&repo_tasks(), &agent_arg, &model, &prices, &rest);
    let o = nab_run(&run_id, &out, &args, &[("NAB_API_KEY", "unused")]);
    assert_eq!(o.status.code(), Some(3), "{}", show(&o));
    let recs = records(&out);
    assert_eq!(recs.len(), 1, "{}", show(&o));
    let r = &recs[0];
    assert_eq!(r.usage.llm_calls, Some(3), "{r:?}");
    assert_eq!(
        (
            r.usage.input_tokens,
            r.usage.output_tokens,
            r.usage.cached_tokens
        ),
        (Some(max), Some(max), Some(max)),
        "{r:?}"
    );
    assert_eq!(r.usage.cost_usd, Some(f64::MAX), "{r:?}");
    let stdout = String::from_utf8_lossy(&o.stdout);
    assert!(stdout.contains("report "), "{}", show(&o));
    let summary: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(out.join(nab_protocol::SUMMARY_FILE)).unwrap(),
    )
    .unwrap();
    assert_eq!(summary["usage"]["total_tokens"], max, "{summary}");
    assert!(!out.join("trials/term-log-report/1").exists());
}

/// A task's MCP server runs in its sidecar: the agent reaches it only through the socket
/// the harness serves (which notes every tool call), never its data; and a required call
/// pinned to arguments is not met by the same tool called with others.
#[tokio::test(flavor = "multi_thread")]
async fn mcp_servers_are_reached_only_by_socket_and_required_calls_pin_their_arguments() {
    common::base_image().await;
    common::ensure_nab_agent();
    let root = tempfile::tempdir().unwrap();
    let suite = root.path().join("suite");
    let task = "mcp-ticket-triage";
    copy_dir(&repo_tasks().join(task), &suite.join(task));
    // The same solution, but the model reads a distractor ticket instead of SHIP-142.
    let other = suite.join("mcp-other-ticket");
    copy_dir(&repo_tasks().join(task), &other);
    let yaml = std::fs::read_to_string(other.join("task.yaml")).unwrap();
    write(
        &other.join("task.yaml"),
        &yaml.replace("id: mcp-ticket-triage", "id: mcp-other-ticket"),
    );
    let traj = std::fs::read_to_string(other.join("trajectory.yaml")).unwrap();
    assert!(traj.contains("arguments: {id: SHIP-142}"));
    write(
        &other.join("trajectory.yaml"),
        &traj.replace("arguments: {id: SHIP-142}", "arguments: {id: SHIP-141}"),
    );
    let suite_arg = suite.to_string_lossy().into_owned();
    let run_id = common::unique("mcp");
    let _sweep = common::SweepOnDrop(run_id.clone());
    let out = root.path().join("out");
    let o = nab_run(
        &run_id,
        &out,
        &[
            "--tasks",
            &suite_arg,
            "--agent",
            "nab-agent",
            "--model",
            "scripted:task",
            "-j",
            "2",
        ],
        &[],
    );
    let recs = records(&out);
    assert_eq!(recs.len(), 2, "{}", show(&o));
    let solved = recs.iter().find(|r| r.task_id == task).unwrap();
    assert_eq!(
        solved.outcome.status,
        TrialStatus::Passed,
        "{solved:?}\n{}",
        show(&o)
    );
    let calls =
        std::fs::read_to_string(out.join("trials").join(task).join("0/mcp_calls.jsonl")).unwrap();
    assert!(
        calls.contains(r#""name":"mcp__tracker__get_ticket","arguments":{"id":"SHIP-142"}"#),
        "the harness notes the calls that reached the server: {calls}"
    );
    let wrong = recs
        .iter()
        .find(|r| r.task_id == "mcp-other-ticket")
        .unwrap();
    assert_eq!(wrong.outcome.status, TrialStatus::Failed, "{wrong:?}");
    assert_eq!(
        wrong.outcome.failure_reason,
        Some(nab_protocol::FailureReason::MissingToolCalls),
        "{wrong:?}"
    );
    assert!(
        wrong.behaviour.violations.iter().any(|v| v.contains(
            r#"required tool call `mcp__tracker__get_ticket` with {"id":"SHIP-142"} served never"#
        )),
        "{:?}",
        wrong.behaviour.violations
    );

    // An agent that looks for the tracker's data finds only the sockets; the socket is
    // how it gets a ticket.
    let snoop = root.path().join("snoop.sh");
    write_exec(
        &snoop,
        r#"#!/bin/sh
cd /workspace
{ ls /nab /nab/mcp-sockets; find / -xdev -name '*.json' -path '*data*' 2>/dev/null; ls /nab/mcp 2>&1; } > snoop.txt
python3 - >> snoop.txt 2>&1 <<'PY'
import json, socket
s = socket.socket(socket.AF_UNIX)
s.connect("/nab/mcp-sockets/tracker.sock")
f = s.makefile("rwb")
def send(m):
    f.write((json.dumps(m) + "\n").encode())
    f.flush()
send({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "snoop", "version": "0"}}})
print("init:", f.readline().decode().strip()[:80])
send({"jsonrpc": "2.0", "method": "notifications/initialized"})
send({"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": "get_ticket", "arguments": {"id": "SHIP-142"}}})
print("ticket:", f.readline().decode().strip())
s.close()
# A flood of connections: the harness serves 32 a trial, then closes the rest at once.
answered = 0
for _ in range(39):
    c = socket.socket(socket.AF_UNIX)
    c.connect("/nab/mcp-sockets/tracker.sock")
    g = c.makefile("rwb")
    try:
        g.write((json.dumps({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "flood", "version": "0"}}}) + "\n").encode())
        g.flush()
        answered += bool(g.readline())
    except OSError:
        pass
    c.close()
print("flood answered:", answered)
PY
"#,
    );
    let agent = format!("command:{}", snoop.display());
    let out2 = root.path().join("out2");
    let o = nab_run(
        &format!("{run_id}-snoop"),
        &out2,
        &["--tasks", &suite_arg, "--agent", &agent, task],
        &[],
    );
    let _sweep2 = common::SweepOnDrop(format!("{run_id}-snoop"));
    let diff = std::fs::read_to_string(out2.join("trials").join(task).join("0/diff.patch"))
        .unwrap_or_else(|e| panic!("{e}\n{}", show(&o)));
    assert!(
        diff.contains("+servers.json") && diff.contains("+tracker.sock"),
        "{diff}"
    );
    assert!(
        !diff.contains("tickets.json") && diff.contains("No such file or directory"),
        "the agent's container has none of the server's files: {diff}"
    );
    assert!(
        diff.contains("+init:") && diff.contains("SHIP-142"),
        "{diff}"
    );
    assert!(
        diff.contains("customer-blocker") || diff.contains("shipping"),
        "the ticket came back through the socket: {diff}"
    );
    assert!(diff.contains("+flood answered: 31"), "{diff}");
    let log = std::fs::read_to_string(out2.join("trials").join(task).join("0/mcp.log")).unwrap();
    assert!(
        log.contains("32 connections, 8 refused, 1 tool calls noted"),
        "{log}"
    );
}

/// The servers' record goes into the verifier at /nab/mcp-record/calls.jsonl, the
/// verifier user's alone: a hidden test replays it (here: the one ticket the agent read,
/// and the call that failed, with what the server answered), and the sandbox user can
/// neither read, list nor change it.
#[tokio::test(flavor = "multi_thread")]
async fn hidden_tests_read_the_mcp_servers_record_which_the_sandbox_user_cannot() {
    common::base_image().await;
    let root = tempfile::tempdir().unwrap();
    let suite = root.path().join("suite");
    let task = "mcp-ticket-triage";
    let dir = suite.join(task);
    copy_dir(&repo_tasks().join(task), &dir);
    std::fs::remove_dir_all(dir.join("tests")).unwrap();
    // Only the record is checked; the agent makes two real calls and changes nothing.
    let yaml = std::fs::read_to_string(dir.join("task.yaml")).unwrap();
    let yaml = yaml
        .split("required_tool_calls:")
        .next()
        .unwrap()
        .to_owned();
    write(&dir.join("task.yaml"), &yaml);
    write(
        &dir.join("tests/conftest.py"),
        "# Roots pytest here; nothing from the workspace is configuration.\n",
    );
    write(
        &dir.join("tests/test_record.py"),
        r#"import json, os, stat
import nabverify as nv

RECORD = "/nab/mcp-record/calls.jsonl"

def test_the_record_lists_what_the_server_served():
    with open(RECORD, encoding="utf-8") as f:
        calls = [json.loads(l) for l in f if l.strip()]
    got = [(c["name"], c["arguments"], c["is_error"]) for c in calls]
    assert got == [
        ("mcp__tracker__get_ticket", {"id": "SHIP-142"}, False),
        ("mcp__tracker__get_ticket", {"id": "NOPE-1"}, True),
    ], got
    assert '"SHIP-142"' in calls[0]["result_text"], calls[0]
    assert calls[1]["result_text"].startswith("no ticket with id"), calls[1]

def test_the_record_is_the_verifiers_alone():
    for path, mode in ((RECORD, 0o600), (os.path.dirname(RECORD), 0o700)):
        st = os.lstat(path)
        assert (st.st_uid, stat.S_IMODE(st.st_mode)) == (2000, mode), (path, st)
    r = nv.run(["cat", RECORD])
    assert not r.ok and "Permission denied" in r.stderr, (r.stdout, r.stderr)
    r = nv.run(["ls", "/nab/mcp-record"])
    assert not r.ok and "Permission denied" in r.stderr, (r.stdout, r.stderr)
    r = nv.run(["sh", "-c", "echo x >> " + RECORD])
    assert not r.ok
    assert nv.read(RECORD) is None
"#,
    );
    let agent = root.path().join("agent.sh");
    write_exec(
        &agent,
        r#"#!/bin/sh
python3 /nab/mcp-sockets/mcp_call.py tracker get_ticket '{"id": "SHIP-142"}' > /dev/null
python3 /nab/mcp-sockets/mcp_call.py tracker get_ticket '{"id": "NOPE-1"}' > /dev/null
exit 0
"#,
    );
    let suite_arg = suite.to_string_lossy().into_owned();
    let run_id = common::unique("mcprec");
    let _sweep = common::SweepOnDrop(run_id.clone());
    let out = root.path().join("out");
    let agent_arg = format!("command:{}", agent.display());
    let o = nab_run(
        &run_id,
        &out,
        &["--tasks", &suite_arg, "--agent", &agent_arg, task],
        &[],
    );
    let recs = records(&out);
    assert_eq!(recs.len(), 1, "{}", show(&o));
    let verify_log = std::fs::read_to_string(out.join("trials").join(task).join("0/verify.log"))
        .unwrap_or_default();
    assert_eq!(
        recs[0].outcome.status,
        TrialStatus::Passed,
        "{:?}\n{}\n{verify_log}",
        recs[0],
        show(&o)
    );
    assert_eq!(recs[0].outcome.tests_passed, Some(2), "{:?}", recs[0]);
}
