//! File names as git prints them. A name is raw bytes (it may hold a newline, a quote, or
//! bytes that are not UTF-8); printed as-is it could forge a header line of the patch,
//! and converted lossily two names could become one. Git's rule: a name with a control
//! character, `"`, `\` or a byte >= 0x80 is printed in double quotes with C escapes.

/// `prefix` + `name` (e.g. `a/` + `src/x.py`), quoted as git quotes it when needed.
pub(crate) fn git_path(prefix: &str, name: &[u8]) -> String {
    let needs = name
        .iter()
        .any(|&b| b < 0x20 || b == 0x7f || b == b'"' || b == b'\\' || b >= 0x80);
    if !needs {
        // Only printable ASCII is left, so this is exact.
        return format!("{prefix}{}", String::from_utf8_lossy(name));
    }
    let mut out = String::with_capacity(name.len() + prefix.len() + 2);
    out.push('"');
    out.push_str(prefix);
    for &b in name {
        match b {
            b'\x07' => out.push_str("\\a"),
            b'\x08' => out.push_str("\\b"),
            b'\t' => out.push_str("\\t"),
            b'\n' => out.push_str("\\n"),
            b'\x0b' => out.push_str("\\v"),
            b'\x0c' => out.push_str("\\f"),
            b'\r' => out.push_str("\\r"),
            b'"' => out.push_str("\\\""),
            b'\\' => out.push_str("\\\\"),
            0x20..=0x7e => out.push(b as char),
            _ => out.push_str(&format!("\\{b:03o}")),
        }
    }
    out.push('"');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_quoted_like_git_and_distinct_names_stay_distinct() {
        assert_eq!(git_path("a/", b"src/app.py"), "a/src/app.py");
        assert_eq!(git_path("a/", b"my file.txt"), "a/my file.txt");
        assert_eq!(git_path("b/", b"x\n+++ b/evil"), "\"b/x\\n+++ b/evil\"");
        assert_eq!(git_path("a/", b"q\"\\"), "\"a/q\\\"\\\\\"");
        // Not UTF-8, and the UTF-8 of U+FFFD: lossy conversion would make these one name.
        assert_eq!(git_path("a/", b"\xff"), "\"a/\\377\"");
        assert_eq!(
            git_path("a/", "\u{fffd}".as_bytes()),
            "\"a/\\357\\277\\275\""
        );
        assert_eq!(git_path("a/", "é".as_bytes()), "\"a/\\303\\251\"");
    }
}
