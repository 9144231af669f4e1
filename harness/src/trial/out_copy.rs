//! What the agent wrote to `/nab/out`, taken back from a remote engine, where the folder is
//! not the host's (see `Capabilities::live_binds`).

use super::llm::EVENTS_LIMIT;
use crate::env::sandbox::{ContainerId, EngineError, SandboxBackend, SandboxError};
use nab_protocol::EVENTS_FILE;
use std::path::Path;

/// Where the agent writes its events in the container.
const EVENTS_IN_CONTAINER: &str = "/nab/out/events.jsonl";

/// On an engine whose binds are not live (a remote one), copies events.jsonl out of the
/// agent's stopped container into `out_dir`, for `LlmSession::finish` to read as it reads
/// a local one. Only a regular file of at most [`EVENTS_LIMIT`] bytes is taken; anything
/// else the agent left there (a link, a folder, a file too large) is returned as why its
/// events are unreadable, the agent's own failure as on a local engine.
pub(crate) async fn copy_back_events(
    backend: &dyn SandboxBackend,
    c: &ContainerId,
    out_dir: &Path,
) -> Option<String> {
    let (tx, rx) = tokio::sync::mpsc::channel(8);
    let limit = EVENTS_LIMIT + 64 * 1024;
    let dest = out_dir.join(EVENTS_FILE);
    let reader = tokio::task::spawn_blocking(move || {
        let tar = crate::env::sandbox::ChunkReader::new(rx);
        first_regular_file(tar, &dest)
    });
    let copied = backend.copy_out(c, EVENTS_IN_CONTAINER, tx, limit).await;
    let read = reader.await;
    match copied {
        Err(SandboxError::TooLarge { .. }) => {
            return Some(format!("events.jsonl is over {EVENTS_LIMIT} bytes"));
        }
        // None there: no events, as when a local agent writes none.
        Err(SandboxError::Docker {
            source:
                EngineError::DockerResponseServerError {
                    status_code: 404, ..
                },
            ..
        }) => return None,
        Err(e) => {
            tracing::warn!("copying events.jsonl back from {EVENTS_IN_CONTAINER}: {e}");
            return None;
        }
        Ok(()) => {}
    }
    match read {
        Ok(Ok(())) => None,
        Ok(Err(why)) => Some(why.to_string()),
        Err(e) => {
            tracing::warn!("copying events.jsonl back: {e}");
            None
        }
    }
}

/// Writes the first entry of a tar stream to `dest` when it is a regular file of at most
/// [`EVENTS_LIMIT`] bytes.
fn first_regular_file(tar: impl std::io::Read, dest: &Path) -> std::io::Result<()> {
    let mut archive = tar::Archive::new(tar);
    let Some(entry) = archive.entries()?.next() else {
        return Ok(());
    };
    let mut entry = entry?;
    let h = entry.header();
    if h.entry_type() != tar::EntryType::Regular {
        return Err(std::io::Error::other(format!(
            "events.jsonl is not a regular file ({:?})",
            h.entry_type()
        )));
    }
    if h.size()? > EVENTS_LIMIT {
        return Err(std::io::Error::other(format!(
            "events.jsonl is over {EVENTS_LIMIT} bytes"
        )));
    }
    let mut bytes = Vec::new();
    std::io::Read::read_to_end(
        &mut std::io::Read::take(&mut entry, EVENTS_LIMIT),
        &mut bytes,
    )?;
    std::fs::write(dest, bytes)
}
