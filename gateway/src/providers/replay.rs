//! `replay:<cassette-dir>`: answers from a cassette, keyed by the canonical request. A
//! request that was not recorded is an error naming the nearest recorded request and the
//! first difference — never a made-up answer — so a change in what the agent sends (a new
//! system prompt, a different tool schema) fails CI where it happened.

use crate::assemble::{Assembler, completion_to_chunks};
use crate::canonical::{
    canonical_request, closeness, describe_difference, describe_drift, first_difference,
    matching_form, request_key,
};
use crate::cassette::{CassetteEntry, RecordedResponse, entry_path, read_entry};
use crate::cassette_index::CassetteIndex;
use crate::error::ProviderError;
use crate::normalize::Normalizer;
use crate::provider::{Provider, ProviderResponse, wants_stream};
use futures::StreamExt;
use serde_json::Value;
use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};

/// The recordings under one key, read from their files.
type Group = Arc<[CassetteEntry]>;

pub struct ReplayProvider {
    dir: PathBuf,
    normalizer: Normalizer,
    /// Which files answer which key (shared by the trials replaying this cassette). Keys
    /// are computed from each entry's request when the index is built (so cassettes
    /// recorded before normalization, or under other normalizers, still load). Two
    /// recordings that differ only in volatile tokens share a key; they are kept in
    /// file-name order and the one recorded exactly as asked is preferred.
    index: Arc<CassetteIndex>,
    /// The recordings this trial has asked for, each read once: a trial holds its own
    /// exchanges, never the whole cassette.
    read: Mutex<HashMap<String, Group>>,
    /// How many times each key was asked in this trial: picks the n-th recording.
    asked: Mutex<HashMap<String, usize>>,
}

fn locked<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|p| p.into_inner())
}

impl ReplayProvider {
    /// Indexes the cassette (every entry is read once, so a malformed file fails before
    /// the trial starts; the trials of one process share the index).
    pub fn open(dir: PathBuf, normalizer: Normalizer) -> Result<Self, ProviderError> {
        let index = CassetteIndex::shared(&dir, &normalizer)?;
        Ok(ReplayProvider {
            dir,
            normalizer,
            index,
            read: Mutex::new(HashMap::new()),
            asked: Mutex::new(HashMap::new()),
        })
    }

    /// The recordings under `key`, read from their files the first time (none: a miss).
    fn group(&self, key: &str) -> Result<Option<Group>, ProviderError> {
        if let Some(g) = locked(&self.read).get(key) {
            return Ok(Some(g.clone()));
        }
        let files = self.index.files_for(key);
        if files.is_empty() {
            return Ok(None);
        }
        let group: Group = files
            .iter()
            .map(|f| read_entry(f))
            .collect::<Result<Vec<_>, _>>()?
            .into();
        locked(&self.read).insert(key.to_owned(), group.clone());
        Ok(Some(group))
    }

    /// The recording that answers `request`: its key and entry (the group and the
    /// entry's place in it), or `None` on a miss.
    fn lookup(&self, request: &Value) -> Result<(String, Option<(Group, usize)>), ProviderError> {
        let key = request_key(request, &self.normalizer);
        let Some(group) = self.group(&key)? else {
            return Ok((key, None));
        };
        let canonical = canonical_request(request);
        let at = group
            .iter()
            .position(|e| e.request == canonical)
            .unwrap_or(0);
        Ok((key, Some((group, at))))
    }

    /// The recorded request nearest to `requested` (in matching form) and how close it
    /// is, read one entry at a time: a miss is rare, and the cassette is never held whole.
    fn nearest(&self, requested: &Value) -> Option<(CassetteEntry, Value)> {
        // Ranked by closeness, then by the smaller key (a deterministic choice among equals).
        type Rank = ((bool, usize, usize), std::cmp::Reverse<String>);
        let mut best: Option<(Rank, CassetteEntry, Value)> = None;
        for file in self.index.files() {
            let Ok(entry) = read_entry(file) else {
                continue;
            };
            let matching = matching_form(&entry.request, &self.normalizer);
            let rank = (
                closeness(&matching, requested),
                std::cmp::Reverse(entry.key.clone()),
            );
            if best.as_ref().is_none_or(|(b, _, _)| rank > *b) {
                best = Some((rank, entry, matching));
            }
        }
        best.map(|(_, entry, matching)| (entry, matching))
    }

    fn miss(&self, key: &str, request: &Value) -> ProviderError {
        // Compared in matching form, so the difference named is one the agent made (or a
        // real change in a tool result), never a timing.
        let requested = matching_form(request, &self.normalizer);
        let n_msgs = requested
            .get("messages")
            .and_then(Value::as_array)
            .map_or(0, Vec::len);
        let mut text = format!(
            "replay miss: the agent's requests changed: cassette {} has no recording of this request (key {}, model {}, {} messages).",
            self.dir.display(),
            &key[..12.min(key.len())],
            requested.get("model").unwrap_or(&Value::Null),
            n_msgs
        );
        match self.nearest(&requested) {
            None => text.push_str(" The cassette is empty."),
            Some((entry, matching)) => {
                let (_, common, _) = closeness(&matching, &requested);
                text.push_str(&format!(
                    "\nnearest recorded request: {} ({} leading messages equal)\n",
                    entry_path(&self.dir, &entry.key).display(),
                    common
                ));
                if let Some(d) = first_difference(&matching, &requested) {
                    text.push_str(&describe_difference(&d));
                }
            }
        }
        text.push_str(
            "\nRe-record the cassette if the change is intended (ci/rerecord.sh for ci/cassette, or record:<dir>:<spec>).",
        );
        ProviderError::ReplayMiss(text)
    }
}

#[async_trait::async_trait]
impl Provider for ReplayProvider {
    fn describe(&self) -> String {
        format!("replay:{}", self.dir.display())
    }

    fn replay_drift(&self, request: &Value) -> Option<String> {
        let (_, Some((group, at))) = self.lookup(request).ok()? else {
            return None;
        };
        let d = first_difference(&group[at].request, &canonical_request(request))?;
        Some(describe_drift(&d))
    }

    async fn send(&self, request: &Value) -> Result<ProviderResponse, ProviderError> {
        let (key, found) = self.lookup(request)?;
        let Some((group, at)) = found else {
            return Err(self.miss(&key, request));
        };
        let entry = &group[at];
        let n = {
            let mut asked = locked(&self.asked);
            let n = asked.entry(key.clone()).or_insert(0);
            *n += 1;
            *n - 1
        };
        // Asked more often than recorded: the same request gets the last recorded answer
        // again, as a deterministic model would give.
        let Some(recorded) = entry.responses.get(n).or(entry.responses.last()) else {
            return Err(ProviderError::Cassette {
                path: entry_path(&self.dir, &key),
                message: "the entry has no responses".into(),
            });
        };
        let stream = wants_stream(request);
        Ok(match (recorded, stream) {
            (RecordedResponse::Json { status, body }, false) => ProviderResponse::Json {
                status: *status,
                body: body.clone(),
            },
            (RecordedResponse::Stream { status, chunks }, false) => {
                let mut a = Assembler::new();
                chunks.iter().for_each(|c| a.push(c));
                ProviderResponse::Json {
                    status: *status,
                    body: a.finish(),
                }
            }
            (RecordedResponse::Stream { status, chunks }, true) => ProviderResponse::Stream {
                status: *status,
                chunks: chunk_stream(chunks.clone()),
            },
            (RecordedResponse::Json { status, body }, true) => ProviderResponse::Stream {
                status: *status,
                chunks: chunk_stream(completion_to_chunks(body)),
            },
        })
    }
}

fn chunk_stream(chunks: Vec<Value>) -> crate::provider::ChunkStream {
    futures::stream::iter(chunks.into_iter().map(|c| Ok(c.to_string()))).boxed()
}
