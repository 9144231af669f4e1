//! Syntax checks after an edit, with tree-sitter: Python, Java, Rust, C, JavaScript.
//!
//! Error and missing nodes become findings with 1-based line and column. The model sees at
//! most [`MAX_FINDINGS`]; the total is counted too.

use std::path::Path;

use tree_sitter::{Language, Node, Parser};

pub const MAX_FINDINGS: usize = 20;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Finding {
    pub line: usize,
    pub column: usize,
    pub message: String,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Report {
    pub language: &'static str,
    /// At most `MAX_FINDINGS`, in source order.
    pub findings: Vec<Finding>,
    pub total: u32,
}

/// The grammar for a file, by extension.
pub fn language_for(path: &Path) -> Option<(&'static str, Language)> {
    let ext = path.extension()?.to_str()?.to_ascii_lowercase();
    Some(match ext.as_str() {
        "py" | "pyi" => ("python", tree_sitter_python::LANGUAGE.into()),
        "java" => ("java", tree_sitter_java::LANGUAGE.into()),
        "rs" => ("rust", tree_sitter_rust::LANGUAGE.into()),
        "c" | "h" => ("c", tree_sitter_c::LANGUAGE.into()),
        "js" | "mjs" | "cjs" | "jsx" => ("javascript", tree_sitter_javascript::LANGUAGE.into()),
        _ => return None,
    })
}

/// Parses `source` as the language of `path`; `None` when the language is not supported.
pub fn check(path: &Path, source: &str) -> Option<Report> {
    let (language, grammar) = language_for(path)?;
    let mut parser = Parser::new();
    parser.set_language(&grammar).ok()?;
    let tree = parser.parse(source, None)?;
    let mut findings = Vec::new();
    let mut total = 0u32;
    collect(tree.root_node(), source, &mut findings, &mut total);
    Some(Report {
        language,
        findings,
        total,
    })
}

fn collect(node: Node<'_>, source: &str, out: &mut Vec<Finding>, total: &mut u32) {
    if !node.has_error() {
        return;
    }
    if node.is_missing() || node.is_error() {
        *total += 1;
        if out.len() < MAX_FINDINGS {
            let pos = node.start_position();
            let message = if node.is_missing() {
                format!("missing `{}`", node.kind())
            } else {
                let text = source.get(node.start_byte()..node.end_byte()).unwrap_or("");
                let first: String = text
                    .lines()
                    .next()
                    .unwrap_or("")
                    .trim()
                    .chars()
                    .take(40)
                    .collect();
                if first.is_empty() {
                    "syntax error".to_string()
                } else {
                    format!("syntax error at `{first}`")
                }
            };
            out.push(Finding {
                line: pos.row + 1,
                column: pos.column + 1,
                message,
            });
        }
        // An error node's children are the tokens it swallowed; one report is enough.
        if node.is_error() {
            return;
        }
    }
    let mut cursor = node.walk();
    for child in node.children(&mut cursor) {
        collect(child, source, out, total);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_errors_in_each_language_and_passes_clean_code() {
        let cases = [
            (
                "a.py",
                "def f(x):\n    return x +\n",
                "def f(x):\n    return x + 1\n",
            ),
            (
                "A.java",
                "class A { void f() { int x = ; } }",
                "class A { void f() { int x = 1; } }",
            ),
            (
                "a.rs",
                "fn main() { let x = ; }",
                "fn main() { let x = 1; }",
            ),
            (
                "a.c",
                "int main(void) { return 0 }",
                "int main(void) { return 0; }",
            ),
            (
                "a.js",
                "function f( { return 1; }",
                "function f() { return 1; }",
            ),
        ];
        for (name, bad, good) in cases {
            let r = check(Path::new(name), bad).unwrap();
            assert!(
                r.total > 0 && !r.findings.is_empty(),
                "{name}: no error found in {bad:?}"
            );
            assert!(r.findings[0].line >= 1 && r.findings[0].column >= 1);
            let r = check(Path::new(name), good).unwrap();
            assert_eq!(r.total, 0, "{name}: false positive {:?}", r.findings);
        }
        assert!(check(Path::new("notes.txt"), "(((").is_none());
    }

    #[test]
    fn reports_at_most_twenty_but_counts_all() {
        let src: String = (0..30).map(|i| format!("def f{i}(:\n    pass\n")).collect();
        let r = check(Path::new("many.py"), &src).unwrap();
        assert_eq!(r.findings.len(), MAX_FINDINGS);
        assert!(r.total as usize > MAX_FINDINGS, "total {}", r.total);
        assert_eq!(r.findings[0].line, 1);
    }
}
