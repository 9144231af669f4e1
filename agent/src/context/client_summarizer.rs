//! The model itself as the [`Summarizer`]: a plain completion (no tools) through the same
//! client and endpoint the agent uses, so in the sandbox it goes through the gateway and
//! is recorded and budgeted like every other call.

use super::{Summarizer, SummaryError};
use crate::client::{ChatRequest, LlmClient, NoopObserver};
use crate::message::Message;
use std::sync::Arc;

pub struct ClientSummarizer {
    client: LlmClient,
    model: String,
}

impl ClientSummarizer {
    pub fn new(client: LlmClient, model: impl Into<String>) -> ClientSummarizer {
        ClientSummarizer {
            client,
            model: model.into(),
        }
    }
}

#[async_trait::async_trait]
impl Summarizer for ClientSummarizer {
    async fn complete(&self, system: &str, prompt: &str) -> Result<String, SummaryError> {
        let request = Arc::new(ChatRequest {
            model: self.model.clone(),
            messages: vec![
                Arc::new(Message::system(system)),
                Arc::new(Message::user(prompt)),
            ],
            tools: Arc::new(Vec::new()),
            max_tokens: None,
            temperature: None,
        });
        let done = self.client.complete(request, &mut NoopObserver).await?;
        let text = done.turn.content.trim().to_string();
        if text.is_empty() {
            return Err(SummaryError::NoText);
        }
        Ok(text)
    }
}
