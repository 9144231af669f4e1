//! A provider's pace, shared by every gateway that calls it (all the trials of a sweep that
//! use one provider): requests spread evenly to stay under a requests-per-minute limit, and
//! a cool-down after the provider says it is rate-limited or overloaded (HTTP 429, 503,
//! 529), for as long as its `Retry-After` asks (bounded by the call policy's `max_backoff`).
//!
//! A pace belongs to one provider, so a model that gets 429s slows down without slowing
//! the others. It never adds retries: the [`crate::CallPolicy`]'s `max_retries` still
//! bounds every request, so a provider that keeps refusing ends as an error naming it.

use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;
use tokio::time::Instant;

/// HTTP statuses that mean "slow down" rather than "this request is wrong".
pub const SLOW_DOWN_STATUSES: [u16; 3] = [429, 503, 529];

pub struct Pace {
    name: String,
    /// The gap between two request starts (`60 s / rpm`), when paced.
    interval: Option<Duration>,
    state: Mutex<State>,
    slowed: AtomicU64,
    waited_ms: AtomicU64,
    requests: AtomicU64,
}

struct State {
    /// The earliest start of the next request under the rpm limit.
    next_slot: Instant,
    /// No request starts before this (after a 429/503/529).
    cool_until: Instant,
}

/// What a pace did, for the sweep's summary.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct PaceStats {
    /// Requests that went through the pace.
    pub requests: u64,
    /// Answers that asked it to slow down (429, 503, 529).
    pub slowed: u64,
    /// Time requests spent waiting for their turn, added up.
    pub waited: Duration,
}

impl std::fmt::Debug for Pace {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Pace")
            .field("name", &self.name)
            .field("interval", &self.interval)
            .field("stats", &self.stats())
            .finish()
    }
}

impl Pace {
    /// A pace for the provider `name`, at most `rpm` requests a minute (None: unpaced,
    /// only cool-downs).
    pub fn new(name: impl Into<String>, rpm: Option<u32>) -> Pace {
        let now = Instant::now();
        Pace {
            name: name.into(),
            interval: rpm.filter(|r| *r > 0).map(|r| Duration::from_secs(60) / r),
            state: Mutex::new(State {
                next_slot: now,
                cool_until: now,
            }),
            slowed: AtomicU64::new(0),
            waited_ms: AtomicU64::new(0),
            requests: AtomicU64::new(0),
        }
    }

    pub fn name(&self) -> &str {
        &self.name
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, State> {
        // The state is two instants; a panic elsewhere cannot leave it inconsistent.
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Takes this request's slot at `now`: the instant it may start (past any cool-down,
    /// and one rpm gap after the slot before it).
    fn reserve(&self, now: Instant) -> Instant {
        let mut s = self.lock();
        let slot = s.next_slot.max(now).max(s.cool_until);
        if let Some(gap) = self.interval {
            s.next_slot = slot + gap;
        }
        slot
    }

    /// When the current cool-down ends (in the past when there is none).
    fn cool_until(&self) -> Instant {
        self.lock().cool_until
    }

    /// Waits for this request's turn: its rpm slot, then past any cool-down (which may be
    /// set or lengthened while it sleeps). Returns how long it slept (zero when it did not).
    pub async fn wait(&self) -> Duration {
        self.requests.fetch_add(1, Ordering::Relaxed);
        let started = Instant::now();
        let mut until = self.reserve(started);
        let mut slept = false;
        while until > Instant::now() {
            slept = true;
            tokio::time::sleep_until(until).await;
            until = self.cool_until();
        }
        if !slept {
            return Duration::ZERO;
        }
        let waited = started.elapsed();
        self.waited_ms
            .fetch_add(waited.as_millis() as u64, Ordering::Relaxed);
        waited
    }

    /// The provider said to slow down: no request starts for `wait` (its `Retry-After`, or
    /// the caller's backoff), capped at `cap`.
    pub fn cool_down(&self, wait: Duration, cap: Duration) {
        self.cool_down_at(Instant::now(), wait, cap);
    }

    fn cool_down_at(&self, now: Instant, wait: Duration, cap: Duration) {
        self.slowed.fetch_add(1, Ordering::Relaxed);
        let wait = wait.min(cap);
        let until = now + wait;
        let mut s = self.lock();
        if until > s.cool_until {
            s.cool_until = until;
        }
        drop(s);
        tracing::info!(provider = %self.name, wait_ms = wait.as_millis() as u64, "provider asked to slow down; pausing its requests");
    }

    pub fn stats(&self) -> PaceStats {
        PaceStats {
            requests: self.requests.load(Ordering::Relaxed),
            slowed: self.slowed.load(Ordering::Relaxed),
            waited: Duration::from_millis(self.waited_ms.load(Ordering::Relaxed)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn secs(s: f64) -> Duration {
        Duration::from_secs_f64(s)
    }

    #[test]
    fn slots_are_spread_by_rpm() {
        let (pace, unpaced) = (Pace::new("p", Some(60)), Pace::new("q", None));
        let t0 = Instant::now();
        assert_eq!(pace.reserve(t0), t0);
        assert_eq!(pace.reserve(t0), t0 + secs(1.0));
        assert_eq!(pace.reserve(t0 + secs(0.5)), t0 + secs(2.0));
        // After a quiet spell the next request goes at once.
        assert_eq!(pace.reserve(t0 + secs(10.0)), t0 + secs(10.0));
        assert_eq!(unpaced.reserve(t0), t0);
        assert_eq!(unpaced.reserve(t0), t0);
    }

    #[test]
    fn a_cool_down_holds_back_this_pace_only_and_is_capped() {
        let (slow, other) = (Pace::new("slow", None), Pace::new("other", None));
        let t0 = Instant::now();
        slow.cool_down_at(t0, secs(3600.0), secs(5.0));
        assert_eq!(slow.reserve(t0), t0 + secs(5.0));
        assert_eq!(other.reserve(t0), t0);
        // A shorter cool-down never shortens a longer one.
        slow.cool_down_at(t0, secs(1.0), secs(5.0));
        assert_eq!(slow.cool_until(), t0 + secs(5.0));
        assert_eq!(slow.stats().slowed, 2);
        assert_eq!(other.stats(), PaceStats::default());
    }

    #[test]
    fn a_cool_down_moves_the_rpm_slots_after_it() {
        let pace = Pace::new("p", Some(120));
        let t0 = Instant::now();
        assert_eq!(pace.reserve(t0), t0);
        pace.cool_down_at(t0, secs(2.0), secs(30.0));
        assert_eq!(pace.reserve(t0), t0 + secs(2.0));
        assert_eq!(pace.reserve(t0), t0 + secs(2.5));
    }

    #[tokio::test]
    async fn an_unpaced_request_does_not_wait() {
        let pace = Pace::new("p", None);
        assert_eq!(pace.wait().await, Duration::ZERO);
        assert_eq!(pace.stats().requests, 1);
        assert_eq!(pace.stats().waited, Duration::ZERO);
    }
}
