//! How to talk to one OpenAI-compatible server: the options of `openai[...]:<model>`.
//!
//! Servers differ from OpenAI in small ways: llama-cpp-python's function-calling chat format
//! fails a streamed request after sending its headers; some servers reject `stream_options`,
//! `tool_choice` or `parallel_tool_calls`. The options change only what the gateway sends
//! upstream; the agent keeps speaking plain OpenAI (a stream it asked for is still a stream).
//! The defaults are what OpenAI accepts.

use std::fmt;

/// The dialect options of an `openai:` provider.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Dialect {
    /// `stream=on` (default): a request the agent streams is streamed upstream.
    /// `stream=off`: the server is called without streaming and its whole answer is
    /// streamed on to the agent, for servers whose streaming is broken.
    pub stream: bool,
    /// `stream_options=send` (default): streamed calls ask for usage
    /// (`stream_options.include_usage`); `omit` never sends `stream_options`.
    pub stream_options: bool,
    /// `tool_choice=send` (default) passes the agent's `tool_choice` on; `omit` drops it.
    pub tool_choice: bool,
    /// `parallel_tool_calls=send` (default) passes it on; `omit` drops it.
    pub parallel_tool_calls: bool,
}

impl Default for Dialect {
    fn default() -> Self {
        Dialect {
            stream: true,
            stream_options: true,
            tool_choice: true,
            parallel_tool_calls: true,
        }
    }
}

/// The options, their values (default first) and what they do; shown in errors.
pub const OPTIONS_HELP: &str =
    "stream=on|off, stream_options=send|omit, tool_choice=send|omit, parallel_tool_calls=send|omit";

/// What is wrong with the `[options]` of `openai[...]`; each message lists the options.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum DialectError {
    #[error(
        "empty option in [{options}]: write key=value pairs separated by commas ({OPTIONS_HELP})"
    )]
    Empty { options: String },
    #[error("option `{pair}` has no value: write key=value ({OPTIONS_HELP})")]
    NoValue { pair: String },
    #[error("option `{key}` is given twice")]
    Twice { key: String },
    #[error("option `{key}` takes {on} or {off}, not `{value}`")]
    BadValue {
        key: String,
        on: &'static str,
        off: &'static str,
        value: String,
    },
    #[error("unknown option `{key}`; the options are {OPTIONS_HELP}")]
    Unknown { key: String },
}

impl Dialect {
    /// Parses the text between the brackets of `openai[...]`: `key=value` pairs separated by
    /// commas, each key at most once.
    pub fn parse(options: &str) -> Result<Dialect, DialectError> {
        let mut d = Dialect::default();
        let mut seen: Vec<&str> = Vec::new();
        for pair in options.split(',').map(str::trim) {
            if pair.is_empty() {
                return Err(DialectError::Empty {
                    options: options.to_owned(),
                });
            }
            let Some((key, value)) = pair.split_once('=') else {
                return Err(DialectError::NoValue {
                    pair: pair.to_owned(),
                });
            };
            let (key, value) = (key.trim(), value.trim());
            if seen.contains(&key) {
                return Err(DialectError::Twice {
                    key: key.to_owned(),
                });
            }
            seen.push(key);
            let send = |on: &'static str, off: &'static str| match value {
                v if v == on => Ok(true),
                v if v == off => Ok(false),
                v => Err(DialectError::BadValue {
                    key: key.to_owned(),
                    on,
                    off,
                    value: v.to_owned(),
                }),
            };
            match key {
                "stream" => d.stream = send("on", "off")?,
                "stream_options" => d.stream_options = send("send", "omit")?,
                "tool_choice" => d.tool_choice = send("send", "omit")?,
                "parallel_tool_calls" => d.parallel_tool_calls = send("send", "omit")?,
                other => {
                    return Err(DialectError::Unknown {
                        key: other.to_owned(),
                    });
                }
            }
        }
        Ok(d)
    }

    pub fn is_default(&self) -> bool {
        *self == Dialect::default()
    }

    /// Whether the top-level request field `key` is left out of what the server gets.
    /// `stream_upstream` says whether this call streams upstream.
    pub fn drops(&self, key: &str, stream_upstream: bool) -> bool {
        match key {
            // OpenAI refuses `stream_options` without `stream: true`.
            "stream" => !stream_upstream,
            "stream_options" => !stream_upstream || !self.stream_options,
            "tool_choice" => !self.tool_choice,
            "parallel_tool_calls" => !self.parallel_tool_calls,
            _ => false,
        }
    }

    /// Rewrites a request body (a JSON object) for the server, by [`Dialect::drops`].
    pub fn apply(
        &self,
        body: &mut serde_json::Map<String, serde_json::Value>,
        stream_upstream: bool,
    ) {
        body.retain(|k, _| !self.drops(k, stream_upstream));
    }
}

/// The options that differ from the defaults, as they are written in a spec
/// (`stream=off,tool_choice=omit`); empty for the defaults.
impl fmt::Display for Dialect {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let d = Dialect::default();
        let mut parts = Vec::new();
        if self.stream != d.stream {
            parts.push("stream=off");
        }
        if self.stream_options != d.stream_options {
            parts.push("stream_options=omit");
        }
        if self.tool_choice != d.tool_choice {
            parts.push("tool_choice=omit");
        }
        if self.parallel_tool_calls != d.parallel_tool_calls {
            parts.push("parallel_tool_calls=omit");
        }
        f.write_str(&parts.join(","))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn parses_every_option_and_prints_only_what_differs() {
        let d = Dialect::parse(
            "stream=off, stream_options=omit,tool_choice=omit,parallel_tool_calls=omit",
        )
        .unwrap();
        assert!(!d.stream && !d.stream_options && !d.tool_choice && !d.parallel_tool_calls);
        assert_eq!(
            d.to_string(),
            "stream=off,stream_options=omit,tool_choice=omit,parallel_tool_calls=omit"
        );
        let d = Dialect::parse("stream=on,tool_choice=send").unwrap();
        assert!(d.is_default());
        assert_eq!(d.to_string(), "");
    }

    #[test]
    fn bad_options_say_what_is_allowed() {
        for (text, want) in [
            ("stream=no", "takes on or off"),
            ("tools=omit", "unknown option `tools`"),
            ("stream", "has no value"),
            ("stream=off,,tool_choice=omit", "empty option"),
            ("stream=off,stream=on", "given twice"),
        ] {
            let e = Dialect::parse(text).unwrap_err().to_string();
            assert!(e.contains(want), "{text}: {e}");
        }
        assert!(
            Dialect::parse("x=y")
                .unwrap_err()
                .to_string()
                .contains("stream=on|off")
        );
    }

    #[test]
    fn apply_removes_what_the_server_must_not_see() {
        let req = json!({"model": "m", "messages": [], "stream": true,
            "stream_options": {"include_usage": true}, "tool_choice": "auto",
            "parallel_tool_calls": true, "tools": []});
        let run = |d: Dialect, stream: bool| {
            let mut v = req.as_object().unwrap().clone();
            d.apply(&mut v, stream);
            let mut keys: Vec<String> = v.keys().cloned().collect();
            keys.sort();
            keys.join(",")
        };
        assert_eq!(
            run(Dialect::default(), true),
            "messages,model,parallel_tool_calls,stream,stream_options,tool_choice,tools"
        );
        assert_eq!(
            run(Dialect::default(), false),
            "messages,model,parallel_tool_calls,tool_choice,tools"
        );
        let omit_all =
            Dialect::parse("stream_options=omit,tool_choice=omit,parallel_tool_calls=omit")
                .unwrap();
        assert_eq!(run(omit_all, true), "messages,model,stream,tools");
    }
}
