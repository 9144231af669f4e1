//! Which failed model calls are worth another try, and what the server said.
//!
//! nab-agent (talking to the gateway or to a server directly) and the gateway (talking to
//! a provider) both decide with this one table, so the two retry layers never disagree.
//! The rule: retry only what can change on its own — a connection error, HTTP 429, a 5xx
//! that is not a request-validation error, a truncated stream. A 4xx, or a 5xx whose body
//! says the request itself is invalid (llama-cpp-python answers a `content: null` with a
//! 500 and pydantic's validation errors), ends the call at once: the same bytes would get
//! the same answer.

use serde_json::Value;

/// What to do after a non-success HTTP status.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HttpVerdict {
    /// The server may answer differently later (rate limit, overload, crash).
    Retry,
    /// The server refused this request and will refuse it again.
    Reject,
}

/// The retry table for HTTP statuses. `body` is the answer's body (or its start); it
/// decides only for 5xx, where a validation error is not transient.
///
/// | status | verdict |
/// |---|---|
/// | 429 | retry |
/// | other 4xx (400 bad request, 401/403 auth, 404 model, 413, 422 …) | reject |
/// | 501 not implemented | reject (the server lacks the feature) |
/// | 5xx whose body is a request-validation error | reject |
/// | any other 5xx | retry |
/// | anything else (1xx/2xx/3xx reaching here) | reject |
pub fn classify_status(status: u16, body: &str) -> HttpVerdict {
    match status {
        429 => HttpVerdict::Retry,
        501 => HttpVerdict::Reject,
        500..=599 if is_validation_error(body) => HttpVerdict::Reject,
        500..=599 => HttpVerdict::Retry,
        _ => HttpVerdict::Reject,
    }
}

/// Whether `body` says the request failed validation. Recognised:
/// - pydantic's text (`1 validation error for …`, `7 validation errors for …`), as
///   llama-cpp-python and other FastAPI servers put it in a 500's message;
/// - FastAPI's `{"detail": [{"loc": …, "msg": …}, …]}` (normally a 422);
/// - an OpenAI-style `error.type` (or vLLM's top-level `type`) of `invalid_request_error`
///   or `BadRequestError`, whatever the status.
pub fn is_validation_error(body: &str) -> bool {
    let lower = body.to_ascii_lowercase();
    if lower.contains("validation error") {
        return true;
    }
    let Ok(v) = serde_json::from_str::<Value>(body.trim()) else {
        return false;
    };
    if let Some(Value::Array(items)) = v.get("detail")
        && items
            .iter()
            .any(|i| i.get("loc").is_some() && i.get("msg").is_some())
    {
        return true;
    }
    let kind = v
        .pointer("/error/type")
        .or_else(|| v.get("type"))
        .and_then(Value::as_str)
        .unwrap_or("");
    matches!(kind, "invalid_request_error" | "BadRequestError")
}

/// The longest message taken from an error body.
pub const MESSAGE_LIMIT: usize = 2000;

/// The human-readable message in an error body, as the common servers shape it:
/// OpenAI/Ollama/llama.cpp/DeepSeek/Kimi/GLM `{"error": {"message": …}}`, vLLM's
/// top-level `{"message": …}`, FastAPI's `{"detail": "…"}` or `{"detail": [{"loc", "msg"}]}`,
/// `{"error": "…"}`; otherwise the text itself. At most [`MESSAGE_LIMIT`] characters.
pub fn upstream_error_message(body: &str) -> String {
    let text = match serde_json::from_str::<Value>(body.trim()) {
        Ok(v) => message_of(&v).unwrap_or_else(|| body.trim().to_owned()),
        Err(_) => body.trim().to_owned(),
    };
    let text = if text.is_empty() {
        "(empty body)".to_owned()
    } else {
        text
    };
    cap_text(&text, MESSAGE_LIMIT)
}

fn message_of(v: &Value) -> Option<String> {
    if let Some(e) = v.get("error") {
        if let Some(s) = e.as_str() {
            return Some(s.to_owned());
        }
        if let Some(m) = e.get("message").and_then(Value::as_str) {
            return Some(m.to_owned());
        }
        if !e.is_null() {
            return Some(e.to_string());
        }
    }
    if let Some(m) = v.get("message").and_then(Value::as_str) {
        return Some(m.to_owned());
    }
    match v.get("detail") {
        Some(Value::String(s)) => Some(s.clone()),
        Some(Value::Array(items)) => {
            let parts: Vec<String> = items
                .iter()
                .map(|i| {
                    let loc = i
                        .get("loc")
                        .and_then(Value::as_array)
                        .map(|l| {
                            l.iter()
                                .map(|p| match p {
                                    Value::String(s) => s.clone(),
                                    other => other.to_string(),
                                })
                                .collect::<Vec<_>>()
                                .join(".")
                        })
                        .unwrap_or_default();
                    let msg = i.get("msg").and_then(Value::as_str).unwrap_or("");
                    format!("{loc}: {msg}")
                })
                .collect();
            Some(format!(
                "{} validation error(s): {}",
                items.len(),
                parts.join("; ")
            ))
        }
        _ => None,
    }
}

/// The first `limit` characters of `text`, marked when cut.
pub fn cap_text(text: &str, limit: usize) -> String {
    match text.char_indices().nth(limit) {
        Some((at, _)) => format!("{}… [{} more bytes]", &text[..at], text.len() - at),
        None => text.to_owned(),
    }
}

/// Whether an error message is a context-window overflow, in the words the common servers
/// use (OpenAI/vLLM/DeepSeek "maximum context length", llama.cpp "exceeds the available
/// context size", llama-cpp-python "Requested tokens (…) exceed context window", Ollama /
/// others "context length exceeded", `context_length_exceeded` codes).
pub fn is_context_overflow(message: &str) -> bool {
    let m = message.to_ascii_lowercase();
    [
        "maximum context length",
        "context_length_exceeded",
        "context length exceeded",
        "exceed context window",
        "exceeds the available context size",
        "context window exceeded",
        "prompt is too long",
        "too many tokens",
    ]
    .iter()
    .any(|p| m.contains(p))
}

#[cfg(test)]
mod tests {
    use super::*;
    use HttpVerdict::{Reject, Retry};

    /// Bodies as the servers send them (see `agent/tests/fixtures/dialects/` for where each
    /// comes from).
    const PYDANTIC_500: &str = r#"{"error":{"message":"7 validation errors for ChatCompletionRequestAssistantMessage\ncontent\n  Input should be a valid string [type=string_type, input_value=None, input_type=NoneType]","type":"internal_server_error","param":null,"code":null}}"#;
    const FASTAPI_422: &str = r#"{"detail":[{"type":"string_type","loc":["body","messages",2,"content"],"msg":"Input should be a valid string","input":null}]}"#;
    const VLLM_400: &str = r#"{"object":"error","message":"\"auto\" tool choice requires --enable-auto-tool-choice and --tool-call-parser to be set","type":"BadRequestError","param":null,"code":400}"#;
    const OLLAMA_400: &str = r#"{"error":{"message":"invalid message content type: <nil>","type":"invalid_request_error","param":null,"code":null}}"#;
    const OVERLOADED_503: &str = r#"{"error":{"message":"Server is overloaded, please try again later","type":"server_error"}}"#;
    const LLAMACPP_500_TYPED: &str =
        r#"{"error":{"code":500,"message":"bad request shape","type":"invalid_request_error"}}"#;

    #[test]
    fn the_retry_table() {
        let table: &[(u16, &str, HttpVerdict)] = &[
            (429, "", Retry),
            (429, OLLAMA_400, Retry),
            (500, "", Retry),
            (500, "Internal Server Error", Retry),
            (500, OVERLOADED_503, Retry),
            (502, "<html>bad gateway</html>", Retry),
            (503, OVERLOADED_503, Retry),
            (504, "", Retry),
            (500, PYDANTIC_500, Reject),
            (500, FASTAPI_422, Reject),
            (500, LLAMACPP_500_TYPED, Reject),
            (503, VLLM_400, Reject),
            (501, "", Reject),
            (400, "", Reject),
            (400, VLLM_400, Reject),
            (400, OLLAMA_400, Reject),
            (401, "unauthorized", Reject),
            (403, "", Reject),
            (404, r#"{"error":{"message":"model not found"}}"#, Reject),
            (408, "", Reject),
            (413, "", Reject),
            (422, FASTAPI_422, Reject),
        ];
        for (status, body, want) in table {
            assert_eq!(
                classify_status(*status, body),
                *want,
                "status {status} body {body}"
            );
        }
    }

    #[test]
    fn messages_come_out_of_every_shape() {
        assert!(upstream_error_message(PYDANTIC_500).starts_with("7 validation errors"));
        assert_eq!(
            upstream_error_message(FASTAPI_422),
            "1 validation error(s): body.messages.2.content: Input should be a valid string"
        );
        assert!(upstream_error_message(VLLM_400).starts_with("\"auto\" tool choice requires"));
        assert_eq!(
            upstream_error_message(OLLAMA_400),
            "invalid message content type: <nil>"
        );
        assert_eq!(upstream_error_message(r#"{"error":"plain"}"#), "plain");
        assert_eq!(
            upstream_error_message(r#"{"detail":"Not Found"}"#),
            "Not Found"
        );
        assert_eq!(upstream_error_message("  text page \n"), "text page");
        assert_eq!(upstream_error_message(""), "(empty body)");
        let long = "x".repeat(MESSAGE_LIMIT + 10);
        let got = upstream_error_message(&long);
        assert!(got.ends_with("… [10 more bytes]"), "{got}");
    }

    #[test]
    fn context_overflow_in_the_words_servers_use() {
        for m in [
            "This model's maximum context length is 65536 tokens. However, you requested 70000 tokens",
            "Requested tokens (5000) exceed context window of 2048",
            "the request exceeds the available context size, try increasing it",
            "error: context_length_exceeded",
        ] {
            assert!(is_context_overflow(m), "{m}");
        }
        assert!(!is_context_overflow("invalid message content type: <nil>"));
    }
}
