//! Memory (issue 18): counting the tokens of an 8 MB message must not hold its token vector
//! (about 2M tokens, 8 MB and more while the vector grows). A counting global allocator
//! tracks live bytes and their peak; the tokenizer is loaded (and its own heap checked)
//! before the measurement.
//!
//! Its own test binary (one test) so no other test's allocations are counted.

// Test code: a panic is how it reports a failure.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::sync::atomic::Ordering;

use nab_agent::Message;
use nab_agent::TokenCounter;
use nab_agent::context::tokens::CHUNK_BYTES;

mod counting_alloc;

use counting_alloc::{LIVE, PEAK};

const TEXT_BYTES: usize = 8 * 1024 * 1024;
/// A piece's tokens (at most one per byte, 4 bytes each) and the regex's working memory.
const LIMIT: usize = 4 * 4 * CHUNK_BYTES + 256 * 1024;
/// The tokenizer once loaded: a compiled regex, no vocabulary.
const TOKENIZER_LIMIT: usize = 2 * 1024 * 1024;

#[test]
fn counting_an_8_mb_message_keeps_no_token_vector() {
    let line =
        "static int handle(struct ctx *c, const char *buf) { return c->fd + 1; } // naïve ✓\n";
    let text = line.repeat(TEXT_BYTES / line.len());
    let message = Message::user(text);
    let counter = TokenCounter::default();
    // The first count builds the tokenizer: the pre-tokenizer's regex only, the vocabulary
    // being read in place from the binary (tiktoken-rs's maps took 46 MB of heap here).
    let start = LIVE.load(Ordering::Relaxed);
    assert_eq!(counter.count_text("hello world"), 2);
    let tokenizer = LIVE.load(Ordering::Relaxed) - start;
    assert!(
        tokenizer <= TOKENIZER_LIMIT,
        "loading the tokenizer kept {tokenizer} bytes of heap (limit {TOKENIZER_LIMIT})"
    );
    println!("the tokenizer keeps {tokenizer} bytes of heap");

    let before = LIVE.load(Ordering::Relaxed);
    PEAK.store(before, Ordering::Relaxed);
    let tokens = counter.count_message(&message);
    let added = PEAK.load(Ordering::Relaxed) - before;

    assert!(tokens > 1_000_000, "{tokens} tokens for 8 MB");
    assert!(
        added <= LIMIT,
        "counting {tokens} tokens added {added} bytes of heap at peak (limit {LIMIT})"
    );
    // The count is cached: the second time costs nothing.
    PEAK.store(LIVE.load(Ordering::Relaxed), Ordering::Relaxed);
    let again_before = LIVE.load(Ordering::Relaxed);
    assert_eq!(counter.count_message(&message), tokens);
    assert!(PEAK.load(Ordering::Relaxed) - again_before < 4096);
    println!("{tokens} tokens counted with {added} bytes of heap at peak");
}
