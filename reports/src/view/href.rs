//! Links from DIR/index.html to the pages beside it. Every link is relative (the folder can
//! be moved or published as it is) and every path segment is percent-encoded: a folder name
//! comes from whoever wrote the folder, and `#`, `?`, `:` or `%` in it must stay part of the
//! path, never become a fragment, a query or a scheme such as `javascript:`.

use std::path::Path;

/// `rel` (a folder relative to DIR) joined with `file`, as a relative URL.
pub fn to_file(rel: &Path, file: &str) -> String {
    let mut out = String::new();
    for part in rel.iter() {
        out.push_str(&encode(&part.to_string_lossy()));
        out.push('/');
    }
    out.push_str(&encode(file));
    out
}

/// Percent-encodes everything but RFC 3986's unreserved characters.
fn encode(segment: &str) -> String {
    let mut out = String::with_capacity(segment.len());
    for b in segment.bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'~') {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// The name of the compare page the viewer proposes for a pair, in the candidate's folder:
/// `compare-<baseline folder, relative to DIR, flattened>.html` (`/` as `+`, a plain word
/// in a shell and in a URL). One name per baseline, so the viewer finds the page again.
pub fn compare_file(baseline_rel: &str) -> String {
    let flat: String = baseline_rel
        .chars()
        .map(|c| match c {
            '/' => '+',
            c if c.is_ascii_alphanumeric() || matches!(c, '-' | '.' | '_') => c,
            _ => '_',
        })
        .collect();
    format!(
        "compare-{}.html",
        if flat.is_empty() { "run" } else { &flat }
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn segments_are_encoded_so_a_name_cannot_leave_the_path() {
        assert_eq!(
            to_file(Path::new("sweep-1/model a"), "report.html"),
            "sweep-1/model%20a/report.html"
        );
        assert_eq!(to_file(Path::new(""), "report.html"), "report.html");
        assert_eq!(
            to_file(Path::new("javascript:alert(1)#x?y"), "report.html"),
            "javascript%3Aalert%281%29%23x%3Fy/report.html"
        );
        assert_eq!(to_file(Path::new("%41"), "f"), "%2541/f");
    }

    #[test]
    fn compare_files_are_named_by_the_baseline_folder() {
        assert_eq!(compare_file("sweep-1/m1"), "compare-sweep-1+m1.html");
        assert_eq!(compare_file("a b/<x>"), "compare-a_b+_x_.html");
        assert_eq!(compare_file(""), "compare-run.html");
    }
}
