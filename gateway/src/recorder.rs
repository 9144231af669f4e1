//! Writing `transcript.jsonl`: one line per exchange, written with one unbuffered `write`
//! as soon as the exchange's answer is on its way (the gateway's shutdown waits for it), so
//! a crash loses at most the exchanges in flight, within two caps:
//! - a line longer than the line cap has its request (then, if need be, its response)
//!   replaced by an [`Omitted`] summary with the original size and SHA-256;
//! - past the file cap, lines are written without request (and without a response over
//!   64 KiB), so usage stays on record, and refused requests are no longer written; past
//!   the cap plus a reserve for those short lines, nothing more is written. Lines left out
//!   are counted ([`Recorder::dropped_lines`]); the in-memory metrics count every line.
//!
//! A line is serialized once, into a buffer that stops at the line cap, and written with
//! one `write` just after its exchange ends (it used to be serialized twice: once to measure it,
//! once into the file through a buffered writer). The buffer holds at most the line cap, or
//! a line whose request and response were summed up; while it is filled, the exchange still
//! holds its request's share of the parsed-request pool, which counts the body's bytes
//! (freed once parsed). Its room is kept between lines up to [`KEEP_BUFFER`].

use crate::error::GatewayError;
use crate::metrics::TranscriptMetrics;
use nab_protocol::{Omitted, TranscriptLine};
use serde_json::Value;
use sha2::{Digest, Sha256};
use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// The caps on `transcript.jsonl`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TranscriptCaps {
    /// The longest line written.
    pub line_bytes: u64,
    /// Past this, lines are written without their request.
    pub file_bytes: u64,
}

impl Default for TranscriptCaps {
    fn default() -> Self {
        TranscriptCaps {
            line_bytes: 4 << 20,
            file_bytes: 64 << 20,
        }
    }
}

/// Room past the file cap, as a share of it, for the short lines (no request) that keep
/// usage on record: 4 MiB, some 7,000 calls, at the default cap.
const STUB_RESERVE_SHARE: u64 = 16;
/// The largest response kept in a line past the file cap.
const STUB_RESPONSE: u64 = 64 << 10;
/// The most room the line buffer keeps between lines (a larger line's is given back).
pub const KEEP_BUFFER: usize = 1 << 20;

pub struct Recorder {
    path: PathBuf,
    caps: TranscriptCaps,
    inner: Mutex<Inner>,
}

struct Inner {
    file: File,
    /// The line being written, serialized once.
    line: Vec<u8>,
    written: u64,
    /// Lines not written at all, past the cap and its reserve.
    dropped: u64,
    metrics: TranscriptMetrics,
}

/// Counts (and optionally hashes) what is serialized into it.
struct Measure {
    bytes: u64,
    hash: Option<Sha256>,
}

impl Write for Measure {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.bytes += buf.len() as u64;
        if let Some(h) = &mut self.hash {
            h.update(buf);
        }
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// Collects what is serialized into it, up to `cap` bytes; past that it stops the
/// serializer with an error, so a line over the cap is never held whole.
struct Capped<'a> {
    buf: &'a mut Vec<u8>,
    cap: usize,
}

impl Write for Capped<'_> {
    #[inline]
    fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
        self.write_all(b).map(|()| b.len())
    }
    // The serializer writes in small pieces (a quote, a key): this is its hot path.
    #[inline]
    fn write_all(&mut self, b: &[u8]) -> std::io::Result<()> {
        if self.buf.len() + b.len() > self.cap {
            return Err(std::io::Error::other("over the line cap"));
        }
        self.buf.extend_from_slice(b);
        Ok(())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// `line` serialized into `buf` (cleared first) when it takes at most `cap` bytes.
fn serialize_within(line: &TranscriptLine, buf: &mut Vec<u8>, cap: u64) -> bool {
    buf.clear();
    let cap = usize::try_from(cap).unwrap_or(usize::MAX);
    serde_json::to_writer(&mut Capped { buf, cap }, line).is_ok()
}

fn measure<T: serde::Serialize>(v: &T) -> u64 {
    let mut m = Measure {
        bytes: 0,
        hash: None,
    };
    let _ = serde_json::to_writer(&mut m, v);
    m.bytes
}

/// The summary that stands for `v`, with its size and hash.
fn omit(v: &Value, reason: &str) -> Value {
    let mut m = Measure {
        bytes: 0,
        hash: Some(Sha256::new()),
    };
    let _ = serde_json::to_writer(&mut m, v);
    Omitted {
        reason: reason.into(),
        bytes: m.bytes,
        sha256: m.hash.map(|h| hex::encode(h.finalize())),
    }
    .to_value()
}

/// A line over the line cap: its request, then if need be its response, replaced by a
/// summary, and the line serialized into `buf` (whatever its size once both are summed up).
fn fit_line_cap(line: &mut TranscriptLine, buf: &mut Vec<u8>, within: u64) {
    if !is_omitted(&line.request) {
        line.request = omit(&line.request, "line_cap");
        if serialize_within(line, buf, within) {
            return;
        }
    }
    if let Some(r) = &line.response {
        line.response = Some(omit(r, "line_cap"));
    }
    serialize_within(line, buf, u64::MAX);
}

/// The line buffer to keep for the next line: its room, up to [`KEEP_BUFFER`].
fn kept(mut buf: Vec<u8>) -> Vec<u8> {
    if buf.capacity() > KEEP_BUFFER {
        return Vec::new();
    }
    buf.clear();
    buf
}

fn is_omitted(v: &Value) -> bool {
    v.get(nab_protocol::OMITTED_KEY).is_some()
}

impl Recorder {
    /// Opens (appending to) the transcript at `path`.
    pub fn open(path: &Path, caps: TranscriptCaps) -> Result<Recorder, GatewayError> {
        let err = |source| GatewayError::Transcript {
            path: path.to_owned(),
            source,
        };
        if let Some(parent) = path.parent().filter(|p| !p.as_os_str().is_empty()) {
            std::fs::create_dir_all(parent).map_err(err)?;
        }
        let file = OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .map_err(err)?;
        let written = file.metadata().map(|m| m.len()).unwrap_or(0);
        Ok(Recorder {
            path: path.to_owned(),
            caps,
            inner: Mutex::new(Inner {
                file,
                line: Vec::new(),
                written,
                dropped: 0,
                metrics: TranscriptMetrics::default(),
            }),
        })
    }

    /// Appends one line (within the caps) and counts it in the metrics. A write failure
    /// is logged, not returned: the agent's call already happened and must still get its
    /// answer. The line is given back (its request may have been summed up), so that the
    /// caller frees it when it suits (after the answer: `server::drop_later`).
    #[must_use = "the line is given back to be freed off the answer's path"]
    pub fn record(&self, mut line: TranscriptLine) -> TranscriptLine {
        let mut guard = self.inner.lock().unwrap_or_else(|p| p.into_inner());
        let inner = &mut *guard;
        inner.metrics.add(&line);
        let mut buf = std::mem::take(&mut inner.line);
        // The line without its newline may take `line_bytes - 1`.
        let within = self.caps.line_bytes.saturating_sub(1);
        if !serialize_within(&line, &mut buf, within) {
            fit_line_cap(&mut line, &mut buf, within);
        }
        let size = buf.len() as u64 + 1;
        if inner.written + size > self.caps.file_bytes {
            // The reserve past the cap is for calls' usage; a refused request is cheap for
            // the agent to repeat, so past the cap it is only counted.
            if line.refused.is_some() || !self.stub_fits(inner, &mut line, &mut buf) {
                inner.dropped += 1;
                if line.refused.is_none() && inner.dropped == 1 {
                    tracing::warn!(path = %self.path.display(), "transcript full; further lines are left out");
                }
                inner.line = kept(buf);
                return line;
            }
        }
        buf.push(b'\n');
        match inner.file.write_all(&buf) {
            Ok(()) => inner.written += buf.len() as u64,
            Err(e) => {
                tracing::error!(path = %self.path.display(), error = %e, "cannot write the transcript")
            }
        }
        inner.line = kept(buf);
        line
    }

    /// Past the file cap: `line` without its request (and a response over 64 KiB) in
    /// `buf`, when that fits in the reserve past the cap.
    fn stub_fits(&self, inner: &Inner, line: &mut TranscriptLine, buf: &mut Vec<u8>) -> bool {
        if !is_omitted(&line.request) {
            line.request = omit(&line.request, "file_cap");
        }
        if let Some(r) = &line.response
            && measure(r) > STUB_RESPONSE
        {
            line.response = Some(omit(r, "file_cap"));
        }
        serialize_within(line, buf, u64::MAX);
        let size = buf.len() as u64 + 1;
        inner.written + size <= self.caps.file_bytes + self.caps.file_bytes / STUB_RESERVE_SHARE
    }

    pub fn metrics(&self) -> TranscriptMetrics {
        self.inner
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .metrics
            .clone()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn line(request: Value) -> TranscriptLine {
        TranscriptLine {
            v: 1,
            ts: "2026-01-01T00:00:00.000Z".into(),
            seq: 0,
            provider: "p".into(),
            stream: false,
            api: None,
            request,
            response: Some(json!({"id": "r"})),
            usage: None,
            latency_ms: 1,
            status: Some(200),
            retries: 0,
            error: None,
            error_code: None,
            budget_exceeded: None,
            replay_drift: None,
            refused: None,
        }
    }

    /// The line is serialized once into a buffer that stops at the cap: a line of exactly
    /// the cap (its newline included) is written whole, one byte more has its request summed
    /// up (with the size of the request it stands for), and the lines are written in order.
    #[test]
    fn a_line_at_the_cap_is_written_whole_and_one_byte_over_is_summed_up() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("transcript.jsonl");
        let empty = serde_json::to_vec(&line(json!({"c": ""}))).unwrap().len() as u64;
        let caps = TranscriptCaps {
            line_bytes: empty + 300 + 1,
            file_bytes: 1 << 20,
        };
        let rec = Recorder::open(&path, caps).unwrap();
        let _ = rec.record(line(json!({"c": "a".repeat(300)})));
        let over = json!({"c": "b".repeat(301)});
        let given_back = rec.record(line(over.clone()));
        let _ = rec.record(line(json!({"c": "c"})));

        let text = std::fs::read_to_string(&path).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 3);
        assert_eq!(lines[0].len() as u64 + 1, caps.line_bytes);
        assert!(lines[0].contains(&"a".repeat(300)));
        let second: TranscriptLine = serde_json::from_str(lines[1]).unwrap();
        let omitted = Omitted::of(&second.request).expect("the request summed up");
        assert_eq!(omitted.reason, "line_cap");
        assert_eq!(
            omitted.bytes,
            serde_json::to_vec(&over).unwrap().len() as u64
        );
        assert_eq!(second.response, Some(json!({"id": "r"})));
        assert_eq!(Omitted::of(&given_back.request), Some(omitted));
        assert!(lines[2].contains(r#"{"c":"c"}"#));
        assert_eq!(rec.metrics().llm_calls, 3);
    }
}
