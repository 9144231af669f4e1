//! Counting OpenAI `o200k_base` tokens the way tiktoken does — the same pre-tokenizer
//! pattern, the same byte-pair merges, the same counts — from a compact vocabulary.
//!
//! tiktoken-rs builds o200k_base at run time as hash maps of the 200k tokens (encoder,
//! decoder, a sorted copy) plus 128 clones of its pattern: about 46 MB of heap for a
//! process that only wants counts. Here the vocabulary is three flat tables written at
//! build time (`build.rs`, from the copy inside tiktoken-rs) and built into the binary:
//! about 3.2 MiB of read-only data, paged in as lookups touch it, nothing copied to the
//! heap. The one thing built at run time is the pre-tokenizer's regex, on first use.
//!
//! [`count`] never holds the tokens; [`encode`] returns them (the ranks tiktoken's
//! `encode_ordinary` returns), for checks.

// Shared with the build script, and each side uses only part of it.
#[allow(dead_code)]
mod layout;
mod merge;
mod vocab;

use std::sync::OnceLock;

/// tiktoken's `O200K_BASE_PAT_STR`: how o200k_base splits text into words before merging.
pub const O200K_PATTERN: &str = concat!(
    r#"[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?"#,
    "|",
    r#"[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?"#,
    "|",
    r#"\p{N}{1,3}"#,
    "|",
    r#" ?[^\s\p{L}\p{N}]+[\r\n/]*"#,
    "|",
    r#"\s*[\r\n]+"#,
    "|",
    r#"\s+(?!\S)"#,
    "|",
    r#"\s+"#
);

static PATTERN: OnceLock<Option<fancy_regex::Regex>> = OnceLock::new();

fn pattern() -> Option<&'static fancy_regex::Regex> {
    PATTERN
        .get_or_init(|| fancy_regex::Regex::new(O200K_PATTERN).ok())
        .as_ref()
}

/// Calls `token(word, start, end)` for every token of `text`, in order; false if the text
/// could not be split (the pattern hit fancy-regex's backtracking limit, where tiktoken
/// panics).
fn tokens(text: &str, mut token: impl FnMut(&[u8], usize, usize)) -> bool {
    let Some(re) = pattern() else {
        return false;
    };
    for m in re.find_iter(text) {
        let Ok(m) = m else {
            return false;
        };
        let word = m.as_str().as_bytes();
        if word.len() == 1 || vocab::rank(word).is_some() {
            token(word, 0, word.len());
        } else {
            merge::merge(word, |s, e| token(word, s, e));
        }
    }
    true
}

/// The number of tokens tiktoken's `o200k_base().encode_ordinary(text)` returns, without
/// building them.
///
/// If the pre-tokenizer cannot split the text (fancy-regex's backtracking limit, where
/// tiktoken would panic), the count is the text's length in bytes: an upper bound, since
/// every token holds at least one byte.
pub fn count(text: &str) -> usize {
    let mut n = 0;
    if tokens(text, |_, _, _| n += 1) {
        n
    } else {
        text.len()
    }
}

/// The ranks tiktoken's `o200k_base().encode_ordinary(text)` returns; `None` where
/// [`count`] falls back to the byte length.
pub fn encode(text: &str) -> Option<Vec<u32>> {
    let mut out = Vec::new();
    let split = tokens(text, |word, s, e| {
        // Every merge result is a token by construction; a single byte always is one.
        out.push(word.get(s..e).and_then(vocab::rank).unwrap_or(u32::MAX))
    });
    split.then_some(out)
}

/// The bytes of token `rank` (empty for a rank o200k_base does not have).
pub fn token_bytes(rank: u32) -> &'static [u8] {
    if rank < vocab::RANKS {
        vocab::token(rank)
    } else {
        &[]
    }
}
