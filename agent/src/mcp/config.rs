//! The MCP configuration file (`--mcp-config FILE`).
//!
//! The common `mcpServers` shape, one entry per server:
//! ```json
//! {"mcpServers": {
//!    "tracker": {"command": "python3", "args": ["/nab/task/tracker.py"], "env": {"MODE": "ro"}},
//!    "docs":    {"url": "http://127.0.0.1:8931/mcp"},
//!    "inventory": {"socket": "/nab/mcp-sockets/inventory.sock"}
//! }}
//! ```
//! A server has exactly one of `command` (stdio), `url` (streamable HTTP) or `socket` (a
//! Unix socket carrying stdio's line framing; nab serves a task's sidecar servers so).

use super::McpError;
use serde::Deserialize;
use std::collections::BTreeMap;
use std::path::Path;

/// What is wrong with a config file; the message names the field, server or line.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ConfigError {
    #[error("cannot read it: {0}")]
    Read(#[source] std::io::Error),
    #[error("at `{path}` (line {line}): {source}")]
    Syntax {
        path: String,
        line: usize,
        #[source]
        source: serde_json::Error,
    },
    #[error("server name `{0}` must be 1-32 characters of [A-Za-z0-9_-] without `__`")]
    BadName(String),
    #[error("server `{name}`: url `{url}` must start with http:// or https://")]
    BadUrl { name: String, url: String },
    #[error("server `{0}` has more than one of `command`, `url` and `socket`; give exactly one")]
    BothTransports(String),
    #[error(
        "server `{0}` needs a non-empty `command` (stdio), a `url` (streamable HTTP) or a `socket` (an absolute path)"
    )]
    NoTransport(String),
}

#[derive(Debug, Clone, PartialEq)]
pub struct McpConfig {
    /// Sorted by name so that start-up order and tool order are deterministic.
    pub servers: Vec<ServerConfig>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct ServerConfig {
    pub name: String,
    pub transport: TransportConfig,
}

#[derive(Debug, Clone, PartialEq)]
pub enum TransportConfig {
    Stdio {
        command: String,
        args: Vec<String>,
        env: BTreeMap<String, String>,
    },
    Http {
        url: String,
    },
    Socket {
        path: std::path::PathBuf,
    },
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawFile {
    #[serde(rename = "mcpServers")]
    mcp_servers: BTreeMap<String, RawServer>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawServer {
    command: Option<String>,
    #[serde(default)]
    args: Vec<String>,
    #[serde(default)]
    env: BTreeMap<String, String>,
    url: Option<String>,
    socket: Option<String>,
    /// Accepted for compatibility with other clients' files ("stdio" | "http" | ...).
    #[serde(rename = "type")]
    _kind: Option<String>,
}

impl McpConfig {
    pub fn load(path: &Path) -> Result<McpConfig, McpError> {
        let config_error = |source| McpError::Config {
            path: path.display().to_string(),
            source,
        };
        let text = std::fs::read_to_string(path).map_err(|e| config_error(ConfigError::Read(e)))?;
        McpConfig::parse(&text).map_err(config_error)
    }

    /// Parses the file's text; the error names the field (and line) that is wrong.
    pub fn parse(text: &str) -> Result<McpConfig, ConfigError> {
        let de = &mut serde_json::Deserializer::from_str(text);
        let raw: RawFile = serde_path_to_error::deserialize(de).map_err(|e| {
            let path = e.path().to_string();
            let source = e.into_inner();
            ConfigError::Syntax {
                path,
                line: source.line(),
                source,
            }
        })?;
        let mut servers = Vec::new();
        for (name, s) in raw.mcp_servers {
            validate_name(&name)?;
            let transport = match (s.command, s.url, s.socket) {
                (Some(command), None, None) if !command.trim().is_empty() => {
                    TransportConfig::Stdio {
                        command,
                        args: s.args,
                        env: s.env,
                    }
                }
                (None, Some(url), None) => {
                    if !(url.starts_with("http://") || url.starts_with("https://")) {
                        return Err(ConfigError::BadUrl { name, url });
                    }
                    TransportConfig::Http { url }
                }
                (None, None, Some(path)) if path.starts_with('/') => {
                    TransportConfig::Socket { path: path.into() }
                }
                (c, u, p)
                    if [c.is_some(), u.is_some(), p.is_some()]
                        .iter()
                        .filter(|x| **x)
                        .count()
                        > 1 =>
                {
                    return Err(ConfigError::BothTransports(name));
                }
                _ => return Err(ConfigError::NoTransport(name)),
            };
            servers.push(ServerConfig { name, transport });
        }
        Ok(McpConfig { servers })
    }
}

/// Tool names become `mcp__<server>__<tool>`; providers allow `[A-Za-z0-9_-]{1,64}` and the
/// double underscore is the separator, so a server name must not contain one.
fn validate_name(name: &str) -> Result<(), ConfigError> {
    let ok = !name.is_empty()
        && name.len() <= 32
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
        && !name.contains("__");
    if ok {
        Ok(())
    } else {
        Err(ConfigError::BadName(name.to_string()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_both_transports_sorted_by_name() {
        let c = McpConfig::parse(
            r#"{"mcpServers": {"zeta": {"url": "http://127.0.0.1:1/mcp"}, "mid": {"socket": "/nab/s.sock"},
                "alpha": {"command": "python3", "args": ["s.py"], "env": {"A": "1"}}}}"#,
        )
        .unwrap();
        assert_eq!(c.servers[0].name, "alpha");
        assert!(
            matches!(&c.servers[0].transport, TransportConfig::Stdio { args, .. } if args == &["s.py"])
        );
        assert!(
            matches!(&c.servers[1].transport, TransportConfig::Socket { path } if path.ends_with("s.sock"))
        );
        assert!(
            matches!(&c.servers[2].transport, TransportConfig::Http { url } if url.ends_with("/mcp"))
        );
    }

    #[test]
    fn bad_files_say_what_and_where() {
        let table = [
            (
                r#"{"mcpServers": {"a": {}}}"#,
                "needs a non-empty `command`",
            ),
            (
                r#"{"mcpServers": {"a": {"command": "x", "url": "http://h"}}}"#,
                "more than one",
            ),
            (
                r#"{"mcpServers": {"a__b": {"command": "x"}}}"#,
                "without `__`",
            ),
            (r#"{"mcpServers": {"a": {"url": "ftp://h"}}}"#, "http://"),
            (
                r#"{"mcpServers": {"a": {"socket": "/s", "url": "http://h"}}}"#,
                "more than one",
            ),
            (
                r#"{"mcpServers": {"a": {"socket": "rel.sock"}}}"#,
                "an absolute path",
            ),
            ("{\"mcpServers\": {\"a\": {\"comand\": \"x\"}}}", "line 1"),
            (
                "{\"mcpServers\": {\"a\": {\"args\": 3}}}",
                "mcpServers.a.args",
            ),
        ];
        for (text, want) in table {
            let err = McpConfig::parse(text).unwrap_err().to_string();
            assert!(err.contains(want), "{text}: {err}");
        }
    }
}
