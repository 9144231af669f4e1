use crate::config::Config;
use crate::error::{Error, Result};
use crate::model::{Labels, Sample, SeriesKey};
use crate::parse::parse_text;
use crate::storage::series::{Appended, Series};
use crate::storage::shard::Shard;
use crate::storage::stats::Stats;

/// The store: series spread over `config.shards` shards by fingerprint.
#[derive(Debug, Clone)]
pub struct Db {
    config: Config,
    shards: Vec<Shard>,
    stats: Stats,
}

/// What [`Db::ingest_text`] did.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct IngestReport {
    pub accepted: usize,
    pub replaced: usize,
    /// Samples refused as older than their series' newest, with their line numbers.
    pub out_of_order: Vec<usize>,
}

/// One series as [`Db::series`] lists it.
#[derive(Debug, Clone, PartialEq)]
pub struct SeriesInfo {
    pub key: String,
    pub samples: usize,
    pub first_ts: Option<i64>,
    pub last_ts: Option<i64>,
}

impl Db {
    pub fn new(config: Config) -> Db {
        let n = config.shards.max(1);
        Db {
            config,
            shards: (0..n).map(|_| Shard::new()).collect(),
            stats: Stats::default(),
        }
    }

    pub fn config(&self) -> &Config {
        &self.config
    }

    fn shard_of(&self, key: &SeriesKey) -> usize {
        (key.fingerprint() % self.shards.len() as u64) as usize
    }

    /// Adds a sample to the series `name` + `labels`.
    pub fn append(&mut self, name: &str, labels: &Labels, ts: i64, value: f64) -> Result<()> {
        let key = SeriesKey::new(name, labels.clone())?;
        self.append_key(&key, Sample::new(ts, value))
    }

    pub fn append_key(&mut self, key: &SeriesKey, s: Sample) -> Result<()> {
        let sh = self.shard_of(key);
        let chunk_samples = self.config.chunk_samples;
        let shard = &mut self.shards[sh];
        let (idx, created) = shard.series_for(key, chunk_samples);
        if created {
            self.stats.series_created += 1;
        }
        match shard.append(idx, s) {
            Ok(Appended::New) => {
                self.stats.samples_appended += 1;
                Ok(())
            }
            Ok(Appended::Replaced) => {
                self.stats.samples_replaced += 1;
                Ok(())
            }
            Err(e) => {
                if let Error::OutOfOrder { .. } = e {
                    self.stats.samples_out_of_order += 1;
                }
                Err(e)
            }
        }
    }

    /// Adds every sample of a text in the text format. A sample older than its series'
    /// newest is left out and reported; any other error stops the ingest.
    pub fn ingest_text(&mut self, text: &str) -> Result<IngestReport> {
        let parsed = parse_text(text)?;
        let mut report = IngestReport::default();
        let mut line_of = text
            .lines()
            .enumerate()
            .filter(|(_, l)| {
                let t = l.trim();
                !t.is_empty() && !t.starts_with('#')
            })
            .map(|(i, _)| i + 1);
        for p in parsed {
            let line = line_of.next().unwrap_or(0);
            let labels = Labels::from_pairs(p.labels)
                .map_err(|e| Error::Parse { line, msg: e.to_string() })?;
            let key = SeriesKey::new(&p.name, labels)
                .map_err(|e| Error::Parse { line, msg: e.to_string() })?;
            let before = self.stats.samples_replaced;
            match self.append_key(&key, Sample::new(p.ts, p.value)) {
                Ok(()) => {
                    if self.stats.samples_replaced > before {
                        report.replaced += 1;
                    } else {
                        report.accepted += 1;
                    }
                }
                Err(Error::OutOfOrder { .. }) => report.out_of_order.push(line),
                Err(e) => return Err(e),
            }
        }
        Ok(report)
    }

    pub fn series_count(&self) -> usize {
        self.shards.iter().map(|s| s.len()).sum()
    }

    pub fn all_series(&self) -> impl Iterator<Item = &Series> + '_ {
        self.shards.iter().flat_map(|s| s.series().iter())
    }

    /// The series named `name`, from every shard.
    pub fn series_named<'a>(&'a self, name: &'a str) -> impl Iterator<Item = &'a Series> + 'a {
        self.shards.iter().flat_map(move |s| s.with_name(name))
    }

    /// Every series, sorted by key.
    pub fn series(&self) -> Vec<SeriesInfo> {
        let mut out: Vec<(SeriesKey, SeriesInfo)> = self
            .all_series()
            .map(|s| {
                let first = s
                    .chunks()
                    .first()
                    .map(|c| c.min_ts())
                    .or_else(|| s.head().samples().first().map(|x| x.ts));
                (
                    s.key.clone(),
                    SeriesInfo {
                        key: s.key.to_string(),
                        samples: s.len(),
                        first_ts: first,
                        last_ts: s.newest(),
                    },
                )
            })
            .collect();
        out.sort_by(|a, b| a.0.cmp(&b.0));
        out.into_iter().map(|(_, i)| i).collect()
    }

    pub fn stats(&self) -> &Stats {
        &self.stats
    }

    pub fn shards(&self) -> &[Shard] {
        &self.shards
    }

    pub fn shards_mut(&mut self) -> &mut [Shard] {
        &mut self.shards
    }

    /// Seals every head (before an export, say).
    pub fn seal_all(&mut self) {
        for sh in &mut self.shards {
            for s in sh.series_mut() {
                s.seal();
            }
        }
    }
}
