//! Deterministic judges for tests and dry runs: a queue of canned answers, or a function
//! that decides from the prompt (e.g. "always prefer position A"). They record every
//! conversation they were given so tests can check what the judge actually saw.

use crate::model::{ChatMessage, JudgeModel, ModelError, ModelReply};
use async_trait::async_trait;
use nab_protocol::Usage;
use std::collections::VecDeque;
use std::sync::Mutex;

type Decide = dyn Fn(&[ChatMessage]) -> String + Send + Sync;

enum Script {
    Queue(Mutex<VecDeque<String>>),
    Decide(Box<Decide>),
}

pub struct ScriptedJudge {
    id: String,
    script: Script,
    seen: Mutex<Vec<Vec<ChatMessage>>>,
}

impl ScriptedJudge {
    /// Answers with `answers` in order; a call past the end is a [`ModelError`].
    pub fn queued<I, S>(id: &str, answers: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        ScriptedJudge {
            id: id.to_owned(),
            script: Script::Queue(Mutex::new(answers.into_iter().map(Into::into).collect())),
            seen: Mutex::new(Vec::new()),
        }
    }

    /// Answers whatever `decide` returns for the conversation.
    pub fn deciding(
        id: &str,
        decide: impl Fn(&[ChatMessage]) -> String + Send + Sync + 'static,
    ) -> Self {
        ScriptedJudge {
            id: id.to_owned(),
            script: Script::Decide(Box::new(decide)),
            seen: Mutex::new(Vec::new()),
        }
    }

    /// Every conversation this judge was asked, in order.
    pub fn conversations(&self) -> Vec<Vec<ChatMessage>> {
        self.seen.lock().map(|s| s.clone()).unwrap_or_default()
    }
}

#[async_trait]
impl JudgeModel for ScriptedJudge {
    fn id(&self) -> String {
        self.id.clone()
    }

    async fn complete(&self, messages: &[ChatMessage]) -> Result<ModelReply, ModelError> {
        if let Ok(mut seen) = self.seen.lock() {
            seen.push(messages.to_vec());
        }
        let text = match &self.script {
            Script::Queue(q) => q
                .lock()
                .map_err(|_| ModelError("scripted judge poisoned".into()))?
                .pop_front()
                .ok_or_else(|| {
                    ModelError(format!("scripted judge `{}` has no answers left", self.id))
                })?,
            Script::Decide(f) => f(messages),
        };
        let prompt_chars: usize = messages.iter().map(|m| m.content.len()).sum();
        // A rough, deterministic token count so accounting paths are exercised.
        let usage = Usage {
            prompt_tokens: (prompt_chars / 4) as u64,
            completion_tokens: (text.len() / 4) as u64,
            cached_tokens: 0,
            cache_write_tokens: 0,
        };
        Ok(ModelReply { text, usage })
    }
}
