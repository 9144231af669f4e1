//! One trial's view: what its folder holds, loaded and capped for the report.
//!
//! Size limits (so a run of 28 tasks × 5 trials with long transcripts opens fast):
//! - a text block (message, tool arguments or result) keeps at most [`text::MAX_TEXT`]
//!   characters: the head and the tail, with the number of characters left out in between;
//!   blocks over [`text::COLLAPSE_CHARS`] characters or [`text::COLLAPSE_LINES`] lines start
//!   collapsed;
//! - at most [`MAX_TURNS`] model turns are shown, the rest are counted;
//! - the diff keeps at most [`diff::MAX_DIFF_LINES`] lines;
//! - agent.log and verify.log keep their last [`MAX_LOG_CHARS`] characters (the end is where
//!   the failure is).

pub mod diff;
mod pruned;
pub mod text;
pub mod trajectory;

use diff::DiffView;
use nab_protocol::{JudgeRecord, TrialRecord};
use nab_protocol::{RunPaths, TrialDir, instruction_path};
use serde::Serialize;
use std::path::Path;
use text::Text;
use trajectory::{EventRow, Trajectory};

pub const MAX_TURNS: usize = 200;
pub const MAX_LOG_CHARS: usize = 64 * 1024;

/// Everything the trial template shows.
#[derive(Debug, Clone, Serialize)]
pub struct TrialView {
    pub task_id: String,
    pub category: String,
    pub trial: u32,
    pub status: String,
    pub instruction: Option<Text>,
    pub trajectory: Trajectory,
    pub events: Vec<EventRow>,
    pub diff: Option<DiffView>,
    pub verify_log: Option<Text>,
    pub agent_log: Option<Text>,
    pub judges: Vec<JudgeRecord>,
    pub metrics: Vec<(String, String)>,
    pub violations: Vec<String>,
    pub error: Option<String>,
    /// Why a failed trial failed (`tests_failed`, `verify_timeout`, `tampered`, ...).
    pub failure_reason: Option<String>,
    /// Protected workspace paths the agent's diff touched.
    pub tamper_flags: Vec<String>,
    /// The link to the trial's ATIF trajectory (`atif/<task>/<trial>.json`, relative to
    /// the report beside the run folder), when that file exists.
    pub atif: Option<String>,
}

/// Reads a file as text, lossily; `None` when it is absent or unreadable (the report shows
/// "not available" rather than failing on a half-written trial folder).
pub fn read_text(path: &Path) -> Option<String> {
    std::fs::read(path)
        .ok()
        .map(|b| String::from_utf8_lossy(&b).into_owned())
}

impl TrialView {
    /// `tasks_dir` is the run's suite, already resolved and checked
    /// ([`resolve_tasks_dir`](nab_protocol::resolve_tasks_dir)). A record whose folder
    /// name is damaged shows no artifacts rather than reading outside the run.
    pub fn load(run_dir: &Path, tasks_dir: Option<&Path>, rec: &TrialRecord) -> TrialView {
        let dir = match RunPaths::new(run_dir).trial_of(rec) {
            Ok(d) => Some(d),
            Err(e) => {
                tracing::warn!("{e}");
                None
            }
        };
        let file = |f: fn(&TrialDir) -> std::path::PathBuf| dir.as_ref().map(f);
        let text = |f: fn(&TrialDir) -> std::path::PathBuf| file(f).and_then(|p| read_text(&p));
        let instruction = tasks_dir
            .and_then(|t| read_text(&instruction_path(t, &rec.task_id)))
            .map(|s| Text::new(&s));
        let events = file(TrialDir::events)
            .map(|p| trajectory::load_events(&p))
            .unwrap_or_default();
        let trajectory = match file(TrialDir::transcript) {
            Some(p) => Trajectory::load(&p, &events),
            None => Trajectory::default(),
        };
        TrialView {
            task_id: rec.task_id.clone(),
            category: rec.category.clone(),
            trial: rec.trial,
            status: format!("{:?}", rec.outcome.status).to_lowercase(),
            instruction,
            trajectory,
            events: events.iter().map(EventRow::from_event).collect(),
            diff: text(TrialDir::diff).map(|d| DiffView::parse(&d)),
            verify_log: text(TrialDir::verify_log).map(|s| Text::tail(&s, MAX_LOG_CHARS)),
            agent_log: text(TrialDir::agent_log).map(|s| Text::tail(&s, MAX_LOG_CHARS)),
            judges: rec.judges.clone(),
            metrics: metrics(rec),
            violations: rec.behaviour.violations.clone(),
            error: rec.outcome.error.clone(),
            failure_reason: rec.outcome.failure_reason.map(|r| r.as_str().to_owned()),
            tamper_flags: rec.outcome.tamper_flags.clone(),
            atif: atif_link(run_dir, rec),
        }
    }
}

/// The href of the trial's ATIF file, only when it is a regular file (a report never links
/// a file that is not there, and a link in the run folder is not the trial's file).
fn atif_link(run_dir: &Path, rec: &TrialRecord) -> Option<String> {
    let path = RunPaths::new(run_dir).atif_of(rec).ok()?;
    if !std::fs::symlink_metadata(&path).is_ok_and(|m| m.is_file()) {
        return None;
    }
    let name = path.file_name()?.to_string_lossy().into_owned();
    Some(format!(
        "{}/{}/{}",
        nab_protocol::ATIF_DIR,
        crate::html::links::encode_component(&rec.task_id),
        crate::html::links::encode_component(&name)
    ))
}

fn metrics(r: &TrialRecord) -> Vec<(String, String)> {
    let (o, u, b) = (&r.outcome, &r.usage, &r.behaviour);
    let opt = |v: Option<u64>| v.map(|v| v.to_string()).unwrap_or_else(|| "—".into());
    let mut m = vec![
        ("status".into(), format!("{:?}", o.status).to_lowercase()),
        (
            "tests".into(),
            match (o.tests_passed, o.tests_total) {
                (Some(p), Some(t)) => format!("{p}/{t}"),
                _ => "—".into(),
            },
        ),
        (
            "hidden tests' verdict".into(),
            match o.verifier_passed {
                Some(true) => "passed".into(),
                Some(false) => "failed".into(),
                None => "—".into(),
            },
        ),
        ("steps".into(), opt(b.steps)),
        ("model calls".into(), opt(u.llm_calls)),
        ("input tokens".into(), opt(u.input_tokens)),
        ("output tokens".into(), opt(u.output_tokens)),
        ("cached tokens (cache reads)".into(), opt(u.cached_tokens)),
        ("tool calls".into(), opt(b.tool_calls)),
        ("tool failures".into(), opt(b.tool_failures)),
        (
            "tool failure rate".into(),
            b.tool_failure_rate
                .map(|v| format!("{:.1}%", v * 100.0))
                .unwrap_or_else(|| "—".into()),
        ),
        ("dangerous commands blocked".into(), opt(b.policy_blocks)),
        ("agent time (wall)".into(), format!("{:.1} s", o.agent_s)),
        ("verify time".into(), format!("{:.1} s", o.verify_s)),
        (
            "sandbox exit".into(),
            o.exit_reason
                .map(|e| format!("{e:?}").to_lowercase())
                .unwrap_or_else(|| "—".into()),
        ),
        (
            "agent exit reason".into(),
            b.agent_exit_reason.clone().unwrap_or_else(|| "—".into()),
        ),
        ("attempts".into(), o.attempts.to_string()),
    ];
    if let Some(c) = o.compaction {
        // A requirement on nab-agent's context management, apart from the answers.
        m.push((
            "compaction required (nab-agent only)".into(),
            match c {
                nab_protocol::CompactionCheck::NotJudged => "not judged for this agent".into(),
                c => c.as_str().to_owned(),
            },
        ));
    }
    if let Some(w) = u.cache_write_tokens {
        m.push(("cache-write tokens".into(), w.to_string()));
    }
    if let Some(model) = o.model_s {
        // What the agent's time limit counts, and what it does not.
        m.push((
            "agent's own time (its limit)".into(),
            format!("{:.1} s", crate::summary::own_seconds(r)),
        ));
        m.push(("waiting for the model".into(), format!("{model:.1} s")));
    }
    if let Some(c) = u.cost_usd {
        m.push(("cost".into(), crate::format::usd(Some(c))));
    }
    if let Some(b) = b.budget_exceeded {
        m.push(("budget exceeded".into(), b.to_string()));
    }
    if let Some(n) = b.refused_requests.filter(|n| *n > 0) {
        m.push(("refused requests".into(), n.to_string()));
    }
    m
}
