//! A bundled trial record against the same trial played again: the verdict, the tests
//! passed, the steps and the tokens must be equal; where they are not, the first
//! difference and, for a model trial, the first request that left the recorded ones.

use nab_protocol::{TrialRecord, TrialStatus};

/// What must come out the same.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Verdict {
    pub status: TrialStatus,
    pub tests_passed: Option<u32>,
    pub tests_total: Option<u32>,
    pub steps: Option<u64>,
    pub input_tokens: Option<u64>,
    pub output_tokens: Option<u64>,
}

impl Verdict {
    pub fn of(r: &TrialRecord) -> Verdict {
        Verdict {
            status: r.outcome.status,
            tests_passed: r.outcome.tests_passed,
            tests_total: r.outcome.tests_total,
            steps: r.behaviour.steps,
            input_tokens: r.usage.input_tokens,
            output_tokens: r.usage.output_tokens,
        }
    }

    /// `passed 9/9, 12 steps, 5320+812 tokens`.
    pub fn describe(&self) -> String {
        let tests = match (self.tests_passed, self.tests_total) {
            (Some(p), Some(t)) => format!(" {p}/{t}"),
            _ => String::new(),
        };
        let steps = self
            .steps
            .map(|s| format!(", {s} steps"))
            .unwrap_or_default();
        let tokens = match (self.input_tokens, self.output_tokens) {
            (Some(i), Some(o)) => format!(", {i}+{o} tokens"),
            _ => String::new(),
        };
        format!("{}{tests}{steps}{tokens}", self.status.as_str())
    }
}

/// One trial's comparison.
#[derive(Debug, Clone)]
pub struct Compared {
    pub task: String,
    pub trial: u32,
    pub recorded: Verdict,
    /// `None`: the trial was not recorded when played again (the regrade was stopped).
    pub replayed: Option<Verdict>,
    /// Why it differs, in words (`None`: identical).
    pub divergence: Option<String>,
}

/// Compares a trial's record with its replay; `first_request` is where its requests first
/// left the recorded ones, if they did.
pub fn compare(
    recorded: &TrialRecord,
    replayed: Option<&TrialRecord>,
    first_request: Option<String>,
) -> Compared {
    let want = Verdict::of(recorded);
    let got = replayed.map(Verdict::of);
    let divergence = match &got {
        None => Some("it was not played again (the regrade stopped before it)".to_owned()),
        Some(g) if *g == want && first_request.is_none() => None,
        Some(g) => {
            let mut why = if *g == want {
                "the verdict matches but".to_owned()
            } else {
                format!(
                    "recorded {}, played again {}",
                    want.describe(),
                    g.describe()
                )
            };
            if let Some(r) = replayed.and_then(|r| r.outcome.error.as_deref()) {
                why.push_str(&format!("; the replay's error: {r}"));
            }
            if let Some(req) = first_request {
                why.push_str(&format!("; {req}"));
            }
            Some(why)
        }
    };
    Compared {
        task: recorded.task_id.clone(),
        trial: recorded.trial,
        recorded: want,
        replayed: got,
        divergence,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(status: TrialStatus, passed: u32, steps: u64) -> TrialRecord {
        let mut r = TrialRecord::new("r", "t", "bug-fix", 0, "nab-agent");
        r.outcome.status = status;
        r.outcome.tests_passed = Some(passed);
        r.outcome.tests_total = Some(3);
        r.behaviour.steps = Some(steps);
        r
    }

    #[test]
    fn identical_trials_have_no_divergence_and_any_difference_is_named() {
        let a = record(TrialStatus::Passed, 3, 5);
        assert_eq!(compare(&a, Some(&a), None).divergence, None);
        let flipped = record(TrialStatus::Failed, 1, 5);
        let d = compare(&flipped, Some(&a), None).divergence.unwrap();
        assert!(
            d.contains("recorded failed 1/3, 5 steps, played again passed 3/3, 5 steps"),
            "{d}"
        );
        let d = compare(&a, Some(&a), Some("model call 2 differs".into()))
            .divergence
            .unwrap();
        assert!(d.contains("model call 2 differs"), "{d}");
        assert!(compare(&a, None, None).divergence.is_some());
    }
}
