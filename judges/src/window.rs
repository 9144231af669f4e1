//! A judge's context window, and what of it the answers and their retries reserve.
//!
//! The retry policy lives here beside the window because the window's arithmetic depends on
//! it: every retry is one more answer and one more follow-up that must fit.

use crate::error::JudgeError;

/// A rejected answer is retried at most this many times.
pub const MAX_RETRIES: u32 = 2;

/// Bytes per token assumed for a prompt. Small models' BPE vocabularies give 3–4 bytes per
/// token on prose and code, fewer on diffs' punctuation and on hex hashes; 2 is below all
/// of them.
pub const BYTES_PER_TOKEN: usize = 2;
/// Room for one follow-up message after a rejected answer (the template and the quoted
/// rejection, which is bounded by the rejected answer's own size).
const RETRY_MESSAGE_TOKENS: u32 = 300;
/// The chat template's tokens around each message, for all messages of a conversation.
const TEMPLATE_TOKENS: u32 = 64;
/// A window must leave at least this many tokens of prompt: the trusted parts alone take
/// several hundred.
pub const MIN_PROMPT_TOKENS: u32 = 1024;

/// A judge's context window and the answer length it is allowed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ContextWindow {
    pub context_tokens: u32,
    pub answer_tokens: u32,
}

impl ContextWindow {
    /// A window that leaves at least [`MIN_PROMPT_TOKENS`] for the prompt, or why not.
    pub fn new(context_tokens: u32, answer_tokens: u32) -> Result<ContextWindow, JudgeError> {
        let w = ContextWindow {
            context_tokens,
            answer_tokens,
        };
        let reserved = w.reserved_tokens();
        if u64::from(context_tokens) < reserved + u64::from(MIN_PROMPT_TOKENS) {
            return Err(JudgeError::Invalid(format!(
                "a judge context of {context_tokens} tokens is too small: the answer and its \
                 retries take {reserved} (3 answers of up to {answer_tokens} tokens, 2 follow-ups, \
                 the chat template) and the prompt needs at least {MIN_PROMPT_TOKENS}; raise \
                 --judge-context-tokens to at least {} or lower --judge-max-tokens",
                reserved + u64::from(MIN_PROMPT_TOKENS)
            )));
        }
        Ok(w)
    }

    /// Tokens kept free for what follows the prompt: every answer (the first and one per
    /// retry), the follow-ups, and the chat template.
    fn reserved_tokens(&self) -> u64 {
        u64::from(self.answer_tokens) * u64::from(MAX_RETRIES + 1)
            + u64::from(RETRY_MESSAGE_TOKENS) * u64::from(MAX_RETRIES)
            + u64::from(TEMPLATE_TOKENS)
    }

    /// The most bytes the first prompt's messages may take.
    pub fn prompt_bytes(&self) -> usize {
        let tokens = u64::from(self.context_tokens).saturating_sub(self.reserved_tokens());
        usize::try_from(tokens)
            .unwrap_or(usize::MAX)
            .saturating_mul(BYTES_PER_TOKEN)
    }
}
