/// Times from `start` (included) to `end` (excluded), in milliseconds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TimeRange {
    pub start: i64,
    pub end: i64,
}

impl TimeRange {
    pub fn new(start: i64, end: i64) -> TimeRange {
        TimeRange { start, end }
    }

    pub fn all() -> TimeRange {
        TimeRange {
            start: i64::MIN,
            end: i64::MAX,
        }
    }

    pub fn contains(&self, ts: i64) -> bool {
        ts >= self.start && ts < self.end
    }

    /// Whether `[lo, hi]` (both included) meets the range.
    pub fn overlaps(&self, lo: i64, hi: i64) -> bool {
        hi >= self.start && lo < self.end
    }
}
