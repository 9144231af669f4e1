//! What the agent wrote to `/nab/out`, taken back from a remote engine, where the folder is
//! not the host's (see `Capabilities::live_binds`).

use super::llm::EVENTS_LIMIT;
use crate::env::sandbox::{ContainerId, SandboxBackend};
use nab_protocol::EVENTS_FILE;
use std::path::Path;

/// Where the agent writes its events in the container.
const EVENTS_IN_CONTAINER: &str = "/nab/out/events.jsonl";

/// On an engine whose binds are not live (a remote one), copies events.jsonl out of the
/// agent's stopped container into `out_dir`, for `LlmSession::finish` to read as it reads
/// a local one. Only a regular file of at most [`EVENTS_LIMIT`] bytes is taken (a link, a
/// folder or more is the agent's doing: no events).
pub(crate) async fn copy_back_events(
    backend: &dyn SandboxBackend,
    c: &ContainerId,
    out_dir: &Path,
) {
    let (tx, rx) = tokio::sync::mpsc::channel(8);
    let limit = EVENTS_LIMIT + 64 * 1024;
    let dest = out_dir.join(EVENTS_FILE);
    let reader = tokio::task::spawn_blocking(move || {
        let tar = crate::env::sandbox::ChunkReader::new(rx);
        first_regular_file(tar, &dest)
    });
    if let Err(e) = backend.copy_out(c, EVENTS_IN_CONTAINER, tx, limit).await {
        tracing::debug!("no events copied back from {EVENTS_IN_CONTAINER}: {e}");
    }
    match reader.await {
        Ok(Ok(())) => {}
        Ok(Err(e)) => tracing::debug!("events.jsonl not copied back: {e}"),
        Err(e) => tracing::warn!("copying events.jsonl back: {e}"),
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
    if h.entry_type() != tar::EntryType::Regular || h.size()? > EVENTS_LIMIT {
        return Err(std::io::Error::other("not a regular file within the limit"));
    }
    let mut bytes = Vec::new();
    std::io::Read::read_to_end(
        &mut std::io::Read::take(&mut entry, EVENTS_LIMIT),
        &mut bytes,
    )?;
    std::fs::write(dest, bytes)
}
