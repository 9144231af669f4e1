//! The whole agent, as the harness starts it, with MCP servers and context management:
//! a scripted model calls MCP tools (the rmcp fixture server and a junk-printing Python
//! server), gets their results, reads an offloaded output back from the state directory,
//! and finishes. Afterwards no process of any fixture is alive.

use crate::support;
use nab_agent::mcp::proctree::read_stat;

use serde_json::json;
use support::{
    ScriptedServer, agent_run, call, fixture, offered, run_to_success, say, tool_messages, tools,
};

#[tokio::test(flavor = "multi_thread")]
async fn the_agent_calls_mcp_tools_reads_an_offloaded_output_and_leaves_no_process_behind() {
    let dir = tempfile::tempdir().unwrap();
    let ws = dir.path().join("workspace");
    std::fs::create_dir_all(&ws).unwrap();
    std::fs::write(ws.join("README.md"), "a project\n").unwrap();
    let state = dir.path().join("out/state");
    let events = dir.path().join("out/events.jsonl");
    let mcp = dir.path().join("task/mcp.json");
    std::fs::create_dir_all(mcp.parent().unwrap()).unwrap();
    std::fs::write(
        &mcp,
        json!({"mcpServers": {
            "fx": {"command": env!("CARGO_BIN_EXE_nab-mcp-fixture")},
            "junky": {"command": "python3", "args": ["-u", fixture("misbehaving_mcp.py"), "junk"]}
        }})
        .to_string(),
    )
    .unwrap();
    // Request n answers with call ids `call_<n>_<i>`: the offloaded output of the first call
    // of request 3 is the state directory's first file.
    let offloaded = state.join("tool-outputs/0001-call_3_0.txt");
    let server = ScriptedServer::start(vec![
        tools(vec![
            call("mcp__fx__add", json!({"a": 2, "b": 40})),
            call("mcp__fx__whoami", json!({})),
            call("mcp__junky__whoami", json!({})),
        ]),
        tools(vec![call("mcp__junky__echo", json!({"text": "hi"}))]),
        tools(vec![call("mcp__fx__lines", json!({"count": 5000}))]),
        tools(vec![call(
            "read_file",
            json!({"path": offloaded.display().to_string(), "offset": 2500, "limit": 3}),
        )]),
        say("2 + 40 = 42, and the long output ends at line 04999."),
    ])
    .await;
    let mut agent = agent_run(&ws, &server.base_url, &state);
    agent
        .args(["--instruction", "Add 2 and 40 with the MCP tool."])
        .arg("--events")
        .arg(&events)
        .arg("--mcp-config")
        .arg(&mcp)
        .args(["--context-window", "100000"]);
    run_to_success(agent).await;

    let reqs = server.recorder.requests();
    assert_eq!(reqs.len(), 5);
    let names = offered(&reqs[0]);
    for t in [
        "mcp__fx__add",
        "mcp__fx__echo",
        "mcp__fx__whoami",
        "mcp__junky__echo",
        "read_file",
    ] {
        assert!(names.iter().any(|n| n == t), "{t} not offered: {names:?}");
    }
    let mut sorted = names.clone();
    sorted.sort();
    assert_eq!(names, sorted, "schemas sorted by name");

    let first = tool_messages(&reqs[1]);
    assert_eq!(first[0], ("call_1_0".to_string(), "42".to_string()));
    let fx_pid: i32 = first[1].1.parse().unwrap();
    let junky: serde_json::Value = serde_json::from_str(&first[2].1).unwrap();
    let junky_pid = junky["pid"].as_i64().unwrap() as i32;
    let second = tool_messages(&reqs[2]);
    assert_eq!(
        second.last().unwrap().1,
        "client answered my ping; echo: hi"
    );

    // The long output was offloaded: a stub in the context, the full text in the state dir.
    let third = tool_messages(&reqs[3]);
    let stub = &third.last().unwrap().1;
    assert!(
        stub.starts_with("[nab-agent: output offloaded]")
            && stub.contains(&offloaded.display().to_string()),
        "{stub}"
    );
    assert!(stub.len() < 4_000, "{}", stub.len());
    assert!(
        std::fs::read_to_string(&offloaded)
            .unwrap()
            .contains("line 04999")
    );
    // …read back through read_file…
    let read = tool_messages(&reqs[4]).last().unwrap().1.clone();
    assert!(
        read.contains("2500\tline 02499") && read.contains("2502\tline 02501"),
        "{read}"
    );
    // …and never in the workspace.
    let files: Vec<String> = std::fs::read_dir(&ws)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(files, ["README.md"]);

    let ev = support::read_events(&events);
    assert_eq!(ev.first().unwrap()["kind"], "start");
    assert_eq!(ev.last().unwrap()["exit_reason"], "final_answer");
    let mcp_actions: Vec<(String, String)> = ev
        .iter()
        .filter(|e| e["kind"] == "mcp")
        .map(|e| {
            (
                e["server"].as_str().unwrap().to_string(),
                e["action"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    for server in ["fx", "junky"] {
        for action in ["start", "ready", "call"] {
            assert!(
                mcp_actions.contains(&(server.to_string(), action.to_string())),
                "{server} {action}: {mcp_actions:?}"
            );
        }
    }
    assert!(
        ev.iter()
            .any(|e| e["kind"] == "compaction" && e["tier"] == "offload" && e["succeeded"] == true)
    );

    // No fixture process outlives the agent.
    for pid in [fx_pid, junky_pid] {
        let mut gone = false;
        for _ in 0..40 {
            if read_stat(pid).is_none_or(|s| s.state == 'Z') {
                gone = true;
                break;
            }
            std::thread::sleep(std::time::Duration::from_millis(50));
        }
        assert!(gone, "fixture process {pid} survived the agent");
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn a_server_given_up_is_reported_to_the_model_with_its_stderr() {
    let dir = tempfile::tempdir().unwrap();
    let ws = dir.path().join("workspace");
    std::fs::create_dir_all(&ws).unwrap();
    let state = dir.path().join("out/state");
    let mcp = dir.path().join("mcp.json");
    std::fs::write(
        &mcp,
        json!({"mcpServers": {"doomed": {"command": "python3", "args": ["-u", fixture("misbehaving_mcp.py"), "die"]}}}).to_string(),
    )
    .unwrap();
    // The server dies at every start; with the real backoff (1 + 2 + 4 s) it is given up
    // while the first command runs (15 s: its four starts of python3 are slow on a loaded
    // machine, and 9 s was not always enough).
    let server = ScriptedServer::start(vec![
        tools(vec![call(
            "execute_command",
            json!({"argv": ["sleep", "15"]}),
        )]),
        say("The tracker is unavailable."),
    ])
    .await;
    let mut agent = agent_run(&ws, &server.base_url, &state);
    agent
        .args(["--instruction", "Look up ticket 7."])
        .arg("--mcp-config")
        .arg(&mcp);
    run_to_success(agent).await;
    let reqs = server.recorder.requests();
    assert_eq!(reqs.len(), 2);
    let names = offered(&reqs[0]);
    assert!(
        !names.iter().any(|n| n.starts_with("mcp__")),
        "a dead server offers no tools: {names:?}"
    );
    let told = tool_messages(&reqs[1]).last().unwrap().1.clone();
    assert!(
        told.contains("[nab-agent notice] MCP server `doomed` stopped working"),
        "{told}"
    );
    assert!(
        told.contains("stderr: fatal: cannot open /nonexistent/tracker.db"),
        "{told}"
    );
}
