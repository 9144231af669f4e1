//! Splits a command line into arguments, like redis-cli: words are separated by blanks;
//! a word in double quotes may hold blanks and the escapes `\"`, `\\`, `\n`, `\r`, `\t`;
//! a word in single quotes is taken as written (only `\'` is an escape).

use crate::error::{Error, Result};

pub fn tokenize(line: &str) -> Result<Vec<String>> {
    let mut out = Vec::new();
    let mut chars = line.chars().peekable();
    loop {
        while matches!(chars.peek(), Some(c) if c.is_whitespace()) {
            chars.next();
        }
        let first = match chars.peek() {
            None => return Ok(out),
            Some(&c) => c,
        };
        let mut word = String::new();
        if first == '"' {
            chars.next();
            loop {
                match chars.next() {
                    None => return Err(Error::Protocol("unbalanced quotes in request".into())),
                    Some('"') => break,
                    Some('\\') => match chars.next() {
                        Some('n') => word.push('\n'),
                        Some('r') => word.push('\r'),
                        Some('t') => word.push('\t'),
                        Some(c) => word.push(c),
                        None => return Err(Error::Protocol("unbalanced quotes in request".into())),
                    },
                    Some(c) => word.push(c),
                }
            }
            end_of_quoted(&mut chars)?;
        } else if first == '\'' {
            chars.next();
            loop {
                match chars.next() {
                    None => return Err(Error::Protocol("unbalanced quotes in request".into())),
                    Some('\'') => break,
                    Some('\\') if chars.peek() == Some(&'\'') => {
                        chars.next();
                        word.push('\'');
                    }
                    Some(c) => word.push(c),
                }
            }
            end_of_quoted(&mut chars)?;
        } else {
            while let Some(&c) = chars.peek() {
                if c.is_whitespace() {
                    break;
                }
                word.push(c);
                chars.next();
            }
        }
        out.push(word);
    }
}

/// A closing quote must be followed by a blank or the end of the line.
fn end_of_quoted<I: Iterator<Item = char>>(chars: &mut std::iter::Peekable<I>) -> Result<()> {
    match chars.peek() {
        None => Ok(()),
        Some(c) if c.is_whitespace() => Ok(()),
        Some(_) => Err(Error::Protocol(
            "closing quote must be followed by a space".into(),
        )),
    }
}

/// The argument written so that [`tokenize`] reads it back unchanged.
pub fn quote(arg: &str) -> String {
    let plain = !arg.is_empty()
        && arg
            .chars()
            .all(|c| !c.is_whitespace() && c != '"' && c != '\'' && c != '\\');
    if plain {
        return arg.to_string();
    }
    let mut s = String::with_capacity(arg.len() + 2);
    s.push('"');
    for c in arg.chars() {
        match c {
            '"' => s.push_str("\\\""),
            '\\' => s.push_str("\\\\"),
            '\n' => s.push_str("\\n"),
            '\r' => s.push_str("\\r"),
            '\t' => s.push_str("\\t"),
            c => s.push(c),
        }
    }
    s.push('"');
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_and_quotes() {
        assert_eq!(
            tokenize("SET  k \"a b\\n\" 'it\\'s'").unwrap(),
            vec!["SET", "k", "a b\n", "it's"]
        );
        assert_eq!(tokenize("   ").unwrap(), Vec::<String>::new());
        assert!(tokenize("SET k \"open").is_err());
        assert!(tokenize("SET k \"a\"b").is_err());
    }

    #[test]
    fn quote_round_trips() {
        for s in [
            "plain",
            "",
            "two words",
            "q\"uote",
            "back\\slash",
            "line\nbreak",
            "it's",
        ] {
            let line = format!("ECHO {}", quote(s));
            assert_eq!(
                tokenize(&line).unwrap(),
                vec!["ECHO".to_string(), s.to_string()]
            );
        }
    }
}
