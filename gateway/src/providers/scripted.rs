//! `scripted:<file>` / `scripted:task`: plays the turns of a `trajectory.yaml` in order,
//! one per request, whatever the request says. Running out of turns is an error, so a
//! trajectory that no longer fits the agent fails loudly instead of looping.
//!
//! nab-agent's summarization requests (their system message starts with
//! [`nab_protocol::SUMMARY_REQUEST_MARKER`]) are answered from the trajectory's
//! `summaries:` in order, without using up a turn; running out of them is an error too.
//!
//! Token usage is an estimate (about four characters per token of the request's messages
//! and tools, and of the turn's text and arguments) so budgets and metrics behave as with a
//! real model; it is deterministic, which replay needs.

use crate::error::ProviderError;
use crate::provider::{Provider, ProviderResponse, wants_stream};
use futures::StreamExt;
use nab_protocol::Usage;
use nab_protocol::{ChunkOptions, ScriptedTurn, Trajectory, is_summary_request};
use serde_json::Value;
use std::sync::atomic::{AtomicUsize, Ordering};

pub struct ScriptedProvider {
    /// The file the turns came from, for messages.
    source_name: String,
    turns: Vec<ScriptedTurn>,
    next: AtomicUsize,
    summaries: Vec<String>,
    next_summary: AtomicUsize,
}

impl ScriptedProvider {
    pub fn new(source_name: String, trajectory: Trajectory) -> Self {
        ScriptedProvider {
            source_name,
            turns: trajectory.turns,
            next: AtomicUsize::new(0),
            summaries: trajectory.summaries,
            next_summary: AtomicUsize::new(0),
        }
    }
}

fn estimate_tokens(chars: usize) -> u64 {
    chars.div_ceil(4) as u64
}

fn estimate_usage(request: &Value, turn: &ScriptedTurn) -> Usage {
    let prompt_chars = ["messages", "tools"]
        .iter()
        .filter_map(|k| request.get(*k))
        .map(|v| v.to_string().len())
        .sum();
    let completion_chars = turn.content.as_deref().map_or(0, str::len)
        + turn.reasoning.as_deref().map_or(0, str::len)
        + turn
            .tool_calls
            .iter()
            .map(|c| c.name.len() + c.arguments_string().len())
            .sum::<usize>();
    Usage {
        prompt_tokens: estimate_tokens(prompt_chars),
        completion_tokens: estimate_tokens(completion_chars),
        cached_tokens: 0,
        cache_write_tokens: 0,
    }
}

#[async_trait::async_trait]
impl Provider for ScriptedProvider {
    fn describe(&self) -> String {
        format!("scripted:{}", self.source_name)
    }

    fn model(&self) -> Option<String> {
        Some("scripted".into())
    }

    async fn send(&self, request: &Value) -> Result<ProviderResponse, ProviderError> {
        let summary_turn;
        let (n, turn) = if is_summary_request(request) {
            let k = self.next_summary.fetch_add(1, Ordering::SeqCst);
            let Some(text) = self.summaries.get(k) else {
                return Err(ProviderError::SummariesExhausted {
                    source_name: self.source_name.clone(),
                    played: self.summaries.len(),
                });
            };
            summary_turn = ScriptedTurn {
                content: Some(text.clone()),
                ..ScriptedTurn::default()
            };
            // Ids apart from the turns' (`s<k>`), so both sequences stay stable.
            (format!("s{k}"), &summary_turn)
        } else {
            let n = self.next.fetch_add(1, Ordering::SeqCst);
            let Some(turn) = self.turns.get(n) else {
                return Err(ProviderError::ScriptExhausted {
                    source_name: self.source_name.clone(),
                    played: self.turns.len(),
                });
            };
            (n.to_string(), turn)
        };
        let opts = ChunkOptions {
            completion_id: format!("chatcmpl-scripted-{n}"),
            model: request
                .get("model")
                .and_then(Value::as_str)
                .unwrap_or("scripted")
                .to_owned(),
            // Unique across the trial: agents key tool results by these ids.
            call_id_prefix: format!("call_{n}_"),
            usage: Some(estimate_usage(request, turn)),
            ..ChunkOptions::default()
        };
        if wants_stream(request) {
            let chunks: Vec<Result<String, ProviderError>> = turn
                .to_chunks(&opts)
                .into_iter()
                .map(|c| Ok(c.to_string()))
                .collect();
            Ok(ProviderResponse::Stream {
                status: 200,
                chunks: futures::stream::iter(chunks).boxed(),
            })
        } else {
            Ok(ProviderResponse::Json {
                status: 200,
                body: turn.to_completion(&opts),
            })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use nab_protocol::SUMMARY_REQUEST_MARKER;
    use serde_json::json;

    fn content(r: ProviderResponse) -> String {
        match r {
            ProviderResponse::Json { body, .. } => body["choices"][0]["message"]["content"]
                .as_str()
                .unwrap_or_default()
                .to_owned(),
            _ => panic!("asked for a whole answer"),
        }
    }

    #[tokio::test]
    async fn summary_requests_are_answered_from_summaries_without_using_a_turn() {
        let t = Trajectory::from_yaml(
            "turns:\n  - content: first\n  - content: second\nsummaries:\n  - the summary\n",
        )
        .unwrap();
        let p = ScriptedProvider::new("t.yaml".into(), t);
        let work = json!({"messages": [{"role": "system", "content": "You are an agent."}, {"role": "user", "content": "go"}]});
        let summary = json!({"messages": [
            {"role": "system", "content": format!("{SUMMARY_REQUEST_MARKER} You compress the history")},
            {"role": "user", "content": "Summarize this history"}]});
        assert_eq!(content(p.send(&work).await.unwrap()), "first");
        assert_eq!(content(p.send(&summary).await.unwrap()), "the summary");
        assert_eq!(
            content(p.send(&work).await.unwrap()),
            "second",
            "the summary used no turn"
        );
        let err = match p.send(&summary).await {
            Err(e) => e,
            Ok(_) => panic!("a second summary request must fail: the trajectory has one"),
        };
        assert_eq!(err.code(), "scripted_out_of_summaries");
        assert!(err.to_string().contains("summaries:"), "{err}");
    }
}
