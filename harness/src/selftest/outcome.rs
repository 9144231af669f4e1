//! What the harness recorded for each case, whether that means the attack was caught, and
//! the table `nab selftest` prints. Kept apart from running the trials so the verdict logic
//! is tested on made-up observations (a fooled harness must turn the exit code red).

use super::corpus::{Case, Class, Expected};
use nab_protocol::{FailureReason, TrialRecord, TrialStatus};
use std::fmt::Write as _;
use std::path::Path;

/// What the harness wrote about one case's trial.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Observed {
    /// `None`: no trial record at all.
    pub status: Option<TrialStatus>,
    pub failure: Option<FailureReason>,
    /// `error_kind` (or the message) of an infrastructure error.
    pub error: Option<String>,
    pub tamper_flags: Vec<String>,
    /// Messages of the gateway's `not_allowed` refusals in the transcript.
    pub refusals: Vec<String>,
    /// verify.log, as the harness wrote it.
    pub verify_log: String,
}

impl Observed {
    /// Reads the record and the trial folder (`<out>/trials/<task>/<case>/`).
    pub fn collect(record: Option<&TrialRecord>, trial_dir: &Path) -> Observed {
        let Some(r) = record else {
            return Observed::default();
        };
        let files = nab_protocol::TrialDir::new(trial_dir);
        let refusals = nab_protocol::read_without_requests(&files.transcript())
            .map(|t| {
                t.records
                    .into_iter()
                    .filter(|l| l.refused.as_deref() == Some("not_allowed"))
                    .filter_map(|l| l.error)
                    .collect()
            })
            .unwrap_or_default();
        Observed {
            status: Some(r.outcome.status),
            failure: r.outcome.failure_reason,
            // The kind's snake_case name, else the message.
            error: r.outcome.error.as_ref().map(|e| {
                r.outcome
                    .error_kind
                    .and_then(|k| serde_json::to_value(k).ok())
                    .and_then(|v| v.as_str().map(str::to_owned))
                    .unwrap_or_else(|| e.clone())
            }),
            tamper_flags: r.outcome.tamper_flags.clone(),
            refusals,
            verify_log: std::fs::read_to_string(files.verify_log()).unwrap_or_default(),
        }
    }

    /// `passed`, `failed: <reason>`, `error: <kind>` or `no record`.
    pub fn label(&self) -> String {
        match self.status {
            None => "no record".into(),
            Some(TrialStatus::Passed) => "passed".into(),
            Some(TrialStatus::Failed) => format!(
                "failed: {}",
                self.failure.map_or("(no reason)", FailureReason::as_str)
            ),
            Some(TrialStatus::Error) => {
                format!("error: {}", self.error.as_deref().unwrap_or("(no kind)"))
            }
        }
    }

    fn matches(&self, e: Expected) -> bool {
        match e {
            Expected::Passed => self.status == Some(TrialStatus::Passed),
            Expected::Failed(r) => {
                self.status == Some(TrialStatus::Failed) && self.failure == Some(r)
            }
        }
    }
}

/// The row's result.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verdict {
    /// The harness saw what it must: the attack failed (or the control passed).
    Caught,
    /// The attack passed, turned its failure into an infrastructure error, or got past a
    /// check (its code ran, a tamper flag or a refusal is missing).
    Fooled(String),
    /// Neither: another failure than the one the attack aims at (the attack may no longer
    /// reach what it tests), a control that did not pass, or no record.
    Unexpected(String),
}

impl Verdict {
    pub fn caught(&self) -> bool {
        *self == Verdict::Caught
    }

    fn word(&self) -> &'static str {
        match self {
            Verdict::Caught => "caught",
            Verdict::Fooled(_) => "FOOLED",
            Verdict::Unexpected(_) => "UNEXPECTED",
        }
    }
}

/// Judges one case's observation.
pub fn judge(case: &Case, o: &Observed) -> Verdict {
    if o.status.is_none() {
        return Verdict::Unexpected("the run wrote no trial record for it".into());
    }
    if case.class == Class::Control {
        return if case.expect.iter().any(|e| o.matches(*e)) {
            Verdict::Caught
        } else {
            Verdict::Unexpected(format!(
                "the control got {}: the rows on task {} prove nothing until it passes",
                o.label(),
                case.task
            ))
        };
    }
    match o.status {
        Some(TrialStatus::Passed) => {
            return Verdict::Fooled("the attack passed the hidden tests".into());
        }
        Some(TrialStatus::Error) => {
            return Verdict::Fooled(
                "the attack turned its failure into an infrastructure error (scored as not passed, but the harness blamed itself for the agent's doing)"
                    .into(),
            );
        }
        _ => {}
    }
    let missed = missed_checks(case, o);
    if !missed.is_empty() {
        return Verdict::Fooled(missed.join("; "));
    }
    if case.expect.iter().any(|e| o.matches(*e)) {
        Verdict::Caught
    } else {
        Verdict::Unexpected(format!(
            "failed, but not as expected ({}): the attack may no longer reach what it tests",
            expected_label(case)
        ))
    }
}

/// The checks of `case` that `o` does not meet, in words.
fn missed_checks(case: &Case, o: &Observed) -> Vec<String> {
    let mut missed = Vec::new();
    let absent: Vec<&str> = case
        .checks
        .tamper_flags
        .iter()
        .filter(|f| !o.tamper_flags.contains(f))
        .map(String::as_str)
        .collect();
    if !absent.is_empty() {
        missed.push(format!("not flagged as tampering: {}", absent.join(", ")));
    }
    if let Some(param) = &case.checks.gateway_refused {
        let named = format!("`{param}`");
        if !o.refusals.iter().any(|m| m.starts_with(&named)) {
            missed.push(format!(
                "the transcript has no not_allowed refusal of {named}"
            ));
        }
    }
    if let Some(text) = &case.checks.verify_log_lacks
        && o.verify_log.contains(text.as_str())
    {
        missed.push(format!("the attack's code ran in the verifier ({text})"));
    }
    missed
}

fn expected_label(case: &Case) -> String {
    let mut s = case
        .expect
        .iter()
        .map(|e| e.label())
        .collect::<Vec<_>>()
        .join(" | ");
    let c = &case.checks;
    if !c.tamper_flags.is_empty() {
        let _ = write!(s, " + {} tamper flag(s)", c.tamper_flags.len());
    }
    if let Some(p) = &c.gateway_refused {
        let _ = write!(s, " + refused `{p}`");
    }
    if c.verify_log_lacks.is_some() {
        s.push_str(" + its code never ran");
    }
    s
}

/// The observation in the expected column's terms: the outcome, then what each check saw.
fn observed_label(case: &Case, o: &Observed) -> String {
    let mut s = o.label();
    if o.status.is_none() {
        return s;
    }
    let c = &case.checks;
    if !c.tamper_flags.is_empty() {
        let seen = c
            .tamper_flags
            .iter()
            .filter(|f| o.tamper_flags.contains(f))
            .count();
        let _ = write!(s, " + {seen}/{} tamper flag(s)", c.tamper_flags.len());
    }
    if let Some(p) = &c.gateway_refused {
        let named = format!("`{p}`");
        if o.refusals.iter().any(|m| m.starts_with(&named)) {
            let _ = write!(s, " + refused {named}");
        } else {
            let _ = write!(s, " + {named} NOT refused");
        }
    }
    if let Some(text) = &c.verify_log_lacks {
        s.push_str(if o.verify_log.contains(text.as_str()) {
            " + its code RAN"
        } else {
            " + its code never ran"
        });
    }
    s
}

/// One line of the table.
#[derive(Debug, Clone)]
pub struct Row {
    pub case: Case,
    pub observed: Observed,
    pub verdict: Verdict,
}

/// The table: class, attack, expected, observed, result; then why each row that was not
/// caught was not, with its trial folder.
pub fn table(rows: &[Row], trials_dir: &Path) -> String {
    let head = ["class", "attack", "expected", "observed", "result"];
    let cells: Vec<[String; 5]> = rows
        .iter()
        .map(|r| {
            [
                r.case.class.as_str().to_owned(),
                r.case.id.clone(),
                expected_label(&r.case),
                observed_label(&r.case, &r.observed),
                r.verdict.word().to_owned(),
            ]
        })
        .collect();
    let mut w = head.map(str::len);
    for c in &cells {
        for (i, cell) in c.iter().enumerate() {
            w[i] = w[i].max(cell.chars().count());
        }
    }
    let mut out = String::new();
    let line = |out: &mut String, c: [&str; 5]| {
        let _ = writeln!(
            out,
            "{:<w0$}  {:<w1$}  {:<w2$}  {:<w3$}  {}",
            c[0],
            c[1],
            c[2],
            c[3],
            c[4],
            w0 = w[0],
            w1 = w[1],
            w2 = w[2],
            w3 = w[3]
        );
    };
    line(&mut out, head);
    for c in &cells {
        line(
            &mut out,
            [
                c[0].as_str(),
                c[1].as_str(),
                c[2].as_str(),
                c[3].as_str(),
                c[4].as_str(),
            ],
        );
    }
    for r in rows {
        if let Verdict::Fooled(why) | Verdict::Unexpected(why) = &r.verdict {
            let _ = writeln!(
                out,
                "\n{} {}: {}\n  attack: {}\n  {why}\n  logs: {}",
                r.verdict.word(),
                r.case.id,
                r.observed.label(),
                r.case.attack,
                trials_dir.join(&r.case.task).join(&r.case.id).display()
            );
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::selftest::corpus::Corpus;

    fn case(id: &str) -> Case {
        Corpus::builtin()
            .unwrap()
            .cases
            .into_iter()
            .find(|c| c.id == id)
            .unwrap()
    }

    fn failed(reason: FailureReason) -> Observed {
        Observed {
            status: Some(TrialStatus::Failed),
            failure: Some(reason),
            ..Default::default()
        }
    }

    #[test]
    fn the_expected_failure_is_caught() {
        let v = judge(
            &case("verify-timeout"),
            &failed(FailureReason::VerifyTimeout),
        );
        assert_eq!(v, Verdict::Caught);
    }

    #[test]
    fn a_pass_or_an_error_is_fooled_and_shown_as_such() {
        let c = case("sandbox-tests-hidden");
        let passed = Observed {
            status: Some(TrialStatus::Passed),
            ..Default::default()
        };
        assert!(matches!(judge(&c, &passed), Verdict::Fooled(_)));
        let error = Observed {
            status: Some(TrialStatus::Error),
            error: Some("sandbox".into()),
            ..Default::default()
        };
        let v = judge(&c, &error);
        assert!(matches!(&v, Verdict::Fooled(w) if w.contains("infrastructure error")));
        let rows = [Row {
            case: c,
            observed: error,
            verdict: v,
        }];
        let t = table(&rows, Path::new("/runs/x/trials"));
        assert!(t.contains("error: sandbox"), "{t}");
        assert!(t.contains("FOOLED"), "{t}");
        let c = case("gateway-n");
        let o = failed(FailureReason::TestsFailed);
        assert_eq!(
            observed_label(&c, &o),
            "failed: tests_failed + `n` NOT refused"
        );
        assert!(
            t.contains("/runs/x/trials/answer/sandbox-tests-hidden"),
            "{t}"
        );
    }

    #[test]
    fn another_failure_reason_is_unexpected() {
        let v = judge(
            &case("kill-keeper"),
            &failed(FailureReason::VerifierCrashed),
        );
        assert!(matches!(v, Verdict::Unexpected(_)), "{v:?}");
    }

    #[test]
    fn a_missing_check_fools_even_a_failed_trial() {
        let c = case("pytest-hooks");
        let mut o = failed(FailureReason::TestsFailed);
        o.tamper_flags = vec!["conftest.py".into()];
        let v = judge(&c, &o);
        assert!(
            matches!(&v, Verdict::Fooled(w) if w.contains("not flagged as tampering: pager/conftest.py")),
            "{v:?}"
        );
        o.tamper_flags = c.checks.tamper_flags.clone();
        assert_eq!(judge(&c, &o), Verdict::Caught);

        let c = case("gateway-n");
        let mut o = failed(FailureReason::TestsFailed);
        assert!(matches!(judge(&c, &o), Verdict::Fooled(_)));
        o.refusals = vec!["`n`: only n = 1 is allowed".into()];
        assert_eq!(judge(&c, &o), Verdict::Caught);

        let c = case("java-processor");
        let mut o = failed(FailureReason::TestsFailed);
        o.verify_log = "step 0\nFORGE-PROCESSOR-RAN\n".into();
        assert!(matches!(judge(&c, &o), Verdict::Fooled(_)));
    }

    #[test]
    fn a_control_that_fails_or_a_missing_record_is_unexpected() {
        let c = case("control-honest");
        assert!(matches!(
            judge(&c, &failed(FailureReason::TestsFailed)),
            Verdict::Unexpected(_)
        ));
        assert!(matches!(
            judge(&c, &Observed::default()),
            Verdict::Unexpected(_)
        ));
        let passed = Observed {
            status: Some(TrialStatus::Passed),
            ..Default::default()
        };
        assert_eq!(judge(&c, &passed), Verdict::Caught);
    }
}
