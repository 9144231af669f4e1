//! The judges' model seam ([`nab_judges::JudgeModel`]) implemented with the gateway's
//! providers, called in-process (no socket, no HTTP of our own): a `--judge` spec such as
//! `openai:gpt-4.1@http://…`, `replay:cassettes/judge` or `scripted:answers.yaml` becomes a
//! provider, and each judge prompt becomes one OpenAI chat-completions request.

use async_trait::async_trait;
use nab_gateway::{CallPolicy, Client, ProviderOptions};
use nab_judges::{ChatMessage, JudgeModel, ModelError, ModelReply};
use serde_json::{Value, json};

/// The `model` field of every judge request. The `openai:` provider replaces it with the
/// spec's model; keeping it constant makes a judge cassette recorded with
/// `record:<dir>:openai:<model>` replay with `replay:<dir>` (the request is the cassette key).
const REQUEST_MODEL: &str = "nab-judge";

/// A judge model backed by a gateway provider.
pub struct GatewayJudge {
    client: Client,
    /// The provider's description (the spec without secrets), recorded with every verdict.
    id: String,
}

impl GatewayJudge {
    /// Builds the provider of `spec` with the gateway's retry policy. The API key (for
    /// `openai:`) comes from the host environment, as for the agent's gateway.
    pub fn from_spec(spec: &str) -> anyhow::Result<GatewayJudge> {
        let client = Client::from_spec(spec, &ProviderOptions::default(), CallPolicy::default())
            .map_err(|e| anyhow::anyhow!("judge model {spec:?}: {e}"))?;
        let id = client.provider().describe();
        Ok(GatewayJudge { client, id })
    }
}

/// The factory the judges' `run` functions take (`--judge SPEC` → model).
pub fn judge_factory(spec: &str) -> anyhow::Result<Box<dyn JudgeModel>> {
    Ok(Box::new(GatewayJudge::from_spec(spec)?))
}

/// The chat-completions body for `messages`: deterministic sampling, no streaming.
pub fn request_body(messages: &[ChatMessage]) -> Value {
    json!({
        "model": REQUEST_MODEL,
        "messages": messages,
        "temperature": 0,
        "stream": false,
    })
}

/// The text of the first choice. A missing message is an invalid response (the model could
/// not be asked properly); a null or absent `content` is an empty answer, which the strict
/// parser then rejects and retries like any other malformed answer.
pub fn reply_text(completion: &Value) -> Result<String, ModelError> {
    let message = completion
        .get("choices")
        .and_then(|c| c.get(0))
        .and_then(|c| c.get("message"))
        .ok_or_else(|| {
            ModelError(format!(
                "the judge provider's answer has no choices[0].message: {}",
                truncate(&completion.to_string(), 300)
            ))
        })?;
    Ok(message
        .get("content")
        .and_then(Value::as_str)
        .unwrap_or_default()
        .to_owned())
}

fn truncate(s: &str, max: usize) -> String {
    match s.char_indices().nth(max) {
        Some((i, _)) => format!("{}…", &s[..i]),
        None => s.to_owned(),
    }
}

#[async_trait]
impl JudgeModel for GatewayJudge {
    fn id(&self) -> String {
        self.id.clone()
    }

    async fn complete(&self, messages: &[ChatMessage]) -> Result<ModelReply, ModelError> {
        let (completion, usage) = self
            .client
            .complete(request_body(messages))
            .await
            .map_err(|e| ModelError(format!("{}: {e}", self.id)))?;
        Ok(ModelReply {
            text: reply_text(&completion)?,
            usage,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn request_carries_roles_and_deterministic_sampling() {
        let body = request_body(&[ChatMessage::system("rules"), ChatMessage::user("diff")]);
        assert_eq!(body["messages"][0]["role"], "system");
        assert_eq!(body["messages"][1]["content"], "diff");
        assert_eq!(body["temperature"], 0);
        assert_eq!(body["stream"], false);
        assert_eq!(body["model"], REQUEST_MODEL);
    }

    #[test]
    fn reply_text_takes_first_choice_and_rejects_shapeless_answers() {
        let ok = json!({"choices": [{"message": {"role": "assistant", "content": "{\"a\":1}"}}]});
        assert_eq!(reply_text(&ok).unwrap(), "{\"a\":1}");
        let null = json!({"choices": [{"message": {"role": "assistant", "content": null}}]});
        assert_eq!(reply_text(&null).unwrap(), "");
        let err = reply_text(&json!({"error": "boom"})).unwrap_err();
        assert!(err.0.contains("choices[0].message"), "{err}");
    }

    #[test]
    fn bad_spec_names_the_spec() {
        let err = GatewayJudge::from_spec("gpt-4").err().expect("must fail");
        assert!(err.to_string().contains("\"gpt-4\""), "{err}");
    }

    #[tokio::test]
    async fn scripted_provider_answers_in_order_with_usage() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("answers.yaml");
        std::fs::write(
            &file,
            "turns:\n  - content: first answer\n  - content: second answer\n",
        )
        .unwrap();
        let judge = GatewayJudge::from_spec(&format!("scripted:{}", file.display())).unwrap();
        assert!(judge.id().starts_with("scripted:"), "{}", judge.id());
        let msgs = [ChatMessage::system("s"), ChatMessage::user("u")];
        let a = judge.complete(&msgs).await.unwrap();
        assert_eq!(a.text, "first answer");
        assert!(a.usage.prompt_tokens > 0 && a.usage.completion_tokens > 0);
        assert_eq!(judge.complete(&msgs).await.unwrap().text, "second answer");
        let out = judge.complete(&msgs).await.unwrap_err();
        assert!(out.0.contains("out of turns"), "{out}");
    }
}
