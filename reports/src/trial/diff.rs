//! A unified diff split into classified lines, so the template can highlight it.

use serde::Serialize;

pub const MAX_DIFF_LINES: usize = 5_000;

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct DiffView {
    pub lines: Vec<DiffLine>,
    pub files: Vec<String>,
    pub added: usize,
    pub removed: usize,
    pub omitted_lines: usize,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct DiffLine {
    /// `add`, `del`, `hunk`, `file` or `ctx`.
    pub class: &'static str,
    pub text: String,
}

impl DiffView {
    pub fn parse(patch: &str) -> DiffView {
        let mut view = DiffView {
            lines: Vec::new(),
            files: Vec::new(),
            added: 0,
            removed: 0,
            omitted_lines: 0,
        };
        for line in patch.lines() {
            let class = if line.starts_with("+++")
                || line.starts_with("---")
                || line.starts_with("diff ")
            {
                if let Some(f) = line.strip_prefix("+++ ") {
                    let f = f.strip_prefix("b/").unwrap_or(f);
                    if f != "/dev/null" {
                        view.files.push(f.to_owned());
                    }
                }
                "file"
            } else if line.starts_with("index ")
                || line.starts_with("new file")
                || line.starts_with("deleted file")
            {
                "file"
            } else if line.starts_with("@@") {
                "hunk"
            } else if line.starts_with('+') {
                view.added += 1;
                "add"
            } else if line.starts_with('-') {
                view.removed += 1;
                "del"
            } else {
                "ctx"
            };
            if view.lines.len() < MAX_DIFF_LINES {
                view.lines.push(DiffLine {
                    class,
                    text: line.to_owned(),
                });
            } else {
                view.omitted_lines += 1;
            }
        }
        view
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn classifies_lines_and_counts_changes() {
        let d = DiffView::parse(
            "diff --git a/x.py b/x.py\n--- a/x.py\n+++ b/x.py\n@@ -1,2 +1,2 @@\n ctx\n-old\n+new\n",
        );
        let classes: Vec<_> = d.lines.iter().map(|l| l.class).collect();
        assert_eq!(
            classes,
            ["file", "file", "file", "hunk", "ctx", "del", "add"]
        );
        assert_eq!((d.added, d.removed), (1, 1));
        assert_eq!(d.files, ["x.py"]);
    }
}
