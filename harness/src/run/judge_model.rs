//! The judges' model seam ([`nab_judges::JudgeModel`]) implemented with the gateway's
//! providers, called in-process (no socket, no HTTP of our own): a `--judge` spec such as
//! `openai:gpt-4.1@http://…`, `replay:cassettes/judge` or `scripted:answers.yaml` becomes a
//! provider, and each judge prompt becomes one OpenAI chat-completions request.
//!
//! A judge request is not streamed, so nothing arrives until the whole answer is written:
//! its length is bounded (`max_tokens`, [`JudgeCallOpts::judge_max_tokens`]) and the wait
//! for it is one timeout over the whole call ([`JudgeCallOpts::judge_timeout`]), not the
//! agent's 300 s wait for a stream's first chunk.

use async_trait::async_trait;
use nab_gateway::{CallPolicy, Client, ProviderOptions};
use nab_judges::{ChatMessage, ContextWindow, JudgeModel, ModelError, ModelReply};
use serde_json::{Value, json};
use std::time::Duration;

/// The default cap on a judge's answer, in tokens. A verdict is a small JSON object (a
/// rubric's scores with a line of evidence each, or a winner and its evidence); a model that
/// goes on past this is rambling, and its cut-off answer is rejected and retried like any
/// malformed one instead of filling the server's context.
pub const DEFAULT_JUDGE_MAX_TOKENS: u32 = 1024;
/// The default wait for one whole judge answer. Generous because a local model on a loaded
/// machine writes a capped answer in minutes, not seconds.
pub const DEFAULT_JUDGE_TIMEOUT_SECS: u64 = 900;

/// How judge models are called (`nab run`, `nab judge`, `nab compare`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::Args)]
pub struct JudgeCallOpts {
    /// The most tokens a judge may answer with (`max_tokens` of each judge request).
    #[arg(long, value_name = "N", default_value_t = DEFAULT_JUDGE_MAX_TOKENS,
          value_parser = clap::value_parser!(u32).range(1..))]
    pub judge_max_tokens: u32,
    /// Seconds to wait for one judge answer. Judge requests are not streamed, so this bounds
    /// the whole call (reading the prompt and writing up to --judge-max-tokens tokens); a
    /// call that times out is retried like a dropped connection.
    #[arg(long, value_name = "SECS", default_value_t = DEFAULT_JUDGE_TIMEOUT_SECS,
          value_parser = clap::value_parser!(u64).range(1..))]
    pub judge_timeout: u64,
    /// The judge's context window in tokens, for a judge whose window is small (a local
    /// model): each prompt is then cut to fit it, with the answer and its retries — the
    /// untrusted diffs and trajectories are cut (every file's header kept while room allows,
    /// each cut marked), never the rubric or the instruction. Without it prompts are sent
    /// whole (a diff is capped at 60,000 bytes either way).
    #[arg(long, value_name = "TOKENS", value_parser = clap::value_parser!(u32).range(1..))]
    pub judge_context_tokens: Option<u32>,
    /// How the judge is asked to shape its answer: `text` (the prompt's instructions only),
    /// `json-object` (`response_format: {"type": "json_object", "schema": …}`, which
    /// llama.cpp's and llama-cpp-python's servers turn into a grammar over the verdict's JSON
    /// Schema), or `json-schema` (OpenAI structured outputs, `{"type": "json_schema", …}`).
    /// The strict parser checks every answer whatever the format.
    #[arg(long, value_name = "FORMAT", value_enum, default_value_t = ResponseFormat::Text)]
    pub judge_response_format: ResponseFormat,
}

/// The `response_format` of judge requests ([`JudgeCallOpts::judge_response_format`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum ResponseFormat {
    /// No `response_format`: the prompt alone says what to answer.
    #[default]
    Text,
    /// `{"type": "json_object", "schema": S}`.
    JsonObject,
    /// `{"type": "json_schema", "json_schema": {"name": "nab_verdict", "strict": true, "schema": S}}`.
    JsonSchema,
}

impl ResponseFormat {
    /// The request's `response_format` member for the verdict schema `schema`, if any.
    pub fn member(self, schema: &Value) -> Option<Value> {
        match self {
            ResponseFormat::Text => None,
            ResponseFormat::JsonObject => Some(json!({"type": "json_object", "schema": schema})),
            ResponseFormat::JsonSchema => Some(json!({
                "type": "json_schema",
                "json_schema": {"name": "nab_verdict", "strict": true, "schema": schema},
            })),
        }
    }
}

impl Default for JudgeCallOpts {
    fn default() -> Self {
        JudgeCallOpts {
            judge_max_tokens: DEFAULT_JUDGE_MAX_TOKENS,
            judge_timeout: DEFAULT_JUDGE_TIMEOUT_SECS,
            judge_context_tokens: None,
            judge_response_format: ResponseFormat::Text,
        }
    }
}

/// Retries of one judge call, and their backoff (0.5 s doubling, at most 30 s). Fewer and
/// shorter than the agent's ([`CallPolicy::default`]: 8, up to minutes): a judge call's own
/// timeout covers the whole answer (900 s by default), so nine of them would hold one
/// verdict for hours; a judge that keeps failing is a judge error, recorded and never scored.
pub const JUDGE_MAX_RETRIES: u32 = 3;

impl JudgeCallOpts {
    /// The gateway's retry policy, with the judges' retries ([`JUDGE_MAX_RETRIES`]) and the
    /// judge's timeout over the whole (non-streamed) answer.
    pub fn policy(&self) -> CallPolicy {
        CallPolicy {
            max_retries: JUDGE_MAX_RETRIES,
            base_backoff: Duration::from_millis(500),
            max_backoff: Duration::from_secs(30),
            response_timeout: Duration::from_secs(self.judge_timeout),
            ..CallPolicy::default()
        }
    }
}

/// The `model` field of every judge request. The `openai:` provider replaces it with the
/// spec's model; keeping it constant makes a judge cassette recorded with
/// `record:<dir>:openai:<model>` replay with `replay:<dir>` (the request is the cassette key).
const REQUEST_MODEL: &str = "nab-judge";

/// A judge model backed by a gateway provider.
pub struct GatewayJudge {
    client: Client,
    /// The provider's description (the spec without secrets), recorded with every verdict.
    id: String,
    max_tokens: u32,
    window: Option<ContextWindow>,
    response_format: ResponseFormat,
    /// The judge model's rate from the run's prices file, when it has one.
    price: Option<nab_gateway::Rate>,
}

impl GatewayJudge {
    /// Builds the provider of `spec` with the gateway's retry policy and `opts`' timeout.
    /// The API key (for `openai:`) comes from the host environment, as for the agent's
    /// gateway.
    pub fn from_spec(spec: &str, opts: &JudgeCallOpts) -> anyhow::Result<GatewayJudge> {
        GatewayJudge::with_provider_options(spec, opts, &ProviderOptions::default())
    }

    /// [`GatewayJudge::from_spec`] with explicit provider options (tests point an `openai:`
    /// judge at a mock server with a key given here).
    pub fn with_provider_options(
        spec: &str,
        opts: &JudgeCallOpts,
        provider: &ProviderOptions,
    ) -> anyhow::Result<GatewayJudge> {
        // The window is checked before the provider is built: a bad option fails at once.
        let window = opts
            .judge_context_tokens
            .map(|ctx| ContextWindow::new(ctx, opts.judge_max_tokens))
            .transpose()
            .map_err(|e| anyhow::anyhow!("--judge-context-tokens: {e}"))?;
        let client = Client::from_spec(spec, provider, opts.policy())
            .map_err(|e| anyhow::anyhow!("judge model {spec:?}: {e}"))?;
        let id = client.provider().describe();
        Ok(GatewayJudge {
            client,
            id,
            max_tokens: opts.judge_max_tokens,
            window,
            response_format: opts.judge_response_format,
            price: None,
        })
    }

    /// Prices this judge's calls from `prices` (matched, like the agent's model, by the
    /// model name the provider sends upstream); without a match its records have no cost.
    pub fn priced(mut self, prices: Option<&nab_gateway::Prices>) -> GatewayJudge {
        self.price = prices
            .zip(self.client.provider().model())
            .and_then(|(p, model)| p.find(&model))
            .map(|m| m.rate);
        self
    }

    async fn ask(&self, body: Value) -> Result<ModelReply, ModelError> {
        let (completion, usage) = self
            .client
            .complete(body)
            .await
            .map_err(|e| ModelError(format!("{}: {e}", self.id)))?;
        Ok(ModelReply {
            text: reply_text(&completion)?,
            usage,
        })
    }
}

/// The factory the judges' `run` functions take (`--judge SPEC` → model), calling every
/// judge as `opts` says and pricing its calls from `prices` (`--prices`), when given.
pub fn judge_factory(
    opts: JudgeCallOpts,
    prices: Option<std::sync::Arc<nab_gateway::Prices>>,
) -> impl Fn(&str) -> anyhow::Result<Box<dyn JudgeModel>> + Sync {
    move |spec| {
        Ok(
            Box::new(GatewayJudge::from_spec(spec, &opts)?.priced(prices.as_deref()))
                as Box<dyn JudgeModel>,
        )
    }
}

/// The chat-completions body for `messages`: deterministic sampling, no streaming, an
/// answer of at most `max_tokens` tokens.
pub fn request_body(messages: &[ChatMessage], max_tokens: u32) -> Value {
    json!({
        "model": REQUEST_MODEL,
        "messages": messages,
        "temperature": 0,
        "max_tokens": max_tokens,
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
        self.ask(request_body(messages, self.max_tokens)).await
    }

    async fn complete_shaped(
        &self,
        messages: &[ChatMessage],
        answer_schema: &Value,
    ) -> Result<ModelReply, ModelError> {
        let mut body = request_body(messages, self.max_tokens);
        if let Some(format) = self.response_format.member(answer_schema) {
            body["response_format"] = format;
        }
        self.ask(body).await
    }

    fn window(&self) -> Option<ContextWindow> {
        self.window
    }

    fn price_usd(&self, usage: &nab_protocol::Usage) -> Option<f64> {
        self.price.map(|r| r.cost(usage))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn request_carries_roles_and_deterministic_sampling() {
        let body = request_body(
            &[ChatMessage::system("rules"), ChatMessage::user("diff")],
            300,
        );
        assert_eq!(body["messages"][0]["role"], "system");
        assert_eq!(body["messages"][1]["content"], "diff");
        assert_eq!(body["temperature"], 0);
        assert_eq!(body["max_tokens"], 300);
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
        let err = GatewayJudge::from_spec("gpt-4", &JudgeCallOpts::default())
            .err()
            .expect("must fail");
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
        let judge = GatewayJudge::from_spec(
            &format!("scripted:{}", file.display()),
            &JudgeCallOpts::default(),
        )
        .unwrap();
        assert!(judge.id().starts_with("scripted:"), "{}", judge.id());
        let msgs = [ChatMessage::system("s"), ChatMessage::user("u")];
        let a = judge.complete(&msgs).await.unwrap();
        assert_eq!(a.text, "first answer");
        assert!(a.usage.prompt_tokens > 0 && a.usage.completion_tokens > 0);
        assert_eq!(judge.complete(&msgs).await.unwrap().text, "second answer");
        let out = judge.complete(&msgs).await.unwrap_err();
        assert!(out.0.contains("out of turns"), "{out}");
    }

    /// A judge's calls are priced from the run's prices file by its model's name; a judge
    /// no entry matches (or no file) has no cost, never 0.
    #[tokio::test]
    async fn a_priced_judge_prices_its_calls_and_an_unpriced_one_does_not() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("answers.yaml");
        std::fs::write(&file, "turns:\n  - content: verdict\n").unwrap();
        let spec = format!("scripted:{}", file.display());
        let prices = nab_gateway::Prices::parse(
            "prices:\n  - {model: scripted, input: 2, cached_input: 1, output: 8}\n",
            std::path::Path::new("p.yaml"),
        )
        .unwrap();
        let judge = GatewayJudge::from_spec(&spec, &JudgeCallOpts::default())
            .unwrap()
            .priced(Some(&prices));
        let usage = nab_protocol::Usage {
            prompt_tokens: 1000,
            completion_tokens: 100,
            ..Default::default()
        };
        let usd = judge.price_usd(&usage).unwrap();
        assert!(
            (usd - (1000.0 * 2.0 + 100.0 * 8.0) / 1e6).abs() < 1e-15,
            "{usd}"
        );
        let other = nab_gateway::Prices::parse(
            "prices:\n  - {model: other, input: 2, cached_input: 1, output: 8}\n",
            std::path::Path::new("p.yaml"),
        )
        .unwrap();
        let unmatched = GatewayJudge::from_spec(&spec, &JudgeCallOpts::default())
            .unwrap()
            .priced(Some(&other));
        assert_eq!(unmatched.price_usd(&usage), None);
        // Through the grader: the verdict's record carries the cost.
        let rubric = nab_judges::Rubric::default_code_quality();
        let grading = nab_judges::grade(
            &judge,
            &rubric,
            "do it",
            &nab_judges::Candidate::new("", ""),
        )
        .await
        .unwrap();
        let r = grading.record;
        let want = (r.input_tokens as f64 * 2.0 + r.output_tokens as f64 * 8.0) / 1e6;
        assert!(r.input_tokens > 0, "{r:?}");
        assert!((r.cost_usd.unwrap() - want).abs() < 1e-15, "{r:?}");
    }

    #[test]
    fn response_formats_carry_the_schema() {
        let schema = json!({"type": "object"});
        assert_eq!(ResponseFormat::Text.member(&schema), None);
        assert_eq!(
            ResponseFormat::JsonObject.member(&schema).unwrap(),
            json!({"type": "json_object", "schema": {"type": "object"}})
        );
        let s = ResponseFormat::JsonSchema.member(&schema).unwrap();
        assert_eq!(s["type"], "json_schema");
        assert_eq!(s["json_schema"]["schema"], schema);
        assert_eq!(s["json_schema"]["strict"], true);
    }

    #[test]
    fn a_window_too_small_is_refused_before_any_call() {
        let opts = JudgeCallOpts {
            judge_context_tokens: Some(1000),
            judge_max_tokens: 160,
            ..JudgeCallOpts::default()
        };
        let err = GatewayJudge::from_spec("openai:m@http://127.0.0.1:9/v1", &opts)
            .err()
            .expect("must fail")
            .to_string();
        assert!(
            err.contains("--judge-context-tokens") && err.contains("too small"),
            "{err}"
        );
    }

    /// An `openai:` judge with a small window and `json-object` gets, for a pair whose diffs
    /// are far over the window, prompts cut to fit and the verdict's schema on every request.
    #[tokio::test]
    async fn an_openai_judge_gets_fitted_prompts_and_the_verdict_schema() {
        use wiremock::matchers::{method, path};
        use wiremock::{Mock, MockServer, ResponseTemplate};
        let server = MockServer::start().await;
        Mock::given(method("POST"))
            .and(path("/v1/chat/completions"))
            .respond_with(ResponseTemplate::new(200).set_body_json(json!({
                "choices": [{"message": {"role": "assistant",
                    "content": "{\"winner\":\"A\",\"evidence\":\"shorter\"}"}}],
                "usage": {"prompt_tokens": 10, "completion_tokens": 5},
            })))
            .mount(&server)
            .await;
        let opts = JudgeCallOpts {
            judge_max_tokens: 160,
            judge_context_tokens: Some(4096),
            judge_response_format: ResponseFormat::JsonObject,
            ..JudgeCallOpts::default()
        };
        let provider = ProviderOptions {
            env_overrides: [("NAB_API_KEY".to_owned(), "k".to_owned())].into(),
            ..ProviderOptions::default()
        };
        let judge = GatewayJudge::with_provider_options(
            &format!("openai:small@{}/v1", server.uri()),
            &opts,
            &provider,
        )
        .unwrap();
        let huge: String = (0..4)
            .map(|i| {
                format!(
                    "diff --git a/f{i} b/f{i}\n# after: 1 bytes\n{}",
                    "+x = 1\n".repeat(5000)
                )
            })
            .collect();
        let a = nab_judges::Candidate::new(&huge, "tool calls: 0\n");
        let b = nab_judges::Candidate::new("+y = 2\n", "tool calls: 1\n");
        let rubric = nab_judges::Rubric::default_code_quality();
        let j = nab_judges::compare_pair(&judge, &rubric, "fix it", &a, &b)
            .await
            .unwrap();
        assert!(j.error.is_none(), "{:?}", j.error);
        let requests = server.received_requests().await.unwrap();
        assert_eq!(requests.len(), 2, "one request per order");
        let window = ContextWindow::new(4096, 160).unwrap();
        for r in &requests {
            let body: Value = serde_json::from_slice(&r.body).unwrap();
            assert_eq!(body["response_format"]["type"], "json_object");
            assert_eq!(
                body["response_format"]["schema"],
                nab_judges::pairwise_schema()
            );
            let prompt_bytes: usize = body["messages"]
                .as_array()
                .unwrap()
                .iter()
                .map(|m| m["content"].as_str().unwrap().len())
                .sum();
            assert!(prompt_bytes <= window.prompt_bytes(), "{prompt_bytes}");
            assert!(
                body["messages"][1]["content"]
                    .as_str()
                    .unwrap()
                    .contains("diff --git a/f3 b/f3")
            );
        }
    }
}
