//! Model prices (`--prices prices.yaml`): which USD rates apply to a model, and what a
//! trial's token usage costs at them.
//!
//! The file is a list of entries, each a glob over the model name the gateway uses
//! upstream (`deepseek-chat` for `openai:deepseek-chat@…`, `scripted` for the scripted
//! model, the recorded model for `replay:`) with USD per million input, cached-input (cache
//! read), cache-write and output tokens. The first entry whose glob matches wins, so specific patterns go before
//! general ones. Nothing here knows any real price: a model no entry matches has no cost.

use nab_protocol::Usage;
use serde::Deserialize;
use std::path::{Path, PathBuf};

/// Largest prices file read (it is a short list written by hand).
const MAX_FILE_BYTES: u64 = 1 << 20;

/// USD per million tokens for one model.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Rate {
    /// Input (prompt) tokens neither read from nor written to the provider's cache.
    pub input: f64,
    /// Input tokens the provider reports as served from its prompt cache (cache reads).
    pub cached_input: f64,
    /// Input tokens the provider wrote to its prompt cache (Anthropic's cache writes, billed
    /// above the plain input rate); the file's `cache_write`, `input` when it gives none.
    pub cache_write: f64,
    /// Output (completion) tokens, reasoning included.
    pub output: f64,
}

impl Rate {
    /// What `usage` costs in USD. The gateway's `prompt_tokens` include the cached ones and
    /// the ones written to the cache, so those are taken out of the input count and priced
    /// at their own rates: no token is priced twice.
    ///
    /// ```text
    /// usd = ((prompt − read − written)·input + read·cached_input + written·cache_write
    ///        + completion·output) / 10⁶
    /// ```
    ///
    /// Always finite: absurd counts at a huge (but finite) rate saturate at `f64::MAX`
    /// rather than reach infinity, which JSON cannot carry.
    pub fn cost(&self, usage: &Usage) -> f64 {
        let cached = usage.cached_tokens;
        let written = usage.cache_write_tokens;
        let plain = usage
            .prompt_tokens
            .saturating_sub(cached)
            .saturating_sub(written);
        let usd = (plain as f64 * self.input
            + cached as f64 * self.cached_input
            + written as f64 * self.cache_write
            + usage.completion_tokens as f64 * self.output)
            / 1_000_000.0;
        usd.min(f64::MAX)
    }
}

/// One entry of the file, as written.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
struct EntrySpec {
    model: String,
    input: f64,
    /// Cache reads (`cache_read` reads as this).
    #[serde(alias = "cache_read")]
    cached_input: f64,
    /// Cache writes; `input` when absent (providers without cache writes never report any).
    #[serde(default)]
    cache_write: Option<f64>,
    output: f64,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct FileSpec {
    prices: Vec<EntrySpec>,
}

/// One checked entry: its glob, compiled, and its rate.
#[derive(Debug, Clone)]
struct Entry {
    pattern: String,
    matcher: globset::GlobMatcher,
    rate: Rate,
}

/// A loaded prices file.
#[derive(Debug, Clone)]
pub struct Prices {
    file: PathBuf,
    entries: Vec<Entry>,
}

/// The rate a model got, and which entry gave it.
#[derive(Debug, Clone, PartialEq)]
pub struct ModelPrice {
    pub model: String,
    /// The entry's `model` pattern.
    pub pattern: String,
    /// 1-based position of the entry in the file.
    pub entry: usize,
    pub rate: Rate,
}

#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum PriceError {
    #[error("prices file {}: cannot read it: {source}", .file.display())]
    Read {
        file: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error(
        "prices file {}: it is {size} bytes; a prices file may have at most {MAX_FILE_BYTES}",
        .file.display()
    )]
    TooLarge { file: PathBuf, size: u64 },
    #[error("prices file {}: {at}: {message}", .file.display())]
    Syntax {
        file: PathBuf,
        /// Where in the file: `prices[2].input`, or `top level`.
        at: String,
        message: String,
    },
    #[error(
        "prices file {}: entry {entry} (model `{model}`), field `{field}`: {message}",
        .file.display()
    )]
    Invalid {
        file: PathBuf,
        /// 1-based position of the entry.
        entry: usize,
        model: String,
        field: &'static str,
        message: String,
    },
    #[error("prices file {}: `prices` is empty; give at least one entry", .file.display())]
    Empty { file: PathBuf },
}

impl Prices {
    /// Reads and checks `file`.
    pub fn load(file: &Path) -> Result<Prices, PriceError> {
        let read = |source| PriceError::Read {
            file: file.to_owned(),
            source,
        };
        let size = std::fs::metadata(file).map_err(read)?.len();
        if size > MAX_FILE_BYTES {
            return Err(PriceError::TooLarge {
                file: file.to_owned(),
                size,
            });
        }
        let text = std::fs::read_to_string(file).map_err(read)?;
        Prices::parse(&text, file)
    }

    /// Parses and checks the text of a prices file; `file` names it in errors.
    pub fn parse(text: &str, file: &Path) -> Result<Prices, PriceError> {
        let de = serde_yaml::Deserializer::from_str(text);
        let spec: FileSpec = serde_path_to_error::deserialize(de).map_err(|e| {
            let at = e.path().to_string();
            PriceError::Syntax {
                file: file.to_owned(),
                // serde_path_to_error says `.` for the root and `?` when it cannot tell.
                at: match at.as_str() {
                    "." | "?" => "top level".to_owned(),
                    _ => at,
                },
                message: e.into_inner().to_string(),
            }
        })?;
        if spec.prices.is_empty() {
            return Err(PriceError::Empty {
                file: file.to_owned(),
            });
        }
        let entries = spec
            .prices
            .into_iter()
            .enumerate()
            .map(|(i, e)| check_entry(file, i + 1, e))
            .collect::<Result<Vec<_>, _>>()?;
        Ok(Prices {
            file: file.to_owned(),
            entries,
        })
    }

    pub fn file(&self) -> &Path {
        &self.file
    }

    /// The rate of `model`: the first entry whose pattern matches the whole name.
    pub fn find(&self, model: &str) -> Option<ModelPrice> {
        self.entries
            .iter()
            .enumerate()
            .find(|(_, e)| e.matcher.is_match(model))
            .map(|(i, e)| ModelPrice {
                model: model.to_owned(),
                pattern: e.pattern.clone(),
                entry: i + 1,
                rate: e.rate,
            })
    }
}

fn check_entry(file: &Path, entry: usize, e: EntrySpec) -> Result<Entry, PriceError> {
    let invalid = |field: &'static str, message: String| PriceError::Invalid {
        file: file.to_owned(),
        entry,
        model: e.model.clone(),
        field,
        message,
    };
    if e.model.trim().is_empty() {
        return Err(invalid("model", "the pattern is empty".into()));
    }
    let matcher = globset::GlobBuilder::new(&e.model)
        .literal_separator(false)
        .build()
        .map_err(|err| invalid("model", format!("not a valid glob: {}", err.kind())))?
        .compile_matcher();
    for (field, v) in [
        ("input", e.input),
        ("cached_input", e.cached_input),
        ("cache_write", e.cache_write.unwrap_or(e.input)),
        ("output", e.output),
    ] {
        if !v.is_finite() || v < 0.0 {
            return Err(invalid(
                field,
                format!("USD per million tokens must be a finite number of at least 0, not {v}"),
            ));
        }
    }
    Ok(Entry {
        pattern: e.model.clone(),
        matcher,
        rate: Rate {
            input: e.input,
            cached_input: e.cached_input,
            cache_write: e.cache_write.unwrap_or(e.input),
            output: e.output,
        },
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Result<Prices, PriceError> {
        Prices::parse(text, Path::new("p.yaml"))
    }

    const TWO: &str = "prices:
  - model: example-large-v2*
    input: 4
    cached_input: 1
    output: 16
  - model: example-*
    input: 1
    cached_input: 0.25
    output: 2
";

    #[test]
    fn the_first_matching_entry_wins_and_a_miss_is_none() {
        let p = parse(TWO).unwrap();
        let large = p.find("example-large-v2-0611").unwrap();
        assert_eq!((large.entry, large.rate.output), (1, 16.0));
        let small = p.find("example-small").unwrap();
        assert_eq!((small.entry, small.pattern.as_str()), (2, "example-*"));
        assert!(p.find("other-model").is_none());
        // The glob matches the whole name, not a part of it.
        assert!(p.find("my-example-small").is_none());
        // `*` crosses `/` (model names such as `org/model`).
        let p = parse("prices: [{model: 'org/*', input: 1, cached_input: 1, output: 1}]").unwrap();
        assert!(p.find("org/team/model").is_some());
    }

    #[test]
    fn cost_prices_cached_tokens_at_the_cached_rate_and_not_again_as_input() {
        let r = Rate {
            input: 2.0,
            cached_input: 0.5,
            cache_write: 2.0,
            output: 8.0,
        };
        let u = Usage {
            prompt_tokens: 1_000_000,
            completion_tokens: 250_000,
            cached_tokens: 400_000,
            cache_write_tokens: 0,
        };
        // 600k uncached × 2 + 400k cached × 0.5 + 250k out × 8, per million.
        assert!((r.cost(&u) - (1.2 + 0.2 + 2.0)).abs() < 1e-12);
        let none = Usage::default();
        assert_eq!(r.cost(&none), 0.0);
        // A provider that reports more cached than prompt tokens: none priced as input.
        let odd = Usage {
            prompt_tokens: 10,
            completion_tokens: 0,
            cached_tokens: 20,
            cache_write_tokens: 0,
        };
        assert!((r.cost(&odd) - 20.0 * 0.5 / 1e6).abs() < 1e-15);
        // Cache writes at their own rate, taken out of the plain input: Anthropic-style
        // prices (write 1.25× input, read 0.1×). 1000 prompt tokens: 600 written, 300
        // read, 100 plain; 50 out.
        let claude = Rate {
            input: 3.0,
            cached_input: 0.3,
            cache_write: 3.75,
            output: 15.0,
        };
        let u = Usage {
            prompt_tokens: 1000,
            completion_tokens: 50,
            cached_tokens: 300,
            cache_write_tokens: 600,
        };
        let want = (100.0 * 3.0 + 300.0 * 0.3 + 600.0 * 3.75 + 50.0 * 15.0) / 1e6;
        assert!(
            (claude.cost(&u) - want).abs() < 1e-15,
            "{}",
            claude.cost(&u)
        );
        // At the plain input rate (what cache writes cost before they were kept apart)
        // the same call is cheaper than it really is.
        let flat = Rate {
            cache_write: 3.0,
            ..claude
        };
        assert!(flat.cost(&u) < claude.cost(&u));
        // Absurd counts at an absurd (finite) rate: the largest finite cost, not infinity.
        let absurd = Rate {
            input: 1e300,
            cached_input: 1e300,
            cache_write: 1e300,
            output: 1e300,
        };
        let huge = Usage {
            prompt_tokens: u64::MAX,
            completion_tokens: u64::MAX,
            cached_tokens: 0,
            cache_write_tokens: 0,
        };
        assert_eq!(absurd.cost(&huge), f64::MAX);
    }

    #[test]
    fn cache_write_is_optional_and_defaults_to_the_input_rate() {
        let p = parse(
            "prices:\n  - {model: a, input: 3, cache_read: 0.3, cache_write: 3.75, output: 15}\n  - {model: b, input: 2, cached_input: 0.5, output: 8}\n",
        )
        .unwrap();
        let a = p.find("a").unwrap().rate;
        assert_eq!((a.cached_input, a.cache_write), (0.3, 3.75));
        let b = p.find("b").unwrap().rate;
        assert_eq!(b.cache_write, 2.0, "no cache_write: the input rate");
        let e = parse(
            "prices:\n  - {model: c, input: 1, cached_input: 1, cache_write: -1, output: 1}\n",
        )
        .unwrap_err()
        .to_string();
        assert!(e.contains("`cache_write`"), "{e}");
    }

    #[test]
    fn errors_name_the_file_the_entry_and_the_field() {
        let bad = |text: &str| parse(text).unwrap_err().to_string();
        let e = bad("prices:\n  - {model: a, input: 1, cached_input: 1, output: -1}\n");
        assert!(
            e.contains("p.yaml") && e.contains("entry 1 (model `a`)") && e.contains("`output`"),
            "{e}"
        );
        let e = bad(
            "prices:\n  - {model: a, input: 1, cached_input: 1, output: 1}\n  - {model: b, input: .nan, cached_input: 1, output: 1}\n",
        );
        assert!(
            e.contains("entry 2 (model `b`)") && e.contains("`input`"),
            "{e}"
        );
        let e = bad("prices:\n  - {model: c, input: .inf, cached_input: 1, output: 1}\n");
        assert!(e.contains("`input`") && e.contains("finite"), "{e}");
        let e = bad("prices:\n  - {model: 'a[', input: 1, cached_input: 1, output: 1}\n");
        assert!(e.contains("field `model`") && e.contains("glob"), "{e}");
        let e = bad("prices:\n  - {model: a, input: 1, cached_input: 1, output: 1, extra: 2}\n");
        assert!(
            e.contains("prices[0]") && e.contains("unknown field `extra`"),
            "{e}"
        );
        let e = bad("prices:\n  - {model: a, input: 1, output: 1}\n");
        assert!(e.contains("cached_input"), "{e}");
        let e = bad("prices:\n  - {model: a, input: one, cached_input: 1, output: 1}\n");
        assert!(e.contains("prices[0].input"), "{e}");
        let e = bad("models: []\n");
        assert!(e.contains("unknown field `models`"), "{e}");
        assert!(bad("prices: []\n").contains("empty"));
        let e = bad("prices:\n  - {model: '  ', input: 1, cached_input: 1, output: 1}\n");
        assert!(e.contains("field `model`"), "{e}");
    }

    #[test]
    fn the_shipped_example_loads_and_names_only_illustrative_models() {
        let file = Path::new(env!("CARGO_MANIFEST_DIR")).join("../ci/prices.example.yaml");
        let p = Prices::load(&file).unwrap();
        assert!(
            p.find("scripted").is_some(),
            "the example prices the scripted model"
        );
        assert!(p.find("gpt-4o").is_none() && p.find("claude-sonnet-4").is_none());
    }
}
