//! Which file of a cassette answers which request, without holding the answers. A replayed
//! trial reads only the entries its own requests ask for, so nab's memory grows with the
//! trials running, not with the cassette (a suite's cassette is megabytes of JSON, and a
//! parsed copy per trial was hundreds of MB at `-j 4`).
//!
//! Building the index reads every entry once (one at a time, so a malformed file still
//! fails before a trial starts); the trials of one process share it while the cassette is
//! unchanged (same folder, files and modification time, same normalizer rules).

use crate::canonical::request_key;
use crate::cassette::{entry_files, read_entry};
use crate::error::ProviderError;
use crate::normalize::Normalizer;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, Weak};
use std::time::SystemTime;

/// A cassette's entry files by matching key.
#[derive(Debug)]
pub struct CassetteIndex {
    /// Under each key, its entry files in file-name order (recordings that differ only in
    /// volatile tokens share a key).
    by_key: HashMap<String, Vec<PathBuf>>,
    /// Every entry file, in file-name order.
    files: Vec<PathBuf>,
}

/// What a shared index was built from: a cassette that changed gets a new index.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Identity {
    dir: PathBuf,
    rules: String,
    modified: Option<SystemTime>,
    files: Vec<PathBuf>,
}

/// The indexes in use, each held by the trials using it (weakly here: the last trial to
/// finish frees it).
static SHARED: Mutex<Vec<(Identity, Weak<CassetteIndex>)>> = Mutex::new(Vec::new());

impl CassetteIndex {
    /// Reads every entry of `dir` once and keys it under `normalizer`.
    pub fn build(dir: &Path, normalizer: &Normalizer) -> Result<CassetteIndex, ProviderError> {
        let files = entry_files(dir)?;
        let mut by_key: HashMap<String, Vec<PathBuf>> = HashMap::new();
        for file in &files {
            let entry = read_entry(file)?;
            by_key
                .entry(request_key(&entry.request, normalizer))
                .or_default()
                .push(file.clone());
        }
        Ok(CassetteIndex { by_key, files })
    }

    /// The index of `dir` under `normalizer`, built once while other trials hold it.
    pub fn shared(
        dir: &Path,
        normalizer: &Normalizer,
    ) -> Result<Arc<CassetteIndex>, ProviderError> {
        let identity = Identity {
            dir: dir.canonicalize().unwrap_or_else(|_| dir.to_owned()),
            rules: normalizer.fingerprint(),
            modified: std::fs::metadata(dir).and_then(|m| m.modified()).ok(),
            files: entry_files(dir)?,
        };
        let mut shared = SHARED.lock().unwrap_or_else(|p| p.into_inner());
        shared.retain(|(_, weak)| weak.strong_count() > 0);
        if let Some(index) = shared
            .iter()
            .find(|(id, _)| *id == identity)
            .and_then(|(_, weak)| weak.upgrade())
        {
            return Ok(index);
        }
        let index = Arc::new(CassetteIndex::build(dir, normalizer)?);
        shared.push((identity, Arc::downgrade(&index)));
        Ok(index)
    }

    /// The entry files recorded under `key` (none: a miss).
    pub fn files_for(&self, key: &str) -> &[PathBuf] {
        self.by_key.get(key).map_or(&[], Vec::as_slice)
    }

    /// Every entry file.
    pub fn files(&self) -> &[PathBuf] {
        &self.files
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cassette::{RecordedResponse, store_response};
    use serde_json::json;

    fn record(dir: &Path, text: &str) {
        let request = json!({"model": "m", "messages": [{"role": "user", "content": text}]});
        let key = request_key(&request, &Normalizer::default());
        let body = json!({"choices": []});
        store_response(
            dir,
            &key,
            &request,
            0,
            RecordedResponse::Json { status: 200, body },
        )
        .unwrap();
    }

    #[test]
    fn trials_share_an_index_until_the_cassette_changes() {
        let dir = tempfile::tempdir().unwrap();
        record(dir.path(), "a");
        let n = Normalizer::default();
        let first = CassetteIndex::shared(dir.path(), &n).unwrap();
        let second = CassetteIndex::shared(dir.path(), &n).unwrap();
        assert!(Arc::ptr_eq(&first, &second), "one index while both hold it");
        assert_eq!(first.files().len(), 1);
        record(dir.path(), "b");
        let third = CassetteIndex::shared(dir.path(), &n).unwrap();
        assert_eq!(third.files().len(), 2, "a new recording is seen");
        drop((first, second, third));
        assert!(
            SHARED.lock().unwrap().iter().all(|(id, w)| id.dir
                != dir.path().canonicalize().unwrap()
                || w.strong_count() == 0),
            "the last holder frees it"
        );
    }
}
