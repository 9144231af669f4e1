use crate::error::{Error, Result};
use crate::model::Labels;
use crate::query::{select, Selector, TimeRange};
use crate::rollup::agg::{Across, Agg};
use crate::rollup::group::Groups;
use crate::rollup::window::window_starts;
use crate::storage::Db;

/// A roll-up: for each window of `step` in `range`, each series matched by `selector` is
/// reduced by `agg`, and the series of each group (same values of the labels in `by`) are
/// combined by `across`.
#[derive(Debug, Clone)]
pub struct RollupSpec {
    pub selector: Selector,
    pub agg: Agg,
    pub across: Across,
    pub by: Vec<String>,
    pub step: i64,
    pub range: TimeRange,
}

/// One group's value in one window.
#[derive(Debug, Clone, PartialEq)]
pub struct Row {
    pub start: i64,
    pub group: Labels,
    pub value: f64,
    /// How many series were combined.
    pub series: usize,
}

/// The rows of `spec`, by window, then by group.
pub fn run(db: &Db, spec: &RollupSpec) -> Result<Vec<Row>> {
    if spec.step <= 0 {
        return Err(Error::Usage("the step must be positive".into()));
    }
    let selected = select(db, &spec.selector, spec.range)?;
    let mut rows = Vec::new();
    for start in window_starts(spec.range.start, spec.range.end, spec.step) {
        let window = TimeRange::new(start.max(spec.range.start), (start + spec.step).min(spec.range.end));
        let mut groups = Groups::new(&spec.by);
        for s in &selected {
            let lo = s.samples.partition_point(|x| x.ts < window.start);
            let hi = s.samples.partition_point(|x| x.ts < window.end);
            if lo < hi {
                groups.add(&s.key.labels, spec.agg.apply(&s.samples[lo..hi], spec.step));
            }
        }
        let mut window_rows: Vec<Row> = groups
            .into_groups()
            .into_iter()
            .map(|(group, values)| Row {
                start,
                value: spec.across.apply(&values),
                series: values.len(),
                group,
            })
            .collect();
        window_rows.sort_by(|a, b| a.group.cmp(&b.group));
        rows.extend(window_rows);
    }
    Ok(rows)
}
