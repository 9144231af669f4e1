//! Token counts for context decisions.
//!
//! A real tokenizer: tiktoken-rs with OpenAI's `o200k_base` BPE, whose vocabulary ships
//! inside the crate (no download, works offline in the sandbox). Other vendors' tokenizers
//! differ by some percent, so the count can be calibrated with the provider's reported
//! `prompt_tokens`: [`TokenCounter::calibrate`] keeps a smoothed ratio of reported to
//! counted tokens (clamped to 0.5..2.0) and scales every later estimate by it.
//!
//! Counting is the expensive part of context management, so each message's count is
//! cached by a hash of its content.

use crate::message::Message;
use std::collections::HashMap;
use std::hash::{Hash, Hasher};
use std::sync::{Mutex, OnceLock};
use tiktoken_rs::CoreBPE;

/// Per-message framing tokens (role, separators) as OpenAI documents for chat models.
const MESSAGE_OVERHEAD: usize = 4;
/// Every reply is primed with a few tokens.
const REPLY_PRIMING: usize = 3;
/// The cache is dropped when it grows past this many entries (histories are far smaller).
const CACHE_LIMIT: usize = 100_000;

fn bpe() -> &'static CoreBPE {
    static BPE: OnceLock<CoreBPE> = OnceLock::new();
    // The vocabulary is compiled into tiktoken-rs; building it cannot fail at run time
    // unless the crate itself is broken.
    BPE.get_or_init(|| tiktoken_rs::o200k_base().expect("tiktoken-rs ships o200k_base"))
}

#[derive(Debug)]
pub struct TokenCounter {
    cache: Mutex<HashMap<u64, usize>>,
    /// Reported / counted, smoothed.
    scale: Mutex<f64>,
}

impl Default for TokenCounter {
    fn default() -> Self {
        TokenCounter {
            cache: Mutex::new(HashMap::new()),
            scale: Mutex::new(1.0),
        }
    }
}

impl TokenCounter {
    /// Raw BPE tokens of a text.
    pub fn count_text(&self, text: &str) -> usize {
        if text.is_empty() {
            return 0;
        }
        bpe().encode_ordinary(text).len()
    }

    fn raw_message(&self, m: &Message) -> usize {
        let key = {
            let mut h = std::collections::hash_map::DefaultHasher::new();
            m.content.hash(&mut h);
            for c in &m.tool_calls {
                c.id.hash(&mut h);
                c.function.name.hash(&mut h);
                c.function.arguments.hash(&mut h);
            }
            m.tool_call_id.hash(&mut h);
            h.finish()
        };
        if let Some(n) = self
            .cache
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .get(&key)
        {
            return *n;
        }
        let mut n = MESSAGE_OVERHEAD + m.content.as_deref().map_or(0, |c| self.count_text(c));
        for c in &m.tool_calls {
            n += MESSAGE_OVERHEAD
                + self.count_text(&c.function.name)
                + self.count_text(&c.function.arguments);
        }
        if m.tool_call_id.is_some() {
            n += 8; // the id itself
        }
        let mut cache = self.cache.lock().unwrap_or_else(|p| p.into_inner());
        if cache.len() > CACHE_LIMIT {
            cache.clear();
        }
        cache.insert(key, n);
        n
    }

    /// Estimated tokens of one message as sent.
    pub fn count_message(&self, m: &Message) -> usize {
        self.scaled(self.raw_message(m))
    }

    /// Estimated prompt tokens of a whole history.
    pub fn count_history<M: std::borrow::Borrow<Message>>(&self, history: &[M]) -> usize {
        let raw: usize = history
            .iter()
            .map(|m| self.raw_message(m.borrow()))
            .sum::<usize>()
            + REPLY_PRIMING;
        self.scaled(raw)
    }

    /// Tokens of the `tools[]` array (sent with every request).
    pub fn count_json(&self, value: &serde_json::Value) -> usize {
        self.scaled(self.count_text(&value.to_string()))
    }

    fn scaled(&self, raw: usize) -> usize {
        let s = *self.scale.lock().unwrap_or_else(|p| p.into_inner());
        (raw as f64 * s).ceil() as usize
    }

    /// Learns from a provider's `prompt_tokens` for a request this counter estimated
    /// (unscaled) at `counted` tokens.
    pub fn calibrate(&self, counted_raw: usize, reported: u64) {
        if counted_raw < 200 || reported == 0 {
            return; // too small to say anything about the ratio
        }
        let ratio = (reported as f64 / counted_raw as f64).clamp(0.5, 2.0);
        let mut s = self.scale.lock().unwrap_or_else(|p| p.into_inner());
        *s = 0.7 * *s + 0.3 * ratio;
    }

    /// The current calibration factor (1.0 until calibrated).
    pub fn scale(&self) -> f64 {
        *self.scale.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Unscaled tokens of a history (what [`TokenCounter::calibrate`] compares against).
    pub fn count_history_raw<M: std::borrow::Borrow<Message>>(&self, history: &[M]) -> usize {
        history
            .iter()
            .map(|m| self.raw_message(m.borrow()))
            .sum::<usize>()
            + REPLY_PRIMING
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_with_the_shipped_vocabulary() {
        let t = TokenCounter::default();
        // Known o200k_base counts.
        assert_eq!(t.count_text("hello world"), 2);
        assert_eq!(t.count_text(""), 0);
        let code = "def add(a, b):\n    return a + b\n".repeat(100);
        let n = t.count_text(&code);
        assert!((800..1600).contains(&n), "{n}");
    }

    #[test]
    fn calibration_moves_toward_the_reported_ratio() {
        let t = TokenCounter::default();
        let h = vec![Message::user("word ".repeat(1000))];
        let before = t.count_history(&h);
        for _ in 0..20 {
            t.calibrate(t.count_history_raw(&h), (before as f64 * 1.2) as u64);
        }
        let after = t.count_history(&h);
        assert!(
            (1.15..1.25).contains(&(after as f64 / before as f64)),
            "{before} -> {after}"
        );
    }
}
