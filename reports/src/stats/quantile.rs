//! Quantiles of a sample (for token, step and tool-failure distributions).

/// The q-quantile by linear interpolation between order statistics (Hyndman–Fan type 7,
/// the default of R and numpy): with the sorted sample x₍₁₎..x₍ₙ₎ and h = (n−1)·q,
///
/// ```text
/// Q(q) = x₍⌊h⌋+1₎ + (h − ⌊h⌋)·(x₍⌊h⌋+2₎ − x₍⌊h⌋+1₎)
/// ```
///
/// `None` for an empty sample. NaNs are ignored.
pub fn quantile(values: &[f64], q: f64) -> Option<f64> {
    let mut v: Vec<f64> = values.iter().copied().filter(|x| !x.is_nan()).collect();
    if v.is_empty() {
        return None;
    }
    v.sort_by(f64::total_cmp);
    let h = (v.len() - 1) as f64 * q.clamp(0.0, 1.0);
    let lo = h.floor() as usize;
    let hi = (lo + 1).min(v.len() - 1);
    Some(v[lo] + (h - lo as f64) * (v[hi] - v[lo]))
}

/// The median: [`quantile`] at 0.5.
pub fn median(values: &[f64]) -> Option<f64> {
    quantile(values, 0.5)
}

/// The 90th percentile: [`quantile`] at 0.9.
pub fn p90(values: &[f64]) -> Option<f64> {
    quantile(values, 0.9)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn median_and_p90_interpolate_like_numpy() {
        let v = [10.0, 1.0, 4.0, 3.0, 2.0, 5.0, 6.0, 7.0, 8.0, 9.0];
        assert_eq!(median(&v), Some(5.5));
        // h = 9·0.9 = 8.1 → 9 + 0.1·(10 − 9)
        assert!((p90(&v).unwrap() - 9.1).abs() < 1e-12);
        assert_eq!(median(&[]), None);
        assert_eq!(median(&[7.0]), Some(7.0));
    }
}
