use crate::error::Result;
use crate::model::{Sample, SeriesKey};
use crate::storage::postings::Postings;
use crate::storage::series::{Appended, Series};
use std::collections::HashMap;

/// A part of the keyspace: its series, found by key.
#[derive(Debug, Clone, Default)]
pub struct Shard {
    index: HashMap<SeriesKey, usize>,
    series: Vec<Series>,
    postings: Postings,
}

impl Shard {
    pub fn new() -> Shard {
        Shard::default()
    }

    /// The index of the series named `key`, created if it is new (and whether it was).
    pub fn series_for(&mut self, key: &SeriesKey, chunk_samples: usize) -> (usize, bool) {
        if let Some(&idx) = self.index.get(key) {
            return (idx, false);
        }
        let idx = self.series.len();
        self.series.push(Series::new(key.clone(), chunk_samples));
        self.index.insert(key.clone(), idx);
        self.postings.add(&key.name, idx);
        (idx, true)
    }

    pub fn append(&mut self, idx: usize, s: Sample) -> Result<Appended> {
        self.series[idx].append(s)
    }

    pub fn series(&self) -> &[Series] {
        &self.series
    }

    pub fn series_mut(&mut self) -> &mut [Series] {
        &mut self.series
    }

    pub fn with_name(&self, name: &str) -> impl Iterator<Item = &Series> + '_ {
        self.postings
            .for_name(name)
            .iter()
            .map(move |&i| &self.series[i])
    }

    pub fn len(&self) -> usize {
        self.series.len()
    }

    pub fn is_empty(&self) -> bool {
        self.series.is_empty()
    }
}
