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
/// A missing file reads as empty. The file is read as a stream (never whole into memory);
/// only the records are kept.
pub fn read_jsonl<T: DeserializeOwned>(path: &Path) -> Result<JsonlRead<T>, JsonlError> {
    let mut records = Vec::new();
    let mut bad: Option<JsonlError> = None;
    let stats = for_each_line(path, usize::MAX, |n, line, torn| {
        if bad.is_some() || line.trim().is_empty() {
            return;
        }
        match serde_json::from_str::<T>(line) {
            Ok(r) => records.push(r),
            Err(_) if torn => {}
            Err(e) => {
                bad = Some(JsonlError::Line {
                    path: path.to_owned(),
                    line: n,
                    message: e.to_string(),
                });
            }
        }
    })?;
    if let Some(e) = bad {
        return Err(e);
    }
    Ok(JsonlRead {
        records,
        truncated_tail: stats.torn_tail,
    })
}

/// What [`for_each_line`] saw besides the lines it passed on.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct LineStats {
    pub lines: usize,
    /// Lines longer than the cap, skipped without being held.
    pub too_long: usize,
    /// The last line had no newline and did not parse (for the caller to decide; here:
    /// the last line had no newline).
    pub torn_tail: bool,
}

/// Streams the lines of `path` (1-based number, text, and whether it is a last line
/// without a newline, i.e. possibly torn) to `f`, holding one line at a time. A line
/// longer than `max_line` bytes is skipped (counted in [`LineStats::too_long`]) without
/// ever being held whole. A missing file has no lines; invalid UTF-8 is replaced.
pub fn for_each_line(
    path: &Path,
    max_line: usize,
    mut f: impl FnMut(usize, &str, bool),
) -> Result<LineStats, JsonlError> {
    use std::io::BufRead;
    let io = |source| JsonlError::Io {
        path: path.to_owned(),
        source,
    };
    let file = match std::fs::File::open(path) {
        Ok(f) => f,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(LineStats::default()),
        Err(e) => return Err(io(e)),
    };
    let mut reader = std::io::BufReader::with_capacity(1 << 16, file);
    let mut stats = LineStats::default();
    let mut line: Vec<u8> = Vec::new();
    let mut skipping = false;
    loop {
        let buf = reader.fill_buf().map_err(io)?;
        if buf.is_empty() {
            // End of file: a last line without a newline.
            if !line.is_empty() || skipping {
                stats.lines += 1;
                if skipping {
                    stats.too_long += 1;
                } else {
                    stats.torn_tail = true;
                    f(stats.lines, &String::from_utf8_lossy(&line), true);
                }
            }
            return Ok(stats);
        }
        let (piece, ends) = match memchr_newline(buf) {
            Some(i) => (&buf[..i], Some(i + 1)),
            None => (buf, None),
        };
        if !skipping {
            if line.len() + piece.len() > max_line {
                skipping = true;
                line = Vec::new();
            } else {
                line.extend_from_slice(piece);
            }
        }
        let used = ends.unwrap_or(buf.len());
        reader.consume(used);
        if ends.is_some() {
            stats.lines += 1;
            if skipping {
                stats.too_long += 1;
            } else {
                f(stats.lines, &String::from_utf8_lossy(&line), false);
            }
            line.clear();
            skipping = false;
        }
    }
}

fn memchr_newline(buf: &[u8]) -> Option<usize> {
    buf.iter().position(|b| *b == b'\n')
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

    #[test]
    fn the_streaming_reader_keeps_the_same_rules_and_skips_overlong_lines() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("x.jsonl");
        std::fs::write(&p, "{\"a\":1}\n{\"a\":").unwrap();
        let r: JsonlRead<serde_json::Value> = read_jsonl(&p).unwrap();
        assert_eq!(r.records.len(), 1);
        assert!(r.truncated_tail);
        std::fs::write(&p, "{\"a\":1}\nnot json\n{\"a\":2}\n").unwrap();
        let e = read_jsonl::<serde_json::Value>(&p).unwrap_err();
        assert!(
            e.to_string()
                .ends_with(":2: expected ident at line 1 column 2"),
            "{e}"
        );
        assert_eq!(
            read_jsonl::<serde_json::Value>(&dir.path().join("none"))
                .unwrap()
                .records
                .len(),
            0
        );

        let long = "x".repeat(300_000);
        std::fs::write(&p, format!("short\n{long}\nlast\n{long}")).unwrap();
        let mut seen = Vec::new();
        let stats =
            for_each_line(&p, 1000, |n, l, torn| seen.push((n, l.to_owned(), torn))).unwrap();
        assert_eq!(
            seen,
            vec![(1, "short".into(), false), (3, "last".into(), false)]
        );
        assert_eq!(stats.too_long, 2);
        assert_eq!(stats.lines, 4);
    }
}
