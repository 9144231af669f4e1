//! Writing `transcript.jsonl`: one line per exchange, written and flushed at once so a
//! crash loses at most the exchange in flight, within two caps:
//! - a line longer than the line cap has its request (then, if need be, its response)
//!   replaced by an [`Omitted`] summary with the original size and SHA-256;
//! - past the file cap, lines are written without request (and without a response over
//!   64 KiB), so usage stays on record, and refused requests are no longer written; past
//!   the cap plus a reserve for those short lines, nothing more is written. Lines left out
//!   are counted ([`Recorder::dropped_lines`]); the in-memory metrics count every line.
//!
//! Lines are serialized straight into the file (sized first with a counting writer), never
//! copied into a string.

use crate::error::GatewayError;
use crate::metrics::TranscriptMetrics;
use nab_protocol::{Omitted, TranscriptLine};
use serde_json::Value;
use sha2::{Digest, Sha256};
use std::fs::{File, OpenOptions};
use std::io::{BufWriter, Write};
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

pub struct Recorder {
    path: PathBuf,
    caps: TranscriptCaps,
    inner: Mutex<Inner>,
}

struct Inner {
    file: BufWriter<File>,
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
                file: BufWriter::with_capacity(1 << 16, file),
                written,
                dropped: 0,
                metrics: TranscriptMetrics::default(),
            }),
        })
    }

    /// Appends one line (within the caps) and counts it in the metrics. A write failure
    /// is logged, not returned: the agent's call already happened and must still get its
    /// answer.
    pub fn record(&self, mut line: TranscriptLine) {
        let mut guard = self.inner.lock().unwrap_or_else(|p| p.into_inner());
        let inner = &mut *guard;
        inner.metrics.add(&line);
        let mut size = measure(&line) + 1;
        if size > self.caps.line_bytes && !is_omitted(&line.request) {
            line.request = omit(&line.request, "line_cap");
            size = measure(&line) + 1;
        }
        if size > self.caps.line_bytes
            && let Some(r) = &line.response
        {
            line.response = Some(omit(r, "line_cap"));
            size = measure(&line) + 1;
        }
        if inner.written + size > self.caps.file_bytes {
            // The reserve past the cap is for calls' usage; a refused request is cheap for
            // the agent to repeat, so past the cap it is only counted.
            if line.refused.is_some() {
                inner.dropped += 1;
                return;
            }
            if !is_omitted(&line.request) {
                line.request = omit(&line.request, "file_cap");
            }
            if let Some(r) = &line.response
                && measure(r) > STUB_RESPONSE
            {
                line.response = Some(omit(r, "file_cap"));
            }
            size = measure(&line) + 1;
            if inner.written + size
                > self.caps.file_bytes + self.caps.file_bytes / STUB_RESERVE_SHARE
            {
                inner.dropped += 1;
                if inner.dropped == 1 {
                    tracing::warn!(path = %self.path.display(), "transcript full; further lines are left out");
                }
                return;
            }
        }
        let written = serde_json::to_writer(&mut inner.file, &line)
            .map_err(std::io::Error::from)
            .and_then(|_| inner.file.write_all(b"\n"))
            .and_then(|_| inner.file.flush());
        match written {
            Ok(()) => inner.written += size,
            Err(e) => {
                tracing::error!(path = %self.path.display(), error = %e, "cannot write the transcript")
            }
        }
    }

    pub fn metrics(&self) -> TranscriptMetrics {
        self.inner
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .metrics
            .clone()
    }
}
