//! The compact tokenizer against the one it replaces: tiktoken-rs's o200k_base must give
//! the same tokens (not only the same count) on every kind of text an agent sends —
//! prose, code, unicode of every script and width, emoji and combining marks, long runs
//! of one character (the merge for words of 100 bytes and more), random bytes-as-text.

// Test code: a panic is how it reports a failure.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use rand::{Rng, SeedableRng};

fn reference() -> &'static tiktoken_rs::CoreBPE {
    static BPE: std::sync::OnceLock<tiktoken_rs::CoreBPE> = std::sync::OnceLock::new();
    BPE.get_or_init(|| tiktoken_rs::o200k_base().unwrap())
}

#[track_caller]
fn same(text: &str) {
    let want = reference().encode_ordinary(text);
    let got = nab_tokens::encode(text).expect("split");
    assert_eq!(got, want, "tokens of {:?}", truncate(text));
    assert_eq!(
        nab_tokens::count(text),
        want.len(),
        "count of {:?}",
        truncate(text)
    );
}

fn truncate(s: &str) -> String {
    s.chars().take(200).collect()
}

#[test]
fn the_pattern_is_tiktokens() {
    assert_eq!(nab_tokens::O200K_PATTERN, tiktoken_rs::O200K_BASE_PAT_STR);
}

#[test]
fn every_token_decodes_to_tiktokens_bytes() {
    for rank in (0..199_998u32).step_by(7).chain([0, 199_997]) {
        assert_eq!(
            nab_tokens::token_bytes(rank),
            reference().decode_bytes(&[rank]).unwrap().as_slice(),
            "rank {rank}"
        );
    }
    assert!(
        nab_tokens::token_bytes(199_999).is_empty(),
        "special tokens are not words"
    );
}

#[test]
fn fixed_texts() {
    for text in [
        "",
        "hello world",
        "Hello, World! It's a test; we'll see what's what.",
        "def add(a, b):\n    return a + b\n",
        "fn main() {\n\tprintln!(\"{}\", 1_000_000u64);\n}\r\n",
        "    \n\n\t  \r\n   x",
        "日本語のテキストと中文文本，한국어 텍스트.",
        "Ünïcödé façade naïve coöperate Ελληνικά русский עברית العربية हिन्दी",
        "e\u{301}\u{302} a\u{308}\u{323} 👩‍👩‍👧‍👦 🏳️‍🌈 😀😃😄 \u{200d}\u{fe0f}",
        "I'M HERE, YOU'RE THERE, THEY'VE GONE, SHE'D SAY, HE'LL GO",
        "12345678901234567890 3.14159 1e-10 0xDEADBEEF",
        "https://example.invalid/path/to/thing?query=1&other=two#frag",
        "\u{0}\u{1}\u{7f}\u{80}\u{ffff}\u{10ffff}",
        "<|endoftext|> is not special in ordinary text",
    ] {
        same(text);
    }
}

#[test]
fn long_runs_take_the_large_merge() {
    // Words of 100 bytes or more are merged with tiktoken's heap algorithm.
    for unit in [
        "a", "ab", " ", "\n", "=", "-=", "😀", "日", "x\u{301}", "0", "._",
    ] {
        for n in [99, 100, 101, 257, 1000, 4096] {
            same(&unit.repeat(n));
        }
    }
    // A long word mixing ranks, so the heap has real choices to make.
    let word: String = (0..3000)
        .map(|i| ["qu", "ick", "br", "own", "fox", "jum", "ps"][i * 7 % 11 % 7])
        .collect();
    same(&word);
    same(&format!("{}{}", "-".repeat(500), "=".repeat(500)));
}

#[test]
fn source_files_of_this_workspace() {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/..");
    let mut checked = 0;
    for dir in ["", "agent/src/context", "tokens/src", "gateway/src", "ci"] {
        let Ok(entries) = std::fs::read_dir(format!("{root}/{dir}")) else {
            continue;
        };
        for e in entries.flatten() {
            if let Ok(text) = std::fs::read_to_string(e.path()) {
                same(&text);
                checked += 1;
            }
        }
    }
    assert!(checked > 10, "only {checked} files");
}

#[test]
fn random_texts_from_awkward_pieces() {
    let atoms = [
        "a", "Z", "q", "7", "42", "1234", " ", "  ", "   ", "\t", "\n", "\n\n", "\r\n", "\r", "'s",
        "'LL", "'", "/", "//", ";", "};", "(", ".", "é", "e\u{301}", "ß", "日本", "😀", "\u{a0}",
        "x\n", " y", "--", "#", "_", "\u{2028}", "İ", "ǅ", "ʰ", "Ⅻ", "٣", "\u{300}", "ﬁ", "𝔘",
        "\u{feff}", "™", "≠", "\u{3000}", "€",
    ];
    let mut rng = rand::rngs::StdRng::seed_from_u64(18);
    for _ in 0..4_000 {
        let len = rng.random_range(1..80);
        let text: String = (0..len)
            .map(|_| atoms[rng.random_range(0..atoms.len())])
            .collect();
        same(&text);
    }
    // Arbitrary characters, not only the chosen ones.
    for _ in 0..500 {
        let len = rng.random_range(1..200);
        let text: String = (0..len)
            .map(|_| {
                let c = if rng.random_bool(0.7) {
                    rng.random_range(0x20..0x7f)
                } else {
                    rng.random_range(0x80..0x2_0000)
                };
                char::from_u32(c).unwrap_or('?')
            })
            .collect();
        same(&text);
    }
}

/// Every text nab-agent sent in the recorded CI cassette (`ci/cassette`: system prompts,
/// instructions, tool results, tool-call arguments, the tool schemas): the counts its
/// context manager takes from these are tiktoken's, so the replay sees the same requests.
#[test]
fn every_text_of_the_ci_cassette() {
    // Histories repeat from one request to the next: each distinct text is checked once.
    fn walk(v: &serde_json::Value, texts: &mut std::collections::HashSet<String>) {
        match v {
            serde_json::Value::String(s) => {
                texts.insert(s.clone());
            }
            serde_json::Value::Array(a) => a.iter().for_each(|x| walk(x, texts)),
            serde_json::Value::Object(o) => o.values().for_each(|x| walk(x, texts)),
            _ => {}
        }
    }
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../ci/cassette");
    let mut files = 0;
    let mut texts = std::collections::HashSet::new();
    for e in std::fs::read_dir(dir).unwrap().flatten() {
        let v: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(e.path()).unwrap()).unwrap();
        walk(&v["request"], &mut texts);
        // The tool schemas are counted as their JSON text.
        if let Some(tools) = v["request"].get("tools") {
            texts.insert(tools.to_string());
        }
        files += 1;
    }
    for t in &texts {
        same(t);
    }
    assert!(
        files >= 100 && texts.len() > 300,
        "{files} requests, {} texts",
        texts.len()
    );
}
