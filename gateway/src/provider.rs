//! The one trait every model provider implements.

use crate::error::ProviderError;
use futures::stream::BoxStream;
use serde_json::Value;

/// The `data:` payloads of an SSE stream, one JSON chunk text per item, without the
/// final `[DONE]` marker (the gateway writes that itself).
pub type ChunkStream = BoxStream<'static, Result<String, ProviderError>>;

/// A successful answer from a provider (2xx). Failures are [`ProviderError`]s.
pub enum ProviderResponse {
    /// A whole `chat.completion` object (the request had no `stream: true`).
    Json { status: u16, body: Value },
    /// A stream of `chat.completion.chunk` JSON texts, delivered as they arrive.
    Stream { status: u16, chunks: ChunkStream },
}

impl std::fmt::Debug for ProviderResponse {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ProviderResponse::Json { status, body } => f
                .debug_struct("Json")
                .field("status", status)
                .field("body", body)
                .finish(),
            ProviderResponse::Stream { status, .. } => {
                f.debug_struct("Stream").field("status", status).finish()
            }
        }
    }
}

impl ProviderResponse {
    pub fn status(&self) -> u16 {
        match self {
            ProviderResponse::Json { status, .. } | ProviderResponse::Stream { status, .. } => {
                *status
            }
        }
    }
}

/// A source of chat completions. One instance serves one trial (providers such as
/// `scripted:` keep per-trial state), and may be shared by concurrent requests.
///
/// `send` is one attempt: retries, budgets, timeouts and recording are the caller's
/// ([`crate::Client`] and [`crate::Gateway`]), so every provider gets them the same way.
#[async_trait::async_trait]
pub trait Provider: Send + Sync {
    /// The spec with secrets removed, written into each transcript line.
    fn describe(&self) -> String;

    /// The model name, when the provider knows it (for `GET /v1/models`).
    fn model(&self) -> Option<String> {
        None
    }

    /// Sends one request. `request` is the agent's body (plus `stream_options` added by the
    /// gateway); when it has `"stream": true` the provider should answer with a stream.
    async fn send(&self, request: &Value) -> Result<ProviderResponse, ProviderError>;

    /// For a replayed answer to `request` whose tool results differ from the recording's in
    /// volatile tokens only (it matched after normalization): where they first differ, one
    /// line for the transcript's `replay_drift`. `None` for an exact match and for providers
    /// that do not replay.
    fn replay_drift(&self, _request: &Value) -> Option<String> {
        None
    }
}

/// Whether the request asks for a stream.
pub fn wants_stream(request: &Value) -> bool {
    request.get("stream").and_then(Value::as_bool) == Some(true)
}
