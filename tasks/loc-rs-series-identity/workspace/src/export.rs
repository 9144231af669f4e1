use crate::error::Result;
use crate::query::iter::samples_in;
use crate::query::TimeRange;
use crate::report::format_value;
use crate::storage::Db;

/// Every sample of every series in the text format, series by key, samples by time.
pub fn export(db: &Db) -> Result<String> {
    let mut series: Vec<_> = db.all_series().collect();
    series.sort_by(|a, b| a.key.cmp(&b.key));
    let mut out = String::new();
    for s in series {
        let labels = s.key.labels.to_string();
        let labels = if labels == "{}" { String::new() } else { labels };
        for x in samples_in(s, TimeRange::all())? {
            out.push_str(&format!("{}{} {} {}\n", s.key.name, labels, format_value(x.value), x.ts));
        }
    }
    Ok(out)
}
