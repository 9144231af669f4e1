//! Glob-style patterns for `KEYS`: `*` any run, `?` one character, `[abc]`, `[a-z]`,
//! `[^a]` classes, and `\` to take the next character literally.

pub fn matches(pattern: &str, text: &str) -> bool {
    let p: Vec<char> = pattern.chars().collect();
    let t: Vec<char> = text.chars().collect();
    match_from(&p, &t)
}

fn match_from(p: &[char], t: &[char]) -> bool {
    if p.is_empty() {
        return t.is_empty();
    }
    match p[0] {
        '*' => {
            let rest = &p[1..];
            (0..=t.len()).any(|i| match_from(rest, &t[i..]))
        }
        '?' => !t.is_empty() && match_from(&p[1..], &t[1..]),
        '[' => {
            if t.is_empty() {
                return false;
            }
            match class(&p[1..], t[0]) {
                Some((true, used)) => match_from(&p[1 + used..], &t[1..]),
                _ => false,
            }
        }
        '\\' if p.len() > 1 => !t.is_empty() && t[0] == p[1] && match_from(&p[2..], &t[1..]),
        c => !t.is_empty() && t[0] == c && match_from(&p[1..], &t[1..]),
    }
}

/// Whether `c` is in the class that starts at `p` (after `[`), and how many pattern
/// characters the class used including its `]`. `None` when the class is not closed.
fn class(p: &[char], c: char) -> Option<(bool, usize)> {
    let mut i = 0;
    let negate = p.first() == Some(&'^');
    if negate {
        i += 1;
    }
    let mut found = false;
    let mut first = true;
    while i < p.len() {
        if p[i] == ']' && !first {
            return Some((found != negate, i + 1));
        }
        first = false;
        if p[i] == '\\' && i + 1 < p.len() {
            found |= p[i + 1] == c;
            i += 2;
        } else if i + 2 < p.len() && p[i + 1] == '-' && p[i + 2] != ']' {
            let (lo, hi) = if p[i] <= p[i + 2] {
                (p[i], p[i + 2])
            } else {
                (p[i + 2], p[i])
            };
            found |= lo <= c && c <= hi;
            i += 3;
        } else {
            found |= p[i] == c;
            i += 1;
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::matches;

    #[test]
    fn patterns() {
        assert!(matches("*", ""));
        assert!(matches("user:*", "user:42"));
        assert!(!matches("user:*", "users"));
        assert!(matches("h?llo", "hello"));
        assert!(matches("h[ae]llo", "hallo"));
        assert!(!matches("h[^e]llo", "hello"));
        assert!(matches("h[a-c]llo", "hbllo"));
        assert!(matches("a\\*b", "a*b"));
        assert!(!matches("a\\*b", "axb"));
        assert!(!matches("[abc", "a"));
    }
}
