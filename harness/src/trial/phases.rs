//! The trial's lap clock: each phase is timed from the end of the one before it, so the
//! phases of the record add up to the trial's wall time (see [`nab_protocol::PhaseTimes`]).

use nab_protocol::{PhaseTimes, TrialPhase};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// Shared by the phases of one trial (behind `&`, across awaits).
pub(crate) struct PhaseClock {
    inner: Mutex<Laps>,
}

struct Laps {
    mark: Instant,
    times: PhaseTimes,
}

fn ms(d: Duration) -> u64 {
    u64::try_from(d.as_millis()).unwrap_or(u64::MAX)
}

impl PhaseClock {
    /// Starts the clock: the first lap runs from now.
    pub(crate) fn start() -> PhaseClock {
        PhaseClock {
            inner: Mutex::new(Laps {
                mark: Instant::now(),
                times: PhaseTimes::default(),
            }),
        }
    }

    fn laps(&self) -> std::sync::MutexGuard<'_, Laps> {
        self.inner.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Ends a lap: the time since the last one is `phase`'s.
    pub(crate) fn lap(&self, phase: TrialPhase) {
        let now = Instant::now();
        let mut l = self.laps();
        let spent = now.saturating_duration_since(l.mark);
        l.times.add(phase, ms(spent));
        l.mark = now;
    }

    /// Ends a lap made of parts timed elsewhere (on a blocking thread): `parts` are taken
    /// out of it, in order, and what is left is `phase`'s.
    pub(crate) fn lap_split(&self, phase: TrialPhase, parts: &[(TrialPhase, Duration)]) {
        let now = Instant::now();
        let mut l = self.laps();
        let mut left = now.saturating_duration_since(l.mark);
        for (p, d) in parts {
            let d = (*d).min(left);
            left -= d;
            l.times.add(*p, ms(d));
        }
        l.times.add(phase, ms(left));
        l.mark = now;
    }

    /// Notes `phase` as run beside earlier ones, with nothing left to wait for: it is in
    /// the record, at 0 ms unless a lap adds to it.
    pub(crate) fn beside(&self, phase: TrialPhase) {
        self.laps().times.add(phase, 0);
    }

    /// The phases timed so far.
    pub(crate) fn times(&self) -> PhaseTimes {
        self.laps().times
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn laps_add_up_to_the_wall_time_and_split_parts_come_out_of_their_lap() {
        let started = Instant::now();
        let clock = PhaseClock::start();
        std::thread::sleep(Duration::from_millis(20));
        clock.lap(TrialPhase::Prepare);
        std::thread::sleep(Duration::from_millis(30));
        clock.lap_split(
            TrialPhase::WorkspaceOut,
            &[(TrialPhase::Diff, Duration::from_millis(10))],
        );
        let wall = ms(started.elapsed());
        let t = clock.times();
        assert!(t.get(TrialPhase::Prepare).unwrap() >= 20, "{t:?}");
        assert_eq!(t.get(TrialPhase::Diff), Some(10));
        assert!(t.get(TrialPhase::WorkspaceOut).unwrap() >= 19, "{t:?}");
        // Rounding down each lap loses under a millisecond per phase.
        assert!(
            t.total() <= wall && t.total() + 3 >= wall,
            "{t:?} vs {wall}"
        );
        assert_eq!(t.get(TrialPhase::Tests), None);
    }
}
