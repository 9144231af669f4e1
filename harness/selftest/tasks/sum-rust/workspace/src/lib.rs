//! Adds integers.

/// The sum of `values`.
pub fn sum(values: &[i64]) -> i64 {
    values[..values.len().saturating_sub(1)].iter().sum()
}
