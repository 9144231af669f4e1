//! Token usage of one model call, as the provider reported it.

use serde::{Deserialize, Serialize};

/// Token usage for one model call, as the provider reported it.
///
/// `cached_tokens` is the part of `prompt_tokens` served from the provider's prefix cache
/// (OpenAI's `prompt_tokens_details.cached_tokens`, DeepSeek's `prompt_cache_hit_tokens`,
/// Anthropic's `cache_read_input_tokens`); `cache_write_tokens` the part the provider wrote
/// to its cache (Anthropic's `cache_creation_input_tokens`), which is billed above the
/// plain input rate. The two are kept apart because they are priced apart.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Usage {
    /// Tokens the model read (the whole prompt, cached part included).
    pub prompt_tokens: u64,
    /// Tokens the model wrote.
    pub completion_tokens: u64,
    /// Of `prompt_tokens`, those served from the provider's prefix cache (cache reads).
    #[serde(default)]
    pub cached_tokens: u64,
    /// Of `prompt_tokens`, those written to the provider's prompt cache (cache writes).
    /// Absent (0) in transcripts written before it existed and for providers without it.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub cache_write_tokens: u64,
}

fn is_zero(n: &u64) -> bool {
    *n == 0
}

impl Usage {
    /// Prompt plus completion tokens (saturating: the counts are what an upstream claimed).
    pub fn total(&self) -> u64 {
        self.prompt_tokens.saturating_add(self.completion_tokens)
    }

    /// Reads the `usage` object of an OpenAI-compatible response or final stream chunk,
    /// accepting the common vendor spellings of the cached-token count.
    pub fn from_openai(usage: &serde_json::Value) -> Option<Usage> {
        let obj = usage.as_object()?;
        let n = |v: Option<&serde_json::Value>| v.and_then(|v| v.as_u64()).unwrap_or(0);
        let details = obj.get("prompt_tokens_details");
        let cached = details
            .and_then(|d| d.get("cached_tokens"))
            .or_else(|| obj.get("prompt_cache_hit_tokens"))
            .or_else(|| obj.get("cached_tokens"));
        // The anthropic: provider's translation puts cache writes beside the reads.
        let written = details.and_then(|d| d.get("cache_creation_tokens"));
        Some(Usage {
            prompt_tokens: n(obj.get("prompt_tokens")),
            completion_tokens: n(obj.get("completion_tokens")),
            cached_tokens: n(cached),
            cache_write_tokens: n(written),
        })
    }
}

/// Saturating, as [`Usage::total`]: an upstream's absurd counts stop at `u64::MAX`.
impl std::ops::AddAssign for Usage {
    fn add_assign(&mut self, rhs: Usage) {
        self.prompt_tokens = self.prompt_tokens.saturating_add(rhs.prompt_tokens);
        self.completion_tokens = self.completion_tokens.saturating_add(rhs.completion_tokens);
        self.cached_tokens = self.cached_tokens.saturating_add(rhs.cached_tokens);
        self.cache_write_tokens = self
            .cache_write_tokens
            .saturating_add(rhs.cache_write_tokens);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn reads_openai_and_deepseek_cached_counts() {
        let openai = json!({"prompt_tokens": 10, "completion_tokens": 3, "prompt_tokens_details": {"cached_tokens": 4}});
        let deepseek =
            json!({"prompt_tokens": 10, "completion_tokens": 3, "prompt_cache_hit_tokens": 6});
        assert_eq!(Usage::from_openai(&openai).unwrap().cached_tokens, 4);
        assert_eq!(Usage::from_openai(&deepseek).unwrap().cached_tokens, 6);
        assert_eq!(Usage::from_openai(&openai).unwrap().total(), 13);
        assert!(Usage::from_openai(&json!(null)).is_none());
        // The anthropic: translation: reads and writes apart.
        let anthropic = json!({"prompt_tokens": 100, "completion_tokens": 3,
            "prompt_tokens_details": {"cached_tokens": 60, "cache_creation_tokens": 30}});
        let u = Usage::from_openai(&anthropic).unwrap();
        assert_eq!((u.cached_tokens, u.cache_write_tokens), (60, 30));
        // Written only when there are some: older readers and byte-stable transcripts.
        let plain = serde_json::to_string(&Usage::from_openai(&openai).unwrap()).unwrap();
        assert!(!plain.contains("cache_write"), "{plain}");
        assert!(
            serde_json::to_string(&u)
                .unwrap()
                .contains(r#""cache_write_tokens":30"#)
        );
    }

    #[test]
    fn absurd_counts_saturate() {
        let huge = Usage {
            prompt_tokens: u64::MAX,
            completion_tokens: u64::MAX,
            cached_tokens: u64::MAX,
            cache_write_tokens: u64::MAX,
        };
        assert_eq!(huge.total(), u64::MAX);
        let mut sum = huge;
        sum += huge;
        assert_eq!(sum, huge);
    }
}
