//! One line of `results.jsonl`: the record of one trial of one task.

use crate::PhaseTimes;
use serde::{Deserialize, Serialize};

/// The version this crate writes. Readers accept `1..=TRIAL_VERSION`.
pub const TRIAL_VERSION: u32 = 1;

/// The trial's verdict.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TrialStatus {
    /// Every verify step exited 0.
    Passed,
    /// The verifier ran and some step failed (including a compile failure).
    Failed,
    /// An infrastructure fault (Docker, image, provider after retries): not a task failure.
    Error,
}

impl TrialStatus {
    /// The verdict as it is written in `results.jsonl`.
    pub fn as_str(self) -> &'static str {
        match self {
            TrialStatus::Passed => "passed",
            TrialStatus::Failed => "failed",
            TrialStatus::Error => "error",
        }
    }
}

/// How the agent's container ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SandboxExit {
    /// The agent process exited by itself (any exit code).
    Exited,
    /// The deadline passed and the harness killed it.
    Timeout,
    /// Killed for another reason (out of memory, interrupted run).
    Killed,
}

/// Why a trial is `failed`. Everything the agent or the code it left behind can bring
/// about is a failure with one of these reasons, never an infrastructure `error`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum FailureReason {
    /// A verify step exited non-zero, or its report shows a failing test.
    TestsFailed,
    /// A verify step run as the sandbox user (a build of the code under test) failed.
    BuildFailed,
    /// A verify step ran past its deadline.
    VerifyTimeout,
    /// The verifier container stopped, or a step could not be started in it.
    VerifierCrashed,
    /// A host-side comparison with expected data did not match.
    OutputMismatch,
    /// A planted canary test, which must fail, was reported as passing: the runner or its
    /// report was subverted.
    Tampered,
    /// The report's test ids differ from the task's pinned set.
    TestSetMismatch,
    /// A tool call the task requires never appeared in the gateway transcript.
    MissingToolCalls,
    /// The context compaction the task requires (`agent.requires_compaction`) does not
    /// show in the agent's events, or a summary it claims was never asked of the gateway.
    MissingCompaction,
    /// The workspace was too large to copy out.
    WorkspaceTooLarge,
    /// The agent wrote past its disk quota.
    DiskQuota,
    /// A file the agent left for the harness (events, state) broke the rules: not a
    /// regular file, too large, or malformed.
    BadAgentOutput,
    /// The agent's requests broke the gateway's limits (size, connections, budget).
    GatewayAbuse,
    /// A reason written by a newer nab that this build does not know.
    #[serde(other)]
    Other,
}

impl FailureReason {
    /// The reason as it is written in `results.jsonl`.
    pub fn as_str(self) -> &'static str {
        match self {
            FailureReason::TestsFailed => "tests_failed",
            FailureReason::BuildFailed => "build_failed",
            FailureReason::VerifyTimeout => "verify_timeout",
            FailureReason::VerifierCrashed => "verifier_crashed",
            FailureReason::OutputMismatch => "output_mismatch",
            FailureReason::Tampered => "tampered",
            FailureReason::TestSetMismatch => "test_set_mismatch",
            FailureReason::MissingToolCalls => "missing_tool_calls",
            FailureReason::MissingCompaction => "missing_compaction",
            FailureReason::WorkspaceTooLarge => "workspace_too_large",
            FailureReason::DiskQuota => "disk_quota",
            FailureReason::BadAgentOutput => "bad_agent_output",
            FailureReason::GatewayAbuse => "gateway_abuse",
            FailureReason::Other => "other",
        }
    }
}

/// Which part of the infrastructure failed, for a trial with `status: error`. Only faults
/// the agent cannot cause belong here.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum ErrorKind {
    /// The container engine: unreachable, a container could not be created or started.
    Sandbox,
    /// The base or task image is missing or could not be built.
    Image,
    /// The model provider failed after the gateway's retries.
    Provider,
    /// A replayed cassette has no answer for the agent's request: the agent's requests
    /// changed and the cassette must be recorded again.
    ReplayMiss,
    /// The harness's own files or disk.
    Harness,
    /// A kind written by a newer nab that this build does not know.
    #[serde(other)]
    Other,
}

/// How a trial fared against its task's `agent.requires_compaction`, a requirement on
/// nab-agent's context management (not on the answers).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CompactionCheck {
    /// The agent's events and the gateway's transcript show the compaction.
    Met,
    /// They do not: the trial fails with `missing_compaction`, whatever `verifier_passed`.
    Missed,
    /// Not judged: an agent other than nab-agent whose events claim no compaction, scored
    /// on its answers alone.
    NotJudged,
    /// A value written by a newer nab that this build does not know.
    #[serde(other)]
    Other,
}

impl CompactionCheck {
    /// The name written in results (`met`, `missed`, `not_judged`).
    pub fn as_str(self) -> &'static str {
        match self {
            CompactionCheck::Met => "met",
            CompactionCheck::Missed => "missed",
            CompactionCheck::NotJudged => "not_judged",
            CompactionCheck::Other => "other",
        }
    }
}

/// One trial of one task. Its identity is kept here; the rest comes in parts, one per
/// producer, each written into the same JSON object as if its fields were the record's
/// own (`#[serde(flatten)]`): a line of `results.jsonl` has the keys, order and defaults it
/// always had. The runner assembles the record once, from the parts its phases return.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TrialRecord {
    /// The schema version the writer used ([`TRIAL_VERSION`] when this crate writes it).
    pub v: u32,
    /// The run the trial belongs to (`run.json`'s id).
    pub run_id: String,
    /// The task's id (its folder name under the suite).
    pub task_id: String,
    /// The task's category (from its `task.yaml`).
    pub category: String,
    /// 0-based trial index within the task.
    pub trial: u32,
    /// The trial's folder under `trials/<task>/` when it is not the trial index (`nab
    /// validate` names folders by agent). Read it through
    /// [`RunPaths::trial_of`](crate::run::RunPaths::trial_of).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub trial_dir: Option<String>,
    /// The agent as given to `--agent` (`nab-agent`, `oracle`, `command:<path>`, …).
    pub agent: String,
    /// The model spec, for an agent that used a model.
    #[serde(default)]
    pub model: Option<String>,
    /// What the trial ended as and how it ran: the trial's verdict, or the runner's
    /// infrastructure error, with the runner's attempts.
    #[serde(flatten)]
    pub outcome: TrialOutcome,
    /// What the agent asked of its model, from the gateway's transcript.
    #[serde(flatten)]
    pub usage: ModelUsage,
    /// How the agent went about it, from its events and the gateway's refusals, and the
    /// rules it broke.
    #[serde(flatten)]
    pub behaviour: AgentBehaviour,
    /// LLM-judge results, one per judge, when the run was judged (the runner's judging).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub judges: Vec<JudgeRecord>,
}

/// What a trial ended as and how it ran: the verdict and timings the trial produces, or
/// the infrastructure error its last attempt ended in, and the runner's attempts.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TrialOutcome {
    /// The verdict.
    pub status: TrialStatus,
    /// 1.0 when passed, else 0.0 (kept as a number so partial credit can come later).
    pub reward: f64,
    /// Tests that passed, from the verifier's reports, when it wrote any.
    #[serde(default)]
    pub tests_passed: Option<u32>,
    /// Tests the verifier's reports list, when it wrote any.
    #[serde(default)]
    pub tests_total: Option<u32>,
    /// What the hidden tests alone said of the agent's work (every verify step passed),
    /// before the requirements on how the agent worked (a compaction, MCP tool calls) and
    /// its rule-breaking are applied: a trial can fail with `missing_compaction` and still
    /// have `verifier_passed: true`. Absent when the verifier did not run and in records
    /// written before this field existed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub verifier_passed: Option<bool>,
    /// For a task with `agent.requires_compaction`: whether the trial met that requirement,
    /// reported apart from `verifier_passed`. Absent for other tasks.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub compaction: Option<CompactionCheck>,
    /// Absent when the agent never started (an infrastructure error before it).
    #[serde(default)]
    pub exit_reason: Option<SandboxExit>,
    /// The agent process's exit code, when it exited by itself.
    #[serde(default)]
    pub agent_exit_code: Option<i64>,
    /// Seconds the agent phase took (wall time, model calls included).
    pub agent_s: f64,
    /// Of `agent_s`, the seconds during which the trial's gateway was waiting for the model
    /// provider (at least one call in flight, its retries and their backoff included). The
    /// agent's own time is `agent_s − model_s`: the agent time limit counts only that, up to
    /// the task's wall-clock cap. Absent for agents without a model and in records written
    /// before it existed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub model_s: Option<f64>,
    /// Seconds the verifier phase took on the trial's path: its steps, and what was left to
    /// wait for of its container and its `/nab` (made while the agent ran and while its
    /// workspace was read; see `phase_ms`).
    pub verify_s: f64,
    /// Infrastructure fault only; task failures are `status: failed` with no error.
    #[serde(default)]
    pub error: Option<String>,
    /// Which kind of infrastructure fault `error` is (set with `status: error`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error_kind: Option<ErrorKind>,
    /// Why a `failed` trial failed, in a form a machine can count. Absent on passes and on
    /// records written before this field existed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub failure_reason: Option<FailureReason>,
    /// Protected paths the agent's diff touched (tests, runner configuration, build files).
    /// Recorded as evidence; a flag alone does not fail the trial.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tamper_flags: Vec<String>,
    /// The task's hidden tests ran beside the code under test (`verifier: shared` in its
    /// task.yaml), so that code could have forged the verdict. Absent (false) for tasks
    /// whose tests reach the code only across the verifier's boundary.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub verdict_reachable: bool,
    /// How many times the trial was attempted (infrastructure retries + 1).
    #[serde(default = "one")]
    pub attempts: u32,
    /// The Docker engine its last attempt ran on (agent and verifier alike), as given to
    /// `--engine`; absent for a run on one engine.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub engine: Option<String>,
    /// When the trial's (last) attempt started, RFC 3339 UTC.
    #[serde(default)]
    pub started_at: Option<String>,
    /// Where the trial's time went: milliseconds per phase, in the order they ran (see
    /// [`PhaseTimes`]). Absent on an infrastructure error and in records written before
    /// it existed.
    #[serde(default, skip_serializing_if = "PhaseTimes::is_empty")]
    pub phase_ms: PhaseTimes,
}

impl Default for TrialOutcome {
    /// Nothing ran yet: `status: error` with no message, on attempt 1.
    fn default() -> Self {
        TrialOutcome {
            status: TrialStatus::Error,
            reward: 0.0,
            tests_passed: None,
            tests_total: None,
            verifier_passed: None,
            compaction: None,
            exit_reason: None,
            agent_exit_code: None,
            agent_s: 0.0,
            model_s: None,
            verify_s: 0.0,
            error: None,
            error_kind: None,
            failure_reason: None,
            tamper_flags: Vec::new(),
            verdict_reachable: false,
            attempts: 1,
            engine: None,
            started_at: None,
            phase_ms: PhaseTimes::default(),
        }
    }
}

impl TrialOutcome {
    /// Whether the trial passed.
    pub fn passed(&self) -> bool {
        self.status == TrialStatus::Passed
    }
}

/// What the agent asked of its model: calls and tokens from the gateway's transcript
/// (authoritative, out of the agent's reach), priced by the run's `--prices`. All absent
/// for an agent without a model.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct ModelUsage {
    /// Model calls the gateway forwarded.
    #[serde(default)]
    pub llm_calls: Option<u64>,
    /// Prompt tokens, summed over the gateway's calls.
    #[serde(default)]
    pub input_tokens: Option<u64>,
    /// Completion tokens, summed over the gateway's calls.
    #[serde(default)]
    pub output_tokens: Option<u64>,
    /// Of the prompt tokens, those the provider served from its cache (cache reads).
    #[serde(default)]
    pub cached_tokens: Option<u64>,
    /// Of the prompt tokens, those the provider wrote to its prompt cache (Anthropic's
    /// cache writes), priced at the prices file's `cache_write` rate. Kept apart from
    /// `cached_tokens`; absent when none were written and in older records.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cache_write_tokens: Option<u64>,
    /// The trial's model cost in US dollars: the gateway's token counts priced by the run's
    /// `--prices` file, its failed attempts' included. Absent when unknown (no prices
    /// given, no pattern matched the model, no gateway) and on records written before this
    /// field existed; never a guess.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cost_usd: Option<f64>,
}

impl ModelUsage {
    /// The token counts as one [`Usage`](crate::Usage), an absent count as 0.
    pub fn tokens(&self) -> crate::Usage {
        crate::Usage {
            prompt_tokens: self.input_tokens.unwrap_or(0),
            completion_tokens: self.output_tokens.unwrap_or(0),
            cached_tokens: self.cached_tokens.unwrap_or(0),
            cache_write_tokens: self.cache_write_tokens.unwrap_or(0),
        }
    }
}

/// How the agent went about the task: steps, tools and policy blocks from its own events,
/// its exit reason checked against the gateway's refusals, and the requirements and
/// replay rules the harness found broken. Absent counts are unknown (no events, no model).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct AgentBehaviour {
    /// The agent's steps (from its events).
    #[serde(default)]
    pub steps: Option<u64>,
    /// Tool calls the agent ran (from its events).
    #[serde(default)]
    pub tool_calls: Option<u64>,
    /// Of those, the ones whose status was not `ok`.
    #[serde(default)]
    pub tool_failures: Option<u64>,
    /// `tool_failures / tool_calls`.
    #[serde(default)]
    pub tool_failure_rate: Option<f64>,
    /// Commands the agent's policy blocked (from its events).
    #[serde(default)]
    pub policy_blocks: Option<u64>,
    /// Why the agent stopped (its `finish` event, overridden by the gateway's budget
    /// refusals, `timeout` when killed at the deadline).
    #[serde(default)]
    pub agent_exit_reason: Option<String>,
    /// Whether the gateway refused a call over one of the trial's budgets.
    #[serde(default)]
    pub budget_exceeded: Option<bool>,
    /// Requests the model gateway refused before any provider saw them (too large, too
    /// complex, too slow, not allowed; a call over budget is counted in `budget_exceeded`
    /// instead). Counted in the gateway's memory, so also those past the transcript's
    /// cap. Absent without a gateway.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub refused_requests: Option<u64>,
    /// Sandbox or safety violations the harness detected (e.g. a required tool never called
    /// through the gateway, a container left behind). The CI gate can mark them fatal.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub violations: Vec<String>,
    /// Replayed model calls that matched the cassette only after their tool results were
    /// normalized (a timing, a temporary path): one line per call saying where the request
    /// first differs from the recording. Answered, so not an error; reported by the gate.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub replay_drift: Vec<String>,
}

fn one() -> u32 {
    1
}

impl TrialRecord {
    /// A record with the identity fields set and everything else empty.
    pub fn new(run_id: &str, task_id: &str, category: &str, trial: u32, agent: &str) -> Self {
        TrialRecord {
            v: TRIAL_VERSION,
            run_id: run_id.to_owned(),
            task_id: task_id.to_owned(),
            category: category.to_owned(),
            trial,
            trial_dir: None,
            agent: agent.to_owned(),
            model: None,
            outcome: TrialOutcome::default(),
            usage: ModelUsage::default(),
            behaviour: AgentBehaviour::default(),
            judges: Vec::new(),
        }
    }

    /// Parses one line of `results.jsonl`, rejecting unknown versions clearly.
    pub fn parse_line(line: &str) -> Result<TrialRecord, crate::versioned::VersionedError> {
        crate::versioned::parse_versioned_line(line, "trial record", TRIAL_VERSION)
    }
}

/// One judge's verdict on one trial. Scores and gates are computed in Rust from the
/// validated answer; `raw_output` keeps what the model said.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct JudgeRecord {
    /// The judge model's id (its provider spec).
    pub judge_model: String,
    /// The rubric's id.
    pub rubric_id: String,
    /// The rubric's content hash.
    pub rubric_hash: String,
    /// The hash of the prompt the judge was shown.
    pub prompt_hash: String,
    /// Absent when the judge's answer never validated (`error` says why).
    #[serde(default)]
    pub weighted_score: Option<f64>,
    /// One score per rubric dimension.
    #[serde(default)]
    pub scores: Vec<DimensionScore>,
    /// One verdict per rubric veto.
    #[serde(default)]
    pub vetoes: Vec<VetoVerdict>,
    /// Whether any veto was violated.
    #[serde(default)]
    pub vetoed: bool,
    /// Whether the rubric's gates passed; absent when the answer never validated.
    #[serde(default)]
    pub gate_passed: Option<bool>,
    /// `judge_error: ...` when the output was rejected after the allowed retries.
    #[serde(default)]
    pub error: Option<String>,
    /// How many times the judge was asked again after a malformed answer.
    #[serde(default)]
    pub retries: u32,
    /// The judge's last answer, as it gave it.
    #[serde(default)]
    pub raw_output: String,
    /// Judge tokens, kept apart from the agent's.
    #[serde(default)]
    pub input_tokens: u64,
    /// Judge completion tokens.
    #[serde(default)]
    pub output_tokens: u64,
    /// What this judge's calls cost in US dollars, priced by the run's `--prices` file for
    /// the judge's model; absent without a price (and in records written before it existed).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cost_usd: Option<f64>,
}

/// A judge's score on one rubric dimension.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DimensionScore {
    /// The dimension's id.
    pub dimension: String,
    /// 1 to 5, against the dimension's level anchors.
    pub score: u8,
    /// What in the diff or trajectory the judge based it on.
    pub evidence: String,
}

/// A judge's verdict on one rubric veto.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct VetoVerdict {
    /// The veto's id.
    pub id: String,
    /// Whether the candidate violated it.
    pub violated: bool,
    /// What the judge based it on.
    pub evidence: String,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_minimal_v1_line_loads_with_defaults() {
        let line = r#"{"v":1,"run_id":"r","task_id":"t","category":"bug-fix","trial":0,"agent":"oracle","status":"passed","reward":1.0,"agent_s":1.5,"verify_s":0.5}"#;
        let r = TrialRecord::parse_line(line).unwrap();
        assert_eq!(r.outcome.status, TrialStatus::Passed);
        assert_eq!(r.outcome.attempts, 1);
        assert!(r.judges.is_empty() && r.usage.llm_calls.is_none());
    }

    #[test]
    fn unknown_reasons_and_kinds_from_a_newer_writer_still_load() {
        let line = r#"{"v":1,"run_id":"r","task_id":"t","category":"c","trial":0,"agent":"a","status":"failed","reward":0.0,"agent_s":1,"verify_s":1,"failure_reason":"from_the_future","error_kind":"also_new"}"#;
        let r = TrialRecord::parse_line(line).unwrap();
        assert_eq!(r.outcome.failure_reason, Some(FailureReason::Other));
        assert_eq!(r.outcome.error_kind, Some(ErrorKind::Other));
        for reason in [FailureReason::TestsFailed, FailureReason::GatewayAbuse] {
            let json = serde_json::to_string(&reason).unwrap();
            assert_eq!(json, format!("\"{}\"", reason.as_str()));
        }
    }

    #[test]
    fn cost_is_optional_omitted_when_unknown_and_round_trips() {
        let old = r#"{"v":1,"run_id":"r","task_id":"t","category":"c","trial":0,"agent":"a","status":"passed","reward":1.0,"agent_s":1,"verify_s":1,"input_tokens":10}"#;
        let mut r = TrialRecord::parse_line(old).unwrap();
        assert_eq!(r.usage.cost_usd, None);
        assert!(!serde_json::to_string(&r).unwrap().contains("cost_usd"));
        r.usage.cost_usd = Some(0.0125);
        let line = serde_json::to_string(&r).unwrap();
        assert!(line.contains(r#""cost_usd":0.0125"#), "{line}");
        assert_eq!(
            TrialRecord::parse_line(&line).unwrap().usage.cost_usd,
            Some(0.0125)
        );
    }

    /// Every field set, keys in the order `results.jsonl` has always had them: the bytes
    /// nab writes are part of its format (reports, merges and old runs read them).
    const FULL: &str = concat!(
        r#"{"v":1,"run_id":"run","task_id":"task","category":"terminal","trial":2,"#,
        r#""trial_dir":"wrong-x","agent":"nab-agent","model":"scripted:task","#,
        r#""status":"failed","reward":0.0,"tests_passed":3,"tests_total":4,"#,
        r#""verifier_passed":true,"compaction":"missed","exit_reason":"timeout","#,
        r#""agent_exit_code":137,"agent_s":12.5,"model_s":3.25,"verify_s":2.0,"#,
        r#""error":"engine e1 became unreachable","error_kind":"sandbox","#,
        r#""failure_reason":"missing_compaction","tamper_flags":["tests/conftest.py"],"#,
        r#""verdict_reachable":true,"attempts":2,"engine":"e1","#,
        r#""started_at":"2026-12-06T04:00:00Z","phase_ms":{"prepare":4,"agent":12500},"#,
        r#""llm_calls":7,"input_tokens":1000,"output_tokens":200,"cached_tokens":300,"#,
        r#""cache_write_tokens":50,"cost_usd":0.0125,"#,
        r#""steps":5,"tool_calls":8,"tool_failures":2,"tool_failure_rate":0.25,"#,
        r#""policy_blocks":1,"agent_exit_reason":"token_budget","budget_exceeded":true,"#,
        r#""refused_requests":3,"violations":["required tool not called: mcp__t__x"],"#,
        r#""replay_drift":["call 1: tool result differs"],"#,
        r#""judges":[{"judge_model":"openai:j","rubric_id":"r","rubric_hash":"rh","#,
        r#""prompt_hash":"ph","weighted_score":4.5,"#,
        r#""scores":[{"dimension":"d","score":4,"evidence":"e"}],"#,
        r#""vetoes":[{"id":"x","violated":false,"evidence":"none"}],"vetoed":false,"#,
        r#""gate_passed":true,"error":null,"retries":1,"raw_output":"{}","#,
        r#""input_tokens":10,"output_tokens":5,"cost_usd":0.001}]}"#
    );

    /// Every optional field absent: what [`TrialRecord::new`] writes.
    const EMPTY: &str = concat!(
        r#"{"v":1,"run_id":"run","task_id":"task","category":"terminal","trial":2,"#,
        r#""agent":"nab-agent","model":null,"status":"error","reward":0.0,"#,
        r#""tests_passed":null,"tests_total":null,"exit_reason":null,"#,
        r#""agent_exit_code":null,"agent_s":0.0,"verify_s":0.0,"error":null,"#,
        r#""attempts":1,"started_at":null,"llm_calls":null,"input_tokens":null,"#,
        r#""output_tokens":null,"cached_tokens":null,"steps":null,"tool_calls":null,"#,
        r#""tool_failures":null,"tool_failure_rate":null,"policy_blocks":null,"#,
        r#""agent_exit_reason":null,"budget_exceeded":null}"#
    );

    /// [`FULL`], every field spelled out (no `..Default`: a new field must be added here).
    fn full() -> TrialRecord {
        let mut r = TrialRecord {
            v: TRIAL_VERSION,
            run_id: "run".into(),
            task_id: "task".into(),
            category: "terminal".into(),
            trial: 2,
            trial_dir: Some("wrong-x".into()),
            agent: "nab-agent".into(),
            model: Some("scripted:task".into()),
            outcome: TrialOutcome {
                status: TrialStatus::Failed,
                reward: 0.0,
                tests_passed: Some(3),
                tests_total: Some(4),
                verifier_passed: Some(true),
                compaction: Some(CompactionCheck::Missed),
                exit_reason: Some(SandboxExit::Timeout),
                agent_exit_code: Some(137),
                agent_s: 12.5,
                model_s: Some(3.25),
                verify_s: 2.0,
                error: Some("engine e1 became unreachable".into()),
                error_kind: Some(ErrorKind::Sandbox),
                failure_reason: Some(FailureReason::MissingCompaction),
                tamper_flags: vec!["tests/conftest.py".into()],
                verdict_reachable: true,
                attempts: 2,
                engine: Some("e1".into()),
                started_at: Some("2026-12-06T04:00:00Z".into()),
                phase_ms: PhaseTimes {
                    prepare: Some(4),
                    agent: Some(12500),
                    ..PhaseTimes::default()
                },
            },
            usage: ModelUsage {
                llm_calls: Some(7),
                input_tokens: Some(1000),
                output_tokens: Some(200),
                cached_tokens: Some(300),
                cache_write_tokens: Some(50),
                cost_usd: Some(0.0125),
            },
            behaviour: AgentBehaviour {
                steps: Some(5),
                tool_calls: Some(8),
                tool_failures: Some(2),
                tool_failure_rate: Some(0.25),
                policy_blocks: Some(1),
                agent_exit_reason: Some("token_budget".into()),
                budget_exceeded: Some(true),
                refused_requests: Some(3),
                violations: vec!["required tool not called: mcp__t__x".into()],
                replay_drift: vec!["call 1: tool result differs".into()],
            },
            judges: Vec::new(),
        };
        r.judges = vec![JudgeRecord {
            judge_model: "openai:j".into(),
            rubric_id: "r".into(),
            rubric_hash: "rh".into(),
            prompt_hash: "ph".into(),
            weighted_score: Some(4.5),
            scores: vec![DimensionScore {
                dimension: "d".into(),
                score: 4,
                evidence: "e".into(),
            }],
            vetoes: vec![VetoVerdict {
                id: "x".into(),
                violated: false,
                evidence: "none".into(),
            }],
            vetoed: false,
            gate_passed: Some(true),
            error: None,
            retries: 1,
            raw_output: "{}".into(),
            input_tokens: 10,
            output_tokens: 5,
            cost_usd: Some(0.001),
        }];
        r
    }

    #[test]
    fn a_record_is_written_with_the_same_keys_in_the_same_order_as_ever() {
        let full = full();
        assert_eq!(serde_json::to_string(&full).unwrap(), FULL);
        let empty = TrialRecord::new("run", "task", "terminal", 2, "nab-agent");
        assert_eq!(serde_json::to_string(&empty).unwrap(), EMPTY);
        // Read back and written again: the same record, the same bytes.
        for (line, record) in [(FULL, full), (EMPTY, empty)] {
            let read = TrialRecord::parse_line(line).unwrap();
            assert_eq!(read, record);
            assert_eq!(serde_json::to_string(&read).unwrap(), line);
        }
    }

    #[test]
    fn an_old_line_without_the_later_fields_reads_with_their_defaults() {
        // A line as the first nab wrote it: none of the fields added since.
        let old = concat!(
            r#"{"v":1,"run_id":"run","task_id":"task","category":"terminal","trial":2,"#,
            r#""agent":"nab-agent","model":null,"status":"passed","reward":1.0,"#,
            r#""tests_passed":null,"tests_total":null,"exit_reason":"exited","#,
            r#""agent_exit_code":0,"agent_s":1,"verify_s":0.5,"error":null,"#,
            r#""llm_calls":null,"input_tokens":null,"output_tokens":null,"#,
            r#""cached_tokens":null,"steps":null,"tool_calls":null,"tool_failures":null,"#,
            r#""tool_failure_rate":null,"policy_blocks":null,"agent_exit_reason":null,"#,
            r#""budget_exceeded":null,"a_field_from_a_newer_nab":{"x":1}}"#
        );
        let mut want = TrialRecord::new("run", "task", "terminal", 2, "nab-agent");
        want.outcome.status = TrialStatus::Passed;
        want.outcome.reward = 1.0;
        want.outcome.exit_reason = Some(SandboxExit::Exited);
        want.outcome.agent_exit_code = Some(0);
        want.outcome.agent_s = 1.0;
        want.outcome.verify_s = 0.5;
        let read = TrialRecord::parse_line(old).unwrap();
        assert_eq!(read, want);
        assert_eq!(read.outcome.attempts, 1);
        assert!(!read.outcome.verdict_reachable && read.outcome.tamper_flags.is_empty());
        // A required field missing is still refused, by name.
        let broken = old.replace(r#""status":"passed","#, "");
        let err = TrialRecord::parse_line(&broken).unwrap_err().to_string();
        assert!(err.contains("missing field `status`"), "{err}");
    }

    #[test]
    fn round_trip_keeps_every_field() {
        let mut r = TrialRecord::new("run", "task", "terminal", 2, "nab-agent");
        r.outcome.status = TrialStatus::Failed;
        r.outcome.exit_reason = Some(SandboxExit::Timeout);
        r.behaviour
            .violations
            .push("required tool not called: mcp__t__x".into());
        r.outcome.failure_reason = Some(FailureReason::Tampered);
        r.outcome.tamper_flags.push("tests/conftest.py".into());
        let line = serde_json::to_string(&r).unwrap();
        assert!(line.contains(r#""exit_reason":"timeout""#));
        assert!(line.contains(r#""failure_reason":"tampered""#));
        assert_eq!(TrialRecord::parse_line(&line).unwrap(), r);
    }
}
