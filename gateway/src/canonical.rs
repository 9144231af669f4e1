//! The canonical form of a request, its hash (the cassette key), and the first difference
//! between two requests (what a replay miss and replay drift show).

use crate::normalize::Normalizer;
use serde_json::Value;
use sha2::{Digest, Sha256};

/// Request fields that do not change what the model answers, so they are left out of the
/// key: streaming options, end-user ids and request bookkeeping.
pub const VOLATILE_FIELDS: &[&str] = &[
    "stream",
    "stream_options",
    "user",
    "metadata",
    "store",
    "request_id",
    "service_tier",
];

/// The request without its volatile fields. Everything else (model, messages, tools,
/// tool_choice, sampling parameters, and any field this list does not know) is kept, so an
/// unknown new field makes a miss rather than a wrong hit.
pub fn canonical_request(request: &Value) -> Value {
    let mut out = request.clone();
    if let Some(obj) = out.as_object_mut() {
        for f in VOLATILE_FIELDS {
            obj.remove(*f);
        }
    }
    out
}

/// Serializes with object keys sorted, whatever order the map keeps them in, so the hash
/// does not depend on field order in the agent's JSON.
pub fn canonical_json(value: &Value) -> String {
    nab_protocol::to_sorted_string(value)
}

/// What a request is matched on: the canonical request with its tool results normalized
/// ([`crate::normalize`]). It holds, exactly, what the agent decides (system prompt, tool
/// schemas, its own messages, tool-call names and arguments, sampling parameters) and the
/// tool results without their volatile tokens.
pub fn matching_form(request: &Value, normalizer: &Normalizer) -> Value {
    normalizer.request(&canonical_request(request))
}

/// The cassette key: SHA-256 of the sorted JSON of [`matching_form`], in hex.
pub fn request_key(request: &Value, normalizer: &Normalizer) -> String {
    hex::encode(Sha256::digest(
        canonical_json(&matching_form(request, normalizer)).as_bytes(),
    ))
}

/// One line saying how a request that matched after normalization differs from the one
/// recorded (replay drift): the path of the first raw difference and, for text, the first
/// line that differs, e.g. ``messages[15].content: `Ran 9 tests in 0.001s` → `Ran 9 tests in 0.000s` ``.
pub fn describe_drift(d: &Difference) -> String {
    let (a, b) = match (&d.recorded, &d.requested) {
        (Some(Value::String(a)), Some(Value::String(b))) => {
            let mut la = a.lines();
            let mut lb = b.lines();
            loop {
                match (la.next(), lb.next()) {
                    (Some(x), Some(y)) if x == y => continue,
                    (x, y) => {
                        break (
                            x.unwrap_or("(no line)").to_owned(),
                            y.unwrap_or("(no line)").to_owned(),
                        );
                    }
                }
            }
        }
        (a, b) => {
            let show = |v: &Option<Value>| v.as_ref().map_or("(absent)".into(), Value::to_string);
            (show(a), show(b))
        }
    };
    format!(
        "{}: `{}` → `{}`",
        d.path,
        shorten(a.trim(), 160),
        shorten(b.trim(), 160)
    )
}

/// Where two JSON values first differ (depth-first, object keys in sorted order).
#[derive(Debug, Clone, PartialEq)]
pub struct Difference {
    /// A path such as `messages[0].content`.
    pub path: String,
    pub recorded: Option<Value>,
    pub requested: Option<Value>,
}

/// The first difference between a recorded request and a new one (both canonical).
pub fn first_difference(recorded: &Value, requested: &Value) -> Option<Difference> {
    diff_at(String::new(), Some(recorded), Some(requested))
}

fn join(path: &str, key: &str) -> String {
    if path.is_empty() {
        key.to_owned()
    } else {
        format!("{path}.{key}")
    }
}

fn diff_at(path: String, a: Option<&Value>, b: Option<&Value>) -> Option<Difference> {
    match (a, b) {
        (Some(Value::Object(x)), Some(Value::Object(y))) => {
            let mut keys: Vec<&String> = x.keys().chain(y.keys()).collect();
            keys.sort();
            keys.dedup();
            keys.into_iter()
                .find_map(|k| diff_at(join(&path, k), x.get(k), y.get(k)))
        }
        (Some(Value::Array(x)), Some(Value::Array(y))) => (0..x.len().max(y.len()))
            .find_map(|i| diff_at(format!("{path}[{i}]"), x.get(i), y.get(i))),
        (a, b) if a == b => None,
        (a, b) => Some(Difference {
            path: if path.is_empty() {
                "(root)".into()
            } else {
                path
            },
            recorded: a.cloned(),
            requested: b.cloned(),
        }),
    }
}

/// How close a recorded request is to a new one: same model first, then the number of
/// leading messages that are equal, then the length of the common prefix of their
/// canonical JSON (cheap, unlike a full diff, for cassettes of many long requests).
pub fn closeness(recorded: &Value, requested: &Value) -> (bool, usize, usize) {
    let same_model = recorded.get("model") == requested.get("model");
    let empty = Vec::new();
    let ma = recorded
        .get("messages")
        .and_then(Value::as_array)
        .unwrap_or(&empty);
    let mb = requested
        .get("messages")
        .and_then(Value::as_array)
        .unwrap_or(&empty);
    let common = ma.iter().zip(mb).take_while(|(x, y)| x == y).count();
    let (ja, jb) = (canonical_json(recorded), canonical_json(requested));
    let prefix = ja
        .bytes()
        .zip(jb.bytes())
        .take_while(|(x, y)| x == y)
        .count();
    (same_model, common, prefix)
}

/// A readable account of a difference: the path, and for two strings a line diff around
/// the change (long texts such as system prompts are shown only where they differ).
pub fn describe_difference(d: &Difference) -> String {
    let show = |v: &Option<Value>| match v {
        None => "(absent)".to_owned(),
        Some(v) => shorten(&v.to_string(), 300),
    };
    let mut out = format!("first difference at `{}`:\n", d.path);
    match (&d.recorded, &d.requested) {
        (Some(Value::String(a)), Some(Value::String(b))) => {
            let diff = similar::TextDiff::from_lines(a.as_str(), b.as_str());
            let text = diff
                .unified_diff()
                .context_radius(2)
                .missing_newline_hint(false)
                .header("recorded", "requested")
                .to_string();
            if text.trim().is_empty() {
                out.push_str(&format!(
                    "  recorded:  {}\n  requested: {}\n",
                    show(&d.recorded),
                    show(&d.requested)
                ));
            } else {
                out.push_str(&shorten(&text, 4000));
            }
        }
        _ => {
            out.push_str(&format!(
                "  recorded:  {}\n  requested: {}\n",
                show(&d.recorded),
                show(&d.requested)
            ));
        }
    }
    out
}

fn shorten(s: &str, max: usize) -> String {
    if s.chars().count() <= max {
        s.to_owned()
    } else {
        let head: String = s.chars().take(max).collect();
        format!("{head}… ({} more characters)", s.chars().count() - max)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn key_ignores_volatile_fields_and_key_order() {
        let n = Normalizer::default();
        let a = json!({"model": "m", "messages": [{"role": "user", "content": "hi"}], "stream": true, "user": "u1"});
        let b = json!({"messages": [{"content": "hi", "role": "user"}], "model": "m", "stream_options": {"include_usage": true}});
        assert_eq!(request_key(&a, &n), request_key(&b, &n));
        let c = json!({"model": "m", "messages": [{"role": "user", "content": "hi"}], "temperature": 0.5});
        assert_ne!(request_key(&a, &n), request_key(&c, &n));
    }

    #[test]
    fn key_covers_what_the_agent_decides_and_not_volatile_tool_output() {
        let n = Normalizer::default();
        let req = |system: &str, args: &str, result: &str| {
            json!({"model": "m", "messages": [
                {"role": "system", "content": system},
                {"role": "assistant", "tool_calls": [{"id": "c1", "type": "function",
                    "function": {"name": "execute_command", "arguments": args}}]},
                {"role": "tool", "tool_call_id": "c1", "content": result},
            ], "tools": [{"type": "function", "function": {"name": "execute_command"}}]})
        };
        let base = req(
            "You are nab.",
            "{\"command\":\"make\"}",
            "Ran 9 tests in 0.001s\nOK",
        );
        let key = request_key(&base, &n);
        // The world's timing differs: same key.
        let faster = req(
            "You are nab.",
            "{\"command\":\"make\"}",
            "Ran 9 tests in 0.000s\nOK",
        );
        assert_eq!(request_key(&faster, &n), key);
        // What the agent decides, or a real change in the result: another key.
        for other in [
            req(
                "You are nab!",
                "{\"command\":\"make\"}",
                "Ran 9 tests in 0.001s\nOK",
            ),
            req(
                "You are nab.",
                "{\"command\":\"make test\"}",
                "Ran 9 tests in 0.001s\nOK",
            ),
            req(
                "You are nab.",
                "{\"command\":\"make\"}",
                "Ran 8 tests in 0.001s\nOK",
            ),
        ] {
            assert_ne!(request_key(&other, &n), key, "{other}");
        }
        let d = first_difference(&canonical_request(&base), &canonical_request(&faster)).unwrap();
        assert_eq!(
            describe_drift(&d),
            "messages[2].content: `Ran 9 tests in 0.001s` → `Ran 9 tests in 0.000s`"
        );
    }

    #[test]
    fn first_difference_names_the_path() {
        let a =
            json!({"model": "m", "messages": [{"role": "system", "content": "line1\nA\nline3"}]});
        let b =
            json!({"model": "m", "messages": [{"role": "system", "content": "line1\nB\nline3"}]});
        let d = first_difference(&a, &b).unwrap();
        assert_eq!(d.path, "messages[0].content");
        let text = describe_difference(&d);
        assert!(text.contains("-A") && text.contains("+B"), "{text}");
        assert!(first_difference(&a, &a).is_none());
    }
}
