//! stdio servers: a child process speaking newline-delimited JSON-RPC.
//!
//! rmcp's own child-process transport hands stdout straight to its codec. A server that
//! prints a banner or debug lines on stdout must not break the session, and what it printed
//! is evidence the model should see if the server dies, so this module owns the process and
//! its pipes and gives rmcp a [`Transport`] that only ever carries JSON-RPC:
//! - every stdout line is classified: request (has `method` and `id`: the server asks us,
//!   e.g. `ping`), notification (`method`, no `id`), response (`id` with `result`/`error`),
//!   or junk, which goes to the ring buffer while reading goes on;
//! - stderr goes to the same ring buffer;
//! - the process's exit is awaited in its own task, so a death is noticed at once.

use super::leftovers::{Leftovers, ServerRecord};
use super::link::{Handler, Launcher, Link, RmcpSession};
use super::{LinkError, RingBuffer, Timings, proctree};
use async_trait::async_trait;
use rmcp::model::{CallToolResult, JsonObject, Tool};
use rmcp::service::{RoleClient, RxJsonRpcMessage, TxJsonRpcMessage};
use rmcp::transport::Transport;
use std::collections::BTreeMap;
use std::process::Stdio;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader};
use tokio::process::{ChildStdin, ChildStdout, Command};
use tokio::sync::{Mutex, Notify, mpsc, watch};

/// A JSON-RPC message (one line) may be this long; longer lines are dropped as junk.
pub const MAX_LINE_BYTES: u64 = 32 * 1024 * 1024;

/// After a server's exit, how long an answer already in its stdout pipe may take to arrive.
const EXIT_DRAIN: std::time::Duration = std::time::Duration::from_millis(500);

/// Counts of what a server wrote on stdout, by kind (for events and tests).
#[derive(Debug, Default)]
pub struct LineStats {
    pub junk: AtomicU64,
    pub requests: AtomicU64,
    pub notifications: AtomicU64,
    pub responses: AtomicU64,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LineKind {
    /// The server asks the client something (`ping`, `roots/list`, ...).
    Request,
    Notification,
    Response,
    Junk,
}

/// Tells JSON-RPC messages apart by shape. Anything that is not a JSON-RPC 2.0 object is junk.
pub fn classify(line: &str) -> LineKind {
    let Ok(serde_json::Value::Object(obj)) = serde_json::from_str::<serde_json::Value>(line) else {
        return LineKind::Junk;
    };
    if obj.get("jsonrpc").and_then(|v| v.as_str()) != Some("2.0") {
        return LineKind::Junk;
    }
    match (obj.contains_key("method"), obj.contains_key("id")) {
        (true, true) => LineKind::Request,
        (true, false) => LineKind::Notification,
        (false, true) if obj.contains_key("result") || obj.contains_key("error") => {
            LineKind::Response
        }
        _ => LineKind::Junk,
    }
}

pub struct StdioLauncher {
    pub server: String,
    pub command: String,
    pub args: Vec<String>,
    pub env: BTreeMap<String, String>,
    pub cwd: Option<std::path::PathBuf>,
    pub timings: Timings,
    pub ring: RingBuffer,
    pub stats: Arc<LineStats>,
    pub leftovers: Arc<Leftovers>,
    /// The process being started (see [`Launcher::abort`]).
    pub starting: std::sync::Mutex<Option<Arc<StdioLink>>>,
}

#[async_trait]
impl Launcher for StdioLauncher {
    async fn launch(&self) -> Result<Arc<dyn Link>, LinkError> {
        let link = self.spawn().await?;
        let link = Arc::new(link);
        // Until the handshake is over, `abort` can find (and end) the process.
        *self.starting.lock().unwrap_or_else(|p| p.into_inner()) = Some(link.clone());
        let result = self.handshake(&link).await;
        self.starting
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .take();
        result
    }

    fn ring(&self) -> RingBuffer {
        self.ring.clone()
    }

    async fn abort(&self) {
        let pending = self
            .starting
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .take();
        if let Some(link) = pending {
            link.shutdown().await;
        }
    }
}

impl StdioLauncher {
    async fn handshake(&self, link: &Arc<StdioLink>) -> Result<Arc<dyn Link>, LinkError> {
        let session = tokio::time::timeout(self.timings.handshake_timeout, async {
            rmcp::serve_client(
                link.handler.clone(),
                link.transport
                    .lock()
                    .await
                    .take()
                    .ok_or(LinkError::TransportUsed)?,
            )
            .await
            .map_err(LinkError::Handshake)
        })
        .await;
        match session {
            Ok(Ok(running)) => {
                let s = RmcpSession::new(
                    running,
                    link.handler.list_changed.clone(),
                    self.timings.call_timeout,
                );
                *link.session.lock().await = Some(Arc::new(s));
                Ok(link.clone())
            }
            Ok(Err(e)) => {
                link.shutdown().await;
                Err(e)
            }
            Err(_) => {
                link.shutdown().await;
                Err(LinkError::NoAnswer {
                    peer: "to initialize".into(),
                    secs: self.timings.handshake_timeout.as_secs_f64(),
                })
            }
        }
    }

    /// Starts the server process with its pipes read in tasks of their own (stdout through
    /// [`read_stdout`], stderr to the ring buffer) and its exit awaited in another.
    async fn spawn(&self) -> Result<StdioLink, LinkError> {
        let mut child = self.command().spawn().map_err(|source| LinkError::Spawn {
            command: self.command.clone(),
            source,
        })?;
        let pid = child
            .id()
            .map(|p| p as i32)
            .ok_or(LinkError::ExitedAtOnce)?;
        let info = self.record_leftover(pid);
        let stdin = Arc::new(Mutex::new(child.stdin.take()));
        let stdout = child.stdout.take().ok_or(LinkError::NoPipe("stdout"))?;
        let stderr = child.stderr.take().ok_or(LinkError::NoPipe("stderr"))?;

        let (exit_tx, exit_rx) = watch::channel(None::<String>);
        tokio::spawn(async move {
            let why = match child.wait().await {
                Ok(status) => format!("process exited ({status})"),
                Err(e) => format!("process could not be waited for: {e}"),
            };
            let _ = exit_tx.send(Some(why));
        });

        let (msg_tx, msg_rx) = mpsc::channel::<RxJsonRpcMessage<RoleClient>>(64);
        tokio::spawn(read_stdout(
            stdout,
            self.ring.clone(),
            self.stats.clone(),
            msg_tx,
        ));
        let ring = self.ring.clone();
        tokio::spawn(async move {
            let mut lines = BufReader::new(stderr).lines();
            while let Ok(Some(line)) = lines.next_line().await {
                ring.push("stderr", &line);
            }
        });

        Ok(StdioLink {
            pid,
            info,
            stdin: stdin.clone(),
            exit: exit_rx,
            handler: Handler::default(),
            transport: Mutex::new(Some(PipeTransport { rx: msg_rx, stdin })),
            session: Mutex::new(None),
            timings: self.timings.clone(),
            leftovers: self.leftovers.clone(),
        })
    }

    /// The server's command: scrubbed environment, piped stdio, a process group of its own.
    fn command(&self) -> Command {
        let mut cmd = Command::new(&self.command);
        cmd.args(&self.args)
            .env_clear()
            .envs(scrubbed_env())
            .envs(&self.env)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            // Its own process group: the tree can be found (and signalled) as a whole.
            .process_group(0)
            // Last resort if the agent unwinds without shutting down: at least the direct child goes.
            .kill_on_drop(true);
        if let Some(cwd) = &self.cwd {
            cmd.current_dir(cwd);
        }
        cmd
    }

    /// Records the started process among the leftovers (to be found if the agent dies
    /// before ending it); `None` when its /proc entry could not be read.
    fn record_leftover(&self, pid: i32) -> Option<proctree::ProcInfo> {
        let info = proctree::read_stat(pid)?;
        let rec = ServerRecord {
            server: self.server.clone(),
            pid,
            start_time: info.start_time,
            cmdline: proctree::read_cmdline(pid).unwrap_or_default(),
        };
        if let Err(e) = self.leftovers.record(rec) {
            tracing::warn!("{e}");
        }
        Some(info)
    }
}

/// Reads the server's stdout line by line until it closes (or the transport is gone):
/// JSON-RPC messages go to `msg_tx`, everything else to the ring buffer, each line counted
/// by kind.
async fn read_stdout(
    stdout: ChildStdout,
    ring: RingBuffer,
    stats: Arc<LineStats>,
    msg_tx: mpsc::Sender<RxJsonRpcMessage<RoleClient>>,
) {
    let mut reader = BufReader::new(stdout);
    let mut buf = Vec::new();
    let mut discarding = false;
    loop {
        buf.clear();
        // Bounded: a server streaming bytes without a newline cannot fill memory.
        match (&mut reader)
            .take(MAX_LINE_BYTES)
            .read_until(b'\n', &mut buf)
            .await
        {
            Ok(0) | Err(_) => break,
            Ok(_) => {}
        }
        let complete = buf.last() == Some(&b'\n');
        if discarding || !complete && buf.len() as u64 >= MAX_LINE_BYTES {
            if !discarding {
                stats.junk.fetch_add(1, Ordering::Relaxed);
                ring.push(
                    "stdout",
                    &format!("[a line over {MAX_LINE_BYTES} bytes was dropped]"),
                );
            }
            discarding = !complete;
            continue;
        }
        let line = String::from_utf8_lossy(&buf);
        let line = line.trim();
        if line.is_empty() {
            continue;
        }
        let kind = classify(line);
        let counter = match kind {
            LineKind::Junk => &stats.junk,
            LineKind::Request => &stats.requests,
            LineKind::Notification => &stats.notifications,
            LineKind::Response => &stats.responses,
        };
        counter.fetch_add(1, Ordering::Relaxed);
        if kind == LineKind::Junk {
            ring.push("stdout", line);
            continue;
        }
        match serde_json::from_str::<RxJsonRpcMessage<RoleClient>>(line) {
            Ok(msg) => {
                if msg_tx.send(msg).await.is_err() {
                    break;
                }
            }
            Err(e) => ring.push("stdout (unreadable JSON-RPC)", &format!("{e}: {line}")),
        }
    }
}

/// The child's environment: the same scrubbed whitelist every tool's child process gets
/// (no `*_KEY`, `*_SECRET`, `*_TOKEN`, `*_PASSWORD`); the config's `env` is added on top.
fn scrubbed_env() -> Vec<(String, String)> {
    crate::guard::env::child_env(std::env::vars_os())
}

pub struct StdioLink {
    pid: i32,
    info: Option<proctree::ProcInfo>,
    stdin: Arc<Mutex<Option<ChildStdin>>>,
    exit: watch::Receiver<Option<String>>,
    handler: Handler,
    transport: Mutex<Option<PipeTransport>>,
    session: Mutex<Option<Arc<RmcpSession>>>,
    timings: Timings,
    leftovers: Arc<Leftovers>,
}

impl StdioLink {
    async fn session(&self) -> Result<Arc<RmcpSession>, LinkError> {
        self.session
            .lock()
            .await
            .clone()
            .ok_or(LinkError::NotInitialized)
    }

    async fn exited(&self) -> String {
        let mut rx = self.exit.clone();
        loop {
            if let Some(why) = rx.borrow_and_update().clone() {
                return why;
            }
            if rx.changed().await.is_err() {
                return "process gone".into();
            }
        }
    }
}

#[async_trait]
impl Link for StdioLink {
    async fn list_tools(&self) -> Result<Vec<Tool>, LinkError> {
        self.session().await?.list_tools().await
    }

    async fn call_tool(
        &self,
        tool: &str,
        arguments: Option<JsonObject>,
    ) -> Result<CallToolResult, LinkError> {
        let s = self.session().await?;
        let call = s.call_tool(tool, arguments);
        tokio::pin!(call);
        tokio::select! {
            r = &mut call => r,
            why = self.exited() => {
                // The exit can be seen before the answer it wrote just before dying has
                // travelled through the pipe and rmcp: give that a moment.
                match tokio::time::timeout(EXIT_DRAIN, &mut call).await {
                    Ok(r) => r,
                    Err(_) => Err(LinkError::DiedDuringCall { why }),
                }
            }
        }
    }

    async fn ping(&self) -> Result<(), LinkError> {
        self.session().await?.ping().await
    }

    async fn closed(&self) -> String {
        let session = self.session.lock().await.clone();
        match session {
            Some(s) => tokio::select! {
                why = self.exited() => why,
                why = s.ended() => why,
            },
            None => self.exited().await,
        }
    }

    /// Close stdin, give it a moment to leave by itself, then TERM the tree leaves first and
    /// KILL what is left. The tree is read before stdin closes (helpers are still attached to
    /// their parent then) and again after (anything started meanwhile).
    async fn shutdown(&self) {
        let before = proctree::snapshot(self.pid, Some(self.pid));
        // A writer blocked on a full pipe holds the lock; then the signals below unblock it.
        if let Ok(mut g) =
            tokio::time::timeout(std::time::Duration::from_millis(100), self.stdin.lock()).await
        {
            g.take();
        }
        let _ = tokio::time::timeout(self.timings.stdin_grace, self.exited()).await;
        let tree = proctree::merge(before, proctree::snapshot(self.pid, Some(self.pid)));
        proctree::terminate(tree, self.timings.term_grace).await;
        if let Some(s) = self.session.lock().await.as_ref() {
            s.cancel();
        }
        if let Some(info) = self.info
            && let Err(e) = self.leftovers.forget(self.pid, info.start_time)
        {
            tracing::warn!("{e}");
        }
    }

    fn list_changed(&self) -> Arc<Notify> {
        self.handler.list_changed.clone()
    }

    fn pids(&self) -> Vec<i32> {
        vec![self.pid]
    }
}

/// The JSON-RPC-only channel rmcp sees.
struct PipeTransport {
    rx: mpsc::Receiver<RxJsonRpcMessage<RoleClient>>,
    stdin: Arc<Mutex<Option<ChildStdin>>>,
}

impl Transport<RoleClient> for PipeTransport {
    type Error = std::io::Error;

    fn send(
        &mut self,
        item: TxJsonRpcMessage<RoleClient>,
    ) -> impl Future<Output = Result<(), Self::Error>> + Send + 'static {
        let stdin = self.stdin.clone();
        async move {
            let mut line = serde_json::to_vec(&item)?;
            line.push(b'\n');
            let mut guard = stdin.lock().await;
            let pipe = guard.as_mut().ok_or_else(|| {
                std::io::Error::new(std::io::ErrorKind::NotConnected, "stdin closed")
            })?;
            pipe.write_all(&line).await?;
            pipe.flush().await
        }
    }

    fn receive(&mut self) -> impl Future<Output = Option<RxJsonRpcMessage<RoleClient>>> + Send {
        self.rx.recv()
    }

    async fn close(&mut self) -> Result<(), Self::Error> {
        self.stdin.lock().await.take();
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_are_told_apart_by_shape() {
        let table = [
            (
                r#"{"jsonrpc":"2.0","id":7,"method":"ping"}"#,
                LineKind::Request,
            ),
            (
                r#"{"jsonrpc":"2.0","method":"notifications/tools/list_changed"}"#,
                LineKind::Notification,
            ),
            (
                r#"{"jsonrpc":"2.0","id":7,"result":{}}"#,
                LineKind::Response,
            ),
            (
                r#"{"jsonrpc":"2.0","id":7,"error":{"code":-1,"message":"x"}}"#,
                LineKind::Response,
            ),
            ("Server starting on stdio...", LineKind::Junk),
            (r#"{"hello": "json but not JSON-RPC"}"#, LineKind::Junk),
            (r#"[1,2,3]"#, LineKind::Junk),
            (r#"{"jsonrpc":"2.0","id":7}"#, LineKind::Junk),
        ];
        for (line, want) in table {
            assert_eq!(classify(line), want, "{line}");
        }
    }
}
