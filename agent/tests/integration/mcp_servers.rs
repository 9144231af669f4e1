//! The MCP client against real server processes: the rmcp fixture server (well behaved) and
//! the misbehaving Python fixtures (junk on stdout, hang on a call, crash after the first
//! call, a child process that ignores SIGTERM, a server that dies at once). Every test ends
//! by proving that no process any fixture started is still alive.

use crate::support::fixture;
use nab_agent::mcp::EventSink;
use nab_agent::mcp::proctree::{ProcInfo, is_alive, read_cmdline, read_stat, snapshot};
use nab_agent::mcp::supervisor::Status;
use nab_agent::{McpConfig, McpManager, Timings};
use nab_protocol::EventKind;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::Duration;

type Events = Arc<Mutex<Vec<(String, String, Option<String>)>>>;

fn sink() -> (EventSink, Events) {
    let events: Events = Arc::new(Mutex::new(Vec::new()));
    let ev = events.clone();
    let sink: EventSink = Arc::new(move |e| {
        if let EventKind::Mcp {
            server,
            action,
            detail,
        } = e
        {
            ev.lock().unwrap().push((server, action, detail));
        }
    });
    (sink, events)
}

/// The rmcp fixture server, as `fx`.
fn fixture_config() -> McpConfig {
    McpConfig::parse(&format!(
        r#"{{"mcpServers": {{"fx": {{"command": "{}"}}}}}}"#,
        env!("CARGO_BIN_EXE_nab-mcp-fixture")
    ))
    .unwrap()
}

fn python_config(server: &str, mode: &str) -> McpConfig {
    McpConfig::parse(&format!(
        r#"{{"mcpServers": {{"{server}": {{"command": "python3", "args": ["-u", "{}", "{mode}"]}}}}}}"#,
        fixture("misbehaving_mcp.py")
    ))
    .unwrap()
}

/// Short waits so misbehaviour shows within seconds; the specified values are tested on a
/// paused clock in mcp_backoff.rs.
fn quick() -> Timings {
    Timings {
        handshake_timeout: Duration::from_secs(20),
        // Generous enough for a loaded CI machine: a healthy server must never miss two.
        call_timeout: Duration::from_secs(5),
        ping_interval: Duration::from_millis(500),
        ping_timeout: Duration::from_millis(1500),
        backoff: vec![
            Duration::from_millis(50),
            Duration::from_millis(100),
            Duration::from_millis(200),
        ],
        ..Timings::default()
    }
}

/// Polls for up to 10 s until none of `pids` is alive (a zombie counts as ended).
async fn assert_all_gone(pids: &[(i32, u64)]) {
    for _ in 0..200 {
        if pids.iter().all(|(pid, start)| !alive(*pid, *start)) {
            return;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let left: Vec<_> = pids.iter().filter(|(p, s)| alive(*p, *s)).collect();
    panic!("fixture processes survived: {left:?}");
}

fn alive(pid: i32, start: u64) -> bool {
    is_alive(&ProcInfo {
        pid,
        ppid: 0,
        pgid: 0,
        start_time: start,
        state: 'R',
    })
}

fn identity(pid: i32) -> (i32, u64) {
    (pid, read_stat(pid).map_or(0, |s| s.start_time))
}

/// Every process of every incarnation, with its descendants at this moment.
fn tree_of(manager: &McpManager) -> Vec<(i32, u64)> {
    manager
        .pids()
        .into_iter()
        .flat_map(|p| snapshot(p, Some(p)))
        .map(|m| (m.proc.pid, m.proc.start_time))
        .collect()
}

/// The servers' process tree once it has `n` members (it grows as they fork), or the last
/// one seen after 10 s, for the caller's assertion to show.
async fn tree_with_at_least(manager: &McpManager, n: usize) -> Vec<(i32, u64)> {
    let mut tree = tree_of(manager);
    for _ in 0..200 {
        if tree.len() >= n {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
        tree = tree_of(manager);
    }
    assert!(tree.len() >= n, "{tree:?}");
    tree
}

fn actions(events: &Events) -> Vec<String> {
    events.lock().unwrap().iter().map(|e| e.1.clone()).collect()
}

async fn wait_status(m: &McpManager, server: &str, f: impl Fn(&Status) -> bool) -> Status {
    let mut rx = m.subscribe(server).unwrap();
    tokio::time::timeout(Duration::from_secs(20), rx.wait_for(|s| f(s)))
        .await
        .expect("status did not come")
        .unwrap()
        .clone()
}

fn state_dir() -> (tempfile::TempDir, PathBuf) {
    let d = tempfile::tempdir().unwrap();
    let p = d.path().join("state");
    (d, p)
}

/// A manager of `config`'s servers, started with `timings` and ready, with its state
/// folder (kept as long as this lives) and the MCP events it sent.
struct Started {
    _dir: tempfile::TempDir,
    state: PathBuf,
    m: McpManager,
    events: Events,
}

async fn start(config: &McpConfig, timings: Timings) -> Started {
    let (_dir, state) = state_dir();
    let (sink, events) = sink();
    let m = McpManager::spawn(config, &state, None, timings, sink)
        .await
        .unwrap()
        .ready()
        .await;
    Started {
        _dir,
        state,
        m,
        events,
    }
}

/// Quick timings with pings an hour apart: only a server's exit can reveal its death.
fn no_pings() -> Timings {
    Timings {
        ping_interval: Duration::from_secs(3600),
        ..quick()
    }
}

/// The detail of the first `death` event.
fn death(events: &Events) -> String {
    events
        .lock()
        .unwrap()
        .iter()
        .find(|e| e.1 == "death")
        .and_then(|e| e.2.clone())
        .expect("a death event with its cause")
}

/// Shuts `m` down; then no process of its servers' trees is alive.
async fn shutdown_leaves_nothing(m: McpManager) {
    let tree = tree_of(&m);
    m.shutdown().await;
    assert_all_gone(&tree).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_rmcp_server_lists_calls_and_relists_after_list_changed() {
    let Started {
        _dir,
        state,
        m,
        events,
    } = start(&fixture_config(), quick()).await;
    let names: Vec<String> = m.tools().into_iter().map(|t| t.name).collect();
    assert_eq!(
        names,
        [
            "mcp__fx__add",
            "mcp__fx__echo",
            "mcp__fx__lines",
            "mcp__fx__unlock",
            "mcp__fx__whoami"
        ]
    );
    let add = m
        .call("mcp__fx__add", serde_json::json!({"a": 2, "b": 40}))
        .await;
    assert_eq!((add.text.as_str(), add.is_error), ("42", false));
    let pid: i32 = m
        .call("mcp__fx__whoami", serde_json::json!({}))
        .await
        .text
        .parse()
        .unwrap();
    assert_eq!(m.pids(), [pid]);
    let recorded = std::fs::read_to_string(state.join("mcp-servers.json")).unwrap();
    assert!(recorded.contains(&format!("\"pid\": {pid}")), "{recorded}");

    let generation = m.generation();
    assert_eq!(
        m.call("mcp__fx__unlock", serde_json::json!({})).await.text,
        "unlocked"
    );
    for _ in 0..100 {
        if m.generation() != generation {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert!(
        m.tools().iter().any(|t| t.name == "mcp__fx__secret"),
        "re-listed after list_changed"
    );
    assert_eq!(
        m.call("mcp__fx__secret", serde_json::json!({})).await.text,
        "swordfish"
    );
    let bad = m.call("mcp__fx__nope", serde_json::json!({})).await;
    assert!(
        bad.is_error && bad.text.contains("not available"),
        "{}",
        bad.text
    );

    let tree = tree_of(&m);
    m.shutdown().await;
    assert_all_gone(&tree).await;
    let a = actions(&events);
    assert_eq!(&a[..2], ["start", "ready"]);
    assert!(
        a.contains(&"call".to_string()) && a.contains(&"tools_changed".to_string()),
        "{a:?}"
    );
    assert!(!a.contains(&"death".to_string()), "{a:?}");
    let left = std::fs::read_to_string(state.join("mcp-servers.json")).unwrap();
    assert!(
        !left.contains(&format!("\"pid\": {pid}")),
        "a cleanly ended server is forgotten: {left}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn junk_on_stdout_is_kept_aside_and_server_requests_are_answered() {
    let Started { _dir, m, .. } = start(&python_config("junky", "junk"), quick()).await;
    assert_eq!(m.status("junky"), Some(Status::Ready));
    let out = m
        .call("mcp__junky__echo", serde_json::json!({"text": "hi"}))
        .await;
    assert_eq!(out.text, "client answered my ping; echo: hi", "{out:?}");
    // stderr has its own reader: the call's answer can come back before its last stderr
    // lines are in the ring.
    let mut tail = String::new();
    for _ in 0..50 {
        tail = m.ring_tail("junky", 200).join("\n");
        if tail.contains("stderr: working on call 1 step 4") {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert!(
        tail.contains("stdout: MCP fixture server starting"),
        "{tail}"
    );
    assert!(tail.contains("stdout: progress 80%"), "{tail}");
    assert!(
        tail.contains(r#"stdout: {"not": "json-rpc", "but": "valid json"}"#),
        "{tail}"
    );
    assert!(tail.contains("stderr: working on call 1 step 4"), "{tail}");
    let stats = m.line_stats("junky").unwrap();
    assert!(stats.junk.load(std::sync::atomic::Ordering::SeqCst) >= 8);
    assert_eq!(
        stats.requests.load(std::sync::atomic::Ordering::SeqCst),
        1,
        "the server's own ping request"
    );
    // Still healthy after all that, and idle pings are answered.
    tokio::time::sleep(Duration::from_millis(800)).await;
    assert_eq!(m.status("junky"), Some(Status::Ready));
    shutdown_leaves_nothing(m).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_call_that_hangs_times_out_and_the_unresponsive_server_is_replaced() {
    let Started {
        _dir, m, events, ..
    } = start(&python_config("hangs", "hang"), quick()).await;
    let first = m.pids();
    let tree = tree_of(&m);
    let out = m
        .call("mcp__hangs__echo", serde_json::json!({"text": "x"}))
        .await;
    assert!(out.timed_out && out.is_error, "{out:?}");
    assert!(out.text.contains("timed out"), "{}", out.text);
    // Idle again, it does not answer pings: dead after two, and restarted.
    wait_status(&m, "hangs", |s| *s == Status::Down).await;
    assert!(
        m.tools().is_empty(),
        "its tools are unregistered while it is down"
    );
    wait_status(&m, "hangs", |s| *s == Status::Ready).await;
    assert_ne!(m.pids(), first);
    assert_all_gone(&tree).await; // the first incarnation is gone
    let death = death(&events);
    assert!(death.contains("pings"), "{death}");
    shutdown_leaves_nothing(m).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_crash_after_the_first_call_is_noticed_at_once_and_restarted() {
    let Started {
        _dir, m, events, ..
    } = start(&python_config("crashy", "crash"), no_pings()).await;
    let tree = tree_of(&m);
    let out = m
        .call("mcp__crashy__echo", serde_json::json!({"text": "one"}))
        .await;
    assert_eq!(out.text, "one");
    wait_status(&m, "crashy", |s| *s == Status::Down).await;
    let death = death(&events);
    let why = death;
    assert!(
        why.contains("exit status: 3") || why.contains("closed"),
        "{why}"
    );
    wait_status(&m, "crashy", |s| *s == Status::Ready).await;
    let out = m
        .call("mcp__crashy__echo", serde_json::json!({"text": "two"}))
        .await;
    assert_eq!(out.text, "two", "the restarted server works");
    assert_eq!(m.pids().len(), 2);
    assert!(actions(&events).contains(&"restart".to_string()));
    assert_all_gone(&tree).await;
    shutdown_leaves_nothing(m).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_hung_server_with_a_term_ignoring_child_is_ended_with_its_whole_tree() {
    let Started { _dir, m, .. } = start(&python_config("spawner", "spawn"), no_pings()).await;
    let who: serde_json::Value = serde_json::from_str(
        &m.call("mcp__spawner__whoami", serde_json::json!({}))
            .await
            .text,
    )
    .unwrap();
    let server = who["pid"].as_i64().unwrap() as i32;
    let children: Vec<i32> = who["children"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c.as_i64().unwrap() as i32)
        .collect();
    assert_eq!(children.len(), 2);
    // server, the TERM-ignoring python child, bash, and bash's sleep: bash may not have
    // forked its sleep yet when the server answers (.ci/run saw 3 once, under load).
    let tree = tree_with_at_least(&m, 4).await;
    for p in std::iter::once(server).chain(children.iter().copied()) {
        assert!(
            tree.iter().any(|(q, _)| *q == p),
            "{p} not in the tree {tree:?}"
        );
    }
    let out = m
        .call("mcp__spawner__echo", serde_json::json!({"text": "x"}))
        .await;
    assert!(out.timed_out, "{out:?}");
    m.shutdown().await;
    assert_all_gone(&tree).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_server_that_keeps_dying_is_given_up_and_the_model_is_told_why() {
    let Started {
        _dir, m, events, ..
    } = start(&python_config("doomed", "die"), quick()).await;
    let status = wait_status(&m, "doomed", |s| matches!(s, Status::GaveUp(_))).await;
    let Status::GaveUp(msg) = status else {
        unreachable!()
    };
    assert!(msg.contains("cannot open /nonexistent/tracker.db"), "{msg}");
    assert_eq!(m.take_notices(), [msg]);
    assert!(m.take_notices().is_empty(), "told once");
    let a = actions(&events);
    assert_eq!(a.iter().filter(|x| *x == "start").count(), 4, "{a:?}");
    assert_eq!(a.iter().filter(|x| *x == "restart").count(), 3, "{a:?}");
    assert_eq!(a.last().map(String::as_str), Some("give_up"));
    assert!(m.tools().is_empty());
    let gone: Vec<(i32, u64)> = m.pids().into_iter().map(|p| (p, 0)).collect();
    m.shutdown().await;
    for (p, _) in gone {
        assert!(read_stat(p).is_none_or(|s| s.state == 'Z'), "{p} survived");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn leftovers_of_an_earlier_run_are_ended_at_start_up_and_strangers_are_not() {
    let (_d, state) = state_dir();
    std::fs::create_dir_all(&state).unwrap();
    // An "earlier run" left a server (with a child) behind.
    let mut leftover = std::process::Command::new("python3");
    leftover
        .args(["-u", &fixture("misbehaving_mcp.py"), "spawn"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null());
    std::os::unix::process::CommandExt::process_group(&mut leftover, 0);
    let mut child = leftover.spawn().unwrap();
    let pid = child.id() as i32;
    let _cleanup = KillGroupOnDrop(pid);
    // Let it start its helpers (server, TERM-ignoring python child, bash, sleep).
    let mut tree = Vec::new();
    for _ in 0..200 {
        tree = snapshot(pid, Some(pid))
            .iter()
            .map(|m| (m.proc.pid, m.proc.start_time))
            .collect();
        if tree.len() >= 4 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert!(tree.len() >= 4, "{tree:?}");
    let me = std::process::id() as i32;
    let my_start = read_stat(me).unwrap().start_time;
    let records = serde_json::json!([
        {"server": "old", "pid": pid, "start_time": identity(pid).1, "cmdline": read_cmdline(pid).unwrap()},
        // Same PID as this test process but another start time: a recycled PID, left alone.
        {"server": "stranger", "pid": me, "start_time": my_start + 1, "cmdline": read_cmdline(me).unwrap()}
    ]);
    std::fs::write(state.join("mcp-servers.json"), records.to_string()).unwrap();
    let (sink, events) = sink();
    let m = McpManager::spawn(&McpConfig { servers: vec![] }, &state, None, quick(), sink)
        .await
        .unwrap()
        .ready()
        .await;
    let _ = child.wait();
    assert_all_gone(&tree).await;
    let terminated: Vec<_> = events
        .lock()
        .unwrap()
        .iter()
        .filter(|e| e.1 == "leftover_terminated")
        .map(|e| e.0.clone())
        .collect();
    assert_eq!(terminated, ["old"]);
    assert_eq!(
        std::fs::read_to_string(state.join("mcp-servers.json"))
            .unwrap()
            .trim(),
        "[]"
    );
    m.shutdown().await;
}

/// If the test fails before the agent ends it, the leftover must not outlive the test.
struct KillGroupOnDrop(i32);

impl Drop for KillGroupOnDrop {
    fn drop(&mut self) {
        // SAFETY: kill(2) with a negative PID signals the process group this test created.
        unsafe {
            libc::kill(-self.0, libc::SIGKILL);
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_streamable_http_server_is_used_and_its_loss_is_noticed() {
    use std::io::BufRead;
    let mut server = std::process::Command::new(env!("CARGO_BIN_EXE_nab-mcp-fixture"))
        .arg("--http")
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let _cleanup = KillOnDrop(server.id() as i32);
    let mut url = String::new();
    std::io::BufReader::new(server.stdout.take().unwrap())
        .read_line(&mut url)
        .unwrap();
    let url = url.trim();
    assert!(url.starts_with("http://127.0.0.1:"), "{url}");
    let config = McpConfig::parse(&format!(
        r#"{{"mcpServers": {{"web": {{"url": "{url}"}}}}}}"#
    ))
    .unwrap();
    let Started {
        _dir, m, events, ..
    } = start(&config, quick()).await;
    assert_eq!(
        m.status("web"),
        Some(Status::Ready),
        "{:?}",
        events.lock().unwrap()
    );
    assert_eq!(m.tools().len(), 5);
    assert_eq!(
        m.call("mcp__web__echo", serde_json::json!({"text": "over http"}))
            .await
            .text,
        "over http"
    );
    // The server goes away: unanswered pings mark it dead, and its tools go.
    server.kill().unwrap();
    server.wait().unwrap();
    wait_status(&m, "web", |s| *s != Status::Ready).await;
    assert!(m.tools().is_empty());
    m.shutdown().await;
}

/// Kills a process the test started itself if the test fails first.
struct KillOnDrop(i32);

impl Drop for KillOnDrop {
    fn drop(&mut self) {
        // SAFETY: kill(2) on the PID of a child this test spawned.
        unsafe {
            libc::kill(self.0, libc::SIGKILL);
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn mcp_tools_enter_and_leave_the_tool_registry_with_their_server() {
    use nab_agent::sync_registry;
    use nab_agent::{ToolContext, ToolRegistry};
    use nab_protocol::ToolStatus;
    let Started { _dir: d, m, .. } = start(&fixture_config(), quick()).await;
    let m = Arc::new(m);
    let registry = ToolRegistry::with_builtins();
    let builtins = registry.names();
    assert_eq!(sync_registry(&m, &registry), (5, 0));
    assert_eq!(
        sync_registry(&m, &registry),
        (0, 0),
        "nothing changes without a change"
    );
    let ctx = ToolContext::new(d.path()).unwrap();
    let add = registry.get("mcp__fx__add").unwrap();
    assert!(add.is_mutating(), "external tools run one at a time");
    assert_eq!(add.parameters()["required"], serde_json::json!(["a", "b"]));
    let out = add.call(&ctx, serde_json::json!({"a": 1, "b": 2})).await;
    assert_eq!((out.text.as_str(), out.status), ("3", ToolStatus::Ok));
    let bad = registry
        .get("mcp__fx__echo")
        .unwrap()
        .call(&ctx, serde_json::json!(["not", "an", "object"]))
        .await;
    assert_eq!(bad.status, ToolStatus::Error, "{}", bad.text);

    registry
        .get("mcp__fx__unlock")
        .unwrap()
        .call(&ctx, serde_json::json!({}))
        .await;
    for _ in 0..100 {
        if registry.get("mcp__fx__secret").is_some() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
        sync_registry(&m, &registry);
    }
    assert!(
        registry.get("mcp__fx__secret").is_some(),
        "list_changed reached the registry"
    );

    let tree = tree_of(&m);
    m.shutdown().await;
    assert_all_gone(&tree).await;
    assert_eq!(
        sync_registry(&m, &registry),
        (0, 6),
        "a stopped server's tools leave"
    );
    assert_eq!(registry.names(), builtins, "built-in tools untouched");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn stopping_during_a_handshake_ends_the_half_started_server() {
    let (_d, state) = state_dir();
    let (sink, _events) = sink();
    let timings = Timings {
        handshake_timeout: Duration::from_secs(60),
        ..quick()
    };
    let m = McpManager::spawn(&python_config("mute", "mute"), &state, None, timings, sink)
        .await
        .unwrap();
    // Its PID is recorded as soon as it is spawned.
    let mut pid = None;
    for _ in 0..200 {
        let text = std::fs::read_to_string(state.join("mcp-servers.json")).unwrap_or_default();
        if let Ok(v) = serde_json::from_str::<serde_json::Value>(&text)
            && let Some(p) = v[0]["pid"].as_i64()
        {
            pid = Some(p as i32);
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let pid = pid.expect("the server was recorded");
    let me = identity(pid);
    assert!(alive(me.0, me.1));
    assert_eq!(m.status("mute"), Some(Status::Starting));
    m.shutdown().await;
    assert_all_gone(&[me]).await;
    assert_eq!(m.status("mute"), Some(Status::Stopped));
}
