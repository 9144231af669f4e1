//! Replay matching separates what the agent decides from what the world reports. The agent
//! decides its system prompt, tool schemas, its messages and its tool calls; the world
//! reports tool results, and those carry tokens that change from one machine or one second
//! to the next (`Ran 9 tests in 0.001s`). Before a request is keyed, the text of every
//! tool result (`role: "tool"` messages) goes through the normalizers below, which replace
//! such tokens with placeholders; nothing else in the request is touched.
//!
//! Record and replay key requests the same way ([`crate::canonical::request_key`]), so a
//! recording made on a slow machine answers a fast one. A task can add its own patterns
//! (task.yaml `replay_normalize`); they run before the built-in ones.

use regex::Regex;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::borrow::Cow;
use std::sync::{Arc, OnceLock};

/// The built-in normalizers, applied in this order: name, pattern, replacement
/// (`$1` refers to a capture group). Documented in the crate README; each has a test.
pub const BUILTIN: &[(&str, &str, &str)] = &[
    // 2024-07-14T08:31:36.217Z, 2026-11-30 20:52:15+01:00
    (
        "timestamp",
        r"\b\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(?::\d{2}(?:[.,]\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?\b",
        "<timestamp>",
    ),
    // `date` and `git log`: Mon Nov 30 20:52:15 UTC 2026, Mon Jun 10 09:00:00 2024 +0000
    (
        "date",
        r"\b(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun) (?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) +\d{1,2} \d{2}:\d{2}:\d{2}(?: [A-Z]{2,5})? \d{4}(?: [+-]\d{4})?",
        "<date>",
    ),
    // A time of day or elapsed clock: 20:52:15, 0:00:01.25
    ("clock", r"\b\d{1,2}:\d{2}:\d{2}(?:\.\d+)?\b", "<clock>"),
    // Ran 9 tests in 0.001s, 5 passed in 0.40s, took 12ms, 1.5 seconds
    (
        "duration",
        r"\b\d+(?:\.\d+)?\s?(?:ns|us|µs|ms|s|sec|secs|seconds?|mins?|minutes?)\b",
        "<duration>",
    ),
    // tempfile names and per-run folders: /tmp/tmpk2j3_x/out.txt, /tmp/pytest-of-nab/pytest-3
    // (only where /tmp starts the path: /workspace/tmp/x stays)
    (
        "tmp_path",
        r#"(?m)(^|[^\w./-])/tmp/[^\s'"`:,;()\[\]{}<>]+"#,
        "$1/tmp/<tmp>",
    ),
    // pid 4711, PID: 4711, process 4711
    ("pid", r"\b(pid|PID|Pid|process)([ =:#]+)\d+\b", "$1$2<pid>"),
    // Object addresses: <Foo object at 0x7f3a2c1b9d30>
    ("address", r"\b0x[0-9a-fA-F]{6,16}\b", "0x<address>"),
];

/// A pattern a task adds (task.yaml `replay_normalize`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Pattern {
    /// A regular expression (Rust `regex` syntax).
    pub pattern: String,
    /// What each match becomes; `$1` refers to a capture group.
    pub replace: String,
}

#[derive(Debug, Clone)]
struct Rule {
    regex: Regex,
    replace: String,
}

/// An ordered list of normalizers: a task's patterns, then the built-in ones.
#[derive(Debug, Clone)]
pub struct Normalizer {
    rules: Arc<Vec<Rule>>,
}

fn builtin_rules() -> &'static Vec<Rule> {
    static RULES: OnceLock<Vec<Rule>> = OnceLock::new();
    RULES.get_or_init(|| {
        BUILTIN
            .iter()
            .map(|(name, pattern, replace)| Rule {
                regex: Regex::new(pattern)
                    .unwrap_or_else(|e| panic!("built-in normalizer {name}: {e}")),
                replace: (*replace).to_owned(),
            })
            .collect()
    })
}

impl Default for Normalizer {
    fn default() -> Self {
        Normalizer {
            rules: Arc::new(builtin_rules().clone()),
        }
    }
}

/// A task's replay-normalize pattern that cannot be used.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum PatternError {
    #[error("invalid pattern {pattern:?}: {source}")]
    Invalid {
        pattern: String,
        #[source]
        source: regex::Error,
    },
    #[error("pattern {pattern:?} matches the empty string; it must match at least one character")]
    MatchesEmpty { pattern: String },
}

/// The pattern at `index` of `replay_normalize` cannot be used.
#[derive(Debug, thiserror::Error)]
#[error("replay_normalize[{index}]: {source}")]
pub struct NormalizeError {
    pub index: usize,
    #[source]
    pub source: PatternError,
}

impl Normalizer {
    /// The built-in normalizers with `extra` in front. An invalid pattern is an error
    /// naming it (its index and the regex error).
    pub fn with_patterns(extra: &[Pattern]) -> Result<Normalizer, NormalizeError> {
        let mut rules = Vec::with_capacity(extra.len() + BUILTIN.len());
        for (index, p) in extra.iter().enumerate() {
            let regex = compile(&p.pattern).map_err(|source| NormalizeError { index, source })?;
            rules.push(Rule {
                regex,
                replace: p.replace.clone(),
            });
        }
        rules.extend(builtin_rules().iter().cloned());
        Ok(Normalizer {
            rules: Arc::new(rules),
        })
    }

    /// The rules, as text: two normalizers with the same fingerprint key requests alike
    /// (a cassette's index is shared between them).
    pub fn fingerprint(&self) -> String {
        self.rules
            .iter()
            .map(|r| format!("{}\u{0}{}", r.regex.as_str(), r.replace))
            .collect::<Vec<_>>()
            .join("\u{1}")
    }

    /// One tool result's text with every volatile token replaced.
    pub fn text<'a>(&self, text: &'a str) -> Cow<'a, str> {
        let mut out = Cow::Borrowed(text);
        for r in self.rules.iter() {
            if let Cow::Owned(s) = r.regex.replace_all(&out, r.replace.as_str()) {
                out = Cow::Owned(s);
            }
        }
        out
    }

    /// The request with the content of every `role: "tool"` message normalized (a string,
    /// or the `text` of each part of a list). Everything the agent decides stays as sent.
    pub fn request(&self, request: &Value) -> Value {
        let mut out = request.clone();
        let Some(messages) = out.get_mut("messages").and_then(Value::as_array_mut) else {
            return out;
        };
        for m in messages {
            if m.get("role").and_then(Value::as_str) != Some("tool") {
                continue;
            }
            match m.get_mut("content") {
                Some(Value::String(s)) => {
                    if let Cow::Owned(n) = self.text(s) {
                        *s = n;
                    }
                }
                Some(Value::Array(parts)) => {
                    for part in parts {
                        if let Some(Value::String(s)) = part.get_mut("text")
                            && let Cow::Owned(n) = self.text(s)
                        {
                            *s = n;
                        }
                    }
                }
                _ => {}
            }
        }
        out
    }
}

/// Compiles a task's pattern, refusing one that matches the empty string (it would insert
/// its replacement between every character).
pub fn compile(pattern: &str) -> Result<Regex, PatternError> {
    let re = Regex::new(pattern).map_err(|source| PatternError::Invalid {
        pattern: pattern.to_owned(),
        source,
    })?;
    if re.is_match("") {
        return Err(PatternError::MatchesEmpty {
            pattern: pattern.to_owned(),
        });
    }
    Ok(re)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// Each built-in normalizer: (input, expected). A row per normalizer at least, plus
    /// text that must stay as it is.
    #[test]
    fn builtin_normalizers_table() {
        let n = Normalizer::default();
        let table = [
            (
                "at 2024-07-14T08:31:36.217Z level=INFO",
                "at <timestamp> level=INFO",
            ),
            ("2026-11-30 20:52:15+01:00 done", "<timestamp> done"),
            ("Date:   Mon Jun 10 09:00:00 2024 +0000", "Date:   <date>"),
            ("Mon Nov 30 20:52:15 UTC 2026\n", "<date>\n"),
            ("elapsed 0:00:01.25", "elapsed <clock>"),
            ("Ran 9 tests in 0.001s", "Ran 9 tests in <duration>"),
            ("Ran 9 tests in 0.000s", "Ran 9 tests in <duration>"),
            ("5 passed in 0.40s", "5 passed in <duration>"),
            ("GET /a 200 12ms", "GET /a 200 <duration>"),
            ("took 1.5 seconds", "took <duration>"),
            ("wrote /tmp/tmpk2j3_x/out.txt: ok", "wrote /tmp/<tmp>: ok"),
            ("'/tmp/pytest-of-nab/pytest-3'", "'/tmp/<tmp>'"),
            ("worker pid 4711 exited", "worker pid <pid> exited"),
            ("PID: 99", "PID: <pid>"),
            (
                "<Foo object at 0x7f3a2c1b9d30>",
                "<Foo object at 0x<address>>",
            ),
            // Stays: counts, versions, sizes, ordinary words and paths.
            ("Ran 9 tests", "Ran 9 tests"),
            ("OK (3 tests), version 1.2.3", "OK (3 tests), version 1.2.3"),
            ("src/lib.rs:12:5: error", "src/lib.rs:12:5: error"),
            ("/workspace/tmp/x", "/workspace/tmp/x"),
            ("0x10", "0x10"),
        ];
        for (input, want) in table {
            assert_eq!(n.text(input), want, "input {input:?}");
        }
        // Every built-in has at least one row above that it changes.
        for (name, pattern, _) in BUILTIN {
            let re = Regex::new(pattern).unwrap();
            assert!(
                table.iter().any(|(i, _)| re.is_match(i)),
                "no table row exercises {name}"
            );
        }
    }

    #[test]
    fn only_tool_results_are_normalized() {
        let n = Normalizer::default();
        let req = json!({"model": "m", "messages": [
            {"role": "system", "content": "commands time out after 60 seconds"},
            {"role": "assistant", "content": null, "tool_calls": [{"id": "c1", "type": "function",
                "function": {"name": "execute_command", "arguments": "{\"command\":\"sleep 2s\"}"}}]},
            {"role": "tool", "tool_call_id": "c1", "content": "Ran 2 tests in 0.023s"},
            {"role": "tool", "tool_call_id": "c2", "content": [{"type": "text", "text": "took 3ms"}]},
        ]});
        let out = n.request(&req);
        assert_eq!(out["messages"][0], req["messages"][0]);
        assert_eq!(out["messages"][1], req["messages"][1]);
        assert_eq!(out["messages"][2]["content"], "Ran 2 tests in <duration>");
        assert_eq!(out["messages"][3]["content"][0]["text"], "took <duration>");
    }

    #[test]
    fn task_patterns_run_first_and_bad_ones_are_named() {
        let n = Normalizer::with_patterns(&[Pattern {
            pattern: r"seed=\d+".into(),
            replace: "seed=<seed>".into(),
        }])
        .unwrap();
        assert_eq!(n.text("seed=1234 in 2ms"), "seed=<seed> in <duration>");
        let e = Normalizer::with_patterns(&[
            Pattern {
                pattern: "ok".into(),
                replace: String::new(),
            },
            Pattern {
                pattern: "(".into(),
                replace: String::new(),
            },
        ])
        .unwrap_err()
        .to_string();
        assert!(e.starts_with("replay_normalize[1]: invalid pattern"), "{e}");
        let e = Normalizer::with_patterns(&[Pattern {
            pattern: "x*".into(),
            replace: String::new(),
        }])
        .unwrap_err()
        .to_string();
        assert!(e.contains("empty string"), "{e}");
    }
}
