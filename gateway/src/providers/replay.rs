//! `replay:<cassette-dir>`: answers from a cassette, keyed by the canonical request. A
//! request that was not recorded is an error naming the nearest recorded request and the
//! first difference — never a made-up answer — so a change in what the agent sends (a new
//! system prompt, a different tool schema) fails CI where it happened.

use crate::assemble::{Assembler, completion_to_chunks};
use crate::canonical::{
    canonical_request, closeness, describe_difference, describe_drift, first_difference,
    matching_form, request_key,
};
use crate::cassette::{CassetteEntry, RecordedResponse, entry_path, load_dir};
use crate::error::ProviderError;
use crate::normalize::Normalizer;
use crate::provider::{Provider, ProviderResponse, wants_stream};
use futures::StreamExt;
use serde_json::Value;
use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::Mutex;

/// A cassette entry with the form it is matched on.
struct Recorded {
    entry: CassetteEntry,
    /// [`matching_form`] of `entry.request`, under this provider's normalizer.
    matching: Value,
}

pub struct ReplayProvider {
    dir: PathBuf,
    normalizer: Normalizer,
    /// By matching key, computed from each entry's request when the cassette is opened
    /// (so cassettes recorded before normalization, or under other normalizers, still
    /// load). Two recordings that differ only in volatile tokens share a key; they are
    /// kept in file-name order and the one recorded exactly as asked is preferred.
    entries: HashMap<String, Vec<Recorded>>,
    /// How many times each key was asked in this trial: picks the n-th recording.
    asked: Mutex<HashMap<String, usize>>,
}

impl ReplayProvider {
    /// Loads the whole cassette up front, so a malformed file fails before the trial starts.
    pub fn open(dir: PathBuf, normalizer: Normalizer) -> Result<Self, ProviderError> {
        let mut entries: HashMap<String, Vec<Recorded>> = HashMap::new();
        for entry in load_dir(&dir)? {
            let key = request_key(&entry.request, &normalizer);
            let matching = matching_form(&entry.request, &normalizer);
            entries
                .entry(key)
                .or_default()
                .push(Recorded { entry, matching });
        }
        Ok(ReplayProvider {
            dir,
            normalizer,
            entries,
            asked: Mutex::new(HashMap::new()),
        })
    }

    /// The recording that answers `request`: its key and entry, or `None` on a miss.
    fn lookup(&self, request: &Value) -> (String, Option<&CassetteEntry>) {
        let key = request_key(request, &self.normalizer);
        let found = self.entries.get(&key).and_then(|group| {
            let canonical = canonical_request(request);
            group
                .iter()
                .find(|r| r.entry.request == canonical)
                .or(group.first())
                .map(|r| &r.entry)
        });
        (key, found)
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
        let nearest = self.entries.values().flatten().max_by_key(|r| {
            (
                closeness(&r.matching, &requested),
                std::cmp::Reverse(r.entry.key.clone()),
            )
        });
        match nearest {
            None => text.push_str(" The cassette is empty."),
            Some(r) => {
                let (_, common, _) = closeness(&r.matching, &requested);
                text.push_str(&format!(
                    "\nnearest recorded request: {} ({} leading messages equal)\n",
                    entry_path(&self.dir, &r.entry.key).display(),
                    common
                ));
                if let Some(d) = first_difference(&r.matching, &requested) {
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
        let (_, entry) = self.lookup(request);
        let d = first_difference(&entry?.request, &canonical_request(request))?;
        Some(describe_drift(&d))
    }

    async fn send(&self, request: &Value) -> Result<ProviderResponse, ProviderError> {
        let (key, entry) = self.lookup(request);
        let Some(entry) = entry else {
            return Err(self.miss(&key, request));
        };
        let n = {
            let mut asked = self.asked.lock().unwrap_or_else(|p| p.into_inner());
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
