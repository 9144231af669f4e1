use thiserror::Error;

/// Errors of the MCP client. Messages name the server and say what to do.
#[derive(Debug, Error)]
#[non_exhaustive]
pub enum McpError {
    #[error("MCP config {path}: {source}")]
    Config {
        path: String,
        #[source]
        source: super::config::ConfigError,
    },
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

/// Why talking to one server failed: starting it, the handshake, or a request. The
/// supervisor words these into its `death` events and the give-up notice the model reads.
#[derive(Debug, Error)]
#[non_exhaustive]
pub enum LinkError {
    #[error("cannot start `{command}`: {source}")]
    Spawn {
        command: String,
        #[source]
        source: std::io::Error,
    },
    #[error("the process exited before it could be watched")]
    ExitedAtOnce,
    /// The stream (`stdout` or `stderr`) that has no pipe.
    #[error("no {0} pipe")]
    NoPipe(&'static str),
    #[error("handshake failed: transport already used")]
    TransportUsed,
    #[error("handshake failed: {0}")]
    Handshake(#[source] rmcp::service::ClientInitializeError),
    /// `peer` is the server's URL or socket path.
    #[error("handshake with {peer} failed: {source}")]
    PeerHandshake {
        peer: String,
        #[source]
        source: rmcp::service::ClientInitializeError,
    },
    #[error("cannot connect to {socket}: {source}")]
    Connect {
        socket: String,
        #[source]
        source: std::io::Error,
    },
    /// `peer` is "to initialize" (stdio) or "from <url or socket>" (HTTP, socket).
    #[error("no answer {peer} within {secs} s")]
    NoAnswer { peer: String, secs: f64 },
    #[error("not initialized")]
    NotInitialized,
    #[error(transparent)]
    Service(#[from] rmcp::ServiceError),
    #[error("timed out after {secs} s")]
    CallTimeout { secs: f64 },
    #[error("the server died during the call: {why}")]
    DiedDuringCall { why: String },
}

impl LinkError {
    /// The call outlived `call_timeout` (the model is told it timed out, not that it failed).
    pub fn is_timeout(&self) -> bool {
        matches!(self, LinkError::CallTimeout { .. })
    }
}
