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

use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Trajectory {
    pub turns: Vec<ScriptedTurn>,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ScriptedTurn {
    #[serde(default)]
    pub content: Option<String>,
    /// Sent as `reasoning_content`, the way reasoning models stream it.
    #[serde(default)]
    pub reasoning: Option<String>,
    #[serde(default)]
    pub tool_calls: Vec<ScriptedToolCall>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ScriptedToolCall {
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
    }
}
