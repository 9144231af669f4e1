//! Stops a run whose provider configuration is wrong before any trial is scored on it.
//!
//! A bad key (401/403) or a model the provider does not know (404) would otherwise end every
//! trial as the model's failure: a leaderboard would show the model at 0% with no error at
//! all. So the first trial that ends on such an answer stops the run (its record is not
//! written, running trials are cancelled like a Ctrl-C, and `--resume` runs them after the
//! fix). A 400 is weaker evidence (usually the request's own fault), so trials whose calls
//! were all refused with 400 are held back while no call of the run has been answered: when
//! [`REJECTED_400_CALLS`] such refusals pile up before any answer, the run stops the same
//! way; as soon as one call is answered, the held trials are scored as usual.

use crate::trial::provider_answers::ProviderAnswers;
use nab_protocol::TrialRecord;
use std::sync::Mutex;
use tokio_util::sync::CancellationToken;

/// HTTP 400 refusals, with no call of the run answered, after which the run stops.
pub(super) const REJECTED_400_CALLS: u64 = 3;

#[derive(Default)]
struct State {
    /// Some call of the run was answered: the configuration works.
    answered: bool,
    /// 400 refusals seen while nothing was answered.
    rejected_400: u64,
    /// Trials held back while the 400s are unexplained.
    held: Vec<TrialRecord>,
    /// Held trials a later answer cleared, not yet written.
    released: Vec<TrialRecord>,
    /// Why the run stopped.
    stopped: Option<String>,
}

/// One per run (shared by its trials; [`crate::run::RunContext::guard`]).
pub struct ProviderGuard {
    state: Mutex<State>,
    cancel: CancellationToken,
}

impl ProviderGuard {
    /// A guard that stops the run by cancelling `cancel`.
    pub fn new(cancel: CancellationToken) -> ProviderGuard {
        ProviderGuard {
            state: Mutex::new(State::default()),
            cancel,
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Stops the run with `why` (the first reason wins).
    pub fn stop(&self, why: String) {
        self.lock().stopped.get_or_insert(why);
        self.cancel.cancel();
    }

    /// Why the run stopped, if it did.
    pub fn stopped(&self) -> Option<String> {
        self.lock().stopped.clone()
    }

    /// Takes a finished trial's record and what the provider answered it: the record to
    /// write now, or `None` when it is held back (or the run has stopped).
    pub fn admit(&self, rec: TrialRecord, answers: &ProviderAnswers) -> Option<TrialRecord> {
        let mut s = self.lock();
        if s.stopped.is_some() {
            return None;
        }
        if answers.answered > 0 {
            if !s.answered {
                s.answered = true;
                let held = std::mem::take(&mut s.held);
                s.released.extend(held);
            }
            return Some(rec);
        }
        if s.answered || answers.rejected_400 == 0 {
            return Some(rec);
        }
        s.rejected_400 += answers.rejected_400;
        s.held.push(rec);
        if s.rejected_400 >= REJECTED_400_CALLS {
            let first = answers.first_400.clone().unwrap_or_default();
            s.stopped = Some(format!(
                "the provider refused the run's first {} model calls and answered none: {first}",
                s.rejected_400
            ));
            s.held.clear();
            drop(s);
            self.cancel.cancel();
        }
        None
    }

    /// Held trials a later answer cleared: write them now.
    pub fn take_released(&self) -> Vec<TrialRecord> {
        std::mem::take(&mut self.lock().released)
    }

    /// At the end of the run: trials still held (too few 400s to call it a configuration
    /// error) are scored as usual; none when the run stopped.
    pub fn finish(&self) -> Vec<TrialRecord> {
        let mut s = self.lock();
        if s.stopped.is_some() {
            return Vec::new();
        }
        let mut out = std::mem::take(&mut s.released);
        out.append(&mut s.held);
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rec(task: &str) -> TrialRecord {
        TrialRecord::new("r", task, "c", 0, "a")
    }

    fn refused(n: u64) -> ProviderAnswers {
        ProviderAnswers {
            rejected_400: n,
            first_400: Some("HTTP 400 from p: \"Model Not Exist\"".into()),
            ..ProviderAnswers::default()
        }
    }

    #[test]
    fn three_400s_before_any_answer_stop_the_run_and_score_nothing() {
        let cancel = CancellationToken::new();
        let g = ProviderGuard::new(cancel.clone());
        assert_eq!(g.admit(rec("a"), &refused(1)), None);
        assert_eq!(g.admit(rec("b"), &refused(1)), None);
        assert!(!cancel.is_cancelled());
        assert_eq!(g.admit(rec("c"), &refused(1)), None);
        assert!(cancel.is_cancelled());
        let why = g.stopped().unwrap();
        assert!(
            why.contains("first 3 model calls") && why.contains("Model Not Exist"),
            "{why}"
        );
        assert!(g.finish().is_empty(), "no trial is scored");
        assert_eq!(g.admit(rec("d"), &ProviderAnswers::default()), None);
    }

    #[test]
    fn an_answered_call_releases_held_trials_and_400s_after_it_are_scored() {
        let g = ProviderGuard::new(CancellationToken::new());
        assert_eq!(g.admit(rec("a"), &refused(1)), None);
        let ok = ProviderAnswers {
            answered: 2,
            ..ProviderAnswers::default()
        };
        assert!(g.admit(rec("b"), &ok).is_some());
        assert_eq!(g.take_released(), vec![rec("a")]);
        // The provider works: a 400 now is the request's own (e.g. a prompt too long).
        assert!(g.admit(rec("c"), &refused(5)).is_some());
        assert!(g.stopped().is_none() && g.finish().is_empty());
    }

    #[test]
    fn too_few_400s_to_be_sure_are_scored_at_the_end() {
        let g = ProviderGuard::new(CancellationToken::new());
        assert_eq!(g.admit(rec("a"), &refused(1)), None);
        // A trial without model calls says nothing either way.
        assert!(g.admit(rec("b"), &ProviderAnswers::default()).is_some());
        assert_eq!(g.finish(), vec![rec("a")]);
        g.stop("HTTP 401 from p: \"bad key\"".into());
        assert_eq!(g.stopped().as_deref(), Some("HTTP 401 from p: \"bad key\""));
    }
}
