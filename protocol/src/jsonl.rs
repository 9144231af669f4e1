//! Reading JSON Lines files that another process may still have been writing.
//!
//! One reader, three policies:
//! - [`read_jsonl`] / [`read_jsonl_with`]: strict. A malformed line in the middle is an
//!   error naming the line; a last line without a newline that is not JSON is a torn write
//!   and is skipped (so `--resume` can go on).
//! - [`read_jsonl_lenient`]: for advisory input (a trajectory shown to a judge): every line
//!   that does not parse is skipped and listed, never an error.
//! - [`for_each_line`] / [`for_each_line_in`]: the raw stream, for readers with their own
//!   rules (the harness's checks on what an agent left).
//!
//! Files are streamed one line at a time, never read whole: a transcript may be tens of MiB.

use serde::de::DeserializeOwned;
use std::io::BufRead;
use std::path::{Path, PathBuf};

/// Why a JSON Lines file could not be read.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum JsonlError {
    /// The file could not be opened or read.
    #[error("cannot read {path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// What the file system said.
        source: std::io::Error,
    },
    /// A line in the middle (or a whole last line) did not parse.
    #[error("{path}:{line}: {source}")]
    Line {
        /// The file.
        path: PathBuf,
        /// The line's 1-based number.
        line: usize,
        /// Why the line's parser refused it.
        #[source]
        source: LineError,
    },
}

/// Why a parser refused one line: whatever error type the parser returns.
pub type LineError = Box<dyn std::error::Error + Send + Sync + 'static>;

/// Parsed records plus whether the last line was cut off.
#[derive(Debug)]
pub struct JsonlRead<T> {
    /// The records of the lines that parsed, in file order.
    pub records: Vec<T>,
    /// A last line without a trailing newline that does not parse: the writer was
    /// interrupted mid-line. It is skipped, not an error, so `--resume` can go on.
    pub truncated_tail: bool,
}

/// Reads every line of `path` as `T` (strict; see the module doc). A missing file reads as
/// empty.
pub fn read_jsonl<T: DeserializeOwned>(path: &Path) -> Result<JsonlRead<T>, JsonlError> {
    read_jsonl_with(path, usize::MAX, |_, line| serde_json::from_str::<T>(line))
}

/// [`read_jsonl`] with a parser of its own (a version check, a partial view, checks
/// across lines), given each line's 1-based number and text, and a line cap: a line
/// longer than `max_line` bytes is skipped without being held.
pub fn read_jsonl_with<T, E: Into<LineError>>(
    path: &Path,
    max_line: usize,
    parse: impl FnMut(usize, &str) -> Result<T, E>,
) -> Result<JsonlRead<T>, JsonlError> {
    let file = match open(path)? {
        Some(f) => f,
        None => {
            return Ok(JsonlRead {
                records: Vec::new(),
                truncated_tail: false,
            });
        }
    };
    strict(file, path, max_line, parse)
}

/// Parses JSON Lines already in memory under the strict rules; `path` names it in errors.
pub fn parse_jsonl<T: DeserializeOwned>(
    text: &str,
    path: &Path,
) -> Result<JsonlRead<T>, JsonlError> {
    strict(text.as_bytes(), path, usize::MAX, |_, line| {
        serde_json::from_str::<T>(line)
    })
}

fn strict<T, E: Into<LineError>>(
    reader: impl BufRead,
    path: &Path,
    max_line: usize,
    mut parse: impl FnMut(usize, &str) -> Result<T, E>,
) -> Result<JsonlRead<T>, JsonlError> {
    let mut records = Vec::new();
    let mut bad: Option<JsonlError> = None;
    let mut truncated_tail = false;
    for_each_line_in(reader, path, max_line, |n, line, last_unterminated| {
        if bad.is_some() || line.trim().is_empty() {
            return;
        }
        match parse(n, line) {
            Ok(r) => records.push(r),
            // Torn only if it is not JSON at all: a whole object with a bad version on the
            // last line is still an error.
            Err(_) if last_unterminated && !is_json(line) => truncated_tail = true,
            Err(e) => {
                bad = Some(JsonlError::Line {
                    path: path.to_owned(),
                    line: n,
                    source: e.into(),
                });
            }
        }
    })?;
    match bad {
        Some(e) => Err(e),
        None => Ok(JsonlRead {
            records,
            truncated_tail,
        }),
    }
}

fn is_json(line: &str) -> bool {
    serde_json::from_str::<serde::de::IgnoredAny>(line).is_ok()
}

/// What [`read_jsonl_lenient`] kept and what it skipped.
#[derive(Debug)]
pub struct LenientRead<T> {
    /// The records of the lines that parsed, in file order.
    pub records: Vec<T>,
    /// One message per skipped line (`path:line: why`), or the reason the file could not
    /// be read at all.
    pub skipped: Vec<String>,
}

/// Reads what parses and skips the rest: for input that is advisory, where a newer event
/// kind or a torn write must not fail the reader. Never an error; a missing file is empty.
pub fn read_jsonl_lenient<T, E: std::fmt::Display>(
    path: &Path,
    max_line: usize,
    mut parse: impl FnMut(&str) -> Result<T, E>,
) -> LenientRead<T> {
    let mut out = LenientRead {
        records: Vec::new(),
        skipped: Vec::new(),
    };
    let file = match open(path) {
        Ok(Some(f)) => f,
        Ok(None) => return out,
        Err(e) => {
            out.skipped.push(e.to_string());
            return out;
        }
    };
    let stats = for_each_line_in(file, path, max_line, |n, line, _| {
        if line.trim().is_empty() {
            return;
        }
        match parse(line) {
            Ok(r) => out.records.push(r),
            Err(e) => out.skipped.push(format!("{}:{n}: {e}", path.display())),
        }
    });
    match stats {
        Ok(s) if s.too_long > 0 => out.skipped.push(format!(
            "{}: {} line(s) longer than {max_line} bytes",
            path.display(),
            s.too_long
        )),
        Ok(_) => {}
        Err(e) => out.skipped.push(e.to_string()),
    }
    out
}

/// What [`for_each_line`] saw besides the lines it passed on.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct LineStats {
    /// Lines seen, including skipped ones.
    pub lines: usize,
    /// Lines longer than the cap, skipped without being held.
    pub too_long: usize,
    /// The last line had no newline (for the caller to decide whether it is torn).
    pub torn_tail: bool,
}

/// Streams the lines of `path` (1-based number, text, and whether it is a last line
/// without a newline, i.e. possibly torn) to `f`, holding one line at a time. A line
/// longer than `max_line` bytes is skipped (counted in [`LineStats::too_long`]) without
/// ever being held whole. A missing file has no lines; invalid UTF-8 is replaced.
pub fn for_each_line(
    path: &Path,
    max_line: usize,
    f: impl FnMut(usize, &str, bool),
) -> Result<LineStats, JsonlError> {
    match open(path)? {
        Some(file) => for_each_line_in(file, path, max_line, f),
        None => Ok(LineStats::default()),
    }
}

fn open(path: &Path) -> Result<Option<std::io::BufReader<std::fs::File>>, JsonlError> {
    match std::fs::File::open(path) {
        Ok(f) => Ok(Some(std::io::BufReader::with_capacity(1 << 16, f))),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(source) => Err(JsonlError::Io {
            path: path.to_owned(),
            source,
        }),
    }
}

/// [`for_each_line`] over any reader (bytes already in memory, a capped read); `path`
/// names the source in errors.
pub fn for_each_line_in(
    mut reader: impl BufRead,
    path: &Path,
    max_line: usize,
    mut f: impl FnMut(usize, &str, bool),
) -> Result<LineStats, JsonlError> {
    let io = |source| JsonlError::Io {
        path: path.to_owned(),
        source,
    };
    let mut stats = LineStats::default();
    let mut line: Vec<u8> = Vec::new();
    let mut skipping = false;
    loop {
        let buf = reader.fill_buf().map_err(io)?;
        if buf.is_empty() {
            // End of input: a last line without a newline.
            if !line.is_empty() || skipping {
                stats.lines += 1;
                if skipping {
                    stats.too_long += 1;
                } else {
                    stats.torn_tail = true;
                    f(stats.lines, &lossy(&line), true);
                }
            }
            return Ok(stats);
        }
        let (piece, ends) = match memchr::memchr(b'\n', buf) {
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
                f(stats.lines, &lossy(&line), false);
            }
            line.clear();
            skipping = false;
        }
    }
}

/// The line as text, invalid UTF-8 replaced. `str::from_utf8` checks a valid line (the
/// usual case) many times faster than `from_utf8_lossy`'s chunk scan, which is kept for the
/// rare line that needs replacing: a report reads hundreds of megabytes of transcripts.
fn lossy(line: &[u8]) -> std::borrow::Cow<'_, str> {
    match std::str::from_utf8(line) {
        Ok(s) => std::borrow::Cow::Borrowed(s),
        Err(_) => String::from_utf8_lossy(line),
    }
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
    fn a_whole_last_line_that_fails_its_parser_is_an_error_not_a_torn_write() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("x.jsonl");
        std::fs::write(&p, "{\"v\":1}\n{\"v\":9}").unwrap();
        let parse = |_, l: &str| {
            let v: serde_json::Value = serde_json::from_str(l).map_err(|e| e.to_string())?;
            if v["v"] == 1 {
                Ok(v)
            } else {
                Err("version 9".to_owned())
            }
        };
        let e = read_jsonl_with(&p, usize::MAX, parse).unwrap_err();
        assert!(e.to_string().ends_with(":2: version 9"), "{e}");
        std::fs::write(&p, "{\"v\":1}\n{\"v\":").unwrap();
        let r = read_jsonl_with(&p, usize::MAX, parse).unwrap();
        assert_eq!((r.records.len(), r.truncated_tail), (1, true));
    }

    #[test]
    fn the_lenient_reader_keeps_what_parses_and_lists_the_rest() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("x.jsonl");
        let long = "x".repeat(2000);
        std::fs::write(
            &p,
            format!("{{\"a\":1}}\nnot json\n{long}\n{{\"a\":2}}\n{{\"a\""),
        )
        .unwrap();
        let r = read_jsonl_lenient(&p, 1000, |l| {
            serde_json::from_str::<serde_json::Value>(l).map_err(|e| e.to_string())
        });
        assert_eq!(r.records.len(), 2);
        assert_eq!(r.skipped.len(), 3, "{:?}", r.skipped);
        assert!(r.skipped[0].contains("x.jsonl:2:"), "{:?}", r.skipped);
        assert!(r.skipped[2].contains("1 line(s) longer than 1000"));
        let none = read_jsonl_lenient(&dir.path().join("none"), 10, |_| {
            Ok::<(), std::convert::Infallible>(())
        });
        assert!(none.records.is_empty() && none.skipped.is_empty());
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
