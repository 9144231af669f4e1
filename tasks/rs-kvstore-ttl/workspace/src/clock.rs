//! Where an engine gets the time: milliseconds since the Unix epoch.

use std::cell::Cell;
use std::rc::Rc;
use std::time::{SystemTime, UNIX_EPOCH};

pub trait Clock {
    /// Milliseconds since the Unix epoch.
    fn now_ms(&self) -> u64;
}

/// The operating system's wall clock.
#[derive(Debug, Clone, Copy, Default)]
pub struct SystemClock;

impl Clock for SystemClock {
    fn now_ms(&self) -> u64 {
        SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map(|d| d.as_millis() as u64)
            .unwrap_or(0)
    }
}

/// A clock that moves only when told to. Clones share the same time, so a test keeps one
/// handle and gives another to the engine.
#[derive(Debug, Clone)]
pub struct ManualClock {
    now: Rc<Cell<u64>>,
}

impl ManualClock {
    pub fn new(start_ms: u64) -> ManualClock {
        ManualClock {
            now: Rc::new(Cell::new(start_ms)),
        }
    }

    /// Moves the clock forward by `ms` milliseconds.
    pub fn advance(&self, ms: u64) {
        self.now.set(self.now.get() + ms);
    }

    /// Sets the clock to `ms`.
    pub fn set(&self, ms: u64) {
        self.now.set(ms);
    }
}

impl Clock for ManualClock {
    fn now_ms(&self) -> u64 {
        self.now.get()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clones_share_the_time() {
        let a = ManualClock::new(1_000);
        let b = a.clone();
        a.advance(250);
        assert_eq!(b.now_ms(), 1_250);
        b.set(5);
        assert_eq!(a.now_ms(), 5);
    }

    #[test]
    fn the_system_clock_is_after_2020() {
        assert!(SystemClock.now_ms() > 1_577_836_800_000);
    }
}
