//! Tier 1: a tool output over 32,000 characters is written in full to a file in the state
//! directory (outside the workspace, so it never shows up in the diff), and the history
//! keeps its path, its first 2,000 and last 800 characters, and how to read the rest.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

/// Outputs longer than this many characters are offloaded.
pub const OFFLOAD_THRESHOLD_CHARS: usize = 32_000;
pub const HEAD_CHARS: usize = 2_000;
pub const TAIL_CHARS: usize = 800;
/// The first line of an offloaded result; later tiers recognise it by this.
pub const OFFLOAD_MARKER: &str = "[nab-agent: output offloaded]";
/// The folder under the state directory that holds offloaded outputs.
pub const OUTPUTS_DIR: &str = "tool-outputs";

#[derive(Debug)]
pub struct Offloader {
    dir: PathBuf,
    seq: AtomicU64,
}

impl Offloader {
    pub fn new(state_dir: &Path) -> Offloader {
        Offloader {
            dir: state_dir.join(OUTPUTS_DIR),
            seq: AtomicU64::new(0),
        }
    }

    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// Whether `text` is long enough to be offloaded (and is not already a stub).
    pub fn wants(text: &str) -> bool {
        text.len() > OFFLOAD_THRESHOLD_CHARS
            && !text.starts_with(OFFLOAD_MARKER)
            && text.chars().count() > OFFLOAD_THRESHOLD_CHARS
    }

    /// Writes `text` to a new file and returns what the history keeps instead.
    pub fn offload(&self, tool_call_id: &str, text: &str) -> std::io::Result<String> {
        std::fs::create_dir_all(&self.dir)?;
        let n = self.seq.fetch_add(1, Ordering::SeqCst) + 1;
        let safe_id: String = tool_call_id
            .chars()
            .map(|c| {
                if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                    c
                } else {
                    '_'
                }
            })
            .take(64)
            .collect();
        // The sequence number keeps names unique even when a provider reuses call ids.
        let path = self.dir.join(format!("{n:04}-{safe_id}.txt"));
        std::fs::write(&path, text)?;
        Ok(stub(&path, text))
    }
}

/// The text kept in the history for an offloaded output.
pub fn stub(path: &Path, text: &str) -> String {
    let chars = text.chars().count();
    let lines = text.lines().count();
    let head: String = text.chars().take(HEAD_CHARS).collect();
    let tail: String = text
        .chars()
        .skip(chars.saturating_sub(TAIL_CHARS))
        .collect();
    let p = path.display();
    format!(
        "{OFFLOAD_MARKER} The output was {chars} characters ({lines} lines), too long for the context. \
         The full text is in {p}.\n\
         --- first {HEAD_CHARS} characters ---\n{head}\n\
         --- … {} characters omitted … ---\n\
         --- last {TAIL_CHARS} characters ---\n{tail}\n\
         To read the rest, call read_file with path=\"{p}\" and offset/limit (1-based lines).",
        chars.saturating_sub(HEAD_CHARS + TAIL_CHARS)
    )
}

/// The file an offloaded stub points to, if `text` is one.
pub fn offloaded_path(text: &str) -> Option<&str> {
    let rest = text.strip_prefix(OFFLOAD_MARKER)?;
    let start = rest.find("The full text is in ")? + "The full text is in ".len();
    let end = rest[start..].find(".\n")?;
    Some(&rest[start..start + end])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_path_head_tail_and_how_to_read() {
        let dir = tempfile::tempdir().unwrap();
        let o = Offloader::new(dir.path());
        let text: String = (0..3000)
            .map(|i| format!("line {i:05} of output\n"))
            .collect();
        assert!(Offloader::wants(&text));
        assert!(!Offloader::wants(&"x".repeat(OFFLOAD_THRESHOLD_CHARS)));
        let s = o.offload("call/1", &text).unwrap();
        let path = offloaded_path(&s).unwrap();
        assert!(path.ends_with("0001-call_1.txt"), "{path}");
        assert_eq!(std::fs::read_to_string(path).unwrap(), text);
        assert!(s.contains(&text[..HEAD_CHARS]));
        assert!(s.contains(&text[text.len() - TAIL_CHARS..]));
        assert!(!s.contains("line 01500"), "the middle is not kept");
        assert!(s.contains("call read_file with path="));
        assert!(s.len() < HEAD_CHARS + TAIL_CHARS + 800, "{}", s.len());
        assert!(!Offloader::wants(&s));
    }
}
