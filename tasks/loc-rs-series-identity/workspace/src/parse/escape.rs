//! Label values are quoted; inside, `\\`, `\"` and `\n` stand for a backslash, a quote and a
//! line feed.

pub fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '"' => out.push_str("\\\""),
            '\n' => out.push_str("\\n"),
            c => out.push(c),
        }
    }
    out
}

/// The value between the quotes, unescaped; an unknown escape is an error.
pub fn unescape(s: &str) -> Result<String, String> {
    let mut out = String::with_capacity(s.len());
    let mut chars = s.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('\\') => out.push('\\'),
            Some('"') => out.push('"'),
            Some('n') => out.push('\n'),
            Some(o) => return Err(format!("unknown escape \\{}", o)),
            None => return Err("escape at end of value".to_string()),
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip() {
        for s in ["", "plain", "a\"b", "back\\slash", "two\nlines"] {
            assert_eq!(unescape(&escape(s)).unwrap(), s);
        }
        assert!(unescape("\\t").is_err());
    }
}
