//! What can go wrong talking to the model, worded for the person reading the log.

/// Which gateway budget stopped the run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BudgetKind {
    Tokens,
    Calls,
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
    #[error("the model server answered HTTP {status}: {message}")]
    Http { status: u16, message: String },
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
    #[error("the model stream reported an error: {0}")]
    StreamError(String),
    #[error("malformed completion from the model: {0}")]
    MalformedCompletion(String),
    #[error("gave up after {attempts} attempts; last error: {last}")]
    RetriesExhausted {
        attempts: u32,
        last: Box<ClientError>,
    },
}

impl ClientError {
    /// 429 and 5xx are worth another try; a refused budget or a 4xx is not.
    pub fn is_retryable(&self) -> bool {
        match self {
            ClientError::Http { status, .. } => *status == 429 || *status >= 500,
            ClientError::Connect { .. }
            | ClientError::Transport(_)
            | ClientError::IdleTimeout { .. } => true,
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

/// Classifies a non-2xx answer; an OpenAI-style `{"error": {...}}` body mentioning a
/// token or call budget becomes [`ClientError::Budget`] whatever the status.
pub fn from_status(status: u16, body: &str) -> ClientError {
    let parsed: Option<serde_json::Value> = serde_json::from_str(body).ok();
    let message = parsed
        .as_ref()
        .and_then(|v| v.get("error"))
        .map(|e| {
            e.get("message")
                .and_then(|m| m.as_str())
                .map(str::to_string)
                .unwrap_or_else(|| e.to_string())
        })
        .unwrap_or_else(|| body.chars().take(500).collect());
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
    ClientError::Http { status, message }
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
