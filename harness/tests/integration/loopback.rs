//! The gateway at an HTTP base URL on the sandbox's loopback (issue 40, item 1), against
//! real Docker: a `command:` agent reaches it with nothing but the variables it is given,
//! in each dialect; it cannot kill the relay, take its port, or exhaust it for the harness;
//! and the official `openai` and `anthropic` Python clients, installed in the task's image,
//! hold tool-using conversations through it with the counts nab records.

use crate::common;

use common::{show, write, write_exec};
use nab_protocol::{TrialRecord, TrialStatus};
use serde_json::Value;
use std::path::{Path, PathBuf};

fn records(out: &Path) -> Vec<TrialRecord> {
    nab_protocol::read_jsonl::<TrialRecord>(&out.join(nab_protocol::RESULTS_FILE))
        .unwrap()
        .records
}

/// A one-task suite whose verifier passes whatever the agent did (these tests read the
/// agent's findings from the workspace's diff), with `extra` task YAML.
fn suite(root: &Path, id: &str, extra: &str) -> PathBuf {
    let suite = root.join("suite");
    let d = suite.join(id);
    write(
        &d.join("task.yaml"),
        &common::task_yaml(id, "terminal", r#"["true"]"#, extra),
    );
    write(&d.join("instruction.md"), "Talk to the model.\n");
    write(&d.join("workspace/README"), "a workspace\n");
    write(&d.join("solution/solve.sh"), "true\n");
    write(&d.join("tests/README"), "the verifier runs `true`\n");
    suite
}

/// Runs the agent on the suite with the scripted model; its record (which must have
/// passed) and its trial folder.
fn run(
    root: &Path,
    suite: &Path,
    agent: &Path,
    model: &Path,
    engine: Option<&str>,
) -> (TrialRecord, PathBuf) {
    let (run_id, _sweep, out) = common::run_slot(root, "loopback");
    let mut cmd = common::nab_run(&run_id, 1);
    if let Some(e) = engine {
        cmd.args(["--engine", e]);
    }
    let o = cmd
        .arg("--out")
        .arg(&out)
        .args(["--tasks", &suite.display().to_string()])
        .args(["--agent", &format!("command:{}", agent.display())])
        .args(["--model", &format!("scripted:{}", model.display())])
        .output()
        .unwrap();
    let mut recs = records(&out);
    assert_eq!(recs.len(), 1, "{}", show(&o));
    let r = recs.remove(0);
    let trial = out.join("trials").join(&r.task_id).join("0");
    let log = std::fs::read_to_string(trial.join("agent.log")).unwrap_or_default();
    assert_eq!(
        r.outcome.status,
        TrialStatus::Passed,
        "{r:?}\n{log}\n{}",
        show(&o)
    );
    assert_eq!(
        r.outcome.agent_exit_code,
        Some(0),
        "the agent failed:\n{log}"
    );
    // The run wrote the trial's trajectory in ATIF at its end.
    let atif = out
        .join(nab_protocol::ATIF_DIR)
        .join(&r.task_id)
        .join("0.json");
    let atif: Value = serde_json::from_slice(&std::fs::read(&atif).unwrap()).unwrap();
    assert!(
        atif["schema_version"].as_str().unwrap().starts_with("ATIF"),
        "{atif}"
    );
    (r, trial)
}

/// What the agent wrote to `file` in the workspace, as the run's diff carries it.
fn written(out_trial: &Path, file: &str) -> String {
    let diff = std::fs::read_to_string(out_trial.join(nab_protocol::DIFF_FILE)).unwrap();
    let start = diff
        .find(&format!("+++ b/{file}"))
        .unwrap_or_else(|| panic!("{file} not in the diff:\n{diff}"));
    diff[start..]
        .lines()
        .skip(2)
        .take_while(|l| !l.starts_with("diff --git"))
        .filter_map(|l| l.strip_prefix('+'))
        .collect::<Vec<_>>()
        .join("\n")
}

/// Calls the gateway in two dialects by the variables alone, then attacks the relay: kill
/// it, take its port, hold more connections than it allows, and reach past it.
const PROBE: &str = r#"#!/usr/bin/env python3
import errno, json, os, signal, socket, threading, time, urllib.request
found = {"env": {k: os.environ.get(k) for k in
         ("OPENAI_BASE_URL", "ANTHROPIC_BASE_URL", "NAB_LLM_BASE_URL", "OPENAI_API_KEY")}}

def post(url, body, headers):
    req = urllib.request.Request(url, json.dumps(body).encode(), dict(headers, **{"content-type": "application/json"}))
    with urllib.request.urlopen(req, timeout=30) as r:
        return json.load(r)

chat = post(os.environ["OPENAI_BASE_URL"] + "/chat/completions",
            {"model": "m", "messages": [{"role": "user", "content": "one"}]},
            {"authorization": "Bearer " + os.environ["OPENAI_API_KEY"]})
found["chat"] = chat["choices"][0]["message"]["content"]
msg = post(os.environ["ANTHROPIC_BASE_URL"] + "/v1/messages",
           {"model": "m", "max_tokens": 64, "messages": [{"role": "user", "content": "two"}]},
           {"x-api-key": os.environ["ANTHROPIC_API_KEY"], "anthropic-version": "2023-06-01"})
found["messages"] = msg["content"][0]["text"]

relay = [p for p in os.listdir("/proc") if p.isdigit()
         and b"nab-relay" in open("/proc/%s/cmdline" % p, "rb").read()]
found["relay_seen"] = len(relay)
kills = set()
for p in relay:
    try:
        os.kill(int(p), signal.SIGKILL)
        kills.add("killed")
    except OSError as e:
        kills.add(errno.errorcode[e.errno])
found["kill"] = sorted(kills)
s = socket.socket()
s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
try:
    s.bind(("127.0.0.1", 47611)); s.listen(); found["bind"] = "bound"
except OSError as e:
    found["bind"] = errno.errorcode[e.errno]
held = []
for _ in range(100):
    try:
        held.append(socket.create_connection(("127.0.0.1", 47611), timeout=5))
    except OSError:
        break
found["held"] = len(held)
for c in held:
    c.close()
try:
    socket.create_connection(("10.0.0.1", 80), timeout=3); found["outside"] = "reached"
except OSError as e:
    found["outside"] = "refused"
last = post(os.environ["OPENAI_BASE_URL"] + "/chat/completions",
            {"model": "m", "messages": [{"role": "user", "content": "three"}]}, {})
found["after"] = last["choices"][0]["message"]["content"]
# Spend the container's process limit on idle threads: the relays need none per connection,
# so the model is still reached.
stop, idle, refused = threading.Event(), [], 0
while refused < 5:
    t = threading.Thread(target=stop.wait)
    try:
        t.start()
        idle.append(t)
    except RuntimeError:
        refused += 1
        time.sleep(0.05)
found["threads_spent"] = len(idle)
try:
    spent = post(os.environ["OPENAI_BASE_URL"] + "/chat/completions",
                 {"model": "m", "messages": [{"role": "user", "content": "four"}]}, {})
    found["while_spent"] = spent["choices"][0]["message"]["content"]
except OSError as e:
    found["while_spent"] = repr(e)
stop.set()
for t in idle:
    t.join()
open("/workspace/probe.json", "w").write(json.dumps(found, sort_keys=True) + "\n")
"#;

#[tokio::test(flavor = "multi_thread")]
async fn a_command_agent_reaches_the_gateway_on_the_loopback_and_cannot_take_it_over() {
    common::base_image().await;
    probe_the_loopback(None);
}

/// The same on a remote engine, where /nab/llm.sock is itself a relay's socket.
#[tokio::test(flavor = "multi_thread")]
async fn on_a_remote_engine_the_loopback_reaches_the_relayed_gateway() {
    let image = common::base_image().await;
    let socket = crate::remote_engine::start_engine();
    crate::remote_engine::with_images(&socket, &[image]).await;
    probe_the_loopback(Some(&format!("unix://{}#remote", socket.display())));
}

/// Runs [`PROBE`] (on `engine`, else the default one) and checks what it found.
fn probe_the_loopback(engine: Option<&str>) {
    let root = common::agent_root();
    let suite = suite(root.path(), "loopback-probe", "");
    let agent = root.path().join("probe.py");
    write_exec(&agent, PROBE);
    let model = root.path().join("turns.yaml");
    write(
        &model,
        "turns:\n  - content: first answer\n  - content: second answer\n  - content: third answer\n  - content: fourth answer\n",
    );
    let (r, trial) = run(root.path(), &suite, &agent, &model, engine);
    let found: Value = serde_json::from_str(&written(&trial, "probe.json")).unwrap();
    assert_eq!(found["env"]["OPENAI_BASE_URL"], "http://127.0.0.1:47611/v1");
    assert_eq!(found["env"]["OPENAI_API_KEY"], "nab-gateway-holds-the-key");
    // Both dialects answered, in order, from the one scripted model.
    assert_eq!(found["chat"], "first answer", "{found}");
    assert_eq!(found["messages"], "second answer", "{found}");
    // The relay is there (on a remote engine, beside the socket relay), and the sandbox
    // user can neither kill it nor take its port ...
    assert!(found["relay_seen"].as_u64().unwrap() >= 1, "{found}");
    assert_eq!(found["kill"], serde_json::json!(["EPERM"]), "{found}");
    assert_eq!(found["bind"], "EADDRINUSE", "{found}");
    // ... holding connections gets it no more than the relay's cap (the rest wait in the
    // listener's backlog), nothing lies beyond the loopback, and once let go the relay
    // serves again.
    assert!(found["held"].as_u64().unwrap() >= 64, "{found}");
    assert_eq!(found["outside"], "refused", "{found}");
    assert_eq!(found["after"], "third answer", "{found}");
    // With the sandbox's process limit spent by the agent, the relays (one thread for every
    // connection) still carry its call.
    assert!(found["threads_spent"].as_u64().unwrap() > 50, "{found}");
    assert_eq!(found["while_spent"], "fourth answer", "{found}");
    // The gateway counted all four calls.
    assert_eq!(r.usage.llm_calls, Some(4), "{:?}", r.usage);
}

/// The gateway's Python client script (gateway/tests/python), run with `env`: each client
/// reads the base URL and key from its own variables, as an unmodified agent does.
fn clients_script() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../gateway/tests/python/gateway_clients.py")
}

/// The pins the gateway's host-side client tests use.
fn client_pins() -> Vec<String> {
    let pins = Path::new(env!("CARGO_MANIFEST_DIR")).join("../ci/python-clients.txt");
    std::fs::read_to_string(pins)
        .unwrap()
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(str::to_owned)
        .collect()
}

#[tokio::test(flavor = "multi_thread")]
async fn the_official_python_clients_converse_through_the_loopback_inside_the_sandbox() {
    common::base_image().await;
    let root = common::agent_root();
    let pins = client_pins()
        .iter()
        .map(|p| format!("\"{p}\""))
        .collect::<Vec<_>>()
        .join(", ");
    let suite = suite(
        root.path(),
        "python-clients",
        &format!("environment:\n  pip: [{pins}]\n"),
    );
    let fixtures = suite.join("python-clients/fixtures");
    std::fs::create_dir_all(&fixtures).unwrap();
    std::fs::copy(clients_script(), fixtures.join("gateway_clients.py")).unwrap();
    let agent = root.path().join("clients.sh");
    write_exec(
        &agent,
        "#!/bin/sh\nset -e\nfor c in chat responses anthropic; do for m in whole stream; do\n  \
         python3 /nab/task/gateway_clients.py env $c $m >> /workspace/turns.jsonl\ndone; done\n",
    );
    // Each conversation: the model asks for read_file, then answers.
    let model = root.path().join("turns.yaml");
    let turn = "  - content: \"\"\n    tool_calls:\n      - name: read_file\n        arguments: {path: a.txt}\n  - content: It says hello.\n";
    write(&model, &format!("turns:\n{}", turn.repeat(6)));
    let (r, out_trial) = run(root.path(), &suite, &agent, &model, None);
    let turns: Vec<Value> = written(&out_trial, "turns.jsonl")
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(turns.len(), 12, "{turns:?}");
    for pair in turns.chunks(2) {
        assert_eq!(pair[0]["calls"][0][1], "read_file", "{pair:?}");
        assert_eq!(pair[1]["text"], "It says hello.", "{pair:?}");
    }
    // What the libraries reported, in each API's terms, is what nab recorded.
    let n = |u: &Value, k: &str| u[k].as_u64().unwrap_or(0);
    let (mut input, mut output) = (0, 0);
    for t in &turns {
        let u = &t["usage"];
        input += n(u, "prompt_tokens") + n(u, "input_tokens") + n(u, "cache_read_input_tokens");
        output += n(u, "completion_tokens") + n(u, "output_tokens");
    }
    assert_eq!(r.usage.llm_calls, Some(12), "{:?}", r.usage);
    assert_eq!(r.usage.input_tokens, Some(input), "{:?}", r.usage);
    assert_eq!(r.usage.output_tokens, Some(output), "{:?}", r.usage);
}
