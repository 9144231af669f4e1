//! What one trial's agent may ask of its gateway: request size, connections, and how long
//! the gateway waits on it. Everything the agent sends is hostile input; these bound the
//! memory and time it can take from the host (task.yaml `gateway:`).

use crate::recorder::TranscriptCaps;
use std::time::Duration;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GatewayLimits {
    /// The largest request body. A `Content-Length` above it is refused before a byte of the
    /// body is read; a body without one is cut off at the limit.
    pub max_request_bytes: u64,
    /// Connections served at once. More wait in the socket's backlog until one closes, so
    /// a flood of connections costs the host nothing but queued sockets.
    pub max_connections: usize,
    /// The longest the gateway waits for a request's headers, counted from the moment the
    /// connection is ready for them (an idle kept-alive connection is closed after it too).
    pub header_timeout: Duration,
    /// The longest the gateway waits for the whole body of a request once its headers
    /// came, and for the agent to take each piece of a streamed answer.
    pub read_timeout: Duration,
    /// Memory that parsed requests in flight may take together, as estimated before
    /// parsing ([`crate::json_scan::Shape::estimated_memory`]). A request whose estimate
    /// alone is larger is refused; otherwise it waits (up to `read_timeout`) for requests in
    /// flight to finish.
    pub max_parsed_bytes: u64,
    /// The caps on `transcript.jsonl`: each line, and the whole file
    /// ([`crate::recorder`]).
    pub transcript: TranscriptCaps,
}

impl Default for GatewayLimits {
    fn default() -> Self {
        GatewayLimits::from_sizes(8 << 20, 8)
    }
}

impl GatewayLimits {
    pub const DEFAULT_HEADER_TIMEOUT: Duration = Duration::from_secs(10);
    pub const DEFAULT_READ_TIMEOUT: Duration = Duration::from_secs(60);

    /// The defaults with another request size and connection count; the parsed-memory pool
    /// is four times the request size, which an 8 MiB request of plain text fits with room.
    pub fn from_sizes(max_request_bytes: u64, max_connections: usize) -> GatewayLimits {
        GatewayLimits {
            max_request_bytes,
            max_connections,
            header_timeout: Self::DEFAULT_HEADER_TIMEOUT,
            read_timeout: Self::DEFAULT_READ_TIMEOUT,
            max_parsed_bytes: max_request_bytes.saturating_mul(4),
            transcript: TranscriptCaps::default(),
        }
    }
}
