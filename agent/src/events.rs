//! Writes the event stream: one JSON line per event, flushed per line so the harness sees
//! everything up to a kill.

use std::io::Write;
use std::path::Path;
use std::sync::Mutex;

use nab_protocol::{Event, EventKind};

#[derive(Debug, Default)]
pub struct EventSink {
    file: Option<Mutex<std::fs::File>>,
}

impl EventSink {
    /// A sink that writes nowhere (no `--events`).
    pub fn none() -> EventSink {
        EventSink { file: None }
    }

    /// Creates (truncates) `path`, making its folder if needed.
    pub fn to_file(path: &Path) -> std::io::Result<EventSink> {
        if let Some(parent) = path.parent().filter(|p| !p.as_os_str().is_empty()) {
            std::fs::create_dir_all(parent)?;
        }
        let file = std::fs::File::create(path)?;
        Ok(EventSink {
            file: Some(Mutex::new(file)),
        })
    }

    pub fn emit(&self, kind: EventKind) {
        let Some(file) = &self.file else { return };
        let event = Event::now(kind);
        let mut line = match serde_json::to_vec(&event) {
            Ok(l) => l,
            Err(e) => {
                tracing::warn!(error = %e, "cannot serialize an event");
                return;
            }
        };
        line.push(b'\n');
        let mut f = file.lock().unwrap_or_else(|p| p.into_inner());
        // One write per line: a reader never sees half a line from us.
        if let Err(e) = f.write_all(&line).and_then(|()| f.flush()) {
            tracing::warn!(error = %e, "cannot write to the events file");
        }
    }
}
