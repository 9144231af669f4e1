//! `replay:<cassette-dir>`: answers from a cassette, keyed by the canonical request. A
//! request that was not recorded is an error naming the nearest recorded request and the
//! first difference — never a made-up answer — so a change in what the agent sends (a new
//! system prompt, a different tool schema) fails CI where it happened.

use crate::assemble::{Assembler, completion_to_chunks};
use crate::canonical::{
    canonical_request, closeness, describe_difference, first_difference, request_key,
};
use crate::cassette::{CassetteEntry, RecordedResponse, entry_path, load_dir};
use crate::error::ProviderError;
use crate::provider::{Provider, ProviderResponse, wants_stream};
use futures::StreamExt;
use serde_json::Value;
use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::Mutex;

pub struct ReplayProvider {
    dir: PathBuf,
    entries: HashMap<String, CassetteEntry>,
    /// How many times each key was asked in this trial: picks the n-th recording.
    asked: Mutex<HashMap<String, usize>>,
}

impl ReplayProvider {
    /// Loads the whole cassette up front, so a malformed file fails before the trial starts.
    pub fn open(dir: PathBuf) -> Result<Self, ProviderError> {
        let entries = load_dir(&dir)?
            .into_iter()
            .map(|e| (e.key.clone(), e))
            .collect();
        Ok(ReplayProvider {
            dir,
            entries,
            asked: Mutex::new(HashMap::new()),
        })
    }

    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    fn miss(&self, key: &str, request: &Value) -> ProviderError {
        let canonical = canonical_request(request);
        let n_msgs = canonical
            .get("messages")
            .and_then(Value::as_array)
            .map_or(0, Vec::len);
        let mut text = format!(
            "replay miss: cassette {} has no recording of this request (key {}, model {}, {} messages).",
            self.dir.display(),
            &key[..12.min(key.len())],
            canonical.get("model").unwrap_or(&Value::Null),
            n_msgs
        );
        let nearest = self.entries.values().max_by_key(|e| {
            (
                closeness(&e.request, &canonical),
                std::cmp::Reverse(e.key.clone()),
            )
        });
        match nearest {
            None => text.push_str(" The cassette is empty."),
            Some(e) => {
                let (_, common, _) = closeness(&e.request, &canonical);
                text.push_str(&format!(
                    "\nnearest recorded request: {} ({} leading messages equal)\n",
                    entry_path(&self.dir, &e.key).display(),
                    common
                ));
                if let Some(d) = first_difference(&e.request, &canonical) {
                    text.push_str(&describe_difference(&d));
                }
            }
        }
        text.push_str(
            "\nIf the change is intended, record the cassette again with record:<dir>:<spec>.",
        );
        ProviderError::ReplayMiss(text)
    }
}

#[async_trait::async_trait]
impl Provider for ReplayProvider {
    fn describe(&self) -> String {
        format!("replay:{}", self.dir.display())
    }

    async fn send(&self, request: &Value) -> Result<ProviderResponse, ProviderError> {
        let key = request_key(request);
        let Some(entry) = self.entries.get(&key) else {
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
