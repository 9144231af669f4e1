//! Secret-looking text taken out of a bundle before it leaves the machine: the values of
//! the key variables set here, and strings shaped like provider keys, tokens and private
//! keys. The gateway never writes a key into a run folder; this is the second line, for
//! what an agent or a provider's error page put there.

use regex::Regex;
use std::sync::LazyLock;

const MARK: &str = "[REDACTED]";
/// Keys shorter than this are not secrets worth the damage redacting them does (the
/// gateway's own rule).
const MIN_KEY_LEN: usize = 8;

/// Shapes of secrets: OpenAI and Anthropic keys, bearer tokens, AWS access key ids, GitHub
/// and Slack tokens, PEM private keys.
/// (`None` cannot happen with this fixed pattern; the tests prove it compiles and fires.)
static SHAPES: LazyLock<Option<Regex>> = LazyLock::new(|| {
    Regex::new(concat!(
        r"sk-(?:ant-|proj-)?[A-Za-z0-9_\-]{20,}",
        r"|(?i:bearer)\s+[A-Za-z0-9._\-]{20,}",
        r"|AKIA[0-9A-Z]{16}",
        r"|gh[pousr]_[A-Za-z0-9]{36,}",
        r"|xox[abpr]-[A-Za-z0-9\-]{10,}",
        r"|-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?-----END [A-Z ]*PRIVATE KEY-----",
    ))
    .ok()
});

/// The variables whose values are keys wherever they appear.
pub const KEY_VARIABLES: &[&str] = &["NAB_API_KEY", "ANTHROPIC_API_KEY", "OPENAI_API_KEY"];

/// What is redacted: the given key values (each at least 8 characters) and [`SHAPES`].
#[derive(Debug, Default)]
pub struct Redactor {
    keys: Vec<String>,
}

impl Redactor {
    /// Redacts the values of [`KEY_VARIABLES`] and of `extra` variables set in this
    /// process's environment.
    pub fn from_env(extra: &[String]) -> Redactor {
        let names = KEY_VARIABLES
            .iter()
            .map(|s| s.to_string())
            .chain(extra.iter().cloned());
        Redactor {
            keys: names
                .filter_map(|n| std::env::var(n).ok())
                .filter(|v| v.chars().count() >= MIN_KEY_LEN)
                .collect(),
        }
    }

    /// `text` with every secret replaced, and how many were.
    pub fn apply(&self, text: &str) -> (String, u64) {
        let mut count = 0u64;
        let mut out = text.to_owned();
        for key in &self.keys {
            let n = out.matches(key.as_str()).count() as u64;
            if n > 0 {
                out = out.replace(key.as_str(), MARK);
                count += n;
            }
        }
        if let Some(shapes) = SHAPES.as_ref() {
            let n = shapes.find_iter(&out).count() as u64;
            if n > 0 {
                out = shapes.replace_all(&out, MARK).into_owned();
                count += n;
            }
        }
        (out, count)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn key_shapes_and_known_values_are_redacted_and_counted() {
        let r = Redactor {
            keys: vec!["hunter2-long-secret".into()],
        };
        let text = "key sk-proj-abcdefghijklmnopqrstuvwxyz012345 and Authorization: Bearer abcdefghijklmnopqrstuvwx; hunter2-long-secret; AKIAABCDEFGHIJKLMNOP";
        let (out, n) = r.apply(text);
        assert_eq!(n, 4, "{out}");
        assert!(!out.contains("sk-proj"), "{out}");
        assert!(!out.contains("hunter2"), "{out}");
        assert!(!out.contains("AKIA"), "{out}");
        assert!(out.contains("Authorization: [REDACTED]"), "{out}");
    }

    #[test]
    fn ordinary_text_is_left_alone() {
        let r = Redactor::default();
        let text = "def task_key(self): return 'sk-' + name  # skip-list, bearer of news";
        assert_eq!(r.apply(text), (text.to_owned(), 0));
    }
}
