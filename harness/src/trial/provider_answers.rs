//! What the provider answered a trial's calls, read from the gateway transcript: enough to
//! tell a misconfigured run (a bad key, a model the provider does not know, a request
//! shape it refuses) from the model failing a task.
//!
//! A 401, 403 or 404 from the provider is the run's configuration, never the model's
//! answer: the same key, model name and base URL would get it on every call of every
//! trial. A 400 is usually the request's own fault (a prompt over the window, a bad tool
//! schema), so it alone says nothing; but when the run's first calls are all refused with
//! 400 and none was ever answered, that too is the configuration (DeepSeek, for one, answers
//! an unknown model with 400 "Model Not Exist"). [`crate::run::ProviderGuard`] decides.

use nab_protocol::TranscriptLine;

/// The provider's statuses that mean the run's configuration is wrong.
pub(crate) const CONFIG_STATUSES: &[u16] = &[401, 403, 404];

/// A trial's calls, as the provider answered them.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ProviderAnswers {
    /// Calls the provider answered (a response and no error).
    pub answered: u64,
    /// The first call refused with 401/403/404, in one line quoting the provider.
    pub config: Option<String>,
    /// Calls the provider refused with HTTP 400 (its own refusal, `provider_rejected`).
    pub rejected_400: u64,
    /// The first such refusal, in one line quoting the provider.
    pub first_400: Option<String>,
}

/// `HTTP 401 from openai:m@http://…: "Incorrect API key provided"`: the provider's own
/// message, from the body the gateway recorded.
fn quoted(line: &TranscriptLine, status: u16) -> String {
    let raw = line.error.as_deref().unwrap_or("");
    // The gateway writes "provider answered HTTP <status>: <body>".
    let body = raw
        .split_once(": ")
        .filter(|(head, _)| head.starts_with("provider answered HTTP"))
        .map_or(raw, |(_, b)| b);
    let message = nab_protocol::upstream_error_message(body);
    let message: String = message.lines().map(str::trim).collect::<Vec<_>>().join(" ");
    format!(
        "HTTP {status} from {}: \"{}\"",
        line.provider,
        nab_protocol::cap_text(&message, 300)
    )
}

impl ProviderAnswers {
    /// Reads the transcript's calls in order (refusals by the gateway itself and budget
    /// refusals are not the provider's answers).
    pub fn of(transcript: &[TranscriptLine]) -> ProviderAnswers {
        let mut lines: Vec<&TranscriptLine> = transcript
            .iter()
            .filter(|l| l.refused.is_none() && l.budget_exceeded.is_none())
            .collect();
        lines.sort_by_key(|l| l.seq);
        let mut a = ProviderAnswers::default();
        for l in lines {
            if l.error.is_none() && l.response.is_some() {
                a.answered += 1;
                continue;
            }
            if l.error_code.as_deref() != Some("provider_rejected") {
                continue;
            }
            match l.status {
                Some(s) if CONFIG_STATUSES.contains(&s) => {
                    a.config.get_or_insert_with(|| quoted(l, s));
                }
                Some(400) => {
                    a.rejected_400 += 1;
                    a.first_400.get_or_insert_with(|| quoted(l, 400));
                }
                _ => {}
            }
        }
        a
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(
        seq: u64,
        status: Option<u16>,
        code: Option<&str>,
        error: Option<&str>,
    ) -> TranscriptLine {
        TranscriptLine {
            v: 1,
            ts: String::new(),
            seq,
            provider: "openai:m@http://127.0.0.1:9/v1".into(),
            stream: true,
            api: None,
            request: serde_json::Value::Null,
            response: error.is_none().then(|| serde_json::json!({"choices": []})),
            usage: None,
            latency_ms: 1,
            status,
            retries: 0,
            error: error.map(str::to_owned),
            error_code: code.map(str::to_owned),
            budget_exceeded: None,
            replay_drift: None,
            refused: None,
        }
    }

    #[test]
    fn a_401_or_404_is_configuration_and_quotes_the_provider() {
        let body = r#"provider answered HTTP 401: {"error": {"message": "Incorrect API key provided: sk-****", "type": "invalid_request_error"}}"#;
        let a = ProviderAnswers::of(&[line(0, Some(401), Some("provider_rejected"), Some(body))]);
        assert_eq!(
            a.config.as_deref(),
            Some(
                "HTTP 401 from openai:m@http://127.0.0.1:9/v1: \"Incorrect API key provided: sk-****\""
            )
        );
        let missing = r#"provider answered HTTP 404: {"error": {"message": "The model `nope` does not exist", "code": "model_not_found"}}"#;
        let a =
            ProviderAnswers::of(&[line(0, Some(404), Some("provider_rejected"), Some(missing))]);
        assert!(
            a.config
                .unwrap()
                .contains("The model `nope` does not exist")
        );
    }

    #[test]
    fn a_400_is_counted_apart_and_other_failures_are_not_configuration() {
        let bad = r#"provider answered HTTP 400: {"error": {"message": "Model Not Exist"}}"#;
        let a = ProviderAnswers::of(&[
            line(0, None, None, None),
            line(1, Some(400), Some("provider_rejected"), Some(bad)),
            line(2, Some(502), Some("provider_http_error"), Some("boom")),
            line(3, None, Some("replay_miss"), Some("replay miss")),
        ]);
        assert_eq!((a.answered, a.rejected_400, a.config), (1, 1, None));
        assert!(a.first_400.unwrap().contains("Model Not Exist"));
    }
}
