//! Token counts for context decisions.
//!
//! A real tokenizer: OpenAI's `o200k_base` BPE as tiktoken counts it, from the compact
//! vocabulary `nab-tokens` builds into the binary (no download, works offline in the
//! sandbox; the same counts as tiktoken-rs, which that crate's tests check). Other vendors' tokenizers
//! differ by some percent, so the count can be calibrated with the provider's reported
//! `prompt_tokens`: [`TokenCounter::calibrate`] keeps a smoothed ratio of reported to
//! counted tokens (clamped to 0.5..2.0) and scales every later estimate by it.
//!
//! Counting is the expensive part of context management, so each message's count is
//! cached by a hash of its content.
//!
//! Memory (issue 18): a text is never encoded whole. It is cut into pieces of about
//! [`CHUNK_BYTES`] at places where o200k's pre-tokenizer always splits (see [`cuts`]), and the
//! pieces' counts are summed — the same count as encoding the whole text, with at most one
//! piece's tokens alive at a time (an 8 MB text used to hold a 2M-token vector).
//!
//! The vocabulary (about 4 MiB of tables in the binary, paged in as they are read) and the
//! pre-tokenizer's regex are touched on the first exact count, not before: [`bound_message`]
//! gives an upper bound that needs no tokenizer, which lets the context manager skip
//! counting while a history is far below every threshold.

use crate::message::Message;
use std::collections::HashMap;
use std::hash::{Hash, Hasher};
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};

/// Per-message framing tokens (role, separators) as OpenAI documents for chat models.
const MESSAGE_OVERHEAD: usize = 4;
/// Every reply is primed with a few tokens.
const REPLY_PRIMING: usize = 3;
/// The cache is dropped when it grows past this many entries (histories are far smaller).
const CACHE_LIMIT: usize = 100_000;
/// Texts are counted in pieces of about this many bytes (a piece holds at most that many
/// tokens, 4 bytes each, while it is counted).
pub const CHUNK_BYTES: usize = 16 * 1024;
/// The calibration factor never exceeds this (see [`TokenCounter::calibrate`]).
const MAX_SCALE: f64 = 2.0;

/// Whether the tokenizer has been used (by any counter in this process).
pub fn tokenizer_loaded() -> bool {
    USED.load(Ordering::Relaxed)
}

static USED: AtomicBool = AtomicBool::new(false);

/// o200k_base tokens of one piece of text (`encode_ordinary(text).len()`).
fn count_piece(text: &str) -> usize {
    USED.store(true, Ordering::Relaxed);
    nab_tokens::count(text)
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
    /// Raw BPE tokens of a text: `encode_ordinary(text).len()`, counted piece by piece.
    pub fn count_text(&self, text: &str) -> usize {
        if text.is_empty() {
            return 0;
        }
        cuts(text, CHUNK_BYTES).map(count_piece).sum()
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

    /// An upper bound of [`TokenCounter::count_history_raw`] that loads no tokenizer.
    pub fn bound_history_raw<M: std::borrow::Borrow<Message>>(history: &[M]) -> usize {
        history
            .iter()
            .map(|m| bound_message(m.borrow()))
            .sum::<usize>()
            + REPLY_PRIMING
    }

    /// An upper bound of what [`TokenCounter::count_message`]'s scaling makes of `raw`
    /// tokens, whatever the calibration (the factor stays at most [`MAX_SCALE`]; one more
    /// token covers rounding).
    pub fn bound_scaled(raw: usize) -> usize {
        (raw as f64 * MAX_SCALE).ceil() as usize + 1
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

/// An upper bound of a message's unscaled count that loads no tokenizer: every o200k token
/// stands for at least one byte, so a text has at most as many tokens as bytes.
pub fn bound_message(m: &Message) -> usize {
    let mut n = MESSAGE_OVERHEAD + m.content.as_deref().map_or(0, str::len);
    for c in &m.tool_calls {
        n += MESSAGE_OVERHEAD + c.function.name.len() + c.function.arguments.len();
    }
    if m.tool_call_id.is_some() {
        n += 8;
    }
    n
}

/// Cuts `text` into consecutive pieces of about `target` bytes (more when no cut is found)
/// where o200k's pre-tokenizer splits whatever surrounds them, so that the tokens of the
/// pieces are the tokens of the whole.
///
/// The pattern (tiktoken's `O200K_BASE_PAT_STR`) splits a text into words: letters and marks
/// with an optional leading non-letter and an `'s`-style suffix; 1–3 digits; punctuation
/// with an optional leading space and trailing `\r`/`\n`/`/`; runs of whitespace. No word
/// holds an ASCII letter or digit followed by whitespace, nor a newline followed by an ASCII
/// letter or digit, so both places are always word boundaries; and since each word is found
/// by looking no further than its own end (the only lookahead, in `\s+(?!\S)`, never makes a
/// word cross a boundary), the words on either side come out the same when the text is cut
/// there. ASCII bytes never occur inside a multi-byte UTF-8 character, so the cuts are
/// character boundaries. A text without such a place (one huge word) is counted whole, as
/// tiktoken would.
pub fn cuts(text: &str, target: usize) -> impl Iterator<Item = &str> {
    let bytes = text.as_bytes();
    let mut start = 0;
    std::iter::from_fn(move || {
        if start >= bytes.len() {
            return None;
        }
        let from = start.saturating_add(target.max(1));
        let end = (from..bytes.len())
            .find(|&p| is_cut(bytes[p - 1], bytes[p]))
            .unwrap_or(bytes.len());
        let piece = &text[start..end];
        start = end;
        Some(piece)
    })
}

fn is_cut(before: u8, at: u8) -> bool {
    let space = |b: u8| matches!(b, b' ' | b'\t' | b'\n' | b'\r');
    (before.is_ascii_alphanumeric() && space(at)) || (before == b'\n' && at.is_ascii_alphanumeric())
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

    /// The whole text's tokens, counted in one piece.
    fn whole(text: &str) -> usize {
        count_piece(text)
    }

    /// Cutting at the chosen places never changes the count: texts built from the
    /// characters that decide where words end (letters, digits, apostrophe suffixes,
    /// slashes after punctuation, runs of spaces before words, CRLF, combining marks, CJK,
    /// emoji), cut as often as possible.
    #[test]
    fn cut_counts_equal_whole_counts() {
        use rand::{Rng, SeedableRng};
        let atoms = [
            "a", "Z", "q", "7", "42", "1234", " ", "  ", "   ", "\t", "\n", "\n\n", "\r\n", "'s",
            "'LL", "'", "/", "//", ";", "};", "(", ".", "é", "e\u{301}", "ß", "日本", "😀",
            "\u{a0}", "x\n", " y", "--", "#", "_", "\u{2028}",
        ];
        let mut rng = rand::rngs::StdRng::seed_from_u64(18);
        let t = TokenCounter::default();
        let mut cut_somewhere = 0;
        for _ in 0..3_000 {
            let len = rng.random_range(1..60);
            let text: String = (0..len)
                .map(|_| atoms[rng.random_range(0..atoms.len())])
                .collect();
            for target in [1, 2, 5] {
                let pieces: Vec<&str> = cuts(&text, target).collect();
                assert_eq!(pieces.concat(), text);
                cut_somewhere += usize::from(pieces.len() > 1);
                let counted: usize = pieces.iter().map(|p| whole(p)).sum();
                assert_eq!(counted, whole(&text), "{text:?} cut as {pieces:?}");
            }
            assert_eq!(t.count_text(&text), whole(&text), "{text:?}");
        }
        assert!(
            cut_somewhere > 1_000,
            "the texts were rarely cut: {cut_somewhere}"
        );
    }

    /// Real files: this crate's sources and prompts, cut into the smallest pieces.
    #[test]
    fn cut_counts_equal_whole_counts_on_source_files() {
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/src/context");
        for entry in std::fs::read_dir(dir).unwrap() {
            let text = std::fs::read_to_string(entry.unwrap().path()).unwrap();
            let counted: usize = cuts(&text, 1).map(whole).sum();
            assert_eq!(counted, whole(&text));
            assert!(cuts(&text, 1).count() > text.len() / 50);
        }
    }

    /// Cutting anywhere else does change counts — the places are not arbitrary.
    #[test]
    fn cutting_inside_a_word_changes_the_count() {
        let text = "information retrieval";
        assert_ne!(whole("inform") + whole("ation retrieval"), whole(text));
        assert_ne!(
            whole("information") + whole(" ") + whole("retrieval"),
            whole(text)
        );
        let pieces: Vec<&str> = cuts(text, 1).collect();
        assert_eq!(pieces, ["information", " retrieval"]);
    }

    #[test]
    fn bounds_are_at_least_the_counts() {
        let t = TokenCounter::default();
        let msgs = vec![
            Message::system("You are a coding agent."),
            Message::user("日本語 😀 text\n".repeat(50)),
            Message::tool("call_1", "x"),
        ];
        let raw = t.count_history_raw(&msgs);
        assert!(TokenCounter::bound_history_raw(&msgs) >= raw);
        for _ in 0..50 {
            t.calibrate(raw, (raw * 3) as u64);
        }
        assert!(TokenCounter::bound_scaled(raw) >= t.count_history(&msgs));
    }
}
