//! Reading JSON Lines files that another process may still have been writing.

use serde::de::DeserializeOwned;
use std::path::{Path, PathBuf};

#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum JsonlError {
    #[error("cannot read {path}: {source}")]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("{path}:{line}: {message}")]
    Line {
        path: PathBuf,
        line: usize,
        message: String,
    },
}

/// Parsed records plus whether the last line was cut off.
#[derive(Debug)]
pub struct JsonlRead<T> {
    pub records: Vec<T>,
    /// A last line without a trailing newline that does not parse: the writer was
    /// interrupted mid-line. It is skipped, not an error, so `--resume` can go on.
    pub truncated_tail: bool,
}

/// Reads every line of `path` as `T`. A malformed line in the middle is an error naming
/// the line; a malformed *last* line with no newline is treated as a torn write.
/// A missing file reads as empty.
pub fn read_jsonl<T: DeserializeOwned>(path: &Path) -> Result<JsonlRead<T>, JsonlError> {
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => String::new(),
        Err(source) => {
            return Err(JsonlError::Io {
                path: path.to_owned(),
                source,
            });
        }
    };
    parse_jsonl(&text, path)
}

pub fn parse_jsonl<T: DeserializeOwned>(
    text: &str,
    path: &Path,
) -> Result<JsonlRead<T>, JsonlError> {
    let ends_with_newline = text.ends_with('\n');
    let lines: Vec<&str> = text.lines().collect();
    let mut records = Vec::with_capacity(lines.len());
    let mut truncated_tail = false;
    for (i, line) in lines.iter().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        match serde_json::from_str::<T>(line) {
            Ok(r) => records.push(r),
            Err(e) => {
                let is_last = i + 1 == lines.len();
                if is_last && !ends_with_newline {
                    truncated_tail = true;
                } else {
                    return Err(JsonlError::Line {
                        path: path.to_owned(),
                        line: i + 1,
                        message: e.to_string(),
                    });
                }
            }
        }
    }
    Ok(JsonlRead {
        records,
        truncated_tail,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn torn_last_line_is_skipped_but_a_bad_middle_line_is_an_error() {
        let p = Path::new("results.jsonl");
        let ok: JsonlRead<serde_json::Value> = parse_jsonl("{\"a\":1}\n{\"a\":", p).unwrap();
        assert_eq!(ok.records.len(), 1);
        assert!(ok.truncated_tail);
        let err =
            parse_jsonl::<serde_json::Value>("{\"a\":1}\nnot json\n{\"a\":2}\n", p).unwrap_err();
        assert!(err.to_string().starts_with("results.jsonl:2:"), "{err}");
    }
}
