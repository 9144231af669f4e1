//! Is this history something a provider will accept?
//!
//! One function, [`check_history`], run on every history the context manager rebuilds
//! (in tests, after every step) so that no compaction can produce a request the provider
//! rejects. The rules are the strictest common denominator of OpenAI-compatible providers:
//! - system messages only at the start, then a user message first;
//! - every assistant tool call is answered by exactly one tool message with its id, and
//!   those answers come right after the assistant message (nothing in between);
//! - no tool message without a pending call;
//! - user and assistant alternate: never two user or two assistant messages in a row
//!   (an assistant's tool results sit between it and the next assistant message);
//! - an assistant message says something or calls something.

use crate::message::{Message, Role};
use std::borrow::Borrow;
use std::collections::BTreeSet;

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ValidityError {
    #[error("the history is empty")]
    Empty,
    #[error("message {index}: a system message after the conversation started")]
    LateSystem { index: usize },
    #[error("message {index}: the conversation must start with a user message, found {role:?}")]
    FirstNotUser { index: usize, role: Role },
    #[error("message {index}: tool result `{id}` answers no pending tool call")]
    OrphanToolResult { index: usize, id: String },
    #[error("message {index}: a tool message without tool_call_id")]
    ToolWithoutId { index: usize },
    #[error(
        "message {index}: {role:?} message arrived while tool calls {pending:?} have no result"
    )]
    MissingToolResults {
        index: usize,
        role: Role,
        pending: Vec<String>,
    },
    #[error("the history ends with tool calls {pending:?} that have no result")]
    UnansweredAtEnd { pending: Vec<String> },
    #[error("message {index}: tool call id `{id}` appears twice")]
    DuplicateToolCallId { index: usize, id: String },
    #[error("message {index}: two {role:?} messages in a row")]
    NotAlternating { index: usize, role: Role },
    #[error("message {index}: an assistant message with neither content nor tool calls")]
    EmptyAssistant { index: usize },
}

/// Checks `history` against the rules in the module docs; the error names the first
/// message that breaks one.
pub fn check_history<M: Borrow<Message>>(history: &[M]) -> Result<(), ValidityError> {
    if history.is_empty() {
        return Err(ValidityError::Empty);
    }
    let mut walk = Walk::default();
    for (index, m) in history.iter().enumerate() {
        let m: &Message = m.borrow();
        match m.role {
            Role::System => {
                if walk.started {
                    return Err(ValidityError::LateSystem { index });
                }
            }
            Role::Tool => walk.tool_result(index, m)?,
            Role::User | Role::Assistant => {
                // An assistant directly after tool results is a new step, not a repeat.
                let previous_was_tool = index > 0 && history[index - 1].borrow().role == Role::Tool;
                walk.turn(index, m, previous_was_tool)?;
            }
        }
    }
    if !walk.started {
        return Err(ValidityError::FirstNotUser {
            index: history.len(),
            role: Role::System,
        });
    }
    if !walk.pending.is_empty() {
        return Err(ValidityError::UnansweredAtEnd {
            pending: walk.pending,
        });
    }
    Ok(())
}

/// What [`check_history`] knows after the messages seen so far.
#[derive(Default)]
struct Walk {
    /// Tool call ids of the last assistant message that have no result yet.
    pending: Vec<String>,
    /// A user or assistant message was seen.
    started: bool,
    /// The role of the previous user/assistant message, for alternation.
    last_turn: Option<Role>,
}

impl Walk {
    /// A tool message must answer a pending call.
    fn tool_result(&mut self, index: usize, m: &Message) -> Result<(), ValidityError> {
        let id = m
            .tool_call_id
            .clone()
            .ok_or(ValidityError::ToolWithoutId { index })?;
        match self.pending.iter().position(|p| *p == id) {
            Some(at) => {
                self.pending.remove(at);
                Ok(())
            }
            None => Err(ValidityError::OrphanToolResult { index, id }),
        }
    }

    /// A user or assistant message: every call answered before it, the user first, the two
    /// alternating; an assistant's calls become pending.
    fn turn(
        &mut self,
        index: usize,
        m: &Message,
        previous_was_tool: bool,
    ) -> Result<(), ValidityError> {
        if !self.pending.is_empty() {
            return Err(ValidityError::MissingToolResults {
                index,
                role: m.role,
                pending: std::mem::take(&mut self.pending),
            });
        }
        if !self.started && m.role != Role::User {
            return Err(ValidityError::FirstNotUser {
                index,
                role: m.role,
            });
        }
        self.started = true;
        if self.last_turn == Some(m.role) && !(m.role == Role::Assistant && previous_was_tool) {
            return Err(ValidityError::NotAlternating {
                index,
                role: m.role,
            });
        }
        self.last_turn = Some(m.role);
        if m.role == Role::Assistant {
            self.assistant(index, m)?;
        }
        Ok(())
    }

    /// An assistant message says or calls something; its call ids are unique.
    fn assistant(&mut self, index: usize, m: &Message) -> Result<(), ValidityError> {
        let has_text = m.content.as_deref().is_some_and(|c| !c.trim().is_empty());
        if !has_text && m.tool_calls.is_empty() {
            return Err(ValidityError::EmptyAssistant { index });
        }
        // Ids must be unique within a turn; scripted and some real providers reuse
        // `call_0` across turns, which providers accept.
        let mut seen_ids = BTreeSet::new();
        for c in &m.tool_calls {
            if !seen_ids.insert(c.id.clone()) {
                return Err(ValidityError::DuplicateToolCallId {
                    index,
                    id: c.id.clone(),
                });
            }
            self.pending.push(c.id.clone());
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::message::ToolCall;

    fn asst(calls: &[&str]) -> Message {
        Message {
            role: Role::Assistant,
            content: if calls.is_empty() {
                Some("done".into())
            } else {
                None
            },
            reasoning: None,
            tool_calls: calls
                .iter()
                .map(|id| ToolCall::new(*id, "read_file", "{}"))
                .collect(),
            tool_call_id: None,
        }
    }

    #[test]
    fn a_normal_react_history_is_valid() {
        let h = vec![
            Message::system("s"),
            Message::user("fix it"),
            asst(&["a", "b"]),
            Message::tool("b", "1"),
            Message::tool("a", "2"),
            asst(&["c"]),
            Message::tool("c", "3"),
            Message::user("also this"),
            asst(&[]),
        ];
        assert_eq!(check_history(&h), Ok(()));
        // The same id in two different turns is fine (pairing is per turn).
        let h = vec![
            u(),
            asst(&["call_0"]),
            Message::tool("call_0", "1"),
            asst(&["call_0"]),
            Message::tool("call_0", "2"),
        ];
        assert_eq!(check_history(&h), Ok(()));
    }

    fn u() -> Message {
        Message::user("u")
    }

    #[test]
    fn each_broken_rule_is_named() {
        let s = Message::system("s");
        let u = Message::user("u");
        let table: Vec<(Vec<Message>, &str)> = vec![
            (vec![], "empty"),
            (vec![s.clone()], "must start with a user"),
            (vec![s.clone(), asst(&[])], "must start with a user"),
            (vec![u.clone(), s.clone()], "system message after"),
            (
                vec![u.clone(), Message::tool("x", "r")],
                "answers no pending",
            ),
            (vec![u.clone(), asst(&["a"]), u.clone()], "have no result"),
            (vec![u.clone(), asst(&["a"])], "ends with tool calls"),
            (vec![u.clone(), u.clone()], "two User messages"),
            (
                vec![u.clone(), asst(&[]), asst(&[])],
                "two Assistant messages",
            ),
            (
                vec![
                    u.clone(),
                    asst(&["a", "a"]),
                    Message::tool("a", "r"),
                    Message::tool("a", "r"),
                ],
                "appears twice",
            ),
            (
                vec![
                    u.clone(),
                    Message {
                        content: None,
                        ..asst(&[])
                    },
                ],
                "neither content nor tool calls",
            ),
        ];
        for (h, want) in table {
            let err = check_history(&h).unwrap_err().to_string();
            assert!(err.contains(want), "{h:?}: {err}");
        }
    }
}
