use crate::error::{Error, Result};
use crate::model::Sample;
use crate::rollup::rate::rate;

/// How one series' samples in a window become one value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Agg {
    Sum,
    Avg,
    Min,
    Max,
    Count,
    Last,
    /// Counter increase per second over the window.
    Rate,
}

/// How the values of a group's series in a window become the group's value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Across {
    Sum,
    Avg,
    Min,
    Max,
    Count,
}

impl Agg {
    pub fn parse(s: &str) -> Result<Agg> {
        Ok(match s {
            "sum" => Agg::Sum,
            "avg" => Agg::Avg,
            "min" => Agg::Min,
            "max" => Agg::Max,
            "count" => Agg::Count,
            "last" => Agg::Last,
            "rate" => Agg::Rate,
            _ => return Err(Error::Usage(format!("unknown aggregation {:?}", s))),
        })
    }

    /// The value of `samples` (non-empty, in time order) for a window of `window_ms`.
    pub fn apply(self, samples: &[Sample], window_ms: i64) -> f64 {
        let values = samples.iter().map(|s| s.value);
        match self {
            Agg::Sum => compensated_sum(values),
            Agg::Avg => compensated_sum(values) / samples.len() as f64,
            Agg::Min => values.fold(f64::INFINITY, f64::min),
            Agg::Max => values.fold(f64::NEG_INFINITY, f64::max),
            Agg::Count => samples.len() as f64,
            Agg::Last => samples.last().map_or(f64::NAN, |s| s.value),
            Agg::Rate => rate(samples, window_ms),
        }
    }
}

impl Across {
    pub fn parse(s: &str) -> Result<Across> {
        Ok(match s {
            "sum" => Across::Sum,
            "avg" => Across::Avg,
            "min" => Across::Min,
            "max" => Across::Max,
            "count" => Across::Count,
            _ => return Err(Error::Usage(format!("unknown combination {:?}", s))),
        })
    }

    pub fn apply(self, values: &[f64]) -> f64 {
        let it = values.iter().copied();
        match self {
            Across::Sum => compensated_sum(it),
            Across::Avg => compensated_sum(it) / values.len() as f64,
            Across::Min => it.fold(f64::INFINITY, f64::min),
            Across::Max => it.fold(f64::NEG_INFINITY, f64::max),
            Across::Count => values.len() as f64,
        }
    }
}

/// Kahan–Babuška summation: large and small values together lose nothing to rounding.
pub fn compensated_sum<I: Iterator<Item = f64>>(values: I) -> f64 {
    let mut sum = 0.0f64;
    let mut c = 0.0f64;
    for v in values {
        let t = sum + v;
        if sum.abs() >= v.abs() {
            c += (sum - t) + v;
        } else {
            c += (v - t) + sum;
        }
        sum = t;
    }
    sum + c
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sums_keep_small_values() {
        let v = vec![1e16, 1.0, -1e16];
        assert_eq!(compensated_sum(v.into_iter()), 1.0);
    }

    #[test]
    fn across() {
        assert_eq!(Across::Avg.apply(&[1.0, 2.0, 6.0]), 3.0);
        assert_eq!(Across::Count.apply(&[1.0, 2.0]), 2.0);
    }
}
