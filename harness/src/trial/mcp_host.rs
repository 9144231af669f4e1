//! A task's MCP servers, kept out of the agent's container (`mcp_servers:` in task.yaml).
//!
//! The servers run in a sidecar container of the task's image that holds the task's `mcp/`
//! folder; the agent's container never mounts it, so the tools are the only way to the
//! data. For each server the harness listens on a Unix socket in a host folder that is
//! mounted read-only into the agent's container at [`AGENT_DIR`], beside the MCP config
//! naming those sockets. Each connection the agent opens starts the server's argv in the
//! sidecar with its standard input and output attached, and the harness pumps the bytes
//! both ways. It watches `tools/call` requests on the way in and notes each one in
//! `mcp_calls.jsonl` when the server's result for it passes on the way out: the record
//! holds what the servers served, which is what a task's `required_tool_calls` are
//! checked against (for every agent, whatever its model said it called).
//!
//! Everything from the agent is hostile: connections are capped, a line too long to parse
//! is passed on without being noted, the logs are capped, and nothing the agent sends can
//! block the harness (the host stops every pump when the agent phase ends).

use crate::env::sandbox::{AttachedProcess, ContainerId, SandboxBackend};
use crate::task::McpServer;
use nab_protocol::{MAX_RESULT_TEXT, MCP_CALL_VERSION, MCP_CALLS_FILE, MCP_LOG_FILE, McpCall};
use serde_json::{Value, json};
use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{UnixListener, UnixStream};
use tokio::task::JoinSet;
use tokio_util::sync::CancellationToken;

/// The folder inside the host's private one that the agent's container mounts.
const SHARED_DIR: &str = "mount";
/// Where the agent finds the sockets and `servers.json`.
pub(crate) const AGENT_DIR: &str = "/nab/mcp-sockets";
/// The MCP config the agent is given, inside [`AGENT_DIR`].
pub(crate) const CONFIG_FILE: &str = "servers.json";
/// A small client beside the sockets (`python3 /nab/mcp-sockets/mcp_call.py SERVER TOOL
/// ARGS`): how the suite's oracle and known-wrong solutions make the calls a task requires.
pub(crate) const CLIENT_FILE: &str = "mcp_call.py";
const CLIENT: &str = include_str!("../../mcp/mcp_call.py");
/// Connections one trial may open to all its servers (nab-agent opens one per server
/// and a few more when it restarts one).
pub(crate) const MAX_CONNECTIONS: usize = 32;
/// The longest request line noted in `mcp_calls.jsonl`; longer ones pass unnoted.
pub(crate) const MAX_NOTED_LINE: usize = 1024 * 1024;
/// The most bytes written to `mcp_calls.jsonl` and to `mcp.log`.
pub(crate) const LOG_CAP: u64 = 4 * 1024 * 1024;
/// The most bytes of `mcp_calls.jsonl` the verifier is given: [`LOG_CAP`] (whole lines)
/// and room for the line that says it is full (`mcp__nab__record_full`).
pub(crate) const RECORD_CAP: usize = LOG_CAP as usize + 4096;

/// The running servers of one trial.
pub(crate) struct McpHost {
    dir: tempfile::TempDir,
    stop: CancellationToken,
    tasks: JoinSet<()>,
    logs: Arc<Logs>,
}

/// What the host counted, for the trial's log.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub(crate) struct McpStats {
    pub connections: usize,
    pub refused_connections: usize,
    pub calls_noted: usize,
}

#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum McpHostError {
    #[error("MCP host: cannot prepare {path}: {source}")]
    Io {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
}

impl McpHost {
    /// Listens on one socket per server. The servers start only when the agent connects.
    pub(crate) fn start(
        backend: Arc<dyn SandboxBackend>,
        sidecar: ContainerId,
        servers: &BTreeMap<String, McpServer>,
        trial_dir: &Path,
    ) -> Result<McpHost, McpHostError> {
        let io = |path: &Path| {
            let path = path.to_owned();
            move |source| McpHostError::Io { path, source }
        };
        // Short paths: a Unix socket path has at most 107 bytes. The folder mounted into the
        // agent's container must be enterable by uid 1000 there, so it sits in a private
        // one that no other user of this host can enter (see `sandbox::host_perms`).
        let dir = tempfile::Builder::new()
            .prefix("nab-mcp-")
            .tempdir()
            .map_err(io(Path::new("a temporary folder")))?;
        crate::env::sandbox::host_perms::private_dir(dir.path()).map_err(io(dir.path()))?;
        let shared = dir.path().join(SHARED_DIR);
        std::fs::create_dir(&shared).map_err(io(&shared))?;
        chmod(&shared, 0o755).map_err(io(&shared))?;
        let logs = Arc::new(Logs::open(trial_dir).map_err(io(trial_dir))?);
        let stop = CancellationToken::new();
        let budget = Arc::new(Mutex::new(Budget::default()));
        let mut tasks = JoinSet::new();
        let mut config = serde_json::Map::new();
        for (name, server) in servers {
            let path = shared.join(format!("{name}.sock"));
            let listener = UnixListener::bind(&path).map_err(io(&path))?;
            // The agent runs as uid 1000; connecting needs write access to the socket.
            crate::env::sandbox::host_perms::sandbox_socket(&path).map_err(io(&path))?;
            config.insert(
                name.clone(),
                json!({"socket": format!("{AGENT_DIR}/{name}.sock")}),
            );
            let serve = Serve {
                backend: backend.clone(),
                sidecar: sidecar.clone(),
                name: name.clone(),
                server: server.clone(),
                logs: logs.clone(),
                budget: budget.clone(),
                stop: stop.clone(),
            };
            tasks.spawn(serve.accept_loop(listener));
        }
        let config_path = shared.join(CONFIG_FILE);
        let text = serde_json::to_string_pretty(&json!({"mcpServers": config})).unwrap_or_default();
        std::fs::write(&config_path, text).map_err(io(&config_path))?;
        chmod(&config_path, 0o644).map_err(io(&config_path))?;
        let client_path = shared.join(CLIENT_FILE);
        std::fs::write(&client_path, CLIENT).map_err(io(&client_path))?;
        chmod(&client_path, 0o644).map_err(io(&client_path))?;
        Ok(McpHost {
            dir,
            stop,
            tasks,
            logs,
        })
    }

    /// The host folder to mount at [`AGENT_DIR`].
    pub(crate) fn dir(&self) -> PathBuf {
        self.dir.path().join(SHARED_DIR)
    }

    /// Stops every listener and pump, and says what happened. The socket folder stays
    /// until the host is dropped: Docker needs every bind source of the agent's stopped
    /// container to exist while it copies the workspace out.
    pub(crate) async fn stop(&mut self) -> McpStats {
        self.stop.cancel();
        while self.tasks.join_next().await.is_some() {}
        let stats = self.logs.stats();
        self.logs.line(&format!(
            "[nab: MCP host stopped: {} connections, {} refused, {} tool calls noted]",
            stats.connections, stats.refused_connections, stats.calls_noted
        ));
        stats
    }
}

fn chmod(path: &Path, mode: u32) -> std::io::Result<()> {
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode))
}

#[derive(Default)]
struct Budget {
    opened: usize,
}

/// One server's listener.
struct Serve {
    backend: Arc<dyn SandboxBackend>,
    sidecar: ContainerId,
    name: String,
    server: McpServer,
    logs: Arc<Logs>,
    budget: Arc<Mutex<Budget>>,
    stop: CancellationToken,
}

impl Serve {
    async fn accept_loop(self, listener: UnixListener) {
        let this = Arc::new(self);
        let mut pumps = JoinSet::new();
        loop {
            let stream = tokio::select! {
                _ = this.stop.cancelled() => break,
                accepted = listener.accept() => match accepted {
                    Ok((stream, _)) => stream,
                    Err(e) => {
                        this.logs.line(&format!("[nab: MCP {}: accept failed: {e}]", this.name));
                        break;
                    }
                },
            };
            let admitted = {
                let mut b = this.budget.lock().unwrap_or_else(|p| p.into_inner());
                b.opened += 1;
                b.opened <= MAX_CONNECTIONS
            };
            if !admitted {
                // Dropping the stream closes it: the agent reads the end of the stream.
                this.logs.count(|s| s.refused_connections += 1);
                continue;
            }
            this.logs.count(|s| s.connections += 1);
            let conn = this.clone();
            pumps.spawn(async move { conn.connection(stream).await });
        }
        pumps.shutdown().await;
    }

    /// One connection: a fresh server process, bytes pumped both ways until either side
    /// ends or the host stops.
    async fn connection(&self, stream: UnixStream) {
        let process = match self
            .backend
            .attach(&self.sidecar, &self.server.argv, &self.server.env)
            .await
        {
            Ok(p) => p,
            Err(e) => {
                self.logs.line(&format!(
                    "[nab: MCP {}: cannot start the server: {e}]",
                    self.name
                ));
                return;
            }
        };
        let AttachedProcess {
            mut stdin,
            mut stdout,
            mut stderr,
        } = process;
        let (mut from_agent, mut to_agent) = stream.into_split();
        // Requests seen on their way in, by JSON-RPC id, until their answer passes.
        let pending = Mutex::new(Pending::default());
        let inbound = async {
            let mut tap = LineTap::default();
            let mut buf = vec![0u8; 64 * 1024];
            loop {
                let n = match from_agent.read(&mut buf).await {
                    Ok(0) | Err(_) => break,
                    Ok(n) => n,
                };
                tap.feed(&buf[..n], |line| self.request(line, &pending));
                if stdin.write_all(&buf[..n]).await.is_err() || stdin.flush().await.is_err() {
                    break;
                }
            }
            // The agent is done: the server sees the end of its input and exits.
            let _ = stdin.shutdown().await;
        };
        let outbound = async {
            let mut tap = LineTap::default();
            while let Some(chunk) = stdout.recv().await {
                tap.feed(&chunk, |line| self.answer(line, &pending));
                if to_agent.write_all(&chunk).await.is_err() {
                    break;
                }
            }
            let _ = to_agent.shutdown().await;
        };
        let errors = async {
            while let Some(chunk) = stderr.recv().await {
                self.logs.raw(&self.name, &chunk);
            }
        };
        tokio::select! {
            _ = self.stop.cancelled() => {}
            // The server's output ended: nothing more can reach the agent.
            _ = async { tokio::join!(outbound, errors) } => {}
            _ = async { inbound.await; std::future::pending::<()>().await } => {}
        }
    }

    /// Remembers a `tools/call` request line until its answer comes.
    fn request(&self, line: &[u8], pending: &Mutex<Pending>) {
        let Ok(msg) = serde_json::from_slice::<Value>(line) else {
            return;
        };
        if msg.get("method").and_then(Value::as_str) != Some("tools/call") {
            return;
        }
        let Some(id) = msg.get("id").filter(|id| !id.is_null()) else {
            return;
        };
        let params = msg.get("params");
        let tool = params
            .and_then(|p| p.get("name"))
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_owned();
        let arguments = params
            .and_then(|p| p.get("arguments"))
            .cloned()
            .unwrap_or(Value::Null);
        let mut p = pending.lock().unwrap_or_else(|p| p.into_inner());
        if p.calls.len() < MAX_PENDING {
            p.calls.insert(id.to_string(), (tool, arguments));
        }
    }

    /// Notes the call a server's result answers (a line on its way to the agent).
    fn answer(&self, line: &[u8], pending: &Mutex<Pending>) {
        let Ok(msg) = serde_json::from_slice::<Value>(line) else {
            return;
        };
        let Some(id) = msg.get("id") else {
            return;
        };
        let Some((tool, arguments)) = pending
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .calls
            .remove(&id.to_string())
        else {
            return;
        };
        // An error answer (`error`, not `result`) served nothing.
        let Some(result) = msg.get("result") else {
            return;
        };
        let is_error = result.get("isError").and_then(Value::as_bool) == Some(true);
        let (text, cut) = result_text(result);
        self.logs.call(&McpCall {
            v: MCP_CALL_VERSION,
            name: McpCall::agent_name(&self.name, &tool),
            server: self.name.clone(),
            tool,
            arguments,
            is_error,
            result_text: Some(text),
            result_cut: cut,
        });
    }
}

/// A result's `text` content parts joined by newlines, cut at [`MAX_RESULT_TEXT`] bytes (on
/// a character boundary), and whether it was cut.
fn result_text(result: &Value) -> (String, bool) {
    let mut text = String::new();
    let parts = result.get("content").and_then(Value::as_array);
    for part in parts.into_iter().flatten() {
        if let Some(t) = part.get("text").and_then(Value::as_str) {
            if !text.is_empty() {
                text.push('\n');
            }
            text.push_str(t);
            if text.len() > MAX_RESULT_TEXT {
                break;
            }
        }
    }
    if text.len() <= MAX_RESULT_TEXT {
        return (text, false);
    }
    let mut end = MAX_RESULT_TEXT;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    text.truncate(end);
    (text, true)
}

/// Requests one connection has sent and its server has not answered yet.
#[derive(Default)]
struct Pending {
    calls: std::collections::HashMap<String, (String, Value)>,
}

/// Unanswered requests one connection may have; past it, new ones go unnoted.
const MAX_PENDING: usize = 4096;

/// Splits a byte stream into lines of at most [`MAX_NOTED_LINE`] bytes; a longer line is
/// skipped whole.
#[derive(Default)]
struct LineTap {
    line: Vec<u8>,
    too_long: bool,
}

impl LineTap {
    fn feed(&mut self, mut bytes: &[u8], mut on_line: impl FnMut(&[u8])) {
        while !bytes.is_empty() {
            let (part, rest, ended) = match bytes.iter().position(|&b| b == b'\n') {
                Some(i) => (&bytes[..i], &bytes[i + 1..], true),
                None => (bytes, &bytes[bytes.len()..], false),
            };
            if !self.too_long {
                if self.line.len() + part.len() > MAX_NOTED_LINE {
                    self.too_long = true;
                    self.line = Vec::new();
                } else {
                    self.line.extend_from_slice(part);
                }
            }
            if ended {
                if !self.too_long {
                    on_line(&self.line);
                }
                self.line.clear();
                self.too_long = false;
            }
            bytes = rest;
        }
    }
}

/// The last line of a full `mcp_calls.jsonl` (past [`LOG_CAP`]): a call of no server's, so
/// that a hidden test replaying the record knows that later calls went unnoted.
pub(crate) const RECORD_FULL_TOOL: &str = "record_full";

fn full_marker() -> String {
    let marker = McpCall {
        v: MCP_CALL_VERSION,
        server: "nab".into(),
        tool: RECORD_FULL_TOOL.into(),
        name: McpCall::agent_name("nab", RECORD_FULL_TOOL),
        arguments: Value::Null,
        is_error: true,
        result_text: Some("the record is full: later calls were not noted".into()),
        result_cut: false,
    };
    serde_json::to_string(&marker).unwrap_or_default() + "\n"
}

/// `mcp_calls.jsonl` and `mcp.log` in the trial folder, each capped at [`LOG_CAP`] (plus
/// one marker line).
struct Logs {
    inner: Mutex<LogFiles>,
}

struct LogFiles {
    calls: CappedFile,
    log: CappedFile,
    stats: McpStats,
}

struct CappedFile {
    file: std::fs::File,
    written: u64,
    full: bool,
}

impl CappedFile {
    fn create(path: &Path) -> std::io::Result<CappedFile> {
        Ok(CappedFile {
            file: std::fs::File::create(path)?,
            written: 0,
            full: false,
        })
    }

    /// Writes `bytes` whole, or (past the cap) one marker and nothing after it.
    fn write(&mut self, bytes: &[u8], marker: &[u8]) -> bool {
        if self.full {
            return false;
        }
        if self.written + bytes.len() as u64 > LOG_CAP {
            self.full = true;
            let _ = self.file.write_all(marker);
            return false;
        }
        self.written += bytes.len() as u64;
        self.file.write_all(bytes).is_ok()
    }
}

impl Logs {
    fn open(trial_dir: &Path) -> std::io::Result<Logs> {
        Ok(Logs {
            inner: Mutex::new(LogFiles {
                calls: CappedFile::create(&trial_dir.join(MCP_CALLS_FILE))?,
                log: CappedFile::create(&trial_dir.join(MCP_LOG_FILE))?,
                stats: McpStats::default(),
            }),
        })
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, LogFiles> {
        self.inner.lock().unwrap_or_else(|p| p.into_inner())
    }

    fn call(&self, call: &McpCall) {
        let mut line = serde_json::to_string(call).unwrap_or_default();
        line.push('\n');
        let mut f = self.lock();
        if f.calls.write(line.as_bytes(), full_marker().as_bytes()) {
            f.stats.calls_noted += 1;
        } else if f.calls.full {
            let _ = f.log.write(
                b"[nab: mcp_calls.jsonl is full; later calls are not noted]\n",
                b"",
            );
        }
    }

    fn raw(&self, server: &str, chunk: &[u8]) {
        let mut text = format!("[{server}] ").into_bytes();
        text.extend_from_slice(chunk);
        if !text.ends_with(b"\n") {
            text.push(b'\n');
        }
        self.lock()
            .log
            .write(&text, b"[nab: mcp.log cut here: it reached its cap]\n");
    }

    fn line(&self, text: &str) {
        self.raw("nab", format!("{text}\n").as_bytes());
    }

    fn count(&self, f: impl FnOnce(&mut McpStats)) {
        f(&mut self.lock().stats);
    }

    fn stats(&self) -> McpStats {
        self.lock().stats.clone()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_are_split_across_reads_and_overlong_ones_skipped_whole() {
        let mut tap = LineTap::default();
        let mut seen = Vec::new();
        tap.feed(b"{\"a\":1}\n{\"b\"", |l| seen.push(l.to_vec()));
        tap.feed(b":2}\n", |l| seen.push(l.to_vec()));
        let long = vec![b'x'; MAX_NOTED_LINE + 1];
        tap.feed(&long, |l| seen.push(l.to_vec()));
        tap.feed(b"tail\nnext\n", |l| seen.push(l.to_vec()));
        assert_eq!(
            seen,
            vec![
                b"{\"a\":1}".to_vec(),
                b"{\"b\":2}".to_vec(),
                b"next".to_vec()
            ]
        );
    }

    #[test]
    fn a_results_text_is_its_text_parts_cut_on_a_character_boundary() {
        let r = json!({"content": [{"type": "text", "text": "a"}, {"type": "image", "data": "x"},
                                   {"type": "text", "text": "b"}], "isError": false});
        assert_eq!(result_text(&r), ("a\nb".into(), false));
        assert_eq!(result_text(&json!({})), (String::new(), false));
        let long = "é".repeat(MAX_RESULT_TEXT);
        let (text, cut) = result_text(&json!({"content": [{"type": "text", "text": long}]}));
        assert!(cut && text.len() <= MAX_RESULT_TEXT && text.len() >= MAX_RESULT_TEXT - 1);
    }

    #[test]
    fn a_full_record_ends_with_a_line_that_says_so() {
        let dir = tempfile::tempdir().unwrap();
        let logs = Logs::open(dir.path()).unwrap();
        let call = McpCall {
            v: MCP_CALL_VERSION,
            server: "s".into(),
            tool: "t".into(),
            name: McpCall::agent_name("s", "t"),
            arguments: json!({"pad": "x".repeat(60_000)}),
            is_error: false,
            result_text: Some(String::new()),
            result_cut: false,
        };
        for _ in 0..80 {
            logs.call(&call);
        }
        let read = nab_protocol::read_jsonl::<McpCall>(&dir.path().join(MCP_CALLS_FILE)).unwrap();
        let last = read.records.last().unwrap();
        assert_eq!(last.name, "mcp__nab__record_full");
        assert_eq!(read.records.len(), logs.stats().calls_noted + 1);
        let len = std::fs::metadata(dir.path().join(MCP_CALLS_FILE))
            .unwrap()
            .len();
        assert!(len <= RECORD_CAP as u64, "{len}");
    }

    #[test]
    fn a_log_past_its_cap_gets_one_marker_and_nothing_more() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("f");
        let mut f = CappedFile::create(&path).unwrap();
        let chunk = vec![b'a'; 1024 * 1024];
        for _ in 0..4 {
            assert!(f.write(&chunk, b"CUT\n"));
        }
        assert!(!f.write(b"b", b"CUT\n"));
        assert!(!f.write(b"c", b"CUT\n"));
        let text = std::fs::read(&path).unwrap();
        assert_eq!(text.len() as u64, LOG_CAP + 4);
        assert!(text.ends_with(b"CUT\n"));
    }
}
