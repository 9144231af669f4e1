//! The rule for replayed runs: a trial that found no recording for the agent's request
//! (`error_kind: replay_miss`) means the agent's requests changed, so the cassette must be
//! recorded again. Such a trial was never verified, so the tests its agent would then have
//! failed are not regressions; this rule says what to do instead.

use super::{GateConfig, RuleOutcome, RuleResult};
use crate::compare::Comparison;

/// The command that records ci/cassette again and refreshes ci/baseline.
pub const RERECORD_HINT: &str = "ci/rerecord.sh";

const ID: &str = "replay_miss";
const TITLE: &str = "The agent's requests match the recorded cassette";

pub(super) fn rule(cmp: &Comparison, config: &GateConfig) -> RuleResult {
    let missed: Vec<(&str, &str)> = cmp
        .tasks
        .iter()
        .filter_map(|t| {
            let c = t.candidate.as_ref()?;
            Some(
                c.replay_misses
                    .iter()
                    .map(|m| (t.task_id.as_str(), m.as_str())),
            )
        })
        .flatten()
        .collect();
    let mut tasks: Vec<String> = missed.iter().map(|(t, _)| (*t).to_owned()).collect();
    tasks.dedup();
    let (outcome, detail) = match missed.first() {
        _ if !config.fail_on_replay_miss => (
            RuleOutcome::Skipped,
            "off (fail_on_replay_miss: false)".to_owned(),
        ),
        None => (
            RuleOutcome::Pass,
            "every replayed request had a recording".to_owned(),
        ),
        Some((task, msg)) => (
            RuleOutcome::Fail,
            format!(
                "the agent's requests changed: re-record the cassette ({RERECORD_HINT}). {} trial(s) in {} task(s) found no recording (not verified, not counted as test failures); first: {task}: {}",
                missed.len(),
                tasks.len(),
                first_difference_line(msg)
            ),
        ),
    };
    RuleResult::new(ID, TITLE, outcome, detail, tasks)
}

/// The line of a replay-miss message that names the first difference, else its first line.
pub fn first_difference_line(message: &str) -> &str {
    message
        .lines()
        .find(|l| l.starts_with("first difference at"))
        .or(message.lines().next())
        .unwrap_or("")
        .trim_end_matches(':')
}
