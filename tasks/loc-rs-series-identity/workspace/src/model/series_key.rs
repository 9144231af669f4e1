use crate::error::Result;
use crate::hash::{combine, Fnv};
use crate::model::labels::Labels;
use crate::model::name::check_metric_name;
use std::fmt;

/// What names a series: the metric name and its labels.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct SeriesKey {
    pub name: String,
    pub labels: Labels,
}

impl SeriesKey {
    pub fn new(name: &str, labels: Labels) -> Result<SeriesKey> {
        check_metric_name(name)?;
        Ok(SeriesKey {
            name: name.to_string(),
            labels,
        })
    }

    /// The series' fingerprint: its name's and its labels'.
    pub fn fingerprint(&self) -> u64 {
        let mut h = Fnv::new();
        h.write(self.name.as_bytes());
        combine(h.finish(), self.labels.fingerprint())
    }
}

impl fmt::Display for SeriesKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.name, self.labels)
    }
}
