//! How long a trial waited for the model: the union of the intervals during which at least
//! one of its calls was with the provider (from admission to the end of the answer, retries
//! and their backoff included). Concurrent calls count once.
//!
//! The harness reads it while the agent runs, so the agent's time limit counts the agent's
//! own time and a slow endpoint does not lose trials a fast one would finish (the limit's
//! wall-clock cap still bounds the whole). Reading only ever grows.

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

#[derive(Debug, Default)]
struct Inner {
    /// Calls with the provider now.
    busy: usize,
    /// When `busy` last went from 0 to 1.
    since: Option<Instant>,
    /// Closed intervals so far.
    total: Duration,
}

/// A trial's model-time clock, shared by its gateway's exchanges.
#[derive(Debug, Default)]
pub struct ModelClock {
    inner: Mutex<Inner>,
}

/// One call's share of the clock: the call counts as with the provider until this drops.
#[derive(Debug)]
pub struct Busy(Arc<ModelClock>);

impl ModelClock {
    pub fn new() -> Arc<ModelClock> {
        Arc::new(ModelClock::default())
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Inner> {
        self.inner.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// A call starts waiting for the provider.
    pub fn enter(self: &Arc<Self>) -> Busy {
        let mut i = self.lock();
        if i.busy == 0 {
            i.since = Some(Instant::now());
        }
        i.busy += 1;
        Busy(self.clone())
    }

    fn leave(&self) {
        let mut i = self.lock();
        i.busy = i.busy.saturating_sub(1);
        if i.busy == 0
            && let Some(s) = i.since.take()
        {
            i.total += s.elapsed();
        }
    }

    /// The time some call was with the provider, the current interval included.
    pub fn total(&self) -> Duration {
        let i = self.lock();
        i.total + i.since.map_or(Duration::ZERO, |s| s.elapsed())
    }
}

impl Drop for Busy {
    fn drop(&mut self) {
        self.0.leave();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn overlapping_calls_count_once_and_gaps_not_at_all() {
        let clock = ModelClock::new();
        let a = clock.enter();
        std::thread::sleep(Duration::from_millis(40));
        let b = clock.enter();
        std::thread::sleep(Duration::from_millis(40));
        drop(a);
        std::thread::sleep(Duration::from_millis(40));
        drop(b);
        let busy = clock.total();
        // a and b overlap: 120 ms of wall time with some call in flight.
        assert!(busy >= Duration::from_millis(120), "{busy:?}");
        std::thread::sleep(Duration::from_millis(60));
        assert_eq!(clock.total(), busy, "a gap adds nothing");
        let c = clock.enter();
        std::thread::sleep(Duration::from_millis(20));
        assert!(
            clock.total() >= busy + Duration::from_millis(20),
            "the open interval counts"
        );
        drop(c);
        assert!(busy < Duration::from_millis(400), "{busy:?}");
    }
}
