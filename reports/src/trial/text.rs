//! A block of text capped for the report, and whether it starts collapsed.

use serde::Serialize;

/// Longest block kept, in characters (head + tail).
pub const MAX_TEXT: usize = 20_000;
/// Blocks longer than this (characters or lines) start collapsed.
pub const COLLAPSE_CHARS: usize = 600;
pub const COLLAPSE_LINES: usize = 12;

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Text {
    pub text: String,
    /// Characters left out of the middle (or the start, for [`Text::tail`]).
    pub omitted: usize,
    pub collapsed: bool,
    pub lines: usize,
    /// The first line, shortened, for the collapsed summary.
    pub preview: String,
}

impl Text {
    /// Keeps the first ¾ and last ¼ of [`MAX_TEXT`] characters of a long block.
    pub fn new(s: &str) -> Text {
        let n = s.chars().count();
        if n <= MAX_TEXT {
            return Text::whole(s.to_owned(), 0);
        }
        let head = &s[..char_start(s, MAX_TEXT * 3 / 4)];
        let tail = &s[char_start(s, n - MAX_TEXT / 4)..];
        let omitted = n - MAX_TEXT * 3 / 4 - MAX_TEXT / 4;
        Text::whole(
            format!("{head}\n… {omitted} characters omitted …\n{tail}"),
            omitted,
        )
    }

    /// Keeps the last `max` characters (logs: the end is where the failure is).
    pub fn tail(s: &str, max: usize) -> Text {
        let n = s.chars().count();
        if n <= max {
            return Text::whole(s.to_owned(), 0);
        }
        let omitted = n - max;
        let tail = &s[char_start(s, omitted)..];
        Text::whole(
            format!("… {omitted} earlier characters omitted …\n{tail}"),
            omitted,
        )
    }

    fn whole(text: String, omitted: usize) -> Text {
        let lines = text.lines().count();
        let first = text.lines().find(|l| !l.trim().is_empty()).unwrap_or("");
        let mut preview: String = first.chars().take(120).collect();
        if first.chars().count() > 120 {
            preview.push('…');
        }
        Text {
            collapsed: text.chars().count() > COLLAPSE_CHARS || lines > COLLAPSE_LINES,
            omitted,
            lines,
            preview,
            text,
        }
    }
}

/// The byte offset of the `k`th character (0-based), or the end of `s`: a slice at a
/// character boundary, copied once, rather than a string rebuilt character by character.
fn char_start(s: &str, k: usize) -> usize {
    s.char_indices().nth(k).map_or(s.len(), |(i, _)| i)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_blocks_are_capped_and_collapsed_short_ones_are_not() {
        let long = "x".repeat(MAX_TEXT + 500);
        let t = Text::new(&long);
        assert_eq!(t.omitted, 500);
        assert!(t.collapsed && t.text.contains("500 characters omitted"));
        let short = Text::new("ok");
        assert!(!short.collapsed && short.omitted == 0 && short.text == "ok");
        let many_lines = Text::new(&"a\n".repeat(20));
        assert!(many_lines.collapsed);
        let log = Text::tail("0123456789", 4);
        assert!(log.text.ends_with("6789") && log.omitted == 6);
        // Cut at characters, not bytes: multi-byte text keeps whole characters.
        let wide = "é".repeat(MAX_TEXT + 10);
        let t = Text::new(&wide);
        assert_eq!(t.omitted, 10);
        let head: String = wide.chars().take(MAX_TEXT * 3 / 4).collect();
        let tail: String = wide.chars().skip(MAX_TEXT + 10 - MAX_TEXT / 4).collect();
        assert_eq!(t.text, format!("{head}\n… 10 characters omitted …\n{tail}"));
        let log = Text::tail("ééé", 2);
        assert_eq!(log.text, "… 1 earlier characters omitted …\néé");
    }
}
