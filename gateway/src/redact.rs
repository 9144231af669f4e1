//! Removing the API key from text a provider sent back (error pages that echo the request,
//! for instance) before it reaches the agent or the transcript.
//!
//! Only keys long enough to be secrets are redacted, and only where they stand whole: a
//! one-character test key `x` would otherwise turn "maximum context length" into
//! "ma[REDACTED]imum conte[REDACTED]t length".

/// Keys shorter than this are not secrets worth the damage redacting them does.
pub const MIN_KEY_LEN: usize = 8;

const MARK: &str = "[REDACTED]";

/// Characters that continue a key-like token: a match with one of these right before or
/// after it is part of a longer word, not the key.
fn is_word(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_' || c == '-'
}

/// `text` with every whole occurrence of `key` replaced by `[REDACTED]`; unchanged when
/// `key` is shorter than [`MIN_KEY_LEN`].
pub fn redact(text: &str, key: &str) -> String {
    if key.chars().count() < MIN_KEY_LEN || !text.contains(key) {
        return text.to_owned();
    }
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    let mut prev: Option<char> = None;
    while let Some(at) = rest.find(key) {
        let before = rest[..at]
            .chars()
            .next_back()
            .or(if at == 0 { prev } else { None });
        let after = rest[at + key.len()..].chars().next();
        out.push_str(&rest[..at]);
        let whole = !before.is_some_and(is_word) && !after.is_some_and(is_word);
        out.push_str(if whole { MARK } else { key });
        prev = key.chars().next_back();
        rest = &rest[at + key.len()..];
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_redaction_table() {
        let key = "sk-test-123456";
        let table: &[(&str, &str, &str)] = &[
            // (text, key, expected)
            (
                "Authorization: Bearer sk-test-123456",
                key,
                "Authorization: Bearer [REDACTED]",
            ),
            ("sk-test-123456", key, "[REDACTED]"),
            (
                "\"key\":\"sk-test-123456\",",
                key,
                "\"key\":\"[REDACTED]\",",
            ),
            (
                "a sk-test-123456 b sk-test-123456",
                key,
                "a [REDACTED] b [REDACTED]",
            ),
            // Part of a longer token: not this key.
            ("xsk-test-1234567", key, "xsk-test-1234567"),
            ("sk-test-123456789", key, "sk-test-123456789"),
            // Short keys are never redacted.
            ("maximum context length", "x", "maximum context length"),
            ("a key 1234567 here", "1234567", "a key 1234567 here"),
            // Exactly eight characters is a secret.
            ("token=abcdefgh;", "abcdefgh", "token=[REDACTED];"),
            ("no key here", key, "no key here"),
        ];
        for (text, k, want) in table {
            assert_eq!(redact(text, k), *want, "{text} / {k}");
        }
    }

    #[test]
    fn back_to_back_occurrences_are_judged_by_their_real_neighbours() {
        // "KKKKKKKKKKKKKKKK" is the key twice with no separator: neither copy stands whole.
        let key = "KKKKKKKK";
        assert_eq!(redact(&key.repeat(2), key), key.repeat(2));
        assert_eq!(
            redact(&format!("{key} {key}"), key),
            "[REDACTED] [REDACTED]"
        );
    }
}
