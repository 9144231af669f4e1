use crate::error::Result;
use crate::model::Sample;
use crate::query::range::TimeRange;
use crate::storage::Series;

/// The samples of `series` inside `range`, in time order: the chunks that meet the range,
/// decoded, then the head.
pub fn samples_in(series: &Series, range: TimeRange) -> Result<Vec<Sample>> {
    let mut out = Vec::new();
    for c in series.chunks() {
        if !range.overlaps(c.min_ts(), c.max_ts()) {
            continue;
        }
        out.extend(c.decode()?.into_iter().filter(|s| range.contains(s.ts)));
    }
    out.extend(
        series
            .head()
            .samples()
            .iter()
            .copied()
            .filter(|s| range.contains(s.ts)),
    );
    Ok(out)
}
