//! Tier 2: the content of older tool results is replaced with a short placeholder. The
//! message itself (and its `tool_call_id`) stays, so every call keeps its answer.

use super::offload::offloaded_path;
use crate::message::{Message, Role};
use std::sync::Arc;

/// This many of the most recent tool results keep their content.
pub const KEEP_RECENT_TOOL_RESULTS: usize = 3;
pub const CLEARED_MARKER: &str = "[nab-agent: older tool result cleared to save context";

fn placeholder(old: &str) -> String {
    match offloaded_path(old) {
        Some(path) => format!("{CLEARED_MARKER}; the full output is still in {path}]"),
        None => format!("{CLEARED_MARKER}; run the tool again if you need it]"),
    }
}

pub fn is_cleared(text: &str) -> bool {
    text.starts_with(CLEARED_MARKER)
}

/// Clears all tool results but the `keep` most recent. Returns how many were cleared.
pub fn clear_old_tool_results(history: &mut [Arc<Message>], keep: usize) -> usize {
    let tool_indices: Vec<usize> = history
        .iter()
        .enumerate()
        .filter(|(_, m)| m.role == Role::Tool)
        .map(|(i, _)| i)
        .collect();
    let older = tool_indices.len().saturating_sub(keep);
    let mut cleared = 0;
    for &i in &tool_indices[..older] {
        let old = history[i].content.as_deref().unwrap_or("");
        if is_cleared(old) {
            continue;
        }
        let text = placeholder(old);
        if text.len() >= old.len() {
            continue; // already shorter than the placeholder
        }
        let mut m = (*history[i]).clone();
        m.content = Some(text);
        history[i] = Arc::new(m);
        cleared += 1;
    }
    cleared
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::message::ToolCall;

    #[test]
    fn keeps_the_three_most_recent_and_every_id() {
        let mut h: Vec<Arc<Message>> = vec![Arc::new(Message::user("go"))];
        for i in 0..6 {
            let mut a = Message::user("");
            a.role = Role::Assistant;
            a.content = None;
            a.tool_calls = vec![ToolCall::new(format!("c{i}"), "read_file", "{}")];
            h.push(Arc::new(a));
            h.push(Arc::new(Message::tool(
                format!("c{i}"),
                format!("output {i} ").repeat(100),
            )));
        }
        assert_eq!(clear_old_tool_results(&mut h, KEEP_RECENT_TOOL_RESULTS), 3);
        let tools: Vec<&Arc<Message>> = h.iter().filter(|m| m.role == Role::Tool).collect();
        for (i, t) in tools.iter().enumerate() {
            assert_eq!(t.tool_call_id.as_deref(), Some(format!("c{i}").as_str()));
            assert_eq!(
                is_cleared(t.content.as_deref().unwrap()),
                i < 3,
                "result {i}"
            );
        }
        assert_eq!(
            clear_old_tool_results(&mut h, KEEP_RECENT_TOOL_RESULTS),
            0,
            "idempotent"
        );
        crate::context::validity::check_history(&h).unwrap();
    }
}
