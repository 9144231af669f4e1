//! One trial's transcript played back as that trial's cassette, and the first place a
//! replayed trial's requests left the ones recorded (`nab regrade`).
//!
//! A run's shared cassette (`record:`) keys answers by request across every trial, which is
//! right for a deterministic model and wrong for a live one: two trials of one task send the
//! same first request and got different answers. Re-grading therefore replays each trial
//! from its own transcript, in the order it was recorded.

use crate::canonical::{canonical_request, describe_difference, first_difference, matching_form};
use crate::cassette::{RecordedResponse, store_response};
use crate::error::ProviderError;
use crate::normalize::Normalizer;
use crate::request_key;
use nab_protocol::{Omitted, TranscriptLine};
use std::collections::HashMap;
use std::path::Path;

/// Why a trial's transcript cannot stand in for its model: the regrade would have to make
/// up an answer.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum Unreplayable {
    #[error(
        "model call {seq} is not on record whole ({reason}: its {part} was left out of the transcript)"
    )]
    Omitted {
        seq: u64,
        part: &'static str,
        reason: String,
    },
    #[error("model call {seq} failed upstream ({error}); a provider's failure cannot be replayed")]
    Failed { seq: u64, error: String },
}

/// One trial's model answers, in the order they were given, keyed as `replay:` keys them.
#[derive(Debug)]
pub struct TrialAnswers {
    answers: Vec<Answer>,
}

#[derive(Debug)]
struct Answer {
    key: String,
    request: serde_json::Value,
    /// How many earlier answers in this trial went to the same key.
    occurrence: usize,
    body: serde_json::Value,
    status: u16,
}

impl TrialAnswers {
    /// The answers of `lines` (one trial's transcript, in order) under `normalizer`. Lines
    /// the gateway refused itself (a budget, a request it would not forward) are left out:
    /// the replayed gateway refuses them again on its own.
    pub fn from_transcript(
        lines: &[TranscriptLine],
        normalizer: &Normalizer,
    ) -> Result<TrialAnswers, Unreplayable> {
        let mut asked: HashMap<String, usize> = HashMap::new();
        let mut answers = Vec::new();
        for line in lines {
            if line.refused.is_some() || line.budget_exceeded.is_some() {
                continue;
            }
            if let Some(o) = Omitted::of(&line.request) {
                return Err(omitted(line.seq, "request", o));
            }
            let Some(response) = &line.response else {
                return Err(Unreplayable::Failed {
                    seq: line.seq,
                    error: line.error.clone().unwrap_or_else(|| "no answer".into()),
                });
            };
            if let Some(o) = Omitted::of(response) {
                return Err(omitted(line.seq, "response", o));
            }
            let key = request_key(&line.request, normalizer);
            let n = asked.entry(key.clone()).or_insert(0);
            answers.push(Answer {
                key,
                request: canonical_request(&line.request),
                occurrence: *n,
                body: response.clone(),
                status: line.status.unwrap_or(200),
            });
            *n += 1;
        }
        Ok(TrialAnswers { answers })
    }

    /// How many answers there are.
    pub fn len(&self) -> usize {
        self.answers.len()
    }

    /// Whether the trial got no answer at all.
    pub fn is_empty(&self) -> bool {
        self.answers.is_empty()
    }

    /// Writes them as a cassette into `dir` (created), for `replay:<dir>`.
    pub fn write(&self, dir: &Path) -> Result<(), ProviderError> {
        std::fs::create_dir_all(dir).map_err(|e| ProviderError::Cassette {
            path: dir.to_owned(),
            message: e.to_string(),
        })?;
        for a in &self.answers {
            let response = RecordedResponse::Json {
                status: a.status,
                body: a.body.clone(),
            };
            store_response(dir, &a.key, &a.request, a.occurrence, response)?;
        }
        Ok(())
    }
}

fn omitted(seq: u64, part: &'static str, o: Omitted) -> Unreplayable {
    Unreplayable::Omitted {
        seq,
        part,
        reason: o.reason,
    }
}

/// Where the replayed trial's requests first left the recorded ones, in words: the call's
/// number and the first difference after normalization, or a call one side made and the
/// other did not. `None` when every request matches.
pub fn first_divergence(
    recorded: &[TranscriptLine],
    replayed: &[TranscriptLine],
    normalizer: &Normalizer,
) -> Option<String> {
    let calls = |lines: &[TranscriptLine]| -> Vec<serde_json::Value> {
        lines
            .iter()
            .filter(|l| l.refused.is_none())
            .map(|l| matching_form(&l.request, normalizer))
            .collect()
    };
    let (a, b) = (calls(recorded), calls(replayed));
    for (i, (r, p)) in a.iter().zip(&b).enumerate() {
        if r != p {
            let what = first_difference(r, p)
                .map(|d| describe_difference(&d))
                .unwrap_or_default();
            return Some(format!(
                "model call {i} differs from the recorded one:\n{what}"
            ));
        }
    }
    match a.len().cmp(&b.len()) {
        std::cmp::Ordering::Equal => None,
        std::cmp::Ordering::Greater => Some(format!(
            "the replayed trial made {} model call(s), the recorded one {}: it stopped before call {}",
            b.len(),
            a.len(),
            b.len()
        )),
        std::cmp::Ordering::Less => Some(format!(
            "the replayed trial made {} model call(s), the recorded one {}: call {} was never recorded",
            b.len(),
            a.len(),
            a.len()
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::providers::ReplayProvider;
    use crate::{Provider, ProviderResponse};
    use serde_json::{Value, json};

    fn line(seq: u64, request: Value, answer: &str) -> TranscriptLine {
        TranscriptLine {
            v: 1,
            ts: "2026-12-06T00:00:00.000Z".into(),
            seq,
            provider: "openai:m@http://x".into(),
            stream: false,
            api: None,
            request,
            response: Some(json!({
                "object": "chat.completion",
                "choices": [{"index": 0, "message": {"role": "assistant", "content": answer}, "finish_reason": "stop"}],
                "usage": {"prompt_tokens": 3, "completion_tokens": 1, "total_tokens": 4}
            })),
            usage: None,
            latency_ms: 1,
            status: Some(200),
            retries: 0,
            error: None,
            error_code: None,
            budget_exceeded: None,
            replay_drift: None,
            refused: None,
        }
    }

    fn ask(text: &str) -> Value {
        json!({"model": "m", "messages": [{"role": "user", "content": text}]})
    }

    fn answer_of(r: ProviderResponse) -> String {
        match r {
            ProviderResponse::Json { body, .. } => body["choices"][0]["message"]["content"]
                .as_str()
                .unwrap()
                .to_owned(),
            ProviderResponse::Stream { .. } => panic!("asked without streaming"),
        }
    }

    /// The same request asked twice in one trial got two answers: the trial's cassette
    /// gives them back in that order, as the live model gave them.
    #[tokio::test]
    async fn a_trial_replays_its_own_answers_in_order() {
        let dir = tempfile::tempdir().unwrap();
        let lines = [
            line(0, ask("hi"), "first"),
            line(1, ask("hi"), "second"),
            line(2, ask("bye"), "third"),
        ];
        let answers = TrialAnswers::from_transcript(&lines, &Normalizer::default()).unwrap();
        assert_eq!(answers.len(), 3);
        answers.write(dir.path()).unwrap();
        let replay = ReplayProvider::open(dir.path().to_owned(), Normalizer::default()).unwrap();
        assert_eq!(answer_of(replay.send(&ask("hi")).await.unwrap()), "first");
        assert_eq!(answer_of(replay.send(&ask("bye")).await.unwrap()), "third");
        assert_eq!(answer_of(replay.send(&ask("hi")).await.unwrap()), "second");
        assert!(replay.send(&ask("other")).await.is_err());
    }

    #[test]
    fn a_call_not_on_record_whole_makes_the_trial_unreplayable() {
        let mut cut = line(1, ask("b"), "x");
        cut.response = Some(
            Omitted {
                reason: "line_cap".into(),
                bytes: 9,
                sha256: None,
            }
            .to_value(),
        );
        let lines = [line(0, ask("a"), "ok"), cut];
        let why = TrialAnswers::from_transcript(&lines, &Normalizer::default()).unwrap_err();
        assert!(why.to_string().contains("model call 1"), "{why}");
        assert!(why.to_string().contains("line_cap"), "{why}");

        let mut failed = line(0, ask("a"), "x");
        failed.response = None;
        failed.error = Some("HTTP 500".into());
        let why = TrialAnswers::from_transcript(&[failed], &Normalizer::default()).unwrap_err();
        assert!(matches!(why, Unreplayable::Failed { seq: 0, .. }), "{why}");
    }

    #[test]
    fn the_first_divergence_names_the_call_and_the_difference() {
        let n = Normalizer::default();
        let recorded = [line(0, ask("a"), "x"), line(1, ask("b"), "y")];
        assert_eq!(first_divergence(&recorded, &recorded, &n), None);
        let replayed = [line(0, ask("a"), "x"), line(1, ask("c"), "y")];
        let d = first_divergence(&recorded, &replayed, &n).unwrap();
        assert!(d.starts_with("model call 1 differs"), "{d}");
        let d = first_divergence(&recorded, &recorded[..1], &n).unwrap();
        assert!(d.contains("stopped before call 1"), "{d}");
    }
}
