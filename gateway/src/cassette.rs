//! A cassette: a directory with one JSON file per distinct request, `<key>.json`, where the
//! key is [`crate::canonical::request_key`] (tool results normalized). Each file holds the
//! canonical request as last recorded (tool results as they were) and the responses
//! recorded for it, in the order the request was made within a trial (an agent that sends
//! the same request twice gets the second recording the second time).
//!
//! Version 1 files were keyed on the request without normalization; they still load (the
//! replay provider computes every entry's key from its `request` when it opens a cassette,
//! so a change to the normalizers never strands a recording).

use crate::error::ProviderError;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// The version this build writes; it reads `1..=CASSETTE_VERSION`.
pub const CASSETTE_VERSION: u32 = 2;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CassetteEntry {
    pub v: u32,
    pub key: String,
    /// The canonical request (volatile fields removed).
    pub request: Value,
    pub responses: Vec<RecordedResponse>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum RecordedResponse {
    /// A non-stream answer: the whole `chat.completion`.
    Json { status: u16, body: Value },
    /// A stream: each `chat.completion.chunk` in the order it arrived.
    Stream { status: u16, chunks: Vec<Value> },
}

/// Serializes read-modify-write of cassette files between trials of one process.
static WRITE_LOCK: Mutex<()> = Mutex::new(());

fn cassette_err(path: &Path, message: impl std::fmt::Display) -> ProviderError {
    ProviderError::Cassette {
        path: path.to_owned(),
        message: message.to_string(),
    }
}

pub fn entry_path(dir: &Path, key: &str) -> PathBuf {
    dir.join(format!("{key}.json"))
}

/// The entry files of a cassette directory (`*.json`), in file-name order: key order, since
/// a file is named by its key.
pub fn entry_files(dir: &Path) -> Result<Vec<PathBuf>, ProviderError> {
    let read = std::fs::read_dir(dir).map_err(|e| {
        cassette_err(
            dir,
            format!(
                "cannot read the cassette directory: {e} (record one with record:<dir>:<spec>)"
            ),
        )
    })?;
    let mut files = Vec::new();
    for item in read {
        let path = item.map_err(|e| cassette_err(dir, e))?.path();
        if path.extension().and_then(|e| e.to_str()) == Some("json") {
            files.push(path);
        }
    }
    files.sort();
    Ok(files)
}

/// Reads every entry of a cassette directory, sorted by key. This holds the whole
/// cassette: a replay reads entries one at a time ([`entry_files`], [`read_entry`]).
pub fn load_dir(dir: &Path) -> Result<Vec<CassetteEntry>, ProviderError> {
    entry_files(dir)?.iter().map(|p| read_entry(p)).collect()
}

/// One entry file, checked: a supported version, named by its key.
pub fn read_entry(path: &Path) -> Result<CassetteEntry, ProviderError> {
    let text = std::fs::read_to_string(path).map_err(|e| cassette_err(path, e))?;
    let entry: CassetteEntry = serde_json::from_str(&text)
        .map_err(|e| cassette_err(path, format!("not a cassette entry: {e}")))?;
    if !(1..=CASSETTE_VERSION).contains(&entry.v) {
        return Err(cassette_err(
            path,
            format!(
                "cassette version {} is not supported (this build reads 1 to {CASSETTE_VERSION}): re-record the cassette with this nab (ci/rerecord.sh for ci/cassette, or record:<dir>:<spec>)",
                entry.v
            ),
        ));
    }
    let stem = path.file_stem().and_then(|s| s.to_str()).unwrap_or("");
    if stem != entry.key {
        return Err(cassette_err(
            path,
            format!("file name does not match its key {}", entry.key),
        ));
    }
    Ok(entry)
}

/// Stores `response` as the `occurrence`-th (0-based) answer to `request` under `key`:
/// replaces what a previous recording had there, or appends, and keeps the request as sent
/// this time (its tool results may differ from the last recording's in volatile tokens
/// only). Written to a temporary file and renamed, so a reader never sees half a file.
pub fn store_response(
    dir: &Path,
    key: &str,
    canonical_request: &Value,
    occurrence: usize,
    response: RecordedResponse,
) -> Result<(), ProviderError> {
    let _guard = WRITE_LOCK.lock().unwrap_or_else(|p| p.into_inner());
    std::fs::create_dir_all(dir).map_err(|e| cassette_err(dir, e))?;
    let path = entry_path(dir, key);
    let mut entry = if path.exists() {
        let mut e = read_entry(&path)?;
        e.v = CASSETTE_VERSION;
        e.request = canonical_request.clone();
        e
    } else {
        CassetteEntry {
            v: CASSETTE_VERSION,
            key: key.to_owned(),
            request: canonical_request.clone(),
            responses: Vec::new(),
        }
    };
    if occurrence < entry.responses.len() {
        entry.responses[occurrence] = response;
    } else {
        entry.responses.push(response);
    }
    let text = serde_json::to_string_pretty(&entry).map_err(|e| cassette_err(&path, e))?;
    nab_protocol::write_atomic(&path, (text + "\n").as_bytes())
        .map_err(|e| cassette_err(&e.path, e.source))
}
