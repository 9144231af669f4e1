//! The append-only log: one line per write command an engine ran, in the command language
//! itself, so that running the lines again in order rebuilds the keyspace.
//!
//! Since 0.5 a line starts with `@<ms>`, the engine's time when the command ran
//! (milliseconds since the Unix epoch): replay runs each command at that time, so relative
//! deadlines (`EXPIRE k 10`) and keys that expired between two commands come out as they
//! were. Lines without it (logs of earlier versions) run at the replaying engine's time.

use crate::error::{Error, Result};
use crate::protocol::{quote, tokenize};

/// The log line of a command run at `at`.
pub fn encode(at: u64, args: &[String]) -> String {
    let mut line = format!("@{}", at);
    for a in args {
        line.push(' ');
        line.push_str(&quote(a));
    }
    line
}

/// The time (if the line has one) and the command of a log line; `None` for a blank line
/// or a `#` comment.
pub fn decode(line: &str) -> Option<Result<(Option<u64>, Vec<String>)>> {
    let trimmed = line.trim();
    if trimmed.is_empty() || trimmed.starts_with('#') {
        return None;
    }
    if let Some(rest) = trimmed.strip_prefix('@') {
        let (stamp, command) = rest.split_once(' ').unwrap_or((rest, ""));
        let at = match stamp.parse::<u64>() {
            Ok(at) => at,
            Err(_) => return Some(Err(Error::Protocol(format!("bad time '@{}'", stamp)))),
        };
        return Some(tokenize(command).map(|args| (Some(at), args)));
    }
    Some(tokenize(trimmed).map(|args| (None, args)))
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
        let line = encode(1_234, &args);
        assert_eq!(line, "@1234 SET k \"two words\" \"\"");
        assert_eq!(decode(&line).unwrap().unwrap(), (Some(1_234), args));
        assert!(decode("  ").is_none());
        assert!(decode("# written by emberkv 0.4").is_none());
        assert_eq!(
            decode("SET a 1").unwrap().unwrap(),
            (
                None,
                vec!["SET".to_string(), "a".to_string(), "1".to_string()]
            )
        );
        assert!(decode("@x SET a 1").unwrap().is_err());
    }
}
