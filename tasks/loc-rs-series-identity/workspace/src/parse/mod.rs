//! The text format, one sample a line:
//!
//! ```text
//! # comment
//! http_requests_total{job="api",instance="web-1"} 1027 1772445600000
//! up 1 1772445600000
//! ```
//!
//! the metric name, optional labels in braces, the value and the time in milliseconds
//! since the Unix epoch. Blank lines and lines starting with `#` are skipped.

pub mod escape;
pub mod lexer;
pub mod line;
pub mod number;

pub use line::{parse_line, ParsedSample};

use crate::error::{Error, Result};

/// Every sample of `text`, in order; the first bad line is an error naming it.
pub fn parse_text(text: &str) -> Result<Vec<ParsedSample>> {
    let mut out = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        match parse_line(line) {
            Ok(s) => out.push(s),
            Err(msg) => return Err(Error::Parse { line: i + 1, msg }),
        }
    }
    Ok(out)
}
