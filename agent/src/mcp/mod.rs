//! The MCP client: servers from `--mcp-config`, their tools offered to the model as
//! `mcp__<server>__<tool>`, each server supervised so that a misbehaving one can never hang
//! or kill the agent.
//!
//! - [`config`]: the JSON file (stdio `command`/`args`/`env`, streamable HTTP `url`, or a
//!   Unix `socket`).
//! - [`stdio`] / [`http`] / [`socket`]: the transports (a child process, streamable HTTP,
//!   a Unix socket carrying stdio framing), each a [`link::Launcher`] of [`link::Link`]s
//!   over rmcp (pinned to an exact version in Cargo.toml).
//! - [`supervisor`]: start, ping while idle, notice death, restart with backoff, give up.
//! - [`proctree`] / [`leftovers`]: ending a server's whole process tree, now or after a crash.
//! - [`ring`]: the junk stdout and stderr a server printed, shown to the model if it dies.
//! - [`manager`]: all servers together: the tool list, calls, notices, shutdown.
//! - [`tool`]: MCP tools as [`crate::tools::ToolHandler`]s, synced into the registry.

pub mod config;
mod error;
pub mod http;
pub mod leftovers;
pub mod link;
pub mod manager;
pub mod proctree;
pub mod ring;
pub mod socket;
pub mod stdio;
pub mod supervisor;
pub mod tool;

pub use config::{ConfigError, McpConfig, ServerConfig, TransportConfig};
pub use error::{LinkError, McpError};
pub use manager::{McpCallOutcome, McpManager, McpTool};
pub use ring::RingBuffer;

use nab_protocol::EventKind;
use std::sync::Arc;
use std::time::Duration;

/// Where `mcp` events go (the agent's event writer, or a test's collector).
pub type EventSink = Arc<dyn Fn(EventKind) + Send + Sync>;

/// Every wait the MCP client does. [`Timings::default`] is the specified behaviour; tests
/// shorten the ones they need to observe.
#[derive(Debug, Clone)]
pub struct Timings {
    /// initialize/initialized and the first `tools/list`.
    pub handshake_timeout: Duration,
    pub call_timeout: Duration,
    /// An idle server is pinged this often; a busy one is not.
    pub ping_interval: Duration,
    /// A ping not answered within this counts as missed.
    pub ping_timeout: Duration,
    /// Missed pings in a row that mark a server dead.
    pub missed_pings: u32,
    /// After closing stdin, how long the server may take to leave on its own.
    pub stdin_grace: Duration,
    /// After TERM, how long before KILL.
    pub term_grace: Duration,
    /// Delay before restart 1, 2, 3; one more death and the server is given up.
    pub backoff: Vec<Duration>,
    /// A server up this long has its failure count reset.
    pub stable_after: Duration,
    /// Ring-buffer lines shown to the model when a server is given up.
    pub tail_lines: usize,
}

impl Default for Timings {
    fn default() -> Self {
        Timings {
            handshake_timeout: Duration::from_secs(30),
            call_timeout: Duration::from_secs(60),
            ping_interval: Duration::from_secs(30),
            ping_timeout: Duration::from_secs(10),
            missed_pings: 2,
            stdin_grace: Duration::from_secs(1),
            term_grace: Duration::from_secs(2),
            backoff: vec![
                Duration::from_secs(1),
                Duration::from_secs(2),
                Duration::from_secs(4),
            ],
            stable_after: Duration::from_secs(60),
            tail_lines: 20,
        }
    }
}

/// The prefix of every MCP tool's name as the model sees it.
pub const TOOL_PREFIX: &str = "mcp__";

/// `mcp__<server>__<tool>`, made safe for providers (`[A-Za-z0-9_-]`, at most 64 chars).
pub fn exposed_name(server: &str, tool: &str) -> String {
    let tool: String = tool
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '_' || c == '-' {
                c
            } else {
                '_'
            }
        })
        .collect();
    let mut name = format!("{TOOL_PREFIX}{server}__{tool}");
    name.truncate(64);
    name
}
