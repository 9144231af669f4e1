//! The tokenizer waits until a count matters (issue 18): while a history is far below every
//! threshold, context management loads no vocabulary, and the calibration it owes is
//! replayed later so the factor comes out exactly as counting every step would have made it.
//!
//! Its own test binary (one test): whether the vocabulary is loaded is per process.

// Test code: a panic is how it reports a failure.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::sync::Arc;

use nab_agent::{ContextManager, ContextState, Summarizer, SummaryError, ThreeTier};
use nab_agent::{Message, Role, ToolCall};
use nab_agent::{TokenCounter, tokenizer_loaded};
use nab_protocol::Usage;

struct NoSummaries;

#[async_trait::async_trait]
impl Summarizer for NoSummaries {
    async fn complete(&self, _system: &str, _prompt: &str) -> Result<String, SummaryError> {
        Err(SummaryError::NoText)
    }
}

fn usage(prompt_tokens: u64) -> Usage {
    Usage {
        prompt_tokens,
        completion_tokens: 5,
        cached_tokens: 0,
        cache_write_tokens: 0,
    }
}

#[tokio::test]
async fn a_short_run_loads_no_tokenizer_and_calibrates_as_if_it_had() {
    let state = tempfile::tempdir().unwrap();
    let mut tt = ThreeTier::new(Arc::new(NoSummaries));
    let mut history = vec![
        Arc::new(Message::system("You are a coding agent.")),
        // Over 200 tokens, so each calibration counts.
        Arc::new(Message::user(
            "Fix the parser, then run the tests. ".repeat(40),
        )),
    ];
    // What each call sent, and the prompt_tokens its answer reported.
    let mut sent: Vec<(Vec<Arc<Message>>, u64)> = Vec::new();
    let mut last_usage = None;
    for step in 1..=4u32 {
        let events = tt
            .before_model_call(ContextState {
                history: &mut history,
                step,
                context_window: Some(128_000),
                last_usage,
                state_dir: state.path(),
            })
            .await
            .unwrap();
        assert!(events.is_empty());
        let reported = 300 + 97 * u64::from(step);
        sent.push((history.clone(), reported));
        last_usage = Some(usage(reported));
        let id = format!("call_{step}");
        history.push(Arc::new(Message {
            role: Role::Assistant,
            content: None,
            reasoning: None,
            tool_calls: vec![ToolCall::new(&id, "read_file", r#"{"path":"src/lib.rs"}"#)],
            tool_call_id: None,
        }));
        history.push(Arc::new(Message::tool(id, "fn main() {}\n".repeat(20))));
    }
    assert!(
        !tokenizer_loaded(),
        "four small steps far below the thresholds loaded the tokenizer"
    );

    // A large result brings the history near the clear threshold: now it is counted.
    history.push(Arc::new(Message::user(
        "let x = 1; // more code\n".repeat(3_000),
    )));
    tt.before_model_call(ContextState {
        history: &mut history,
        step: 5,
        context_window: Some(128_000),
        last_usage,
        state_dir: state.path(),
    })
    .await
    .unwrap();
    assert!(tokenizer_loaded());

    // Counting every step: calibrate with each request's count and its reported usage.
    let eager = TokenCounter::default();
    for (request, reported) in &sent {
        eager.calibrate(eager.count_history_raw(request), *reported);
    }
    assert_ne!(eager.scale(), 1.0, "the script must move the factor");
    assert_eq!(tt.counter().scale(), eager.scale());
    assert_eq!(
        tt.request_tokens(&history),
        eager.count_history(&history),
        "the exact count uses the replayed factor"
    );
}
