//! The turns a scripted model plays, in order (`trajectory.yaml` in a task folder).
//!
//! ```yaml
//! turns:
//!   - content: "Let me look at the code."
//!     tool_calls:
//!       - name: read_file
//!         arguments: {path: src/intervals.py}
//!   - content: "Fixed: touching intervals now merge."
//! ```
//! A turn without tool calls ends the agent's loop (a final answer).
//!
//! Near its context window nab-agent asks the model to summarize its older history. Those
//! requests carry [`SUMMARY_REQUEST_MARKER`] at the start of their system message; a
//! scripted model answers them from `summaries:` (in order) instead of playing a turn:
//!
//! ```yaml
//! turns: [...]
//! summaries:
//!   - "## 1. Current goal and success criteria\n..."
//! ```

use serde::{Deserialize, Serialize};

/// Opens the system message of every summarization request nab-agent sends, so a scripted
/// model (and a reader of a transcript) can tell them from the agent's working turns.
pub const SUMMARY_REQUEST_MARKER: &str = "[nab-agent: summary request]";

/// A scripted model's play for one task (`trajectory.yaml`): the assistant turns in order.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Trajectory {
    /// The assistant turns, answered one per model call.
    pub turns: Vec<ScriptedTurn>,
    /// Answers to summarization requests, in order (optional; see the module docs).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub summaries: Vec<String>,
}

/// Whether an OpenAI chat request is one of nab-agent's summarization requests: its first
/// system message starts with [`SUMMARY_REQUEST_MARKER`].
pub fn is_summary_request(request: &serde_json::Value) -> bool {
    request
        .get("messages")
        .and_then(|m| m.as_array())
        .and_then(|m| {
            m.iter()
                .find(|m| m.get("role").and_then(|r| r.as_str()) == Some("system"))
        })
        .and_then(|m| m.get("content"))
        .and_then(|c| match c {
            serde_json::Value::String(s) => {
                Some(s.trim_start().starts_with(SUMMARY_REQUEST_MARKER))
            }
            // Content given as parts: the first text part.
            serde_json::Value::Array(parts) => parts
                .iter()
                .find_map(|p| p.get("text")?.as_str())
                .map(|t| t.trim_start().starts_with(SUMMARY_REQUEST_MARKER)),
            _ => None,
        })
        .unwrap_or(false)
}

/// One assistant turn: text, reasoning and tool calls, any of them empty.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ScriptedTurn {
    /// The assistant's text.
    #[serde(default)]
    pub content: Option<String>,
    /// Sent as `reasoning_content`, the way reasoning models stream it.
    #[serde(default)]
    pub reasoning: Option<String>,
    /// The tool calls the turn makes, in order.
    #[serde(default)]
    pub tool_calls: Vec<ScriptedToolCall>,
}

/// One tool call of a scripted turn.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ScriptedToolCall {
    /// The tool's name.
    pub name: String,
    /// A JSON object; sent to the agent as its serialized string, as providers do.
    pub arguments: serde_json::Value,
}

impl Trajectory {
    /// Parses a `trajectory.yaml`; unknown fields are rejected so typos fail loudly.
    pub fn from_yaml(text: &str) -> Result<Trajectory, serde_yaml::Error> {
        serde_yaml::from_str(text)
    }
}

/// How [`ScriptedTurn::to_chunks`] shapes a stream, so tests can exercise the fragment
/// assembly a real provider forces on its clients.
#[derive(Debug, Clone)]
pub struct ChunkOptions {
    /// `id` of the `chat.completion(.chunk)` objects.
    pub completion_id: String,
    /// `model` of the chunk objects.
    pub model: String,
    /// Tool-call ids are `<prefix><n>` with `n` the call's index in the turn.
    pub call_id_prefix: String,
    /// Each tool call's `arguments` string is cut into this many fragments (at least 1).
    pub argument_fragments: usize,
    /// `content` and `reasoning_content` are cut into pieces of at most this many chars.
    pub text_piece_chars: usize,
    /// Sent in a final chunk with empty `choices` (as with `stream_options.include_usage`).
    pub usage: Option<crate::Usage>,
    /// `created` of the chunk objects (seconds since the epoch).
    pub created: i64,
}

impl Default for ChunkOptions {
    fn default() -> Self {
        ChunkOptions {
            completion_id: "chatcmpl-scripted".into(),
            model: "scripted".into(),
            call_id_prefix: "call_".into(),
            argument_fragments: 3,
            text_piece_chars: 16,
            usage: None,
            created: 0,
        }
    }
}

impl ScriptedTurn {
    /// Renders this turn as the OpenAI `chat.completion.chunk` objects a streaming provider
    /// would send (each one is the JSON of one SSE `data:` line; `[DONE]` is not included).
    ///
    /// The first chunk carries the role; reasoning then content arrive in pieces; each tool
    /// call's first fragment carries `index`, `id`, `type` and the name, and its arguments
    /// follow in `argument_fragments` pieces that carry only `index` (no id), as OpenAI does.
    /// The last choice chunk has `finish_reason` (`tool_calls` or `stop`); usage, if any,
    /// comes in a final chunk with no choices.
    pub fn to_chunks(&self, opts: &ChunkOptions) -> Vec<serde_json::Value> {
        use serde_json::json;
        let chunk = |delta: serde_json::Value, finish: Option<&str>| {
            json!({
                "id": opts.completion_id,
                "object": "chat.completion.chunk",
                "created": opts.created,
                "model": opts.model,
                "choices": [{"index": 0, "delta": delta, "finish_reason": finish}],
            })
        };
        let mut out = vec![chunk(json!({"role": "assistant", "content": ""}), None)];
        if let Some(reasoning) = &self.reasoning {
            for piece in split_chars(reasoning, opts.text_piece_chars) {
                out.push(chunk(json!({"reasoning_content": piece}), None));
            }
        }
        if let Some(content) = &self.content {
            for piece in split_chars(content, opts.text_piece_chars) {
                out.push(chunk(json!({"content": piece}), None));
            }
        }
        for (i, call) in self.tool_calls.iter().enumerate() {
            out.push(chunk(
                json!({"tool_calls": [{
                    "index": i,
                    "id": format!("{}{}", opts.call_id_prefix, i),
                    "type": "function",
                    "function": {"name": call.name, "arguments": ""},
                }]}),
                None,
            ));
            let args = call.arguments_string();
            let n = args.chars().count();
            let per = n.div_ceil(opts.argument_fragments.max(1)).max(1);
            for piece in split_chars(&args, per) {
                out.push(chunk(
                    json!({"tool_calls": [{"index": i, "function": {"arguments": piece}}]}),
                    None,
                ));
            }
        }
        let finish = if self.tool_calls.is_empty() {
            "stop"
        } else {
            "tool_calls"
        };
        out.push(chunk(json!({}), Some(finish)));
        if let Some(usage) = &opts.usage {
            out.push(json!({
                "id": opts.completion_id,
                "object": "chat.completion.chunk",
                "created": opts.created,
                "model": opts.model,
                "choices": [],
                "usage": openai_usage(usage),
            }));
        }
        out
    }

    /// Renders this turn as a whole SSE body: each of [`ScriptedTurn::to_chunks`] as a
    /// `data:` event, then `data: [DONE]`.
    pub fn to_sse(&self, opts: &ChunkOptions) -> String {
        let mut sse = String::new();
        for chunk in self.to_chunks(opts) {
            sse.push_str(&format!("data: {chunk}\n\n"));
        }
        sse.push_str("data: [DONE]\n\n");
        sse
    }

    /// Renders this turn as a non-streaming OpenAI `chat.completion` object.
    pub fn to_completion(&self, opts: &ChunkOptions) -> serde_json::Value {
        use serde_json::json;
        let mut message = json!({"role": "assistant", "content": self.content});
        if let Some(reasoning) = &self.reasoning {
            message["reasoning_content"] = json!(reasoning);
        }
        if !self.tool_calls.is_empty() {
            message["tool_calls"] = self
                .tool_calls
                .iter()
                .enumerate()
                .map(|(i, call)| {
                    json!({
                        "id": format!("{}{}", opts.call_id_prefix, i),
                        "type": "function",
                        "function": {"name": call.name, "arguments": call.arguments_string()},
                    })
                })
                .collect();
        }
        let finish = if self.tool_calls.is_empty() {
            "stop"
        } else {
            "tool_calls"
        };
        let mut out = json!({
            "id": opts.completion_id,
            "object": "chat.completion",
            "created": opts.created,
            "model": opts.model,
            "choices": [{"index": 0, "message": message, "finish_reason": finish}],
        });
        if let Some(usage) = &opts.usage {
            out["usage"] = openai_usage(usage);
        }
        out
    }
}

impl ScriptedToolCall {
    /// The arguments as the JSON string a provider sends (a string argument is sent as is,
    /// so a trajectory can also script deliberately malformed arguments).
    pub fn arguments_string(&self) -> String {
        match &self.arguments {
            serde_json::Value::String(s) => s.clone(),
            other => other.to_string(),
        }
    }
}

fn openai_usage(u: &crate::Usage) -> serde_json::Value {
    serde_json::json!({
        "prompt_tokens": u.prompt_tokens,
        "completion_tokens": u.completion_tokens,
        "total_tokens": u.total(),
        "prompt_tokens_details": {"cached_tokens": u.cached_tokens},
    })
}

/// Cuts `text` into pieces of at most `max` chars, never inside a UTF-8 character.
fn split_chars(text: &str, max: usize) -> Vec<String> {
    let max = max.max(1);
    let chars: Vec<char> = text.chars().collect();
    if chars.is_empty() {
        return Vec::new();
    }
    chars.chunks(max).map(|c| c.iter().collect()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_turns_and_rejects_typos() {
        let t = Trajectory::from_yaml(
            "turns:\n  - tool_calls:\n      - name: read_file\n        arguments: {path: a.py}\n  - content: done\n",
        )
        .unwrap();
        assert_eq!(t.turns.len(), 2);
        assert_eq!(t.turns[0].tool_calls[0].arguments["path"], "a.py");
        assert!(Trajectory::from_yaml("turns:\n  - contnet: x\n").is_err());
        assert!(t.summaries.is_empty(), "summaries are optional");
        let t = Trajectory::from_yaml("turns:\n  - content: done\nsummaries:\n  - s1\n").unwrap();
        assert_eq!(t.summaries, vec!["s1".to_string()]);
    }

    #[test]
    fn summary_requests_are_told_apart_by_the_marker_in_the_system_message() {
        use serde_json::json;
        let summary = json!({"messages": [
            {"role": "system", "content": format!("{SUMMARY_REQUEST_MARKER} You compress ...")},
            {"role": "user", "content": "Summarize ..."}]});
        assert!(is_summary_request(&summary));
        // The marker quoted later (e.g. a user pasting it) does not count.
        let work = json!({"messages": [
            {"role": "system", "content": "You are nab-agent."},
            {"role": "user", "content": SUMMARY_REQUEST_MARKER}]});
        assert!(!is_summary_request(&work));
        assert!(!is_summary_request(&json!({})));
    }
    #[test]
    fn chunks_split_arguments_and_carry_the_id_only_once() {
        let turn = ScriptedTurn {
            content: Some("héllo wörld, this is long".into()),
            reasoning: Some("think".into()),
            tool_calls: vec![ScriptedToolCall {
                name: "read_file".into(),
                arguments: serde_json::json!({"path": "src/main.rs", "offset": 3}),
            }],
        };
        let opts = ChunkOptions {
            usage: Some(crate::Usage {
                prompt_tokens: 7,
                completion_tokens: 2,
                cached_tokens: 1,
                cache_write_tokens: 0,
            }),
            ..ChunkOptions::default()
        };
        let chunks = turn.to_chunks(&opts);
        let frags: Vec<&serde_json::Value> = chunks
            .iter()
            .filter_map(|c| c["choices"].get(0)?["delta"]["tool_calls"].get(0))
            .collect();
        assert_eq!(
            frags.len(),
            1 + 3,
            "one header fragment and three argument pieces"
        );
        assert_eq!(frags.iter().filter(|f| f.get("id").is_some()).count(), 1);
        let args: String = frags
            .iter()
            .filter_map(|f| f["function"]["arguments"].as_str())
            .collect();
        assert_eq!(
            serde_json::from_str::<serde_json::Value>(&args).unwrap()["offset"],
            3
        );
        let content: String = chunks
            .iter()
            .filter_map(|c| c["choices"].get(0)?["delta"]["content"].as_str())
            .collect();
        assert_eq!(content, "héllo wörld, this is long");
        let last_choice = &chunks[chunks.len() - 2]["choices"][0];
        assert_eq!(last_choice["finish_reason"], "tool_calls");
        assert_eq!(
            chunks.last().unwrap()["usage"]["prompt_tokens_details"]["cached_tokens"],
            1
        );

        let full = turn.to_completion(&opts);
        assert_eq!(
            full["choices"][0]["message"]["tool_calls"][0]["function"]["arguments"],
            args
        );
        assert_eq!(full["choices"][0]["message"]["reasoning_content"], "think");
        assert_eq!(full["choices"][0]["finish_reason"], "tool_calls");
    }
}
