//! What can go wrong talking to the model, worded for the person reading the log.

use nab_protocol::HttpVerdict;
use nab_protocol::{
    classify_status, is_context_overflow, is_validation_error, upstream_error_message,
};

/// Which gateway budget stopped the run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BudgetKind {
    Tokens,
    Calls,
    /// The gateway's dollar limit (`cost_budget`).
    Cost,
}

#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ClientError {
    #[error("invalid --base-url `{url}`: {why}")]
    BadBaseUrl { url: String, why: String },
    #[error("cannot connect to the model at {target}: {source}")]
    Connect {
        target: String,
        #[source]
        source: std::io::Error,
    },
    #[error("HTTP transport error talking to the model: {0}")]
    Transport(String),
    /// A status worth another try (429, a 5xx that is not a validation error).
    #[error("the model server answered HTTP {status}: {message}")]
    Http { status: u16, message: String },
    /// The server refused the request itself (a 4xx, or a 5xx whose body is a
    /// request-validation error): the same request would be refused again.
    #[error(
        "the model server rejected the request with HTTP {status} (not retried: the same request would be rejected again): {message}"
    )]
    Rejected { status: u16, message: String },
    /// The request does not fit the model's context window (a 400 saying so).
    #[error("the request does not fit the model's context window (HTTP {status}): {message}")]
    ContextOverflow { status: u16, message: String },
    #[error(
        "the model gateway refused the call because a budget was used up ({kind:?}): {message}"
    )]
    Budget { kind: BudgetKind, message: String },
    /// The harness's gateway already retried the provider and gave up (`upstream_error`):
    /// retrying here would only multiply the attempts.
    #[error(
        "the model gateway gave up on the provider after its own retries (HTTP {status}): {message}"
    )]
    GatewayGaveUp { status: u16, message: String },
    #[error("the model stream was silent for {secs} s while {phase}")]
    IdleTimeout { secs: u64, phase: &'static str },
    #[error(
        "the model stream ended before the answer was complete (no finish_reason and no [DONE]) after {events} events"
    )]
    StreamInterrupted { events: usize },
    #[error("malformed JSON in SSE event #{event} of the model stream: {error}; data was: {data}")]
    MalformedChunk {
        event: usize,
        error: String,
        data: String,
    },
    /// An `{"error": …}` event inside the stream. `retryable` unless it is a validation
    /// error: the gateway sends one when the provider failed after chunks were already passed
    /// on, which it could not retry itself.
    #[error("the model stream reported an error: {message}")]
    StreamError { message: String, retryable: bool },
    #[error("malformed completion from the model: {0}")]
    MalformedCompletion(String),
    #[error("gave up after {attempts} attempts; last error: {last}")]
    RetriesExhausted {
        attempts: u32,
        last: Box<ClientError>,
    },
}

impl ClientError {
    /// What can change on its own is worth another try (the table of
    /// [`nab_protocol::upstream`]): connection errors, 429, 5xx that are not validation
    /// errors, silences and truncated streams. A refused budget, a rejected request, a
    /// gateway that already retried, or an answer that is not JSON are final.
    pub fn is_retryable(&self) -> bool {
        match self {
            ClientError::Http { .. }
            | ClientError::Connect { .. }
            | ClientError::Transport(_)
            | ClientError::IdleTimeout { .. }
            | ClientError::StreamInterrupted { .. } => true,
            ClientError::StreamError { retryable, .. } => *retryable,
            _ => false,
        }
    }

    /// Whether the model's context window was exceeded, looking through retries.
    pub fn is_context_overflow(&self) -> bool {
        match self {
            ClientError::ContextOverflow { .. } => true,
            ClientError::RetriesExhausted { last, .. } => last.is_context_overflow(),
            _ => false,
        }
    }

    /// The budget behind this error, looking through retries.
    pub fn budget(&self) -> Option<BudgetKind> {
        match self {
            ClientError::Budget { kind, .. } => Some(*kind),
            ClientError::RetriesExhausted { last, .. } => last.budget(),
            _ => None,
        }
    }
}

/// Classifies a non-2xx answer: an OpenAI-style `{"error": {...}}` body naming a token or
/// call budget is [`ClientError::Budget`] whatever the status; the gateway's
/// `upstream_error` is [`ClientError::GatewayGaveUp`]; otherwise the shared retry table
/// decides between [`ClientError::Http`] (retry) and [`ClientError::Rejected`] (final), and a
/// rejection that talks about the context window is [`ClientError::ContextOverflow`].
pub fn from_status(status: u16, body: &str) -> ClientError {
    let parsed: Option<serde_json::Value> = serde_json::from_str(body).ok();
    let message = upstream_error_message(body);
    if let Some(kind) = parsed.as_ref().and_then(budget_kind) {
        return ClientError::Budget { kind, message };
    }
    let error_type = parsed
        .as_ref()
        .and_then(|v| v.pointer("/error/type"))
        .and_then(|t| t.as_str());
    if error_type == Some("upstream_error") {
        return ClientError::GatewayGaveUp { status, message };
    }
    match classify_status(status, body) {
        HttpVerdict::Retry => ClientError::Http { status, message },
        HttpVerdict::Reject if is_context_overflow(&message) => {
            ClientError::ContextOverflow { status, message }
        }
        HttpVerdict::Reject => ClientError::Rejected { status, message },
    }
}

/// Classifies an `{"error": …}` object that arrived inside a stream.
pub fn from_stream_error(chunk: &serde_json::Value) -> ClientError {
    let text = chunk.to_string();
    let message = upstream_error_message(&text);
    if let Some(kind) = budget_kind(chunk) {
        return ClientError::Budget { kind, message };
    }
    if is_context_overflow(&message) {
        return ClientError::ContextOverflow {
            status: 200,
            message,
        };
    }
    ClientError::StreamError {
        retryable: !is_validation_error(&text),
        message,
    }
}

/// Looks at `error.code` and `error.type` for a budget marker.
pub fn budget_kind(v: &serde_json::Value) -> Option<BudgetKind> {
    let err = v.get("error")?;
    let fields = ["code", "type"]
        .iter()
        .filter_map(|k| err.get(*k).and_then(|x| x.as_str()))
        .map(str::to_ascii_lowercase)
        .collect::<Vec<_>>();
    if fields.iter().any(|f| f.contains("token_budget")) {
        Some(BudgetKind::Tokens)
    } else if fields.iter().any(|f| f.contains("cost_budget")) {
        Some(BudgetKind::Cost)
    } else if fields
        .iter()
        .any(|f| f.contains("llm_calls") || f.contains("call_budget"))
    {
        Some(BudgetKind::Calls)
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn classifies_budgets_gateway_give_ups_and_plain_http_errors() {
        let budget = from_status(
            429,
            r#"{"error":{"type":"budget_exceeded","code":"token_budget","message":"spent"}}"#,
        );
        assert_eq!(budget.budget(), Some(BudgetKind::Tokens));
        let cost = from_status(
            429,
            r#"{"error":{"type":"budget_exceeded","code":"cost_budget","message":"spent"}}"#,
        );
        assert_eq!(cost.budget(), Some(BudgetKind::Cost));
        assert!(!budget.is_retryable());
        let gave_up = from_status(
            502,
            r#"{"error":{"type":"upstream_error","message":"500 three times"}}"#,
        );
        assert!(matches!(
            gave_up,
            ClientError::GatewayGaveUp { status: 502, .. }
        ));
        assert!(!gave_up.is_retryable(), "the gateway already retried");
        let plain = from_status(503, "busy");
        assert!(plain.is_retryable());
    }
}
