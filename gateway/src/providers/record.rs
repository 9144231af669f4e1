//! `record:<cassette-dir>:<inner spec>`: forwards to the inner provider and stores each
//! successful answer in the cassette (see [`crate::cassette`]). Failed attempts are not
//! stored, so a retried call records the answer that finally came.

use crate::canonical::{canonical_request, request_key};
use crate::cassette::{RecordedResponse, store_response};
use crate::error::ProviderError;
use crate::normalize::Normalizer;
use crate::provider::{Provider, ProviderResponse};
use futures::StreamExt;
use serde_json::Value;
use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};

pub struct RecordProvider {
    dir: PathBuf,
    inner: Arc<dyn Provider>,
    /// Keys requests as replay will ([`request_key`]), so recording a trial again replaces
    /// its files even when a tool result's timing changed.
    normalizer: Normalizer,
    /// How many answers were stored per key in this trial: the next one's index.
    stored: Arc<Mutex<HashMap<String, usize>>>,
}

impl RecordProvider {
    pub fn new(dir: PathBuf, inner: Arc<dyn Provider>, normalizer: Normalizer) -> Self {
        RecordProvider {
            dir,
            inner,
            normalizer,
            stored: Arc::new(Mutex::new(HashMap::new())),
        }
    }
}

fn next_occurrence(stored: &Mutex<HashMap<String, usize>>, key: &str) -> usize {
    let mut map = stored.lock().unwrap_or_else(|p| p.into_inner());
    let n = map.entry(key.to_owned()).or_insert(0);
    *n += 1;
    *n - 1
}

#[async_trait::async_trait]
impl Provider for RecordProvider {
    fn describe(&self) -> String {
        format!("record:{}:{}", self.dir.display(), self.inner.describe())
    }

    fn model(&self) -> Option<String> {
        self.inner.model()
    }

    async fn send(&self, request: &Value) -> Result<ProviderResponse, ProviderError> {
        let key = request_key(request, &self.normalizer);
        let canonical = canonical_request(request);
        match self.inner.send(request).await? {
            ProviderResponse::Json { status, body } => {
                let n = next_occurrence(&self.stored, &key);
                let rec = RecordedResponse::Json {
                    status,
                    body: body.clone(),
                };
                store_response(&self.dir, &key, &canonical, n, rec)?;
                Ok(ProviderResponse::Json { status, body })
            }
            ProviderResponse::Stream { status, chunks } => {
                // Collect the chunks as they pass; store once the stream ended cleanly.
                let seen: Arc<Mutex<(Vec<Value>, bool)>> =
                    Arc::new(Mutex::new((Vec::new(), false)));
                let seen_in = seen.clone();
                let passing = chunks.inspect(move |item| {
                    let mut s = seen_in.lock().unwrap_or_else(|p| p.into_inner());
                    match item {
                        Ok(text) => match serde_json::from_str::<Value>(text) {
                            Ok(v) => s.0.push(v),
                            Err(_) => s.1 = true,
                        },
                        Err(_) => s.1 = true,
                    }
                });
                let dir = self.dir.clone();
                let stored = self.stored.clone();
                let finish = futures::stream::once(async move {
                    let (chunks, failed) = {
                        let mut s = seen.lock().unwrap_or_else(|p| p.into_inner());
                        (std::mem::take(&mut s.0), s.1)
                    };
                    if failed {
                        return None;
                    }
                    let n = next_occurrence(&stored, &key);
                    let rec = RecordedResponse::Stream { status, chunks };
                    store_response(&dir, &key, &canonical, n, rec)
                        .err()
                        .map(Err)
                })
                .filter_map(futures::future::ready);
                Ok(ProviderResponse::Stream {
                    status,
                    chunks: passing.chain(finish).boxed(),
                })
            }
        }
    }
}
