//! The append-only log: one line per write command an engine ran, in the command language
//! itself, so that running the lines again in order rebuilds the keyspace.

use crate::protocol::{quote, tokenize};

/// The log line of a command.
pub fn encode(args: &[String]) -> String {
    args.iter().map(|a| quote(a)).collect::<Vec<_>>().join(" ")
}

/// The command of a log line; `None` for a blank line or a `#` comment.
pub fn decode(line: &str) -> Option<crate::error::Result<Vec<String>>> {
    let trimmed = line.trim();
    if trimmed.is_empty() || trimmed.starts_with('#') {
        return None;
    }
    Some(tokenize(trimmed))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_round_trip() {
        let args: Vec<String> = ["SET", "k", "two words", ""]
            .iter()
            .map(|s| s.to_string())
            .collect();
        let line = encode(&args);
        assert_eq!(decode(&line).unwrap().unwrap(), args);
        assert!(decode("  ").is_none());
        assert!(decode("# written by emberkv 0.4").is_none());
    }
}
