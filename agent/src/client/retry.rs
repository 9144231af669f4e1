//! Backoff for 429/5xx: exponential with jitter, and never sooner than `Retry-After`.

use std::time::Duration;

use rand::Rng;

#[derive(Debug, Clone)]
pub struct RetryPolicy {
    /// Retries after the first attempt.
    pub max_retries: u32,
    pub base_delay: Duration,
    pub max_delay: Duration,
}

impl Default for RetryPolicy {
    fn default() -> Self {
        RetryPolicy {
            max_retries: 4,
            base_delay: Duration::from_millis(500),
            max_delay: Duration::from_secs(30),
        }
    }
}

impl RetryPolicy {
    /// The wait before retry number `attempt` (1-based): `base * 2^(attempt-1)` capped at
    /// `max_delay`, scaled by a random factor in [0.5, 1.0) so that many agents hitting one
    /// limit do not come back in lockstep. A server's `Retry-After` is a floor (capped at
    /// two minutes so a bad header cannot hang the run).
    pub fn delay(&self, attempt: u32, retry_after: Option<Duration>) -> Duration {
        let exp = self
            .base_delay
            .saturating_mul(1u32 << attempt.saturating_sub(1).min(16))
            .min(self.max_delay);
        let jitter: f64 = rand::rng().random_range(0.5..1.0);
        let backoff = exp.mul_f64(jitter);
        match retry_after {
            Some(ra) => backoff.max(ra.min(Duration::from_secs(120))),
            None => backoff,
        }
    }
}

/// Reads `Retry-After` given in seconds (the HTTP-date form is rare on APIs and ignored).
pub fn retry_after(headers: &http::HeaderMap) -> Option<Duration> {
    let v = headers
        .get(http::header::RETRY_AFTER)?
        .to_str()
        .ok()?
        .trim();
    if let Ok(secs) = v.parse::<u64>() {
        return Some(Duration::from_secs(secs));
    }
    v.parse::<f64>()
        .ok()
        .filter(|s| s.is_finite() && *s >= 0.0)
        .map(Duration::from_secs_f64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn backoff_grows_is_capped_and_honours_retry_after() {
        let p = RetryPolicy {
            max_retries: 5,
            base_delay: Duration::from_millis(100),
            max_delay: Duration::from_millis(400),
        };
        for _ in 0..50 {
            let d1 = p.delay(1, None);
            assert!(
                d1 >= Duration::from_millis(50) && d1 < Duration::from_millis(100),
                "{d1:?}"
            );
            let d5 = p.delay(5, None);
            assert!(
                d5 >= Duration::from_millis(200) && d5 < Duration::from_millis(400),
                "{d5:?}"
            );
            assert!(p.delay(1, Some(Duration::from_secs(2))) >= Duration::from_secs(2));
        }
        let mut h = http::HeaderMap::new();
        h.insert(http::header::RETRY_AFTER, "3".parse().unwrap());
        assert_eq!(retry_after(&h), Some(Duration::from_secs(3)));
        h.insert(http::header::RETRY_AFTER, "soon".parse().unwrap());
        assert_eq!(retry_after(&h), None);
    }
}
