//! The system prompt, assembled from layers kept as files in the crate.
//!
//! Layers go from most to least stable — identity, tool rules, method, safety (fixed for a
//! build), then the environment (fixed for a run), then the workspace's `AGENT.md` — so the
//! longest possible prefix is byte-identical across runs and a provider's prefix cache holds.

use std::path::Path;

/// The fixed layers, in order.
pub const LAYERS: &[(&str, &str)] = &[
    ("identity", include_str!("../prompts/00-identity.md")),
    ("tools", include_str!("../prompts/10-tools.md")),
    ("method", include_str!("../prompts/20-method.md")),
    ("safety", include_str!("../prompts/30-safety.md")),
];

/// Project instructions read from the workspace, when present.
pub const PROJECT_FILE: &str = "AGENT.md";
/// `AGENT.md` beyond this many bytes is cut (it is user-controlled).
pub const PROJECT_FILE_MAX: usize = 32 * 1024;

/// Builds the system prompt for a run in `workspace`.
pub fn system_prompt(workspace: &Path, tool_names: &[String]) -> String {
    let mut out = String::new();
    for (_, text) in LAYERS {
        out.push_str(text.trim_end());
        out.push_str("\n\n");
    }
    out.push_str("# Environment\n\n");
    out.push_str(&format!("- Workspace: {}\n", workspace.display()));
    out.push_str(&format!("- Tools: {}\n", tool_names.join(", ")));
    if let Ok(text) = std::fs::read_to_string(workspace.join(PROJECT_FILE)) {
        let text: String = if text.len() > PROJECT_FILE_MAX {
            let mut end = PROJECT_FILE_MAX;
            while !text.is_char_boundary(end) {
                end -= 1;
            }
            format!(
                "{}\n[... AGENT.md cut at {PROJECT_FILE_MAX} bytes]",
                &text[..end]
            )
        } else {
            text
        };
        out.push_str("\n# Project instructions (AGENT.md)\n\n");
        out.push_str(text.trim_end());
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn layers_come_in_order_and_agent_md_is_appended_last() {
        let dir = tempfile::tempdir().unwrap();
        let names = vec!["read_file".to_string()];
        let without = system_prompt(dir.path(), &names);
        assert!(!without.contains("AGENT.md)"));
        let positions: Vec<usize> = LAYERS
            .iter()
            .map(|(_, t)| without.find(t.trim_end()).unwrap())
            .collect();
        assert!(positions.windows(2).all(|w| w[0] < w[1]), "{positions:?}");
        std::fs::write(dir.path().join("AGENT.md"), "Use tabs.\n").unwrap();
        let with = system_prompt(dir.path(), &names);
        assert!(
            with.starts_with(&without),
            "the stable prefix must not change"
        );
        assert!(with.trim_end().ends_with("Use tabs."));
    }
}
