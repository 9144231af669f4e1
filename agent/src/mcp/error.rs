use thiserror::Error;

/// Errors of the MCP client. Messages name the server and say what to do.
#[derive(Debug, Error)]
#[non_exhaustive]
pub enum McpError {
    #[error("MCP config {path}: {message}")]
    Config { path: String, message: String },
    #[error("MCP server `{server}`: cannot start `{command}`: {source}")]
    Spawn {
        server: String,
        command: String,
        #[source]
        source: std::io::Error,
    },
    #[error("MCP server `{server}`: handshake failed: {message}")]
    Handshake { server: String, message: String },
    #[error("MCP server `{server}`: {message}")]
    Protocol { server: String, message: String },
    #[error("MCP server `{server}`: `{tool}` did not answer within {secs} s")]
    Timeout {
        server: String,
        tool: String,
        secs: u64,
    },
    #[error("MCP server `{server}` is not running: {message}")]
    NotRunning { server: String, message: String },
    #[error("MCP state file {path}: {message}")]
    State { path: String, message: String },
}
