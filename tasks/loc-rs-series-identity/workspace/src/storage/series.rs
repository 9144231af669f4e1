use crate::codec::Chunk;
use crate::error::{Error, Result};
use crate::model::{Sample, SeriesKey};
use crate::storage::head::Head;

/// What an append did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Appended {
    New,
    /// A sample at the newest sample's time: its value replaced the old one.
    Replaced,
}

/// One series: sealed chunks in time order, then the head.
#[derive(Debug, Clone)]
pub struct Series {
    pub key: SeriesKey,
    chunks: Vec<Chunk>,
    head: Head,
    newest: Option<i64>,
    chunk_samples: usize,
}

impl Series {
    pub fn new(key: SeriesKey, chunk_samples: usize) -> Series {
        Series {
            key,
            chunks: Vec::new(),
            head: Head::new(),
            newest: None,
            chunk_samples: chunk_samples.max(1),
        }
    }

    /// Adds a sample; one older than the newest is refused, one at the newest's time
    /// replaces its value.
    pub fn append(&mut self, s: Sample) -> Result<Appended> {
        if let Some(newest) = self.newest {
            if s.ts < newest {
                return Err(Error::OutOfOrder {
                    series: self.key.to_string(),
                    ts: s.ts,
                    newest,
                });
            }
            if s.ts == newest {
                if self.head.overwrite_last(s.value) {
                    return Ok(Appended::Replaced);
                }
                // The newest sample is sealed already: reopen the last chunk.
                if let Some(last) = self.chunks.pop() {
                    let mut samples = last.decode()?;
                    if let Some(l) = samples.last_mut() {
                        l.value = s.value;
                    }
                    for x in samples {
                        self.head.push(x);
                    }
                    return Ok(Appended::Replaced);
                }
            }
        }
        self.head.push(s);
        self.newest = Some(s.ts);
        if self.head.len() >= self.chunk_samples {
            self.seal();
        }
        Ok(Appended::New)
    }

    /// Turns the head into a chunk.
    pub fn seal(&mut self) {
        if !self.head.is_empty() {
            let samples = self.head.take();
            self.chunks.push(Chunk::encode(&samples));
        }
    }

    pub fn chunks(&self) -> &[Chunk] {
        &self.chunks
    }

    pub fn head(&self) -> &Head {
        &self.head
    }

    pub fn newest(&self) -> Option<i64> {
        self.newest
    }

    pub fn len(&self) -> usize {
        self.chunks.iter().map(|c| c.len()).sum::<usize>() + self.head.len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Drops every chunk that ends before `cutoff`.
    pub fn drop_chunks_before(&mut self, cutoff: i64) -> usize {
        let before = self.chunks.len();
        self.chunks.retain(|c| c.max_ts() >= cutoff);
        before - self.chunks.len()
    }
}
