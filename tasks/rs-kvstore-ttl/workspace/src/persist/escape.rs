//! Tokens of the snapshot format: any string written without blanks or line breaks.
//! `%` followed by two hex digits stands for that byte; `~` alone is the empty string.

pub fn encode(s: &str) -> String {
    if s.is_empty() {
        return "~".into();
    }
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            ' ' | '\t' | '\n' | '\r' | '%' | '~' => out.push_str(&format!("%{:02X}", c as u32)),
            c => out.push(c),
        }
    }
    out
}

pub fn decode(token: &str) -> Option<String> {
    if token == "~" {
        return Some(String::new());
    }
    let mut bytes = Vec::with_capacity(token.len());
    let raw = token.as_bytes();
    let mut i = 0;
    while i < raw.len() {
        if raw[i] == b'%' {
            let hex = token.get(i + 1..i + 3)?;
            bytes.push(u8::from_str_radix(hex, 16).ok()?);
            i += 3;
        } else if raw[i] == b'~' {
            return None;
        } else {
            bytes.push(raw[i]);
            i += 1;
        }
    }
    String::from_utf8(bytes).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip() {
        for s in [
            "",
            "plain",
            "two words",
            "100%",
            "~",
            "tab\there",
            "línea\nnueva",
            "日本",
        ] {
            let e = encode(s);
            assert!(!e.contains(' ') && !e.contains('\n'), "{:?}", e);
            assert_eq!(decode(&e).as_deref(), Some(s));
        }
        assert_eq!(decode("%4"), None);
        assert_eq!(decode("a~b"), None);
    }
}
