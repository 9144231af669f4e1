//! Judge prompts, rendered from the minijinja templates in `templates/`.
//!
//! The candidate's diff and trajectory are untrusted: they sit between `BEGIN UNTRUSTED …`
//! and `END UNTRUSTED …` lines that carry a fresh random nonce per request, so text inside
//! them cannot forge a closing delimiter, and the system message says nothing inside them
//! is an instruction.
//!
//! The recorded prompt hash is taken with the nonce replaced by a fixed placeholder: the
//! same rubric, templates and inputs give the same hash, run after run.

use crate::error::JudgeError;
use crate::hash::sha256_tagged;
use crate::model::ChatMessage;
use crate::parse::MAX_EVIDENCE_CHARS;
use crate::rubric::Rubric;
use crate::trajectory::cap;
use minijinja::{Environment, context};
use serde::Serialize;
use std::sync::LazyLock;

/// Diffs longer than this are cut to a fair share per file (with markers), so one huge
/// change can crowd out neither the rubric nor the other files; see [`crate::diff_budget`].
pub const MAX_DIFF_CHARS: usize = 60_000;
const NONCE_PLACEHOLDER: &str = "{NONCE}";

static TEMPLATES: LazyLock<Environment<'static>> = LazyLock::new(|| {
    let mut env = Environment::new();
    env.set_trim_blocks(true);
    env.set_lstrip_blocks(true);
    for (name, src) in [
        ("system.md.j2", include_str!("../templates/system.md.j2")),
        ("single.md.j2", include_str!("../templates/single.md.j2")),
        (
            "pairwise_system.md.j2",
            include_str!("../templates/pairwise_system.md.j2"),
        ),
        (
            "pairwise.md.j2",
            include_str!("../templates/pairwise.md.j2"),
        ),
        ("retry.md.j2", include_str!("../templates/retry.md.j2")),
    ] {
        // Templates are compiled into the binary and covered by snapshot tests.
        env.add_template(name, src)
            .unwrap_or_else(|e| panic!("template {name}: {e}"));
    }
    env
});

/// A rendered conversation, ready for [`crate::JudgeModel::complete`].
#[derive(Debug, Clone, PartialEq)]
pub struct Prompt {
    pub messages: Vec<ChatMessage>,
    pub nonce: String,
    /// `sha256:<hex>` of the messages with the nonce replaced by `{NONCE}`.
    pub hash: String,
}

/// One side of what a judge sees about a trial.
#[derive(Debug, Clone, Serialize)]
pub struct Candidate {
    pub diff: String,
    pub trajectory: String,
    /// Protected paths the diff touched, as the harness recorded them (the trial's
    /// `tamper_flags`): evidence for the `tests_tampered` veto. The paths are the agent's
    /// file names, so they are shown JSON-quoted, capped in number and length.
    pub tamper_flags: Vec<String>,
    /// The diff as the harness recorded it, before [`MAX_DIFF_CHARS`]: a judge with a small
    /// window gets its own cut of it ([`crate::fit`]).
    #[serde(skip)]
    source_diff: String,
}

/// At most this many tamper flags, each at most [`MAX_FLAG_CHARS`], reach a prompt.
pub const MAX_TAMPER_FLAGS: usize = 20;
pub const MAX_FLAG_CHARS: usize = 200;

impl Candidate {
    pub fn new(diff: &str, trajectory: &str) -> Candidate {
        let diff_source = diff;
        let diff = if diff.trim().is_empty() {
            "(empty diff: the agent changed nothing)".to_owned()
        } else {
            crate::diff_budget::budget_diff(diff, MAX_DIFF_CHARS)
        };
        Candidate {
            diff,
            trajectory: trajectory.to_owned(),
            tamper_flags: Vec::new(),
            source_diff: diff_source.to_owned(),
        }
    }

    /// The diff before any cut (empty when the agent changed nothing).
    pub fn source_diff(&self) -> &str {
        &self.source_diff
    }

    /// Adds the harness's tamper flags (see [`Candidate::tamper_flags`]).
    pub fn with_tamper_flags(mut self, flags: &[String]) -> Candidate {
        let shown = flags
            .iter()
            .take(MAX_TAMPER_FLAGS)
            .map(|f| serde_json::to_string(&cap(f, MAX_FLAG_CHARS)).unwrap_or_default());
        self.tamper_flags = shown.collect();
        if flags.len() > MAX_TAMPER_FLAGS {
            self.tamper_flags
                .push(format!("(and {} more)", flags.len() - MAX_TAMPER_FLAGS));
        }
        self
    }
}

/// A fresh 128-bit random nonce (hex) that occurs in none of `untrusted`.
pub fn fresh_nonce(untrusted: &[&str]) -> String {
    loop {
        let n: u128 = rand::random();
        let nonce = format!("{n:032x}");
        if !untrusted.iter().any(|u| u.contains(&nonce)) {
            return nonce;
        }
    }
}

fn render(name: &str, ctx: minijinja::Value) -> Result<String, JudgeError> {
    let tmpl = TEMPLATES
        .get_template(name)
        .map_err(|e| JudgeError::Template {
            template: name.into(),
            message: e.to_string(),
        })?;
    tmpl.render(ctx).map_err(|e| JudgeError::Template {
        template: name.into(),
        message: format!("{e:#}"),
    })
}

fn finish(messages: Vec<ChatMessage>, nonce: String) -> Prompt {
    let canonical: Vec<(String, String)> = messages
        .iter()
        .map(|m| {
            (
                format!("{:?}", m.role),
                m.content.replace(&nonce, NONCE_PLACEHOLDER),
            )
        })
        .collect();
    let bytes = serde_json::to_vec(&canonical).unwrap_or_default();
    Prompt {
        messages,
        nonce,
        hash: sha256_tagged(&bytes),
    }
}

/// The answer-format example, built from the rubric so every id appears exactly once.
fn single_example(rubric: &Rubric) -> String {
    let scores: Vec<String> = rubric
        .dimensions
        .iter()
        .map(|d| format!(r#"{{"dimension":"{}","score":3,"evidence":"…"}}"#, d.id))
        .collect();
    let vetoes: Vec<String> = rubric
        .vetoes
        .iter()
        .map(|v| format!(r#"{{"id":"{}","violated":false,"evidence":"…"}}"#, v.id))
        .collect();
    format!(
        "{{\"scores\":[{}],\n \"vetoes\":[{}]}}",
        scores.join(",\n  "),
        vetoes.join(",\n  ")
    )
}

/// The prompt for grading one trial. `nonce` is for tests; pass `None` in production.
pub fn single_prompt(
    rubric: &Rubric,
    instruction: &str,
    candidate: &Candidate,
    nonce: Option<String>,
) -> Result<Prompt, JudgeError> {
    let nonce = nonce.unwrap_or_else(|| fresh_nonce(&[&candidate.diff, &candidate.trajectory]));
    let system = render(
        "system.md.j2",
        context! { rubric => rubric, nonce => &nonce, max_evidence => MAX_EVIDENCE_CHARS, example => single_example(rubric) },
    )?;
    let user = render(
        "single.md.j2",
        context! { instruction => instruction.trim(), diff => &candidate.diff, trajectory => &candidate.trajectory, tamper_flags => &candidate.tamper_flags, nonce => &nonce },
    )?;
    Ok(finish(
        vec![ChatMessage::system(system), ChatMessage::user(user)],
        nonce,
    ))
}

/// The prompt for comparing two trials shown as A and B.
pub fn pairwise_prompt(
    rubric: &Rubric,
    instruction: &str,
    a: &Candidate,
    b: &Candidate,
    nonce: Option<String>,
) -> Result<Prompt, JudgeError> {
    let nonce =
        nonce.unwrap_or_else(|| fresh_nonce(&[&a.diff, &a.trajectory, &b.diff, &b.trajectory]));
    let system = render(
        "pairwise_system.md.j2",
        context! { rubric => rubric, nonce => &nonce, max_evidence => MAX_EVIDENCE_CHARS },
    )?;
    let user = render(
        "pairwise.md.j2",
        context! { instruction => instruction.trim(), a => a, b => b, nonce => &nonce },
    )?;
    Ok(finish(
        vec![ChatMessage::system(system), ChatMessage::user(user)],
        nonce,
    ))
}

/// The follow-up sent after a rejected answer, quoting the validation error.
pub fn retry_message(error: &str) -> Result<ChatMessage, JudgeError> {
    Ok(ChatMessage::user(render(
        "retry.md.j2",
        context! { error => error },
    )?))
}
