//! Asking a judge: prompt → answer → strict validation → (retry with the error, at most
//! twice) → score. A rejected answer is never scored; after the last retry the verdict is
//! a `judge_error` with the raw output kept. A model that cannot be reached is a
//! `model_error` (infrastructure), never confused with a bad answer.

use crate::answer_schema::single_schema;
use crate::error::JudgeError;
use crate::fit::fitted_single_prompt;
use crate::model::{ChatMessage, JudgeModel, ModelError};
use crate::parse::{Rejection, parse_single};
use crate::prompt::{Candidate, Prompt, retry_message};
use crate::rubric::Rubric;
use crate::score::score;
use crate::window::MAX_RETRIES;
use nab_protocol::JudgeRecord;
use nab_protocol::Usage;
use std::collections::BTreeMap;

/// One answer the judge gave and, if it was rejected, why.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Attempt {
    pub raw: String,
    pub rejection: Option<String>,
}

/// The record for `results.jsonl` plus every attempt (for audits and the report).
#[derive(Debug, Clone, PartialEq)]
pub struct Grading {
    pub record: JudgeRecord,
    pub attempts: Vec<Attempt>,
}

#[derive(Debug)]
pub(crate) enum Failure {
    Rejected(Rejection),
    Model(ModelError),
}

pub(crate) struct Asked<T> {
    pub result: Result<T, Failure>,
    pub attempts: Vec<Attempt>,
    pub retries: u32,
    pub usage: Usage,
    /// The last thing the model said (empty if it never answered).
    pub last_raw: String,
}

/// Sends `prompt`, validates with `validate`, and retries a rejected answer with the
/// rejection shown, at most [`MAX_RETRIES`] times.
pub(crate) async fn ask_validated<T>(
    model: &dyn JudgeModel,
    prompt: &Prompt,
    answer_schema: &serde_json::Value,
    validate: impl Fn(&str) -> Result<T, Rejection>,
) -> Result<Asked<T>, JudgeError> {
    let mut messages: Vec<ChatMessage> = prompt.messages.clone();
    let mut asked = Asked {
        result: Err(Failure::Model(ModelError("not asked".into()))),
        attempts: Vec::new(),
        retries: 0,
        usage: Usage::default(),
        last_raw: String::new(),
    };
    loop {
        let reply = match model.complete_shaped(&messages, answer_schema).await {
            Ok(r) => r,
            Err(e) => {
                asked.result = Err(Failure::Model(e));
                return Ok(asked);
            }
        };
        asked.usage += reply.usage;
        asked.last_raw = reply.text.clone();
        match validate(&reply.text) {
            Ok(v) => {
                asked.attempts.push(Attempt {
                    raw: reply.text,
                    rejection: None,
                });
                asked.result = Ok(v);
                return Ok(asked);
            }
            Err(rejection) => {
                asked.attempts.push(Attempt {
                    raw: reply.text.clone(),
                    rejection: Some(rejection.message.clone()),
                });
                if asked.retries == MAX_RETRIES {
                    asked.result = Err(Failure::Rejected(rejection));
                    return Ok(asked);
                }
                asked.retries += 1;
                tracing::debug!(judge = %model.id(), retry = asked.retries, reason = %rejection, "judge answer rejected; retrying");
                messages.push(ChatMessage::assistant(reply.text));
                messages.push(retry_message(&rejection.message)?);
            }
        }
    }
}

/// Grades one trial with one judge.
pub async fn grade(
    model: &dyn JudgeModel,
    rubric: &Rubric,
    instruction: &str,
    candidate: &Candidate,
) -> Result<Grading, JudgeError> {
    let prompt = fitted_single_prompt(rubric, instruction, candidate, model.window())?;
    grade_with_prompt(model, rubric, &prompt).await
}

/// Grades with an already-built prompt (tests use a fixed nonce through this).
pub async fn grade_with_prompt(
    model: &dyn JudgeModel,
    rubric: &Rubric,
    prompt: &Prompt,
) -> Result<Grading, JudgeError> {
    let schema = single_schema(rubric);
    let asked = ask_validated(model, prompt, &schema, |raw| parse_single(raw, rubric)).await?;
    let mut record = JudgeRecord {
        judge_model: model.id(),
        rubric_id: rubric.id.clone(),
        rubric_hash: rubric.hash.clone(),
        prompt_hash: prompt.hash.clone(),
        weighted_score: None,
        scores: Vec::new(),
        vetoes: Vec::new(),
        vetoed: false,
        gate_passed: None,
        error: None,
        retries: asked.retries,
        raw_output: asked.last_raw,
        input_tokens: asked.usage.prompt_tokens,
        output_tokens: asked.usage.completion_tokens,
        // Every attempt's tokens (retries after a malformed answer included) were paid for.
        cost_usd: model.price_usd(&asked.usage),
    };
    match asked.result {
        Ok(answer) => {
            let values: BTreeMap<String, f64> = answer
                .scores
                .iter()
                .map(|s| (s.dimension.clone(), f64::from(s.score)))
                .collect();
            let violated: Vec<String> = answer
                .vetoes
                .iter()
                .filter(|v| v.violated)
                .map(|v| v.id.clone())
                .collect();
            let scored = score(rubric, &values, &violated);
            record.weighted_score = Some(scored.weighted_score);
            record.vetoed = scored.vetoed;
            record.gate_passed = Some(scored.gate_passed);
            record.scores = answer.scores;
            record.vetoes = answer.vetoes;
        }
        Err(Failure::Rejected(r)) => {
            let reasons: Vec<&str> = asked
                .attempts
                .iter()
                .filter_map(|a| a.rejection.as_deref())
                .collect();
            record.error = Some(format!(
                "judge_error: {} (after {} retries; every rejection: {})",
                r.message,
                asked.retries,
                reasons.join(" | ")
            ));
        }
        Err(Failure::Model(e)) => record.error = Some(format!("model_error: {e}")),
    }
    Ok(Grading {
        record,
        attempts: asked.attempts,
    })
}

/// Whether a record is a usable verdict (not a judge or model error).
pub fn is_scored(record: &JudgeRecord) -> bool {
    record.error.is_none() && record.weighted_score.is_some()
}
