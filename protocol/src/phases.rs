//! Where a trial's time went: milliseconds per phase, the `phase_ms` object of a line of
//! `results.jsonl`.
//!
//! The phases follow one another on the trial's path, so their sum is the trial's wall
//! time (less the microseconds between them). Work the trial starts early and does
//! beside an earlier phase (the verifier's container is made while the agent runs) counts
//! in its own phase only for the time the trial still had to wait for it.

use serde::{Deserialize, Serialize};

/// One phase of a trial, in the order they run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum TrialPhase {
    /// Checks, the trial's folder, the task's workspace read into a snapshot and an archive.
    Prepare,
    /// The disk quotas (workspace, /nab/out) made, or taken ready-made from the run's pool.
    Quota,
    /// The workspace volume, the gateway, the MCP sidecar and the agent's container made
    /// and started.
    AgentStart,
    /// The task's workspace copied into the agent's container, or written from the host
    /// into a workspace quota on the harness's machine.
    WorkspaceIn,
    /// The agent's command, from start to exit or deadline (`agent_s`).
    Agent,
    /// The agent's container killed, its events copied back (remote engines), the MCP
    /// servers stopped.
    AgentStop,
    /// The quotas checked, the final workspace copied out and read.
    WorkspaceOut,
    /// The final workspace diffed against the original (diff.patch).
    Diff,
    /// The diff checked against the task's protected paths (tamper flags).
    Tamper,
    /// The gateway stopped, its transcript and the agent's events read into the metrics,
    /// the task's requirements checked.
    Metrics,
    /// The hidden tests packed with this trial's canaries.
    VerifyStage,
    /// The verifier's container made and started (or waited for, when it was made while
    /// the agent ran).
    VerifierStart,
    /// The hidden tests copied into the verifier, the workspace closed to the verifier user.
    TestsIn,
    /// The verify steps: broker, commands, reports, canaries, the pinned test set.
    Tests,
    /// Containers, volumes and quotas removed (what the trial waited for: a runner may
    /// finish them in the background).
    Cleanup,
}

impl TrialPhase {
    /// Every phase, in order.
    pub const ALL: [TrialPhase; 15] = [
        TrialPhase::Prepare,
        TrialPhase::Quota,
        TrialPhase::AgentStart,
        TrialPhase::WorkspaceIn,
        TrialPhase::Agent,
        TrialPhase::AgentStop,
        TrialPhase::WorkspaceOut,
        TrialPhase::Diff,
        TrialPhase::Tamper,
        TrialPhase::Metrics,
        TrialPhase::VerifyStage,
        TrialPhase::VerifierStart,
        TrialPhase::TestsIn,
        TrialPhase::Tests,
        TrialPhase::Cleanup,
    ];

    /// The phase's key in `phase_ms`.
    pub fn as_str(self) -> &'static str {
        match self {
            TrialPhase::Prepare => "prepare",
            TrialPhase::Quota => "quota",
            TrialPhase::AgentStart => "agent_start",
            TrialPhase::WorkspaceIn => "workspace_in",
            TrialPhase::Agent => "agent",
            TrialPhase::AgentStop => "agent_stop",
            TrialPhase::WorkspaceOut => "workspace_out",
            TrialPhase::Diff => "diff",
            TrialPhase::Tamper => "tamper",
            TrialPhase::Metrics => "metrics",
            TrialPhase::VerifyStage => "verify_stage",
            TrialPhase::VerifierStart => "verifier_start",
            TrialPhase::TestsIn => "tests_in",
            TrialPhase::Tests => "tests",
            TrialPhase::Cleanup => "cleanup",
        }
    }
}

/// Milliseconds per [`TrialPhase`]; a phase the trial never reached is absent. Records
/// written before this existed have none; keys from a newer nab are ignored.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct PhaseTimes {
    /// Milliseconds of [`TrialPhase::Prepare`].
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub prepare: Option<u64>,
    /// Milliseconds of [`TrialPhase::Quota`].
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub quota: Option<u64>,
    /// Milliseconds of [`TrialPhase::AgentStart`].
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub agent_start: Option<u64>,
    /// Milliseconds of [`TrialPhase::WorkspaceIn`].
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub workspace_in: Option<u64>,
    /// Milliseconds of [`TrialPhase::Agent`].
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub agent: Option<u64>,
    /// Milliseconds of [`TrialPhase::AgentStop`].
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub agent_stop: Option<u64>,
    /// Milliseconds of [`TrialPhase::WorkspaceOut`].
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub workspace_out: Option<u64>,
    /// Milliseconds of [`TrialPhase::Diff`].
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub diff: Option<u64>,
    /// Milliseconds of [`TrialPhase::Tamper`].
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tamper: Option<u64>,
    /// Milliseconds of [`TrialPhase::Metrics`].
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub metrics: Option<u64>,
    /// Milliseconds of [`TrialPhase::VerifyStage`].
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub verify_stage: Option<u64>,
    /// Milliseconds of [`TrialPhase::VerifierStart`].
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub verifier_start: Option<u64>,
    /// Milliseconds of [`TrialPhase::TestsIn`].
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tests_in: Option<u64>,
    /// Milliseconds of [`TrialPhase::Tests`].
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tests: Option<u64>,
    /// Milliseconds of [`TrialPhase::Cleanup`].
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cleanup: Option<u64>,
}

impl PhaseTimes {
    /// The milliseconds of `phase`, when it ran.
    pub fn get(&self, phase: TrialPhase) -> Option<u64> {
        *self.slot_ref(phase)
    }

    /// Adds `ms` to `phase` (a phase can be entered more than once).
    pub fn add(&mut self, phase: TrialPhase, ms: u64) {
        let slot = self.slot(phase);
        *slot = Some(slot.unwrap_or(0).saturating_add(ms));
    }

    /// Whether no phase was timed (an infrastructure error, an old record).
    pub fn is_empty(&self) -> bool {
        TrialPhase::ALL.iter().all(|p| self.get(*p).is_none())
    }

    /// The phases that ran, in order, with their milliseconds.
    pub fn iter(&self) -> impl Iterator<Item = (TrialPhase, u64)> + '_ {
        TrialPhase::ALL
            .into_iter()
            .filter_map(|p| self.get(p).map(|ms| (p, ms)))
    }

    /// The sum over the phases that ran.
    pub fn total(&self) -> u64 {
        self.iter().map(|(_, ms)| ms).fold(0, u64::saturating_add)
    }

    fn slot(&mut self, phase: TrialPhase) -> &mut Option<u64> {
        match phase {
            TrialPhase::Prepare => &mut self.prepare,
            TrialPhase::Quota => &mut self.quota,
            TrialPhase::AgentStart => &mut self.agent_start,
            TrialPhase::WorkspaceIn => &mut self.workspace_in,
            TrialPhase::Agent => &mut self.agent,
            TrialPhase::AgentStop => &mut self.agent_stop,
            TrialPhase::WorkspaceOut => &mut self.workspace_out,
            TrialPhase::Diff => &mut self.diff,
            TrialPhase::Tamper => &mut self.tamper,
            TrialPhase::Metrics => &mut self.metrics,
            TrialPhase::VerifyStage => &mut self.verify_stage,
            TrialPhase::VerifierStart => &mut self.verifier_start,
            TrialPhase::TestsIn => &mut self.tests_in,
            TrialPhase::Tests => &mut self.tests,
            TrialPhase::Cleanup => &mut self.cleanup,
        }
    }

    fn slot_ref(&self, phase: TrialPhase) -> &Option<u64> {
        match phase {
            TrialPhase::Prepare => &self.prepare,
            TrialPhase::Quota => &self.quota,
            TrialPhase::AgentStart => &self.agent_start,
            TrialPhase::WorkspaceIn => &self.workspace_in,
            TrialPhase::Agent => &self.agent,
            TrialPhase::AgentStop => &self.agent_stop,
            TrialPhase::WorkspaceOut => &self.workspace_out,
            TrialPhase::Diff => &self.diff,
            TrialPhase::Tamper => &self.tamper,
            TrialPhase::Metrics => &self.metrics,
            TrialPhase::VerifyStage => &self.verify_stage,
            TrialPhase::VerifierStart => &self.verifier_start,
            TrialPhase::TestsIn => &self.tests_in,
            TrialPhase::Tests => &self.tests,
            TrialPhase::Cleanup => &self.cleanup,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_the_phase_names_in_order_and_absent_phases_are_left_out() {
        let mut t = PhaseTimes::default();
        assert!(t.is_empty());
        assert_eq!(serde_json::to_string(&t).unwrap(), "{}");
        for (i, p) in TrialPhase::ALL.into_iter().enumerate() {
            t.add(p, i as u64);
        }
        let line = serde_json::to_string(&t).unwrap();
        let want: Vec<String> = TrialPhase::ALL
            .iter()
            .enumerate()
            .map(|(i, p)| format!("\"{}\":{i}", p.as_str()))
            .collect();
        assert_eq!(line, format!("{{{}}}", want.join(",")));
        assert_eq!(t.total(), (0..15).sum::<u64>());
    }

    #[test]
    fn a_phase_entered_twice_adds_up_and_unknown_keys_are_ignored() {
        let mut t = PhaseTimes::default();
        t.add(TrialPhase::Tests, 5);
        t.add(TrialPhase::Tests, 7);
        assert_eq!(t.get(TrialPhase::Tests), Some(12));
        assert_eq!(t.iter().collect::<Vec<_>>(), vec![(TrialPhase::Tests, 12)]);
        let read: PhaseTimes =
            serde_json::from_str(r#"{"tests":3,"a_phase_from_a_newer_nab":9}"#).unwrap();
        assert_eq!(read.get(TrialPhase::Tests), Some(3));
        assert_eq!(read.total(), 3);
    }
}
