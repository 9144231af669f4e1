//! Errors of the gateway crate. Each message says what went wrong, where, and what to do.

use nab_protocol::HttpVerdict;
use nab_protocol::classify_status;
use std::path::PathBuf;
use std::time::Duration;

/// A provider spec string could not be turned into a provider.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum SpecError {
    #[error(
        "unknown provider spec {spec:?}: expected openai[<options>]:<model>[@<base_url>], anthropic[<options>]:<model>[@<base_url>], record:<cassette-dir>:<inner spec>, replay:<cassette-dir> or scripted:<file>|task"
    )]
    UnknownKind { spec: String },
    #[error("provider spec {spec:?}: {message}")]
    Invalid { spec: String, message: String },
    #[error("provider spec {spec:?}: {source}")]
    Dialect {
        spec: String,
        #[source]
        source: crate::dialect::DialectError,
    },
    #[error("provider spec {spec:?}: {source}")]
    Normalize {
        spec: String,
        #[source]
        source: crate::normalize::NormalizeError,
    },
    #[error("provider spec {spec:?}: cannot build the HTTP client: {source}")]
    HttpClient {
        spec: String,
        #[source]
        source: reqwest::Error,
    },
    #[error(
        "provider spec {spec:?}: no API key: set {var} in the host environment (or name another variable with --api-key-env)"
    )]
    MissingKey { spec: String, var: String },
    #[error(
        "provider spec {spec:?}: no base URL: write openai:<model>@<base_url> (e.g. openai:{model}@http://127.0.0.1:8000/v1) or set {var}"
    )]
    MissingBaseUrl {
        spec: String,
        model: String,
        var: String,
    },
    #[error("provider spec {spec:?}: cannot read {path}: {source}")]
    Io {
        spec: String,
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("provider spec {spec:?}: {path}: {message}")]
    File {
        spec: String,
        path: PathBuf,
        message: String,
    },
}

/// One failed attempt (or a failed stream) at the provider.
#[derive(Debug, Clone, thiserror::Error)]
#[non_exhaustive]
pub enum ProviderError {
    /// The provider answered with a non-success HTTP status.
    #[error("provider answered HTTP {status}: {body}")]
    Http {
        status: u16,
        body: String,
        retry_after: Option<Duration>,
    },
    /// No HTTP answer at all: refused, reset, DNS, TLS.
    #[error("cannot reach the provider: {0}")]
    Connect(String),
    /// Nothing arrived for too long (before the response, or between stream chunks).
    #[error("the provider sent nothing for {}s ({what}); idle timeout", after.as_secs_f64())]
    Timeout { after: Duration, what: &'static str },
    /// The provider's answer was not valid OpenAI-compatible JSON / SSE.
    #[error("invalid response from the provider: {0}")]
    InvalidResponse(String),
    /// A stream that ended without a finish reason and without `[DONE]` (an HTTP 200 with
    /// an empty body is one with no chunks): the server failed after sending its headers.
    /// Never an answer.
    #[error(
        "the provider's stream ended after {chunks} chunks without a finish_reason or [DONE]: the server failed mid-answer"
    )]
    Truncated { chunks: usize },
    /// An `{"error": …}` event inside the provider's stream.
    #[error("the provider reported an error inside its stream: {message}")]
    InStream { message: String, retryable: bool },
    /// The request body itself is unusable (not a JSON object, no messages…).
    #[error("invalid request: {0}")]
    InvalidRequest(String),
    /// `replay:` has no recording for this request.
    #[error("{0}")]
    ReplayMiss(String),
    /// `scripted:` has played all its turns.
    #[error(
        "scripted model {source_name}: out of turns: all {played} turns were played and the agent asked for another"
    )]
    ScriptExhausted { source_name: String, played: usize },
    /// `scripted:` was asked for a summary (nab-agent's context compaction) and has none left.
    #[error(
        "scripted model {source_name}: out of summaries: the agent asked to summarize its history but the trajectory's `summaries:` has {played} and all were used; add one"
    )]
    SummariesExhausted { source_name: String, played: usize },
    /// Reading or writing a cassette failed.
    #[error("cassette {path}: {message}")]
    Cassette { path: PathBuf, message: String },
}

impl ProviderError {
    /// Whether trying again could help, by the table nab-agent uses too
    /// ([`nab_protocol::upstream`]): connection failures, timeouts, truncated streams, 429
    /// and 5xx — except a 5xx whose body is a request-validation error, which the same
    /// request would get again. Everything else is final.
    pub fn is_retryable(&self) -> bool {
        match self {
            ProviderError::Http { status, body, .. } => {
                classify_status(*status, body) == HttpVerdict::Retry
            }
            ProviderError::Connect(_)
            | ProviderError::Timeout { .. }
            | ProviderError::Truncated { .. } => true,
            ProviderError::InStream { retryable, .. } => *retryable,
            _ => false,
        }
    }

    /// The provider's HTTP status, when there was one.
    pub fn status(&self) -> Option<u16> {
        match self {
            ProviderError::Http { status, .. } => Some(*status),
            _ => None,
        }
    }

    /// A stable machine-readable code, used as `error.code` in answers to the agent.
    pub fn code(&self) -> &'static str {
        match self {
            ProviderError::Http { .. } if self.is_retryable() => "provider_http_error",
            ProviderError::Http { .. } => "provider_rejected",
            ProviderError::Connect(_) => "provider_unreachable",
            ProviderError::Timeout { .. } => "idle_timeout",
            ProviderError::InvalidResponse(_) => "invalid_provider_response",
            ProviderError::Truncated { .. } => "stream_truncated",
            ProviderError::InStream {
                retryable: true, ..
            } => "provider_stream_error",
            ProviderError::InStream { .. } => "provider_rejected",
            ProviderError::InvalidRequest(_) => "invalid_request",
            ProviderError::ReplayMiss(_) => "replay_miss",
            ProviderError::ScriptExhausted { .. } => "scripted_out_of_turns",
            ProviderError::SummariesExhausted { .. } => "scripted_out_of_summaries",
            ProviderError::Cassette { .. } => "cassette_error",
        }
    }
}

/// Errors of the gateway and of [`crate::Client`].
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum GatewayError {
    #[error("gateway socket {path}: {message}")]
    Socket { path: PathBuf, message: String },
    #[error("transcript {path}: {source}")]
    Transcript {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("{error} (after {retries} retries)")]
    Provider { error: ProviderError, retries: u32 },
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_gateways_retry_table_and_codes() {
        let http = |status: u16, body: &str| ProviderError::Http {
            status,
            body: body.into(),
            retry_after: None,
        };
        let validation =
            r#"{"error":{"message":"7 validation errors: ...","type":"internal_server_error"}}"#;
        // (error, retried, code)
        let table: Vec<(ProviderError, bool, &str)> = vec![
            (http(429, ""), true, "provider_http_error"),
            (http(503, "overloaded"), true, "provider_http_error"),
            (http(500, validation), false, "provider_rejected"),
            (http(400, "context"), false, "provider_rejected"),
            (
                ProviderError::Connect("refused".into()),
                true,
                "provider_unreachable",
            ),
            (
                ProviderError::Timeout {
                    after: Duration::from_secs(1),
                    what: "x",
                },
                true,
                "idle_timeout",
            ),
            (
                ProviderError::Truncated { chunks: 0 },
                true,
                "stream_truncated",
            ),
            (
                ProviderError::InStream {
                    message: "overloaded".into(),
                    retryable: true,
                },
                true,
                "provider_stream_error",
            ),
            (
                ProviderError::InStream {
                    message: "bad".into(),
                    retryable: false,
                },
                false,
                "provider_rejected",
            ),
            (
                ProviderError::InvalidResponse("x".into()),
                false,
                "invalid_provider_response",
            ),
            (ProviderError::ReplayMiss("x".into()), false, "replay_miss"),
        ];
        for (e, retried, code) in table {
            assert_eq!(e.is_retryable(), retried, "{e}");
            assert_eq!(e.code(), code, "{e}");
        }
    }
}
