use crate::model::Sample;

/// How much a counter grew over `samples` (in time order): every rise counts, and a fall
/// is a restart from zero, so the value after it counts whole.
pub fn increase(samples: &[Sample]) -> f64 {
    let mut total = 0.0;
    for w in samples.windows(2) {
        let (a, b) = (w[0].value, w[1].value);
        if b >= a {
            total += b - a;
        } else {
            total += b;
        }
    }
    total
}

/// The counter's increase per second over a window of `window_ms`.
pub fn rate(samples: &[Sample], window_ms: i64) -> f64 {
    if window_ms <= 0 {
        return f64::NAN;
    }
    increase(samples) * 1000.0 / window_ms as f64
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(v: &[f64]) -> Vec<Sample> {
        v.iter()
            .enumerate()
            .map(|(i, &x)| Sample::new(i as i64 * 1000, x))
            .collect()
    }

    #[test]
    fn resets_count_from_zero() {
        assert_eq!(increase(&s(&[10.0, 15.0, 20.0])), 10.0);
        assert_eq!(increase(&s(&[10.0, 15.0, 3.0, 5.0])), 10.0);
        assert_eq!(increase(&s(&[7.0])), 0.0);
        assert_eq!(rate(&s(&[0.0, 60.0]), 60_000), 1.0);
    }
}
