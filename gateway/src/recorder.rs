//! Writing `transcript.jsonl`: one line per exchange, written whole and flushed at once so
//! a crash loses at most the exchange in flight.

use crate::error::GatewayError;
use crate::metrics::TranscriptMetrics;
use nab_protocol::transcript::TranscriptLine;
use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

pub struct Recorder {
    path: PathBuf,
    inner: Mutex<(File, TranscriptMetrics)>,
}

impl Recorder {
    /// Opens (appending to) the transcript at `path`.
    pub fn open(path: &Path) -> Result<Recorder, GatewayError> {
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
        Ok(Recorder {
            path: path.to_owned(),
            inner: Mutex::new((file, TranscriptMetrics::default())),
        })
    }

    /// Appends one line and counts it in the metrics. A write failure is logged, not
    /// returned: the agent's call already happened and must still get its answer.
    pub fn record(&self, line: &TranscriptLine) {
        let mut text = match serde_json::to_string(line) {
            Ok(t) => t,
            Err(e) => {
                tracing::error!(error = %e, "cannot serialize a transcript line");
                return;
            }
        };
        text.push('\n');
        let mut guard = self.inner.lock().unwrap_or_else(|p| p.into_inner());
        let (file, metrics) = &mut *guard;
        metrics.add(line);
        if let Err(e) = file.write_all(text.as_bytes()).and_then(|_| file.flush()) {
            tracing::error!(path = %self.path.display(), error = %e, "cannot write the transcript");
        }
    }

    pub fn metrics(&self) -> TranscriptMetrics {
        self.inner
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .1
            .clone()
    }
}
