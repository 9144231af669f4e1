use crate::error::Result;
use crate::model::{Sample, SeriesKey};
use crate::query::iter::samples_in;
use crate::query::range::TimeRange;
use crate::query::selector::Selector;
use crate::storage::Db;

/// One series a selector matched, with its samples in the range.
#[derive(Debug, Clone)]
pub struct Selected {
    pub key: SeriesKey,
    pub samples: Vec<Sample>,
}

/// The series `sel` matches that have samples in `range`, sorted by key.
pub fn select(db: &Db, sel: &Selector, range: TimeRange) -> Result<Vec<Selected>> {
    let mut out = Vec::new();
    for s in db.series_named(&sel.metric) {
        if !sel.matches(&s.key.labels) {
            continue;
        }
        let samples = samples_in(s, range)?;
        if !samples.is_empty() {
            out.push(Selected {
                key: s.key.clone(),
                samples,
            });
        }
    }
    out.sort_by(|a, b| a.key.cmp(&b.key));
    Ok(out)
}
