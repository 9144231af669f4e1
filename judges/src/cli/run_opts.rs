//! `--judge` / `--rubric` for `nab run`, and the grader the runner calls per trial.

use super::load_rubric;
use crate::error::JudgeError;
use crate::grade::grade;
use crate::model::{JudgeModel, ModelFactory};
use crate::prompt::Candidate;
use crate::rubric::Rubric;
use crate::trajectory::TrajectorySummary;
use anyhow::Context;
use nab_protocol::events::Event;
use nab_protocol::transcript::TranscriptLine;
use nab_protocol::trial::JudgeRecord;
use std::path::PathBuf;

#[derive(clap::Args, Debug, Clone, Default, PartialEq)]
pub struct JudgeOpts {
    /// Grade each trial with this judge model (provider spec, e.g. `openai:gpt-4.1`,
    /// `replay:cassette.jsonl`). Repeat for several judges; their scores are combined by median.
    #[arg(long = "judge", value_name = "SPEC")]
    pub judges: Vec<String>,
    /// Rubric YAML file (default: the shipped code-quality rubric).
    #[arg(long, value_name = "FILE")]
    pub rubric: Option<PathBuf>,
}

/// One rubric and the judge models, built once per run.
pub struct TrialGrader {
    pub rubric: Rubric,
    pub models: Vec<Box<dyn JudgeModel>>,
}

impl TrialGrader {
    /// None when no `--judge` was given.
    pub fn from_opts(
        opts: &JudgeOpts,
        factory: ModelFactory<'_>,
    ) -> anyhow::Result<Option<TrialGrader>> {
        if opts.judges.is_empty() {
            if opts.rubric.is_some() {
                anyhow::bail!(
                    "--rubric was given without --judge; add --judge SPEC to grade trials"
                );
            }
            return Ok(None);
        }
        let rubric = load_rubric(opts.rubric.as_deref())?;
        let models = opts
            .judges
            .iter()
            .map(|spec| factory(spec).with_context(|| format!("--judge {spec}")))
            .collect::<anyhow::Result<Vec<_>>>()?;
        Ok(Some(TrialGrader { rubric, models }))
    }

    /// Grades one trial with every judge. Judge and model errors are inside the records
    /// (`error`); `Err` only for a defect such as a broken template.
    pub async fn grade_trial(
        &self,
        instruction: &str,
        diff: &str,
        events: &[Event],
        transcript: &[TranscriptLine],
        tamper_flags: &[String],
    ) -> Result<Vec<JudgeRecord>, JudgeError> {
        let trajectory = TrajectorySummary::from_trial(events, transcript).render();
        let candidate = Candidate::new(diff, &trajectory).with_tamper_flags(tamper_flags);
        let mut records = Vec::with_capacity(self.models.len());
        for model in &self.models {
            records.push(
                grade(model.as_ref(), &self.rubric, instruction, &candidate)
                    .await?
                    .record,
            );
        }
        Ok(records)
    }
}
