//! A trial's transcript read as a stream, keeping of each request only what the trajectory
//! shows: every tool result the first time it appears (by `seq`), and the system and user
//! messages of the earliest request.
//!
//! Each request repeats the whole history so far, so keeping them all would grow with the
//! square of the trial's length; and parsing them all would too. So a line's messages are
//! first read as raw JSON text (their role and `tool_call_id` looked at, their content only
//! scanned), and the line is parsed into a [`TranscriptLine`] with the kept messages alone in
//! its request: the same line, the same kept messages, as parsing it whole and dropping the
//! rest, without building the repeated tool outputs a second to eighth time.

use nab_protocol::TranscriptLine;
use serde::Deserialize;
use serde_json::Value;
use serde_json::value::RawValue;
use std::collections::{BTreeMap, HashMap};
use std::path::Path;

/// What a line's raw reading needs: its `seq` and its request's messages as written (their
/// text borrowed from the line, scanned but not parsed).
#[derive(Deserialize)]
struct RawLine<'a> {
    seq: u64,
    #[serde(borrow)]
    request: RawRequest<'a>,
}

#[derive(Deserialize)]
struct RawRequest<'a> {
    #[serde(borrow)]
    messages: Vec<&'a RawValue>,
}

/// A message's role and `tool_call_id`, as its JSON text holds them.
#[derive(Clone)]
struct Head {
    role: Option<String>,
    id: Option<String>,
}

impl Head {
    fn of(m: &RawValue) -> Head {
        // A message that is not an object has no role: it is dropped, as `Value::get`
        // would drop it. Of a key written twice, the last counts, as in a `Value`.
        let head = serde_json::from_str::<BTreeMap<String, &RawValue>>(m.get()).ok();
        let field = |k: &str| {
            head.as_ref()
                .and_then(|h| h.get(k))
                .and_then(|v| serde_json::from_str::<String>(v.get()).ok())
        };
        Head {
            role: field("role"),
            id: field("tool_call_id"),
        }
    }
}

/// The lines kept so far and what decides the next line's messages.
struct Pruner {
    lines: Vec<TranscriptLine>,
    /// Each tool result's `tool_call_id` and the `seq` of the request it was kept from.
    first_seen: HashMap<String, u64>,
    /// The lowest `seq` kept so far (`u64::MAX` before the first line).
    earliest: u64,
    /// The previous line's messages, as written, with their heads.
    prev: Vec<(String, Head)>,
}

/// Reads `path` (a transcript.jsonl); unparsable lines are skipped, as before pruning.
pub fn load_pruned(path: &Path) -> Vec<TranscriptLine> {
    let mut p = Pruner {
        lines: Vec::new(),
        first_seen: HashMap::new(),
        earliest: u64::MAX,
        prev: Vec::new(),
    };
    let _ = nab_protocol::for_each_line(path, nab_protocol::READ_LINE_LIMIT, |_, text, _| {
        if !p.add_raw(text) {
            p.add_whole(text);
        }
    });
    p.lines
}

impl Pruner {
    /// Whether a message of the request with `seq` is kept; a tool result kept is noted in
    /// `new_ids` (entered into `first_seen` once the line is known to parse).
    fn keep(
        &self,
        seq: u64,
        role: Option<&str>,
        id: Option<&str>,
        new_ids: &mut Vec<String>,
    ) -> bool {
        match role {
            Some("system" | "user") => seq < self.earliest,
            Some("tool") => {
                let Some(id) = id else { return false };
                let seen = match self.first_seen.get(id) {
                    Some(s) => *s <= seq,
                    None => false,
                };
                if seen || new_ids.iter().any(|n| n == id) {
                    return false;
                }
                new_ids.push(id.to_owned());
                true
            }
            _ => false,
        }
    }

    /// Enters a parsed line whose request holds only its kept messages.
    fn commit(&mut self, line: TranscriptLine, new_ids: Vec<String>) {
        for id in new_ids {
            self.first_seen.insert(id, line.seq);
        }
        self.earliest = self.earliest.min(line.seq);
        self.lines.push(line);
    }

    /// The line read raw, its dropped messages never parsed. False when it is not in the
    /// shape this reading expects (the caller then parses it whole).
    fn add_raw(&mut self, text: &str) -> bool {
        let Ok(raw) = serde_json::from_str::<RawLine<'_>>(text) else {
            return false;
        };
        let mut new_ids = Vec::new();
        let mut kept = String::new();
        let heads = self.heads(&raw.request.messages);
        for (m, h) in raw.request.messages.iter().zip(&heads) {
            if self.keep(raw.seq, h.role.as_deref(), h.id.as_deref(), &mut new_ids) {
                if !kept.is_empty() {
                    kept.push(',');
                }
                kept.push_str(m.get());
            }
        }
        // The messages' place in the line (`RawValue` borrows its text from `text`): from
        // the first one's start to the last one's end, between the array's brackets.
        let at = |m: &RawValue| m.get().as_ptr() as usize - text.as_ptr() as usize;
        let spliced = match (raw.request.messages.first(), raw.request.messages.last()) {
            (Some(first), Some(last)) => {
                let end = at(last) + last.get().len();
                std::borrow::Cow::Owned([&text[..at(first)], &kept, &text[end..]].concat())
            }
            _ => std::borrow::Cow::Borrowed(text),
        };
        // Not a transcript line: skipped, as a whole parse would skip it.
        if let Ok(mut line) = serde_json::from_str::<TranscriptLine>(&spliced) {
            let kept = take_messages(&mut line);
            line.request = serde_json::json!({ "messages": kept });
            self.commit(line, new_ids);
        }
        true
    }

    /// Each message's head. A request repeats the history before it, so a message written
    /// exactly as the previous line's message at its place has that one's head: found by
    /// comparing the text, not by scanning its JSON again (the long tool outputs).
    fn heads(&mut self, messages: &[&RawValue]) -> Vec<Head> {
        let heads: Vec<Head> = messages
            .iter()
            .enumerate()
            .map(|(i, m)| match self.prev.get(i) {
                Some((text, head)) if text == m.get() => head.clone(),
                _ => Head::of(m),
            })
            .collect();
        self.prev = messages
            .iter()
            .zip(&heads)
            .map(|(m, h)| (m.get().to_owned(), h.clone()))
            .collect();
        heads
    }

    /// The line parsed whole (a shape [`Pruner::add_raw`] does not read), then pruned.
    fn add_whole(&mut self, text: &str) {
        let Ok(mut line) = serde_json::from_str::<TranscriptLine>(text) else {
            return;
        };
        let messages = take_messages(&mut line);
        let mut new_ids = Vec::new();
        let kept: Vec<Value> = messages
            .into_iter()
            .filter(|m| {
                let s = |k: &str| m.get(k).and_then(Value::as_str);
                self.keep(line.seq, s("role"), s("tool_call_id"), &mut new_ids)
            })
            .collect();
        line.request = serde_json::json!({ "messages": kept });
        self.commit(line, new_ids);
    }
}

/// The request's messages, taken out of the line (none when it has no array of them).
fn take_messages(line: &mut TranscriptLine) -> Vec<Value> {
    line.request
        .get_mut("messages")
        .and_then(Value::as_array_mut)
        .map(std::mem::take)
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pruned(text: &str, raw_first: bool) -> Vec<String> {
        let mut p = Pruner {
            lines: Vec::new(),
            first_seen: HashMap::new(),
            earliest: u64::MAX,
            prev: Vec::new(),
        };
        for l in text.lines() {
            if !(raw_first && p.add_raw(l)) {
                p.add_whole(l);
            }
        }
        p.lines
            .iter()
            .map(|l| serde_json::to_string(l).unwrap())
            .collect()
    }

    fn line(seq: u64, messages: &str) -> String {
        format!(
            r#"{{"v":1,"ts":"t","seq":{seq},"provider":"p","stream":false,"request":{{"model":"m","messages":{messages}}},"latency_ms":1}}"#
        )
    }

    #[test]
    fn the_raw_reading_keeps_what_parsing_whole_lines_keeps() {
        let sys = r#"{"role":"system","content":"be \"brief\"\n"}"#;
        let user = r#"{"content":"fix it","role":"user"}"#;
        let tool = |id: &str, c: &str| {
            format!(r#"{{"role":"tool","tool_call_id":"{id}","content":"{c}"}}"#)
        };
        let lines = [
            // Out of order: seq 1 before seq 0, so seq 0's prompt and results are kept too.
            line(1, &format!("[{sys},{user},{},{}]", tool("a", "A1"), tool("b", "B"))),
            line(0, &format!("[{sys},{user},{}]", tool("a", "A0"))),
            // The same id twice in one request, a key written twice (the last counts), an
            // escaped key, messages that are not objects, a role that is not a string.
            line(
                2,
                &format!(
                    r#"[{},{},{{"role":"user","role":"tool","tool_call_id":"c","content":1}},{{"r\u006fle":"tool","tool_call_id":"d"}},3,"tool",{{"role":7}}]"#,
                    tool("e", "E1"),
                    tool("e", "E2")
                ),
            ),
            // Not the shape the raw reading expects: parsed whole instead.
            r#"{"v":1,"ts":"t","seq":3,"provider":"p","stream":false,"request":{"messages":null},"latency_ms":1}"#.to_owned(),
            r#"{"v":1,"ts":"t","seq":4,"provider":"p","stream":false,"request":"none","latency_ms":1}"#.to_owned(),
            r#"{"v":1,"ts":"t","seq":5,"provider":"p","stream":false,"request":{"messages":[],"messages":[{"role":"tool","tool_call_id":"f"}]},"latency_ms":1}"#.to_owned(),
            // Not transcript lines at all.
            r#"{"seq":6,"request":{"messages":[]}}"#.to_owned(),
            "{torn".to_owned(),
        ]
        .join("\n");
        let whole = pruned(&lines, false);
        assert_eq!(pruned(&lines, true), whole);
        assert_eq!(whole.len(), 6, "{whole:#?}");
        assert!(
            whole[0].contains("A1") && whole[1].contains("A0"),
            "{whole:#?}"
        );
        // The first line read had the lowest seq so far, and so did the second.
        assert!(whole[0].contains("brief") && whole[1].contains("brief"));
        assert!(!whole[2].contains("brief"), "{}", whole[2]);
        let third = &whole[2];
        assert!(third.contains("E1") && !third.contains("E2"), "{third}");
        assert!(third.contains(r#""tool_call_id":"c""#) && third.contains(r#""tool_call_id":"d""#));
        assert!(whole[5].contains(r#""tool_call_id":"f""#), "{}", whole[5]);
    }
}
