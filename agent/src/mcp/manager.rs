//! All configured servers together: what the agent loop and the tool registry talk to.

use super::leftovers::Leftovers;
use super::link::Launcher;
use super::stdio::{LineStats, StdioLauncher};
use super::supervisor::{ServerShared, Status, supervise};
use super::{EventSink, McpConfig, McpError, RingBuffer, Timings, TransportConfig, exposed_name};
use nab_protocol::EventKind;
use rmcp::model::{CallToolResult, ContentBlock};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Instant;
use tokio::sync::watch;
use tokio::task::JoinHandle;

/// An MCP tool as offered to the model.
#[derive(Debug, Clone, PartialEq)]
pub struct McpTool {
    /// `mcp__<server>__<tool>`.
    pub name: String,
    pub server: String,
    /// The name the server knows it by.
    pub tool: String,
    pub description: String,
    pub input_schema: serde_json::Value,
}

/// The result of a call, ready to become a tool message.
#[derive(Debug, Clone, PartialEq)]
pub struct McpCallOutcome {
    pub text: String,
    pub is_error: bool,
    pub timed_out: bool,
}

/// A tool result longer than this is cut (head and tail kept); context offload then moves
/// anything over its own threshold out of the history.
pub const MAX_RESULT_CHARS: usize = 200_000;

struct Server {
    shared: Arc<ServerShared>,
    launcher: Arc<dyn Launcher>,
    stats: Option<Arc<LineStats>>,
}

pub struct McpManager {
    servers: Vec<Server>,
    tasks: Mutex<Vec<JoinHandle<()>>>,
    stop: watch::Sender<bool>,
    generation: Arc<AtomicU64>,
    notices: Arc<Mutex<Vec<String>>>,
    events: EventSink,
    timings: Timings,
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|p| p.into_inner())
}

impl McpManager {
    /// Waits until each server has either become ready or failed its first start (then it
    /// keeps restarting in the background).
    pub async fn ready(self) -> McpManager {
        self.wait_first_start().await;
        self
    }

    /// Ends the leftovers of an earlier run recorded in `state_dir` and starts every
    /// server; returns as soon as they are starting ([`McpManager::ready`] waits for them).
    pub async fn spawn(
        config: &McpConfig,
        state_dir: &Path,
        cwd: Option<PathBuf>,
        timings: Timings,
        events: EventSink,
    ) -> Result<McpManager, McpError> {
        let leftovers = Arc::new(Leftovers::new(state_dir));
        for rec in leftovers.reap().await? {
            events(EventKind::Mcp {
                server: rec.server.clone(),
                action: "leftover_terminated".into(),
                detail: Some(format!("pid {} ({})", rec.pid, rec.cmdline.join(" "))),
            });
        }
        let generation = Arc::new(AtomicU64::new(0));
        let notices = Arc::new(Mutex::new(Vec::new()));
        let mut servers = Vec::new();
        for s in &config.servers {
            let ring = RingBuffer::default();
            let (launcher, stats): (Arc<dyn Launcher>, _) = match &s.transport {
                TransportConfig::Stdio { command, args, env } => {
                    let stats = Arc::new(LineStats::default());
                    (
                        Arc::new(StdioLauncher {
                            server: s.name.clone(),
                            command: command.clone(),
                            args: args.clone(),
                            env: env.clone(),
                            cwd: cwd.clone(),
                            timings: timings.clone(),
                            ring,
                            stats: stats.clone(),
                            leftovers: leftovers.clone(),
                            starting: Default::default(),
                        }),
                        Some(stats),
                    )
                }
                TransportConfig::Http { url } => (
                    Arc::new(super::http::HttpLauncher {
                        url: url.clone(),
                        timings: timings.clone(),
                        ring,
                    }),
                    None,
                ),
                TransportConfig::Socket { path } => (
                    Arc::new(super::socket::SocketLauncher {
                        path: path.clone(),
                        timings: timings.clone(),
                        ring,
                    }),
                    None,
                ),
            };
            servers.push(Server {
                shared: ServerShared::new(s.name.clone(), generation.clone(), notices.clone()),
                launcher,
                stats,
            });
        }
        Ok(McpManager::from_parts(
            servers, generation, notices, events, timings,
        ))
    }

    fn from_parts(
        servers: Vec<Server>,
        generation: Arc<AtomicU64>,
        notices: Arc<Mutex<Vec<String>>>,
        events: EventSink,
        timings: Timings,
    ) -> McpManager {
        let (stop, _) = watch::channel(false);
        let tasks = servers
            .iter()
            .map(|s| {
                tokio::spawn(supervise(
                    s.launcher.clone(),
                    s.shared.clone(),
                    timings.clone(),
                    events.clone(),
                    stop.subscribe(),
                ))
            })
            .collect();
        McpManager {
            servers,
            tasks: Mutex::new(tasks),
            stop,
            generation,
            notices,
            events,
            timings,
        }
    }

    async fn wait_first_start(&self) {
        let limit =
            self.timings.handshake_timeout * 2 + self.timings.stdin_grace + self.timings.term_grace;
        for s in &self.servers {
            let mut rx = s.shared.subscribe();
            let _ = tokio::time::timeout(limit, rx.wait_for(|st| *st != Status::Starting)).await;
        }
    }

    /// Changes whenever a tool list changes (a server became ready, died, or re-listed).
    pub fn generation(&self) -> u64 {
        self.generation.load(Ordering::SeqCst)
    }

    /// The tools of every ready server, sorted by name.
    pub fn tools(&self) -> Vec<McpTool> {
        let mut out = Vec::new();
        for s in &self.servers {
            for t in s.shared.tools() {
                out.push(McpTool {
                    name: exposed_name(&s.shared.name, &t.name),
                    server: s.shared.name.clone(),
                    tool: t.name.to_string(),
                    description: t.description.as_deref().unwrap_or("").to_string(),
                    input_schema: serde_json::Value::Object((*t.input_schema).clone()),
                });
            }
        }
        out.sort_by(|a, b| a.name.cmp(&b.name));
        out
    }

    /// Calls `mcp__<server>__<tool>` with JSON object arguments.
    pub async fn call(&self, name: &str, arguments: serde_json::Value) -> McpCallOutcome {
        let fail = |text: String| McpCallOutcome {
            text,
            is_error: true,
            timed_out: false,
        };
        let Some(tool) = self.tools().into_iter().find(|t| t.name == name) else {
            return fail(format!(
                "MCP tool `{name}` is not available (its server is not running)"
            ));
        };
        let Some(server) = self.servers.iter().find(|s| s.shared.name == tool.server) else {
            return fail(format!("MCP tool `{name}` has no server"));
        };
        let arguments = match arguments {
            serde_json::Value::Object(map) => Some(map),
            serde_json::Value::Null => None,
            other => {
                return fail(format!(
                    "arguments of `{name}` must be a JSON object, got {other}"
                ));
            }
        };
        let Some(link) = server.shared.link() else {
            return fail(format!("MCP server `{}` is not running", tool.server));
        };
        let started = Instant::now();
        let result = {
            let _busy = server.shared.busy();
            link.call_tool(&tool.tool, arguments).await
        };
        let ms = started.elapsed().as_millis();
        let outcome = match result {
            Ok(r) => render(&r),
            Err(e) => McpCallOutcome {
                timed_out: e.is_timeout(),
                text: format!("MCP tool `{name}` failed: {e}"),
                is_error: true,
            },
        };
        let status = if outcome.timed_out {
            "timeout"
        } else if outcome.is_error {
            "error"
        } else {
            "ok"
        };
        (self.events)(EventKind::Mcp {
            server: tool.server.clone(),
            action: "call".into(),
            detail: Some(format!("{} {status} in {ms} ms", tool.tool)),
        });
        outcome
    }

    /// Messages for the model (a server given up, with its output's tail), each given once.
    pub fn take_notices(&self) -> Vec<String> {
        std::mem::take(&mut *lock(&self.notices))
    }

    pub fn status(&self, server: &str) -> Option<Status> {
        self.server(server).map(|s| s.shared.status())
    }

    pub fn subscribe(&self, server: &str) -> Option<watch::Receiver<Status>> {
        self.server(server).map(|s| s.shared.subscribe())
    }

    pub fn ring_tail(&self, server: &str, n: usize) -> Vec<String> {
        self.server(server)
            .map(|s| s.launcher.ring().tail(n))
            .unwrap_or_default()
    }

    pub fn line_stats(&self, server: &str) -> Option<Arc<LineStats>> {
        self.server(server).and_then(|s| s.stats.clone())
    }

    /// Every PID any incarnation of any server had.
    pub fn pids(&self) -> Vec<i32> {
        self.servers.iter().flat_map(|s| s.shared.pids()).collect()
    }

    fn server(&self, name: &str) -> Option<&Server> {
        self.servers.iter().find(|s| s.shared.name == name)
    }

    /// Stops every supervisor; each ends its server's process tree before returning.
    pub async fn shutdown(&self) {
        self.stop.send_replace(true);
        let tasks = std::mem::take(&mut *lock(&self.tasks));
        for t in tasks {
            let _ = t.await;
        }
    }
}

/// Text blocks as text, anything else as its JSON; `structuredContent` when there is no content.
fn render(r: &CallToolResult) -> McpCallOutcome {
    let mut parts: Vec<String> = r
        .content
        .iter()
        .map(|c| match c {
            ContentBlock::Text(t) => t.text.clone(),
            other => serde_json::to_string(other).unwrap_or_default(),
        })
        .collect();
    if parts.is_empty()
        && let Some(s) = &r.structured_content
    {
        parts.push(s.to_string());
    }
    let is_error = r.is_error.unwrap_or(false);
    let mut text = parts.join("\n");
    if is_error {
        text = format!("MCP tool reported an error: {text}");
    }
    McpCallOutcome {
        text: cap(text, MAX_RESULT_CHARS),
        is_error,
        timed_out: false,
    }
}

/// Keeps the head and the tail of an over-long result, saying how much was cut.
pub fn cap(text: String, max: usize) -> String {
    let n = text.chars().count();
    if n <= max {
        return text;
    }
    let head = max * 3 / 4;
    let tail = max - head;
    let h: String = text.chars().take(head).collect();
    let t: String = text.chars().skip(n - tail).collect();
    format!("{h}\n[… {} characters cut …]\n{t}", n - head - tail)
}
